import { shifts, timesheetApprovals } from "@db/schema";
import { and, eq, gte, isNull, lte, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { closeInputStatements } from "@/data/pay/pay-inputs.data";
import type { Writer } from "@/data/write/guarded-batch";
import { businessDate, offsetMinutesAt } from "@/domain/local-time";
import { frozenDates, periodEnded } from "@/domain/pay-period-freeze";
import type { PayPeriodSpan } from "@/domain/pay-periods";
import { ruleSetOfRow } from "@/wire/pay-rule-set.schemas";
import { refuseOwnApproval } from "./pay-period-approvals.data";
import { checkClose, openShiftsAround, periodNotEnded } from "./pay-period-close.data";
import { readSettings } from "./pay-period-settings.data";
import { openShiftInPeriod, periodClosed, periodRowStatement, spanOf } from "./pay-periods.data";

/**
 * Whether a close runs within the request: at most `max` staff members with a live shift dated in the period (the
 * workers checkClose reads). Counts no further than `max` + 1 of them, so a large organization's answer costs about
 * `max` shifts read, not its whole period.
 */
export async function closesInRequest(db: Database, organizationId: string, periodId: string, max: number): Promise<boolean> {
  const span = spanOf(await readSettings(db, organizationId), periodId);
  const [row] = await workersUpTo(db, organizationId, span, max + 1);
  return (row?.count ?? 0) <= max;
}

/** How many staff members worked the span, counted up to `limit`. */
export function workersUpTo(db: Database, organizationId: string, span: PayPeriodSpan, limit: number) {
  // `+` on the column: DISTINCT by a temporary B-tree as the period's shifts come (date order), so LIMIT stops the read.
  const workers = db
    .selectDistinct({ employeeId: sql<string>`+${shifts.employeeId}`.as("worker") })
    .from(shifts)
    .where(workersOf(organizationId, span))
    .limit(limit)
    .as("workers");
  return db.select({ count: sql<number>`count(*)`.mapWith(Number) }).from(workers);
}

const workersOf = (organizationId: string, span: PayPeriodSpan) =>
  and(
    eq(shifts.organizationId, organizationId),
    gte(shifts.businessDate, span.startDate),
    lte(shifts.businessDate, span.endDate),
    isNull(shifts.deletedAt),
  );

/**
 * The refusals of a close that runs as a job, checked before the job starts (the job's `plan` and `commit` steps
 * check them all again): checkClose's, in its order, without reading every worker and approval of the period when
 * `approveAll` makes the list of unapproved timesheets moot — the closer's own timesheet is probed alone.
 */
export async function checkCloseAsJob(writer: Writer, organizationId: string, periodId: string, approveAll: boolean, now: Date) {
  if (!approveAll) {
    await checkClose(writer, organizationId, periodId, approveAll, now);
    return;
  }
  const { db } = writer;
  const settings = await readSettings(db, organizationId);
  const span = spanOf(settings, periodId);
  const today = businessDate(now, offsetMinutesAt(settings.timezone, now));
  if (span.endDate >= today) throw periodNotEnded(span, null);
  const filter = { organizationId, startDate: span.startDate, endDate: span.endDate };
  const caller = writer.principal.staffMemberId ?? null;
  const [sets] = closeInputStatements(db, filter);
  const [setRows, periodRows, openRows, ownRows] = await db.batch([
    sets,
    periodRowStatement(db, organizationId, span.startDate),
    openShiftsAround(db, organizationId, span),
    unapprovedOwnTimesheet(db, organizationId, span, caller),
  ]);
  if (periodRows[0]?.status === "CLOSED") throw periodClosed(span.id);
  const frozen = frozenDates(span, setRows.map(ruleSetOfRow));
  if (!periodEnded(span, frozen, today)) throw periodNotEnded(span, frozen);
  const stillOpen = [
    ...new Set(openRows.filter((o) => o.businessDate >= frozen.from && o.businessDate <= frozen.to).map((o) => o.employeeId)),
  ];
  if (stillOpen.length) throw openShiftInPeriod(stillOpen);
  refuseOwnApproval(
    writer,
    ownRows.map((r) => r.employeeId),
  );
}

/** The closer's own staff member when they worked the period and their timesheet is not approved (none for a token). */
const unapprovedOwnTimesheet = (db: Database, organizationId: string, span: PayPeriodSpan, caller: string | null) =>
  db
    .select({ employeeId: shifts.employeeId })
    .from(shifts)
    .where(
      and(
        workersOf(organizationId, span),
        eq(shifts.employeeId, caller ?? ""),
        sql`NOT EXISTS (SELECT 1 FROM ${timesheetApprovals} WHERE ${timesheetApprovals.organizationId} = ${organizationId}
          AND ${timesheetApprovals.periodStartDate} = ${span.startDate} AND ${timesheetApprovals.employeeId} = ${shifts.employeeId})`,
      ),
    )
    .limit(1);
