import { payPeriodSnapshots, shifts, timesheetApprovals } from "@db/schema";
import { and, desc, eq, gte, isNull, lte, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { closeInputStatements, closeInputsOf } from "@/data/pay/pay-inputs.data";
import { rawAll } from "@/data/raw-statement";
import type { Writer } from "@/data/write/guarded-batch";
import { addDays, businessDate, offsetMinutesAt } from "@/domain/local-time";
import { type FrozenDates, frozenDates, periodEnded } from "@/domain/pay-period-freeze";
import type { PayPeriodSpan } from "@/domain/pay-periods";
import { conflict } from "@/problems/problem";
import { notApproved, periodWorkers, refuseOwnApproval } from "./pay-period-approvals.data";
import { readSettings } from "./pay-period-settings.data";
import { approvalsStatement, openShiftInPeriod, periodClosed, periodRowStatement, spanOf, workersStatement } from "./pay-periods.data";

/**
 * Staff members a close's refusal names at most (TIMESHEETS_NOT_APPROVED, OPEN_SHIFT_IN_PERIOD: the first by id), its
 * `employeeCount` counting them all: the refusal of a 50,000-staff close stays a small answer and a small read.
 */
export const LISTED_EMPLOYEES = 100;

export const periodNotEnded = (span: PayPeriodSpan, frozen: FrozenDates | null) =>
  conflict(
    "PAY_PERIOD_NOT_ENDED",
    frozen && span.endDate < frozen.to
      ? `The pay period ${span.id} cannot be closed before ${frozen.to}, the last day of the last workweek overlapping it, has ended.`
      : `The pay period ${span.id} ends on ${span.endDate}: it cannot be closed before that day has ended.`,
    { periodId: span.id },
  );

/** The latest snapshot of a period as stored (packed). */
export const latestSnapshotStatement = (db: Database, organizationId: string, startDate: string) =>
  db
    .select()
    .from(payPeriodSnapshots)
    .where(and(eq(payPeriodSnapshots.organizationId, organizationId), eq(payPeriodSnapshots.periodStartDate, startDate)))
    .orderBy(desc(payPeriodSnapshots.version))
    .limit(1);

/**
 * The dates with an open shift up to 6 days either side of the period (a close freezes at most that far:
 * domain/pay-period-freeze): a few rows whatever the staff. Read through the open shifts' index (at most one a staff
 * member of the database), not the organization's: the `+` keeps SQLite off shifts_organization_business_date, which
 * would read every shift of those weeks.
 */
export const openShiftDates = (db: Database, organizationId: string, span: PayPeriodSpan) =>
  db
    .selectDistinct({ businessDate: shifts.businessDate })
    .from(shifts)
    .where(
      and(
        sql`+${shifts.organizationId} = ${organizationId}`,
        gte(shifts.businessDate, addDays(span.startDate, -6)),
        lte(shifts.businessDate, addDays(span.endDate, 6)),
        isNull(shifts.endAt),
        isNull(shifts.deletedAt),
      ),
    );

/** Rows of a bounded refusal's list: the first LISTED_EMPLOYEES ids, each with the count of them all. */
type Listed = { employeeId: string; total: number };

const listedOf = (rows: readonly Listed[]) => ({ employeeIds: rows.map((r) => r.employeeId), employeeCount: rows[0]?.total ?? 0 });

/** OPEN_SHIFT_IN_PERIOD naming the first staff members with a shift open on a date of [from, to] (the open shifts' index). */
export async function openShiftRefusal(db: Database, organizationId: string, dates: FrozenDates) {
  const rows = await rawAll<Listed>(
    db,
    sql`SELECT o.employee_id AS employeeId, count(*) OVER () AS total
      FROM (SELECT DISTINCT employee_id FROM shifts WHERE +organization_id = ${organizationId}
        AND business_date >= ${dates.from} AND business_date <= ${dates.to} AND end_at IS NULL AND deleted_at IS NULL) AS o
      ORDER BY o.employee_id LIMIT ${LISTED_EMPLOYEES}`,
  );
  const { employeeIds, employeeCount } = listedOf(rows);
  return openShiftInPeriod(employeeIds, employeeCount);
}

/** The period's workers without an approval: the first LISTED_EMPLOYEES by id, each row with their count. */
const unapprovedStatement = (db: Database, organizationId: string, span: PayPeriodSpan) =>
  rawAll<Listed>(
    db,
    sql`SELECT w.employee_id AS employeeId, count(*) OVER () AS total FROM ${periodWorkers(organizationId, span)}
      WHERE ${notApproved(organizationId, span)} ORDER BY w.employee_id LIMIT ${LISTED_EMPLOYEES}`,
  );

/** How many approvals the period has (by the approvals' index: never the period's shifts). */
const approvedCountStatement = (db: Database, organizationId: string, span: PayPeriodSpan) =>
  rawAll<{ approved: number }>(
    db,
    sql`SELECT count(*) AS approved FROM timesheet_approvals WHERE organization_id = ${organizationId}
      AND period_start_date = ${span.startDate}`,
  );

/** The closer's own staff member when they worked the period and their timesheet is not approved (none for a token). */
const unapprovedOwnTimesheet = (db: Database, organizationId: string, span: PayPeriodSpan, caller: string | null) =>
  db
    .select({ employeeId: shifts.employeeId })
    .from(shifts)
    .where(
      and(
        eq(shifts.organizationId, organizationId),
        gte(shifts.businessDate, span.startDate),
        lte(shifts.businessDate, span.endDate),
        isNull(shifts.deletedAt),
        eq(shifts.employeeId, caller ?? ""),
        sql`NOT EXISTS (SELECT 1 FROM ${timesheetApprovals} WHERE ${timesheetApprovals.organizationId} = ${organizationId}
          AND ${timesheetApprovals.periodStartDate} = ${span.startDate} AND ${timesheetApprovals.employeeId} = ${shifts.employeeId})`,
      ),
    )
    .limit(1);

/** What a close checked before computing anything: the period, the rule sets, the fingerprint, the counts. */
export type CloseCheck = Awaited<ReturnType<typeof checkClose>>;

/**
 * How much checkClose reads. "full": what a close computes and commits with — the fingerprint (every shift of the
 * weeks read) and the workers not approved (every worker of the period). "refusals": the refusals only, none of which
 * reads the period's shifts when approveAll (the workers not approved only without it): the 202 of a close job,
 * and its commit, whose batch guards on the plan's fingerprint (which holds the plan's counts) and refuses
 * PAY_PERIOD_CHANGED itself. Its answer's fingerprint is "" and its counts are 0.
 */
export type CheckDepth = "full" | "refusals";

/**
 * The refusals of a close, in their order, each read as a bounded answer whatever the staff (counts and the first
 * LISTED_EMPLOYEES ids, never every worker or approval of the period), in one round trip after the settings (and one
 * more to name the staff members of a shift still open): the period's row and rule sets, the fingerprint, the previous
 * snapshot, the workers not approved, the closer's own timesheet. Throws the close's problem; answers what the close
 * computes and commits with. The in-request close and every step of a close job check with it.
 */
export async function checkClose(
  writer: Writer,
  organizationId: string,
  periodId: string,
  approveAll: boolean,
  now: Date,
  depth: CheckDepth = "full",
) {
  const { db } = writer;
  const settings = await readSettings(db, organizationId);
  const span = spanOf(settings, periodId);
  const today = businessDate(now, offsetMinutesAt(settings.timezone, now));
  if (span.endDate >= today) throw periodNotEnded(span, null);
  const filter = { organizationId, startDate: span.startDate, endDate: span.endDate };
  const full = depth === "full";
  const [sets, organization, periodRows, previousRows, openDates, ownRows, unapprovedRows = [], countRows = []] = await db.batch([
    ...closeInputStatements(db, filter, { fingerprint: full }),
    periodRowStatement(db, organizationId, span.startDate),
    latestSnapshotStatement(db, organizationId, span.startDate),
    openShiftDates(db, organizationId, span),
    unapprovedOwnTimesheet(db, organizationId, span, writer.principal.staffMemberId ?? null),
    ...(full || !approveAll ? [unapprovedStatement(db, organizationId, span)] : []),
    ...(full ? [approvedCountStatement(db, organizationId, span)] : []),
  ]);
  const row = periodRows[0];
  if (row?.status === "CLOSED") throw periodClosed(span.id);
  const inputs = closeInputsOf([sets, organization]);
  const frozen = frozenDates(span, inputs.ruleSets);
  if (!periodEnded(span, frozen, today)) throw periodNotEnded(span, frozen);
  // A shift open on a frozen date could never be clocked out.
  const around = { from: addDays(span.startDate, -6), to: addDays(span.endDate, 6) };
  if (openDates.some((o) => o.businessDate >= frozen.from && o.businessDate <= frozen.to)) {
    const from = frozen.from > around.from ? frozen.from : around.from;
    const to = frozen.to < around.to ? frozen.to : around.to;
    throw await openShiftRefusal(db, organizationId, { from, to });
  }
  const unapproved = listedOf(unapprovedRows as Listed[]);
  if (unapproved.employeeCount && !approveAll) {
    throw conflict("TIMESHEETS_NOT_APPROVED", "Timesheets of the period are not approved: approve them, or close with approveAll.", {
      employeeIds: unapproved.employeeIds,
      employeeCount: unapproved.employeeCount,
    });
  }
  // approveAll approves the closer's own timesheet too: not theirs to approve.
  refuseOwnApproval(
    writer,
    ownRows.map((r) => r.employeeId),
  );
  const approved = (countRows[0] as { approved: number } | undefined)?.approved ?? 0;
  return {
    filter,
    span,
    settings,
    row,
    inputs,
    frozen,
    version: (row?.version ?? 0) + 1,
    previousRow: previousRows[0] ?? null,
    /**
     * The period's approvals and its workers not approved (those the close approves), as read ("full" only); their
     * sum is the closed period's employees (`workers`: what a close job plans its steps by).
     */
    counts: { workers: approved + unapproved.employeeCount, approved, unapproved: unapproved.employeeCount },
  };
}

/** Every approval and worker of the period: the in-request close's answer lists them (at most its few thousand staff). */
export async function readCloseDetail(db: Database, organizationId: string, span: PayPeriodSpan) {
  const [approvals, workers] = await db.batch([
    approvalsStatement(db, organizationId, span.startDate),
    workersStatement(db, organizationId, span),
  ]);
  return { approvals, workers: workers.map((w) => ({ employeeId: w.employeeId, open: Boolean(w.open) })) };
}

export type CloseDetail = Awaited<ReturnType<typeof readCloseDetail>>;
