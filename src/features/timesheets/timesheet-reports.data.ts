import { shifts, staffMembers } from "@db/schema";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { currencySelect, decimalsOfCurrency } from "@/data/timesheets/timesheet-currency.data";
import {
  aliasedAmounts,
  amountsOf,
  daySql,
  shiftConditions,
  type TimesheetFilter,
  totalsColumns,
  totalsQuery,
} from "@/data/timesheets/timesheet-query.data";
import { hoursDecimal, sumsToAmount, ZERO_TOTALS } from "@/domain/timesheet-totals";
import { decodeIdCursor, encodeIdCursor } from "@/platform/http/pagination";
import { timesheetFilter } from "./timesheet-listing.data";
import type { EmployeeReportQueryInput } from "./timesheet-reports.schemas";
import type { TimesheetScope } from "./timesheet-scope.guards";

type ReportFilterInput = Parameters<typeof timesheetFilter>[1] &
  Pick<EmployeeReportQueryInput, "employees" | "employees[]" | "locations" | "locations[]">;

/** A report's filter: the listing's, plus the employees[] and locations[] lists in either spelling. */
export const reportFilter = (scope: TimesheetScope, query: ReportFilterInput): TimesheetFilter => ({
  ...timesheetFilter(scope, query),
  employees: [...(query.employees ?? []), ...(query["employees[]"] ?? [])],
  locations: [...(query.locations ?? []), ...(query["locations[]"] ?? [])],
});

/**
 * Rows of GET /timesheets/reports: one per (day, staff member, location), summed by the database. The page is
 * grouped and cut first; only its rows then look up the staff member's external id and the day's lock.
 */
export function reportDaysQuery(db: Database, filter: TimesheetFilter, page: { page: number; limit: number }) {
  const day = daySql(filter.dayOffset);
  const groups = db
    .select({
      day: sql<string>`${day}`.as("day"),
      employeeId: shifts.employeeId,
      locationId: shifts.locationId,
      duration: totalsColumns.duration.as("duration"),
      totalUnpaidBreaks: totalsColumns.totalUnpaidBreaks.as("total_unpaid_breaks"),
      payableDuration: totalsColumns.payableDuration.as("payable_duration"),
      ...aliasedAmounts(),
    })
    .from(shifts)
    .where(shiftConditions(filter))
    .groupBy(day, shifts.employeeId, shifts.locationId)
    .orderBy(day, asc(shifts.employeeId), asc(shifts.locationId))
    .limit(page.limit + 1)
    .offset((page.page - 1) * page.limit)
    .as("report_days");
  return db
    .select({
      day: groups.day,
      employeeId: groups.employeeId,
      externalId: staffMembers.externalId,
      locationId: groups.locationId,
      duration: groups.duration,
      totalUnpaidBreaks: groups.totalUnpaidBreaks,
      payableDuration: groups.payableDuration,
      ...amountsOf(groups),
      // Qualified by hand: drizzle writes the aliased day bare, which a column of locked_days could capture.
      locked:
        sql<number>`EXISTS (SELECT 1 FROM locked_days AS ld WHERE ld.location_id = ${groups.locationId} AND ld.date = "report_days"."day")`.mapWith(
          (v) => Boolean(Number(v)),
        ),
    })
    .from(groups)
    .leftJoin(staffMembers, eq(staffMembers.id, groups.employeeId))
    .orderBy(asc(groups.day), asc(groups.employeeId), asc(groups.locationId));
}

/**
 * The per-day report and the totals of the whole filtered range, in one batch with the organization's currency:
 * every amount is its shifts' amounts, each rounded to the currency's minor units, added up.
 */
export async function readReport(db: Database, filter: TimesheetFilter, page: { page: number; limit: number }) {
  const [rows, totals, currency] = await db.batch([
    reportDaysQuery(db, filter, page),
    totalsQuery(db, filter),
    currencySelect(db, filter.organizationId),
  ]);
  const t = totals[0] ?? ZERO_TOTALS;
  const decimals = decimalsOfCurrency(currency);
  const report = {
    days: rows.slice(0, page.limit).map((r) => ({
      day: r.day,
      employeeId: r.employeeId,
      externalId: r.externalId,
      locationId: r.locationId,
      organizationId: filter.organizationId,
      duration: r.duration,
      totalUnpaidBreaks: r.totalUnpaidBreaks,
      hoursWorked: hoursDecimal(r.payableDuration),
      amount: sumsToAmount(r, decimals),
      locked: r.locked,
    })),
    totals: {
      duration: t.duration,
      totalUnpaidBreaks: t.totalUnpaidBreaks,
      hoursWorked: hoursDecimal(t.payableDuration),
      amount: sumsToAmount(t, decimals),
    },
  };
  return { page: report, next: rows.length > page.limit ? { page: String(page.page + 1) } : undefined };
}

/**
 * Rows of GET /timesheets/reports/employees: one per staff member after `afterEmployeeId`, by id. Grouped and
 * cut first, then each row looks its staff member up (not each shift). A page reads its employees' shifts alone.
 */
export function employeeReportQuery(db: Database, filter: TimesheetFilter, afterEmployeeId: string | null, limit: number) {
  const sums = db
    .select({
      employeeId: shifts.employeeId,
      count: totalsColumns.count.as("count"),
      duration: totalsColumns.duration.as("duration"),
      totalPaidBreaks: totalsColumns.totalPaidBreaks.as("total_paid_breaks"),
      totalUnpaidBreaks: totalsColumns.totalUnpaidBreaks.as("total_unpaid_breaks"),
      payableDuration: totalsColumns.payableDuration.as("payable_duration"),
      ...aliasedAmounts(),
      flaggedShifts: totalsColumns.flaggedShifts.as("flagged_shifts"),
    })
    .from(shifts)
    // Always bounded (ids are never empty): the planner then walks shifts_organization_employee_date in employee order
    // and stops after the page's groups, instead of summing every shift of the range to sort them.
    .where(and(shiftConditions(filter), gt(shifts.employeeId, afterEmployeeId ?? "")))
    .groupBy(shifts.employeeId)
    .orderBy(asc(shifts.employeeId))
    .limit(limit)
    .as("employee_sums");
  return db
    .select({
      employeeId: sums.employeeId,
      externalId: staffMembers.externalId,
      name: staffMembers.name,
      count: sums.count,
      duration: sums.duration,
      totalPaidBreaks: sums.totalPaidBreaks,
      totalUnpaidBreaks: sums.totalUnpaidBreaks,
      payableDuration: sums.payableDuration,
      ...amountsOf(sums),
      flaggedShifts: sums.flaggedShifts,
    })
    .from(sums)
    .leftJoin(staffMembers, eq(staffMembers.id, sums.employeeId))
    .orderBy(asc(sums.employeeId));
}

/**
 * GET /timesheets/reports/employees: one row per staff member with shifts in the range, by staff member id, read in
 * one batch with the organization's currency (its minor units are what each shift's amount rounds to).
 */
export async function readEmployeeReport(db: Database, filter: TimesheetFilter, page: { limit: number; cursor?: string }) {
  const after = page.cursor ? decodeIdCursor(page.cursor) : null;
  const [rows, currency] = await db.batch([
    employeeReportQuery(db, filter, after, page.limit + 1),
    currencySelect(db, filter.organizationId),
  ]);
  const decimals = decimalsOfCurrency(currency);
  const shown = rows.slice(0, page.limit);
  const last = shown[shown.length - 1];
  const next = rows.length > page.limit && last ? { cursor: encodeIdCursor(last.employeeId) } : undefined;
  const report = shown.map((r) => ({
    employeeId: r.employeeId,
    externalId: r.externalId,
    name: r.name,
    shifts: r.count,
    duration: r.duration,
    totalPaidBreaks: r.totalPaidBreaks,
    totalUnpaidBreaks: r.totalUnpaidBreaks,
    payableDuration: r.payableDuration,
    hoursWorked: hoursDecimal(r.payableDuration),
    amount: sumsToAmount(r, decimals),
    flaggedShifts: r.flaggedShifts,
  }));
  return { page: report, next };
}
