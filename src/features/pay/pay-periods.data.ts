import { payPeriods, shifts, timesheetApprovals } from "@db/schema";
import { and, eq, gte, isNull, lte, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { inJsonList } from "@/data/json-list";
import { rawAll } from "@/data/raw-statement";
import { calendarRangeProblem } from "@/domain/calendar-range";
import {
  isPayPeriodId,
  type PayPeriodSettings,
  type PayPeriodSpan,
  payPeriodContaining,
  payPeriodsOverlapping,
} from "@/domain/pay-periods";
import type { Principal } from "@/domain/permissions";
import { iso, isoOrNull } from "@/platform/schemas/time";
import { conflict, invalidField, notFound } from "@/problems/problem";
import { readSettings, type SettingsRead } from "./pay-period-settings.data";

type PeriodRow = typeof payPeriods.$inferSelect;

export const actorOf = (principal: Principal) => principal.staffMemberId ?? `partner:${principal.partnerId}`;

export { periodClosed } from "@/data/closed-periods";

/** `employeeIds`: those named (a close names at most the first 100 by id); `employeeCount`: how many there are. */
export const openShiftInPeriod = (employeeIds: string[], employeeCount = employeeIds.length) =>
  conflict("OPEN_SHIFT_IN_PERIOD", "Staff members have a shift still open in the period: clock them out first.", {
    employeeIds,
    employeeCount,
  });

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
export const workersStatement = (db: Database, organizationId: string, span: PayPeriodSpan) =>
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
  const rangeProblem = calendarRangeProblem(startDate, endDate, MAX_LISTED_DAYS);
  if (rangeProblem) throw invalidField(rangeProblem.path, rangeProblem.message);
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
