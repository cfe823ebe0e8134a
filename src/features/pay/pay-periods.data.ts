import { organizations, payPeriodSettings, payPeriods, shifts, staffMembers, timesheetApprovals } from "@db/schema";
import { and, eq, gte, isNull, lte, sql } from "drizzle-orm";
import type { Database, Statement } from "@/data/client";
import { inJsonList } from "@/data/json-list";
import { rawAll, rawRun } from "@/data/raw-statement";
import { whenNull } from "@/data/write/constraint-problems";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import {
  defaultPayPeriodSettings,
  isPayPeriodId,
  type PayPeriodSettings,
  type PayPeriodSpan,
  payPeriodContaining,
  payPeriodSettingsProblems,
  payPeriodsOverlapping,
} from "@/domain/pay-periods";
import type { Principal } from "@/domain/permissions";
import { iso, isoOrNull } from "@/platform/schemas/time";
import { conflict, invalidField, notFound, validationFailed } from "@/problems/problem";

type PeriodRow = typeof payPeriods.$inferSelect;

/** The settings in force: the stored row, or the default from the organization's creation week (revision 0). */
export interface SettingsRead extends PayPeriodSettings {
  revision: number;
  updatedAt: Date;
}

export const actorOf = (principal: Principal) => principal.staffMemberId ?? `partner:${principal.partnerId}`;

export const settingsChanged = () =>
  conflict("PAY_PERIOD_CHANGED", "The pay period settings changed meanwhile: nothing was written. Read the periods again and retry.");

export const periodClosed = (id: string) =>
  conflict("PAY_PERIOD_CLOSED", `The pay period ${id} is closed: reopen it before changing its approvals or closing it again.`);

export const openShiftInPeriod = (employeeIds: string[]) =>
  conflict("OPEN_SHIFT_IN_PERIOD", "Staff members have a shift still open in the period: clock them out first.", { employeeIds });

const settingsStatement = (db: Database, organizationId: string) =>
  db
    .select({
      createdAt: organizations.createdAt,
      frequency: payPeriodSettings.frequency,
      anchorDate: payPeriodSettings.anchorDate,
      revision: payPeriodSettings.revision,
      updatedAt: payPeriodSettings.updatedAt,
    })
    .from(organizations)
    .leftJoin(payPeriodSettings, eq(payPeriodSettings.organizationId, organizations.id))
    .where(eq(organizations.id, organizationId));

function settingsOf(rows: Awaited<ReturnType<typeof settingsStatement>>): SettingsRead {
  const row = rows[0];
  if (!row) throw notFound("Organization");
  if (row.frequency && row.anchorDate && row.updatedAt) {
    return {
      frequency: row.frequency as SettingsRead["frequency"],
      anchorDate: row.anchorDate,
      revision: row.revision ?? 0,
      updatedAt: row.updatedAt,
    };
  }
  return { ...defaultPayPeriodSettings(row.createdAt.toISOString().slice(0, 10)), revision: 0, updatedAt: row.createdAt };
}

export const settingsWire = (settings: SettingsRead) => ({
  frequency: settings.frequency,
  anchorDate: settings.anchorDate,
  updatedAt: iso(settings.updatedAt),
});

export const readSettings = async (db: Database, organizationId: string) => settingsOf(await settingsStatement(db, organizationId));

/**
 * Keeps the settings as a write read them, in that write's batch: the row is written (the default made explicit)
 * with its revision counted up, and its NOT NULL frequency turns NULL when the settings changed since the read.
 *   pay_period_settings.frequency NULL → the settings changed meanwhile (PAY_PERIOD_CHANGED)
 */
export const keepSettings = (db: Database, organizationId: string, read: SettingsRead): Statement =>
  db
    .insert(payPeriodSettings)
    .values({ organizationId, frequency: read.frequency, anchorDate: read.anchorDate, revision: 1, updatedAt: read.updatedAt })
    .onConflictDoUpdate({
      target: payPeriodSettings.organizationId,
      set: {
        revision: sql`${payPeriodSettings.revision} + 1`,
        frequency: sql`CASE WHEN ${payPeriodSettings.frequency} = ${read.frequency}
          AND ${payPeriodSettings.anchorDate} = ${read.anchorDate} THEN ${payPeriodSettings.frequency} END`,
      },
    });

export const keepSettingsProblem = whenNull(payPeriodSettings.frequency, settingsChanged);

/** The period a path names, or 404 when no period starts on that date under the settings. */
export function spanOf(settings: PayPeriodSettings, periodId: string): PayPeriodSpan {
  if (!isPayPeriodId(settings, periodId)) throw notFound("Pay period");
  return payPeriodContaining(settings, periodId);
}

export const periodRowStatement = (db: Database, organizationId: string, startDate: string) =>
  db
    .select()
    .from(payPeriods)
    .where(and(eq(payPeriods.organizationId, organizationId), eq(payPeriods.startDate, startDate)));

export const approvalsStatement = (db: Database, organizationId: string, startDate: string) =>
  db
    .select()
    .from(timesheetApprovals)
    .where(and(eq(timesheetApprovals.organizationId, organizationId), eq(timesheetApprovals.periodStartDate, startDate)));

/** Staff members with a live shift dated in the span (open ones too), with whether one is still open. */
const workersStatement = (db: Database, organizationId: string, span: PayPeriodSpan) =>
  db
    .select({ employeeId: shifts.employeeId, open: sql<number>`max(${shifts.endAt} IS NULL)` })
    .from(shifts)
    .where(
      and(
        eq(shifts.organizationId, organizationId),
        gte(shifts.businessDate, span.startDate),
        lte(shifts.businessDate, span.endDate),
        isNull(shifts.deletedAt),
      ),
    )
    .groupBy(shifts.employeeId);

/** The same from shift rows already read (a close reads the period's shifts anyway): no statement of its own. */
export function workersOf(rows: readonly { employeeId: string; businessDate: string; endAt: Date | null }[], span: PayPeriodSpan) {
  const open = new Map<string, boolean>();
  for (const row of rows) {
    if (row.businessDate < span.startDate || row.businessDate > span.endDate) continue;
    open.set(row.employeeId, (open.get(row.employeeId) ?? false) || row.endAt === null);
  }
  return [...open].map(([employeeId, isOpen]) => ({ employeeId, open: isOpen }));
}

export interface PeriodState {
  settings: SettingsRead;
  span: PayPeriodSpan;
  row: PeriodRow | undefined;
  approvals: (typeof timesheetApprovals.$inferSelect)[];
  workers: { employeeId: string; open: boolean }[];
}

/** A period's settings, stored row, approvals and workers: two round trips (the span depends on the settings). */
export async function readPeriodState(db: Database, organizationId: string, periodId: string): Promise<PeriodState> {
  const settings = await readSettings(db, organizationId);
  const span = spanOf(settings, periodId);
  const [rows, approvals, workers] = await db.batch([
    periodRowStatement(db, organizationId, span.startDate),
    approvalsStatement(db, organizationId, span.startDate),
    workersStatement(db, organizationId, span),
  ]);
  return { settings, span, row: rows[0], approvals, workers: workers.map((w) => ({ employeeId: w.employeeId, open: Boolean(w.open) })) };
}

const STATUS_OPEN = {
  status: "OPEN" as const,
  version: 0,
  closedAt: null,
  closedBy: null,
  snapshotHash: null,
  reopenedAt: null,
  reopenReason: null,
};

const periodFields = (row: PeriodRow | undefined) =>
  row
    ? {
        status: row.status,
        version: row.version,
        closedAt: isoOrNull(row.closedAt),
        closedBy: row.closedBy,
        snapshotHash: row.snapshotHash,
        reopenedAt: isoOrNull(row.reopenedAt),
        reopenReason: row.reopenReason,
      }
    : STATUS_OPEN;

/** The period as the API answers it, with every employee's approval (the detail). */
export function periodDetail(state: Pick<PeriodState, "span" | "row" | "approvals" | "workers">) {
  const approved = new Map(state.approvals.map((a) => [a.employeeId, a]));
  const ids = [...new Set([...state.workers.map((w) => w.employeeId), ...approved.keys()])].sort();
  const employees = ids.map((employeeId) => {
    const approval = approved.get(employeeId);
    return {
      employeeId,
      approved: approval !== undefined,
      approvedAt: approval ? iso(approval.approvedAt) : null,
      approvedBy: approval?.approvedBy ?? null,
    };
  });
  const { id, startDate, endDate } = state.span;
  return {
    id,
    startDate,
    endDate,
    ...periodFields(state.row),
    approvedCount: approved.size,
    employeeCount: employees.length,
    employees,
  };
}

export const periodSummary = (detail: ReturnType<typeof periodDetail>) => {
  const { employees: _, ...summary } = detail;
  return summary;
};

const MAX_LISTED_DAYS = 366;

/** GET …/pay-periods: the periods overlapping the range, counted in one round trip after the settings. */
export async function listPeriods(db: Database, organizationId: string, startDate: string, endDate: string) {
  if (startDate > endDate) throw invalidField("endDate", "must not be before startDate");
  if (Date.parse(endDate) - Date.parse(startDate) >= MAX_LISTED_DAYS * 86_400_000) {
    throw invalidField("endDate", `the range is at most ${MAX_LISTED_DAYS} days`);
  }
  const settings = await readSettings(db, organizationId);
  const spans = payPeriodsOverlapping(settings, startDate, endDate);
  if (spans.length === 0) return [];
  const first = spans[0]!.startDate;
  const last = spans.at(-1)!.endDate;
  const starts = spans.map((s) => s.startDate);
  const [rows, counts] = await db.batch([
    db
      .select()
      .from(payPeriods)
      .where(and(eq(payPeriods.organizationId, organizationId), inJsonList(payPeriods.startDate, starts))),
    // Per period: its workers (shift employees plus approved ones without shifts) and its approvals.
    rawAll<{ startDate: string; workers: number; approved: number }>(
      db,
      sql`
      SELECT p.value ->> '$[0]' AS startDate,
        (SELECT count(DISTINCT employee_id) FROM shifts WHERE organization_id = ${organizationId}
          AND business_date >= p.value ->> '$[0]' AND business_date <= p.value ->> '$[1]' AND deleted_at IS NULL)
        + (SELECT count(*) FROM timesheet_approvals a WHERE a.organization_id = ${organizationId}
          AND a.period_start_date = p.value ->> '$[0]' AND NOT EXISTS (SELECT 1 FROM shifts s WHERE s.employee_id = a.employee_id
            AND s.business_date >= p.value ->> '$[0]' AND s.business_date <= p.value ->> '$[1]' AND s.deleted_at IS NULL)) AS workers,
        (SELECT count(*) FROM timesheet_approvals WHERE organization_id = ${organizationId}
          AND period_start_date = p.value ->> '$[0]') AS approved
      FROM json_each(${JSON.stringify(spans.map((s) => [s.startDate, s.endDate]))}) AS p
      WHERE ${first} <= ${last}`,
    ),
  ]);
  const rowOf = new Map(rows.map((r) => [r.startDate, r]));
  const countOf = new Map((counts as { startDate: string; workers: number; approved: number }[]).map((c) => [c.startDate, c]));
  return spans.map((span) => ({
    id: span.id,
    startDate: span.startDate,
    endDate: span.endDate,
    ...periodFields(rowOf.get(span.startDate)),
    approvedCount: countOf.get(span.startDate)?.approved ?? 0,
    employeeCount: countOf.get(span.startDate)?.workers ?? 0,
  }));
}

/**
 * An approval row per named employee, in one statement whatever their number (the ids as one JSON parameter),
 * guarded in the statement itself:
 *   timesheet_approvals.period_end_date NULL → the period is closed (PAY_PERIOD_CLOSED)
 *   timesheet_approvals.employee_id NULL     → the employee has a shift still open in it (OPEN_SHIFT_IN_PERIOD)
 * An employee already approved keeps their first approval.
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
    SELECT ${organizationId}, ${span.startDate},
      (SELECT ${span.endDate} WHERE NOT EXISTS (SELECT 1 FROM pay_periods
        WHERE organization_id = ${organizationId} AND start_date = ${span.startDate} AND status = 'CLOSED')),
      (SELECT e.value WHERE NOT EXISTS (SELECT 1 FROM shifts WHERE employee_id = e.value AND end_at IS NULL
        AND deleted_at IS NULL AND business_date >= ${span.startDate} AND business_date <= ${span.endDate})),
      ${at.getTime()}, ${by}
    FROM json_each(${JSON.stringify(employeeIds)}) AS e WHERE true
    ON CONFLICT DO NOTHING`,
  );

export const approvalProblems = (span: PayPeriodSpan, employeeIds: string[]) => [
  whenNull(timesheetApprovals.periodEndDate, () => periodClosed(span.id)),
  whenNull(timesheetApprovals.employeeId, () => openShiftInPeriod(employeeIds)),
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

async function requireStaff(db: Database, organizationId: string, ids: readonly string[]) {
  const found = await db
    .select({ id: staffMembers.id })
    .from(staffMembers)
    .where(and(eq(staffMembers.organizationId, organizationId), inJsonList(staffMembers.id, ids)));
  const known = new Set(found.map((s) => s.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length) throw invalidField("employeeIds", `no staff member with these ids in this organization: ${unknown.join(", ")}`);
}

/** POST …/approvals: approves the named timesheets (a repeat is a no-op) and answers the period. */
export async function approveTimesheets(writer: Writer, organizationId: string, periodId: string, employeeIds: string[]) {
  const { db } = writer;
  const ids = [...new Set(employeeIds)];
  const state = await readPeriodState(db, organizationId, periodId);
  if (state.row?.status === "CLOSED") throw periodClosed(state.span.id);
  await requireStaff(db, organizationId, ids);
  const stillOpen = state.workers.filter((w) => w.open && ids.includes(w.employeeId)).map((w) => w.employeeId);
  if (stillOpen.length) throw openShiftInPeriod(stillOpen);
  const at = new Date();
  const by = actorOf(writer.principal);
  await guardedBatch(
    writer,
    [keepSettings(db, organizationId, state.settings), insertApprovals(db, organizationId, state.span, ids, by, at)],
    [keepSettingsProblem, ...approvalProblems(state.span, ids)],
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
  const at = new Date();
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

/** Periods a settings change must not move: every one closed at least once, and every one holding approvals. */
export async function patchSettings(writer: Writer, organizationId: string, body: { frequency?: string; anchorDate?: string }) {
  const { db } = writer;
  const [settingsRows, closed, approved] = await db.batch([
    settingsStatement(db, organizationId),
    db
      .select({ startDate: payPeriods.startDate, endDate: payPeriods.endDate })
      .from(payPeriods)
      .where(and(eq(payPeriods.organizationId, organizationId), sql`${payPeriods.version} > 0`)),
    db
      .selectDistinct({ startDate: timesheetApprovals.periodStartDate, endDate: timesheetApprovals.periodEndDate })
      .from(timesheetApprovals)
      .where(eq(timesheetApprovals.organizationId, organizationId)),
  ]);
  const was = settingsOf(settingsRows);
  const next = { frequency: body.frequency ?? was.frequency, anchorDate: body.anchorDate ?? was.anchorDate };
  const problems = payPeriodSettingsProblems(next);
  if (problems.length) throw validationFailed(problems);
  const settings = next as PayPeriodSettings;
  // Nothing to change: no write and no event.
  if (settings.frequency === was.frequency && settings.anchorDate === was.anchorDate) return settingsWire(was);
  const moved = (spans: { startDate: string; endDate: string }[]) =>
    spans
      .filter((s) => !isPayPeriodId(settings, s.startDate) || payPeriodContaining(settings, s.startDate).endDate !== s.endDate)
      .map((s) => s.startDate);
  const movedClosed = moved(closed);
  if (movedClosed.length) {
    throw conflict("PAY_PERIODS_CLOSED", "The change would move pay periods that have been closed.", { periodIds: movedClosed });
  }
  const movedApproved = moved(approved);
  if (movedApproved.length) {
    throw conflict("TIMESHEET_APPROVED", "The change would move pay periods holding approved timesheets: withdraw them first.", {
      periodIds: movedApproved,
    });
  }
  const now = new Date();
  const written: SettingsRead = { ...settings, revision: was.revision, updatedAt: now };
  await guardedBatch(
    writer,
    [
      db
        .insert(payPeriodSettings)
        .values({ organizationId, ...settings, revision: 0, updatedAt: now })
        .onConflictDoUpdate({
          target: payPeriodSettings.organizationId,
          // Only over the revision read: an approval or close since then fixed periods this check did not see.
          set: {
            frequency: sql`CASE WHEN ${payPeriodSettings.revision} = ${was.revision} THEN excluded.frequency END`,
            anchorDate: sql`excluded.anchor_date`,
            updatedAt: sql`excluded.updated_at`,
          },
        }),
    ],
    [keepSettingsProblem],
    { events: [{ type: "pay_period_settings.updated", organizationId, occurredAt: now, data: settingsWire(written) }] },
  );
  return settingsWire(written);
}
