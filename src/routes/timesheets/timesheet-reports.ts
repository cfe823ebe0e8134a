import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Context } from "hono";
import { shifts, staffMembers } from "../../../drizzle/schema";
import { centsToAmount, hoursDecimal, ZERO_TOTALS } from "../../domain/timesheet-totals";
import type { Database } from "../../lib/db";
import { invalidField } from "../../lib/problem";
import { setNextLink, timesheetFilter } from "./timesheet-listing";
import { daySql, lockedSql, shiftConditions, type TimesheetFilter, totalsColumns, totalsQuery } from "./timesheet-query";
import type { TimesheetScope } from "./timesheet-scope";
import type { EmployeeReportQueryInput } from "./timesheet-reports.schemas";

type ReportFilterInput = Parameters<typeof timesheetFilter>[1] &
  Pick<EmployeeReportQueryInput, "employees" | "employees[]" | "locations" | "locations[]">;

/** A report's filter: the listing's, plus the employees[] and locations[] lists in either spelling. */
export const reportFilter = (scope: TimesheetScope, query: ReportFilterInput): TimesheetFilter => ({
  ...timesheetFilter(scope, query),
  employees: [...(query.employees ?? []), ...(query["employees[]"] ?? [])],
  locations: [...(query.locations ?? []), ...(query["locations[]"] ?? [])],
});

/** Rows of GET /timesheets/reports: one per (day, staff member, location), summed by the database. */
export function reportDaysQuery(db: Database, filter: TimesheetFilter, page: { page: number; limit: number }) {
  const day = daySql(filter.dayOffset);
  return db
    .select({
      day: sql<string>`${day}`,
      employeeId: shifts.employeeId,
      externalId: staffMembers.externalId,
      locationId: shifts.locationId,
      duration: totalsColumns.duration,
      totalUnpaidBreaks: totalsColumns.totalUnpaidBreaks,
      payableDuration: totalsColumns.payableDuration,
      amountCents: totalsColumns.amountCents,
      locked: lockedSql(day),
    })
    .from(shifts)
    .leftJoin(staffMembers, eq(staffMembers.id, shifts.employeeId))
    .where(shiftConditions(filter))
    .groupBy(day, shifts.employeeId, shifts.locationId)
    .orderBy(day, asc(shifts.employeeId), asc(shifts.locationId))
    .limit(page.limit + 1)
    .offset((page.page - 1) * page.limit);
}

/** The per-day report and the totals of the whole filtered range, in one batch. */
export async function readReport(c: Context, db: Database, filter: TimesheetFilter, page: { page: number; limit: number }) {
  const [rows, totals] = await db.batch([reportDaysQuery(db, filter, page), totalsQuery(db, filter)]);
  if (rows.length > page.limit) setNextLink(c, { page: String(page.page + 1) });
  const t = totals[0] ?? ZERO_TOTALS;
  return {
    days: rows.slice(0, page.limit).map((r) => ({
      day: r.day,
      employeeId: r.employeeId,
      externalId: r.externalId,
      locationId: r.locationId,
      organizationId: filter.organizationId,
      duration: r.duration,
      totalUnpaidBreaks: r.totalUnpaidBreaks,
      hoursWorked: hoursDecimal(r.payableDuration),
      amount: centsToAmount(r.amountCents),
      locked: r.locked,
    })),
    totals: {
      duration: t.duration,
      totalUnpaidBreaks: t.totalUnpaidBreaks,
      hoursWorked: hoursDecimal(t.payableDuration),
      amount: centsToAmount(t.amountCents),
    },
  };
}

const encodeEmployeeCursor = (employeeId: string) => btoa(employeeId).replaceAll("=", "");

function decodeEmployeeCursor(cursor: string): string {
  try {
    return atob(cursor);
  } catch {
    throw invalidField("cursor", "not a cursor from this report's Link header");
  }
}

/** Rows of GET /timesheets/reports/employees: one per staff member after `afterEmployeeId`, by id. */
export const employeeReportQuery = (db: Database, filter: TimesheetFilter, afterEmployeeId: string | null, limit: number) =>
  db
    .select({ employeeId: shifts.employeeId, externalId: staffMembers.externalId, name: staffMembers.name, ...totalsColumns })
    .from(shifts)
    .leftJoin(staffMembers, eq(staffMembers.id, shifts.employeeId))
    .where(and(shiftConditions(filter), afterEmployeeId === null ? undefined : gt(shifts.employeeId, afterEmployeeId)))
    .groupBy(shifts.employeeId)
    .orderBy(asc(shifts.employeeId))
    .limit(limit);

/** GET /timesheets/reports/employees: one row per staff member with shifts in the range, by staff member id. */
export async function readEmployeeReport(c: Context, db: Database, filter: TimesheetFilter, page: { limit: number; cursor?: string }) {
  const after = page.cursor ? decodeEmployeeCursor(page.cursor) : null;
  const rows = await employeeReportQuery(db, filter, after, page.limit + 1);
  const shown = rows.slice(0, page.limit);
  const last = shown[shown.length - 1];
  if (rows.length > page.limit && last) setNextLink(c, { cursor: encodeEmployeeCursor(last.employeeId) });
  return shown.map((r) => ({
    employeeId: r.employeeId,
    externalId: r.externalId,
    name: r.name,
    shifts: r.count,
    duration: r.duration,
    totalPaidBreaks: r.totalPaidBreaks,
    totalUnpaidBreaks: r.totalUnpaidBreaks,
    payableDuration: r.payableDuration,
    hoursWorked: hoursDecimal(r.payableDuration),
    amount: centsToAmount(r.amountCents),
    flaggedShifts: r.flaggedShifts,
  }));
}
