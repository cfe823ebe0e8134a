// The SQL our Worker sends to D1 for the timesheet reads the bench measures (listing page, totals, export, both
// reports), as plain strings: the `.toSQL().sql` of src/routes/timesheets' query builders (timesheet-query.ts,
// timesheet-export.ts, export-names.ts, timesheet-reports.ts) for a date range without filters. The functions below answer the bound
// values for a request, in drizzle's order. The baseline Worker sends exactly these, and the timesheets scenario
// compares both — statements AND values — with a fresh trace of our Worker at every run.
//
// Plain JS with no Worker-only imports: the bench (Node) imports it too.

const SHIFT_COLUMNS = `"id", "organization_id", "employee_id", "location_id", "role_id", "start_at", "end_at", "utc_offset", "business_date", "hourly_wage", "salaried", "wage_rate_id", "duration", "total_paid_breaks", "total_unpaid_breaks", "payable_duration", "flags", "manual_entry", "clock_in_source", "clock_in_device_id", "clock_out_source", "clock_out_device_id", "cost_code_id", "breaks_json", "custom_fields", "active", "created_at", "updated_at", "deleted_at"`;
const AMOUNT_CENTS = `CAST(ROUND("shifts"."payable_duration" * "shifts"."hourly_wage" * 100 / 60.0) AS INTEGER)`;

/** The range: first page `business_date >= ?`; after a cursor the row value `(business_date, id) > (?, ?)`. */
const RANGE_FIRST = `"shifts"."organization_id" = ? and "shifts"."business_date" >= ? and "shifts"."business_date" <= ? and "shifts"."deleted_at" is null`;
const RANGE_AFTER = `"shifts"."organization_id" = ? and ("shifts"."business_date", "shifts"."id") > (?, ?) and "shifts"."business_date" <= ? and "shifts"."deleted_at" is null`;
const PAGE_ORDER = `order by "shifts"."business_date" asc, "shifts"."id" asc limit ?`;

/** A page of shifts, each with its breaks (breaks_json): the listing's page and each export page (no per-row locked probe, no joins). */
const page = (range) => `select ${SHIFT_COLUMNS} from "shifts" where (${range}) ${PAGE_ORDER}`;
export const SQL = {
  /** GET /timesheets, one batch of three: [page with its breaks, totals of the range, locked days of the range]. */
  pageFirst: page(RANGE_FIRST),
  pageAfter: page(RANGE_AFTER),
  totals: `select count(*), coalesce(sum("duration"), 0), coalesce(sum("total_paid_breaks"), 0), coalesce(sum("total_unpaid_breaks"), 0), coalesce(sum("payable_duration"), 0), coalesce(sum(${AMOUNT_CENTS}), 0), coalesce(sum(json_array_length("shifts"."flags") > 0), 0) from "shifts" where (${RANGE_FIRST})`,
  /** (date, location) pairs: a shift is locked when its (business date, location) is among them. */
  lockedDays: `select "date", "location_id" from "locked_days" where ("locked_days"."organization_id" = ? and "locked_days"."date" >= ? and "locked_days"."date" <= ?) order by "locked_days"."date" asc`,
  /**
   * GET /timesheets/export: the first page in one batch with the organization's names, the range's locked days and
   * the active custom fields ([staff, locations, roles, locked days, custom fields, page]), then one statement per
   * keyset page of 500.
   */
  staffNames: `select "id", "name", "external_id", "external_payroll_id" from "staff_members" where "staff_members"."organization_id" = ?`,
  locationNames: `select "id", "name", "external_id" from "locations" where "locations"."organization_id" = ?`,
  roleNames: `select "id", "name", "external_id" from "roles" where "roles"."organization_id" = ?`,
  /** The organization's active custom fields: one CSV column each (timesheet-export's exportedFieldsQuery). */
  exportedFields: `select "id", "name", "active" from "custom_fields" where (("custom_fields"."organization_id" = ? and "custom_fields"."deleted_at" is null) and "custom_fields"."active" = ?)`,
  exportFirst: page(RANGE_FIRST),
  exportAfter: page(RANGE_AFTER),
  /** GET /timesheets/reports, one batch: [days of the page, totals]; page > 1 has ` offset ?` after the inner limit. */
  reportDays: reportDays(""),
  reportDaysOffset: reportDays(" offset ?"),
  /** GET /timesheets/reports/employees: one statement. */
  employeesFirst: employees(`(${RANGE_FIRST})`),
  employeesAfter: employees(`((${RANGE_FIRST}) and "shifts"."employee_id" > ?)`),
};

/** Grouped and cut in a subquery; only the page's rows then look up the staff member and the day's lock. */
function reportDays(offset) {
  return `select "day", "report_days"."employee_id", "staff_members"."external_id", "report_days"."location_id", "duration", "total_unpaid_breaks", "payable_duration", "amount_cents", EXISTS (SELECT 1 FROM locked_days AS ld WHERE ld.location_id = "report_days"."location_id" AND ld.date = "report_days"."day") from (select "shifts"."business_date" as "day", "employee_id", "location_id", coalesce(sum("duration"), 0) as "duration", coalesce(sum("total_unpaid_breaks"), 0) as "total_unpaid_breaks", coalesce(sum("payable_duration"), 0) as "payable_duration", coalesce(sum(${AMOUNT_CENTS}), 0) as "amount_cents" from "shifts" where (${RANGE_FIRST}) group by "shifts"."business_date", "shifts"."employee_id", "shifts"."location_id" order by "shifts"."business_date", "shifts"."employee_id" asc, "shifts"."location_id" asc limit ?${offset}) "report_days" left join "staff_members" on "staff_members"."id" = "report_days"."employee_id" order by "day" asc, "report_days"."employee_id" asc, "report_days"."location_id" asc`;
}

/** Grouped by staff member and cut in a subquery, then each row looks its staff member up. */
function employees(where) {
  return `select "employee_sums"."employee_id", "staff_members"."external_id", "staff_members"."name", "count", "duration", "total_paid_breaks", "total_unpaid_breaks", "payable_duration", "amount_cents", "flagged_shifts" from (select "employee_id", count(*) as "count", coalesce(sum("duration"), 0) as "duration", coalesce(sum("total_paid_breaks"), 0) as "total_paid_breaks", coalesce(sum("total_unpaid_breaks"), 0) as "total_unpaid_breaks", coalesce(sum("payable_duration"), 0) as "payable_duration", coalesce(sum(${AMOUNT_CENTS}), 0) as "amount_cents", coalesce(sum(json_array_length("shifts"."flags") > 0), 0) as "flagged_shifts" from "shifts" where ${where} group by "shifts"."employee_id" order by "shifts"."employee_id" asc limit ?) "employee_sums" left join "staff_members" on "staff_members"."id" = "employee_sums"."employee_id" order by "employee_sums"."employee_id" asc`;
}

export const EXPORT_PAGE_SIZE = 500;
const DEFAULT_LIMIT = 100;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * What the baseline reads from a timesheet URL: the organization (from `organizationId`: the baseline has no
 * token), a range of business dates (YYYY-MM-DD only — the form the bench sends), limit, cursor, page.
 * Answers null when the range is not two dates.
 */
export function timesheetParams(url) {
  const q = url.searchParams;
  const startDate = q.get("startDate");
  const endDate = q.get("endDate");
  if (!DATE.test(startDate ?? "") || !DATE.test(endDate ?? "")) return null;
  return {
    org: q.get("organizationId") ?? "",
    first: startDate,
    last: endDate,
    limit: Number(q.get("limit") ?? DEFAULT_LIMIT),
    cursor: q.get("cursor"),
    page: Number(q.get("page") ?? 1),
  };
}

/** The listing's cursor: base64 of "businessDate|id" without padding (timesheet-query's encodeShiftCursor). */
export const encodeShiftCursor = (c) => btoa(`${c.businessDate}|${c.id}`).replaceAll("=", "");
export function decodeShiftCursor(cursor) {
  const match = /^(\d{4}-\d{2}-\d{2})\|(.{1,64})$/.exec(atob(cursor));
  return match ? { businessDate: match[1], id: match[2] } : null;
}

/** [sql, values] of a keyset statement over the range: the row-value form after a cursor inside the range. */
function keyset(first, after, sqlFirst, sqlAfter, { org, last }, limit) {
  return after && after.businessDate >= first
    ? [sqlAfter, [org, after.businessDate, after.id, last, limit]]
    : [sqlFirst, [org, first, last, limit]];
}

/** The three statements of one listing page, as [sql, values] pairs. */
export function listingStatements(p, after) {
  return [
    keyset(p.first, after, SQL.pageFirst, SQL.pageAfter, p, p.limit + 1),
    [SQL.totals, [p.org, p.first, p.last]],
    [SQL.lockedDays, [p.org, p.first, p.last]],
  ];
}

/** The export's first round trip: the organization's names, the range's locked days, its custom fields and the first page. */
export const exportFirstStatements = (p) => [
  [SQL.staffNames, [p.org]],
  [SQL.locationNames, [p.org]],
  [SQL.roleNames, [p.org]],
  [SQL.lockedDays, [p.org, p.first, p.last]],
  [SQL.exportedFields, [p.org, 1]],
  exportStatement(p, null),
];

export const exportStatement = (p, after) => keyset(p.first, after, SQL.exportFirst, SQL.exportAfter, p, EXPORT_PAGE_SIZE);

export function reportStatements(p) {
  const values = [p.org, p.first, p.last, p.limit + 1];
  const days = p.page > 1 ? [SQL.reportDaysOffset, [...values, (p.page - 1) * p.limit]] : [SQL.reportDays, values];
  return [days, [SQL.totals, [p.org, p.first, p.last]]];
}

export function employeeReportStatement(p, afterEmployeeId) {
  return afterEmployeeId === null
    ? [SQL.employeesFirst, [p.org, p.first, p.last, p.limit + 1]]
    : [SQL.employeesAfter, [p.org, p.first, p.last, afterEmployeeId, p.limit + 1]];
}
