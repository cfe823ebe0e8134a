import { staffMembers, timesheetApprovals } from "@db/schema";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { organizationNow } from "@/data/clock";
import { inJsonList } from "@/data/json-list";
import { rawRun } from "@/data/raw-statement";
import { guard } from "@/data/write/guard";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import type { PayPeriodSpan } from "@/domain/pay-periods";
import { iso } from "@/platform/schemas/time";
import { forbidden, invalidField, notFound, type ProblemError } from "@/problems/problem";
import { keepSettings, settingsAsRead } from "./pay-period-settings.data";
import { actorOf, openShiftInPeriod, periodClosed, periodDetail, periodRowStatement, readPeriodState } from "./pay-periods.data";

/** timesheet_approvals.period_end_date: the period's end, NULL once the period is closed. */
const periodStillOpen = guard({
  column: timesheetApprovals.periodEndDate,
  problem: (span: PayPeriodSpan) => periodClosed(span.id),
  sql: (organizationId: string, span: PayPeriodSpan) =>
    sql`(SELECT ${span.endDate} WHERE NOT EXISTS (SELECT 1 FROM pay_periods
        WHERE organization_id = ${organizationId} AND start_date = ${span.startDate} AND status = 'CLOSED'))`,
});

/** timesheet_approvals.employee_id: the employee (`e.value` of the ids), NULL while a shift of theirs in the period is open. */
const noOpenShiftInPeriod = guard({
  column: timesheetApprovals.employeeId,
  problem: openShiftInPeriod,
  sql: (span: PayPeriodSpan) =>
    sql`(SELECT e.value WHERE NOT EXISTS (SELECT 1 FROM shifts WHERE employee_id = e.value AND end_at IS NULL
        AND deleted_at IS NULL AND business_date >= ${span.startDate} AND business_date <= ${span.endDate}))`,
});

/**
 * An approval row per named employee, in one statement whatever their number (the ids as one JSON parameter),
 * guarded in the statement itself (the two guards above). An employee already approved keeps their first approval.
 */
export const insertApprovals = (
  db: Database,
  organizationId: string,
  span: PayPeriodSpan,
  employeeIds: readonly string[],
  by: string,
  at: Date,
) =>
  rawRun(
    db,
    sql`INSERT INTO timesheet_approvals
      (organization_id, period_start_date, period_end_date, employee_id, approved_at, approved_by)
    SELECT ${organizationId}, ${span.startDate}, ${periodStillOpen.sql(organizationId, span)}, ${noOpenShiftInPeriod.sql(span)},
      ${at.getTime()}, ${by}
    FROM json_each(${JSON.stringify(employeeIds)}) AS e WHERE true
    ON CONFLICT DO NOTHING`,
  );

export const approvalProblems = (span: PayPeriodSpan, employeeIds: string[]) => [
  periodStillOpen.about(span),
  noOpenShiftInPeriod.about(employeeIds),
];

/** The period's workers (a live shift dated in it, open or not), as a subquery `w` of employee_id. */
export const periodWorkers = (organizationId: string, span: PayPeriodSpan) =>
  sql`(SELECT DISTINCT employee_id FROM shifts WHERE organization_id = ${organizationId}
    AND business_date >= ${span.startDate} AND business_date <= ${span.endDate} AND deleted_at IS NULL) AS w`;

/** A worker `w` without an approval of the period. */
export const notApproved = (organizationId: string, span: PayPeriodSpan) =>
  sql`NOT EXISTS (SELECT 1 FROM timesheet_approvals AS a WHERE a.organization_id = ${organizationId}
    AND a.period_start_date = ${span.startDate} AND a.employee_id = w.employee_id)`;

/**
 * timesheet_approvals.employee_id of a close's approvals: the worker (`w.employee_id`), NULL while a shift of theirs
 * in the period is open. Its problem reads the staff members to name (a bounded read) once it refused.
 */
const noOpenShiftOfWorker = guard({
  column: timesheetApprovals.employeeId,
  problem: (refusal: () => Promise<ProblemError>) => refusal(),
  sql: (span: PayPeriodSpan) =>
    sql`(SELECT w.employee_id WHERE NOT EXISTS (SELECT 1 FROM shifts WHERE employee_id = w.employee_id AND end_at IS NULL
        AND deleted_at IS NULL AND business_date >= ${span.startDate} AND business_date <= ${span.endDate}))`,
});

/**
 * A close's approveAll: an approval row for every worker of the period not approved yet, chosen and written in SQL by
 * one statement whatever their number (no list of ids bound), guarded as insertApprovals.
 */
export const insertWorkersApprovals = (db: Database, organizationId: string, span: PayPeriodSpan, by: string, at: Date) =>
  rawRun(
    db,
    sql`INSERT INTO timesheet_approvals
      (organization_id, period_start_date, period_end_date, employee_id, approved_at, approved_by)
    SELECT ${organizationId}, ${span.startDate}, ${periodStillOpen.sql(organizationId, span)}, ${noOpenShiftOfWorker.sql(span)},
      ${at.getTime()}, ${by}
    FROM ${periodWorkers(organizationId, span)} WHERE ${notApproved(organizationId, span)}
    ON CONFLICT DO NOTHING`,
  );

/** The problems of insertWorkersApprovals; `openShifts` names the staff members of a shift open in the period. */
export const workersApprovalProblems = (span: PayPeriodSpan, openShifts: () => Promise<ProblemError>) => [
  periodStillOpen.about(span),
  noOpenShiftOfWorker.about(openShifts),
];

/** One timesheet.approved per employee this batch approved (not one approved before: their row is older). */
export const approvedEvents = (organizationId: string, span: PayPeriodSpan, employeeIds: readonly string[], by: string, at: Date) =>
  employeeIds.map((employeeId) => ({
    type: "timesheet.approved" as const,
    organizationId,
    occurredAt: at,
    data: {
      periodId: span.id,
      startDate: span.startDate,
      endDate: span.endDate,
      employeeId,
      approved: true,
      approvedAt: iso(at),
      approvedBy: by,
    },
    when: sql`EXISTS (SELECT 1 FROM timesheet_approvals WHERE organization_id = ${organizationId}
      AND period_start_date = ${span.startDate} AND employee_id = ${employeeId} AND approved_at = ${at.getTime()} AND approved_by = ${by})`,
  }));

/**
 * The same timesheet.approved events as `approvedEvents`, in one statement whatever their number (a close approving
 * 10,000 staff stays within D1's queries per invocation): one per approval the batch wrote, by staff member id.
 */
export const approvedRowsEvents = (organizationId: string, span: PayPeriodSpan, by: string, at: Date) => ({
  organizationId,
  occurredAt: at,
  rows: {
    table: staffMembers,
    where: sql`${staffMembers.organizationId} = ${organizationId} AND ${staffMembers.id} IN (SELECT employee_id FROM timesheet_approvals
      WHERE organization_id = ${organizationId} AND period_start_date = ${span.startDate} AND approved_at = ${at.getTime()} AND approved_by = ${by})`,
    typeOf: sql`'timesheet.approved'`,
    snapshot: {
      form: "wire",
      fields: {
        periodId: sql`${span.id}`,
        startDate: sql`${span.startDate}`,
        endDate: sql`${span.endDate}`,
        employeeId: staffMembers.id,
        approved: sql`json('true')`,
        approvedAt: sql`${iso(at)}`,
        approvedBy: sql`${by}`,
      },
    },
  },
});

async function requireStaff(db: Database, organizationId: string, ids: readonly string[]) {
  const found = await db
    .select({ id: staffMembers.id })
    .from(staffMembers)
    .where(and(eq(staffMembers.organizationId, organizationId), inJsonList(staffMembers.id, ids)));
  const known = new Set(found.map((s) => s.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length) throw invalidField("employeeIds", `no staff member with these ids in this organization: ${unknown.join(", ")}`);
}

/** 403 when a staff member's token would approve their own timesheet (an organization token acts for no one). */
export function refuseOwnApproval(writer: Writer, employeeIds: readonly string[]) {
  const caller = writer.principal.staffMemberId;
  if (caller && employeeIds.includes(caller)) {
    throw forbidden("Nobody approves their own timesheet: another manager, or an organization token, approves it.");
  }
}

/** POST …/approvals: approves the named timesheets (a repeat is a no-op) and answers the period. */
export async function approveTimesheets(writer: Writer, organizationId: string, periodId: string, employeeIds: string[]) {
  const { db } = writer;
  const ids = [...new Set(employeeIds)];
  refuseOwnApproval(writer, ids);
  const state = await readPeriodState(db, organizationId, periodId);
  if (state.row?.status === "CLOSED") throw periodClosed(state.span.id);
  await requireStaff(db, organizationId, ids);
  const stillOpen = state.workers.filter((w) => w.open && ids.includes(w.employeeId)).map((w) => w.employeeId);
  if (stillOpen.length) throw openShiftInPeriod(stillOpen);
  const at = await organizationNow({ ...writer, organizationId });
  const by = actorOf(writer.principal);
  await guardedBatch(
    writer,
    [keepSettings(db, organizationId, state.settings), insertApprovals(db, organizationId, state.span, ids, by, at)],
    [settingsAsRead, ...approvalProblems(state.span, ids)],
    { events: approvedEvents(organizationId, state.span, ids, by, at) },
  );
  return periodDetail(await readPeriodState(db, organizationId, periodId));
}

/** DELETE …/approvals/{employeeId}: withdraws one approval while the period is open. */
export async function withdrawApproval(writer: Writer, organizationId: string, periodId: string, employeeId: string) {
  const { db } = writer;
  const state = await readPeriodState(db, organizationId, periodId);
  const [staff] = await db
    .select({ id: staffMembers.id })
    .from(staffMembers)
    .where(and(eq(staffMembers.organizationId, organizationId), eq(staffMembers.id, employeeId)));
  if (!staff) throw notFound("Staff member");
  if (state.row?.status === "CLOSED") throw periodClosed(state.span.id);
  const at = await organizationNow({ ...writer, organizationId });
  const { span } = state;
  const [, after] = await guardedBatch(
    writer,
    [
      db.delete(timesheetApprovals).where(
        and(
          eq(timesheetApprovals.organizationId, organizationId),
          eq(timesheetApprovals.periodStartDate, span.startDate),
          eq(timesheetApprovals.employeeId, employeeId),
          sql`NOT EXISTS (SELECT 1 FROM pay_periods WHERE organization_id = ${organizationId}
            AND start_date = ${span.startDate} AND status = 'CLOSED')`,
        ),
      ),
      periodRowStatement(db, organizationId, span.startDate),
    ],
    [],
    {
      events: [
        {
          type: "timesheet.unapproved",
          organizationId,
          occurredAt: at,
          data: {
            periodId: span.id,
            startDate: span.startDate,
            endDate: span.endDate,
            employeeId,
            approved: false,
            approvedAt: null,
            approvedBy: null,
          },
          // Recorded only when the delete removed an approval (the select after it leaves changes() as it was).
          whenChanged: true,
        },
      ],
    },
  );
  // A close that landed between the read and the delete: the delete's condition kept the approval.
  if (after[0]?.status === "CLOSED") throw periodClosed(span.id);
  return periodDetail(await readPeriodState(db, organizationId, periodId));
}
