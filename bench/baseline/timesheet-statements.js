// The SQL our Worker sends to D1 for the timesheet reads the bench measures (listing page, totals, export, both
// reports), as plain strings: the `.toSQL().sql` of src/routes/timesheets' query builders (timesheet-query.ts,
// timesheet-export.ts, timesheet-reports.ts) for a date range without filters. The functions below answer the bound
// values for a request, in drizzle's order. The baseline Worker sends exactly these, and the timesheets scenario
// compares both — statements AND values — with a fresh trace of our Worker at every run.
//
// Plain JS with no Worker-only imports: the bench (Node) imports it too.

const SHIFT_COLUMNS = `"id", "organization_id", "employee_id", "location_id", "role_id", "start_at", "end_at", "utc_offset", "business_date", "hourly_wage", "duration", "total_paid_breaks", "total_unpaid_breaks", "payable_duration", "flags", "manual_entry", "active", "created_at", "updated_at", "deleted_at"`;
const QUALIFIED_SHIFT_COLUMNS = SHIFT_COLUMNS.replace(/"(\w+)"/g, `"shifts"."$1"`);
const LOCKED = `EXISTS (SELECT 1 FROM locked_days AS ld WHERE ld.location_id = "shifts"."location_id" AND ld.date = "shifts"."business_date")`;
const AMOUNT_CENTS = `CAST(ROUND("shifts"."payable_duration" * "shifts"."hourly_wage" * 100 / 60.0) AS INTEGER)`;

/** The range: first page `business_date >= ?`; after a cursor the row value `(business_date, id) > (?, ?)`. */
const RANGE_FIRST = `"shifts"."organization_id" = ? and "shifts"."business_date" >= ? and "shifts"."business_date" <= ? and "shifts"."deleted_at" is null`;
const RANGE_AFTER = `"shifts"."organization_id" = ? and ("shifts"."business_date", "shifts"."id") > (?, ?) and "shifts"."business_date" <= ? and "shifts"."deleted_at" is null`;
const PAGE_ORDER = `order by "shifts"."business_date" asc, "shifts"."id" asc limit ?`;

const page = (range) => `select ${SHIFT_COLUMNS}, ${LOCKED} from "shifts" where (${range}) ${PAGE_ORDER}`;
const pageBreaks = (range) =>
  `select "id", "organization_id", "shift_id", "type_id", "name", "paid", "mandatory", "frequency_minutes", "duration_in_settings_minutes", "start_at", "end_at", "automatic" from "shift_breaks" where ("shift_breaks"."organization_id" = ? and "shift_breaks"."shift_id" in (select "id" from "shifts" where (${range}) ${PAGE_ORDER})) order by "shift_breaks"."shift_id" asc, "shift_breaks"."start_at" asc`;
const exportPage = (range) =>
  `select ${QUALIFIED_SHIFT_COLUMNS}, ${LOCKED}, "staff_members"."name", "staff_members"."external_id", "staff_members"."external_payroll_id", "locations"."name", "locations"."external_id", "roles"."name", "roles"."external_id" from "shifts" left join "staff_members" on "staff_members"."id" = "shifts"."employee_id" left join "locations" on "locations"."id" = "shifts"."location_id" left join "roles" on "roles"."id" = "shifts"."role_id" where (${range}) ${PAGE_ORDER}`;

export const SQL = {
  /** GET /timesheets, one batch of four: [page, its breaks, totals of the range, locked days of the range]. */
  pageFirst: page(RANGE_FIRST),
  pageAfter: page(RANGE_AFTER),
  breaksFirst: pageBreaks(RANGE_FIRST),
  breaksAfter: pageBreaks(RANGE_AFTER),
  totals: `select count(*), coalesce(sum("duration"), 0), coalesce(sum("total_paid_breaks"), 0), coalesce(sum("total_unpaid_breaks"), 0), coalesce(sum("payable_duration"), 0), coalesce(sum(${AMOUNT_CENTS}), 0), coalesce(sum(json_array_length("shifts"."flags") > 0), 0) from "shifts" where (${RANGE_FIRST})`,
  lockedDays: `select distinct "date" from "locked_days" where ("locked_days"."organization_id" = ? and "locked_days"."date" >= ? and "locked_days"."date" <= ?) order by "locked_days"."date" asc`,
  /** GET /timesheets/export: one statement per keyset page of 500, one after the other. */
  exportFirst: exportPage(RANGE_FIRST),
  exportAfter: exportPage(RANGE_AFTER),
  /** GET /timesheets/reports, one batch: [days of the page, totals]; page > 1 appends ` offset ?`. */
  reportDays: `select "shifts"."business_date", "shifts"."employee_id", "staff_members"."external_id", "shifts"."location_id", coalesce(sum("shifts"."duration"), 0), coalesce(sum("shifts"."total_unpaid_breaks"), 0), coalesce(sum("shifts"."payable_duration"), 0), coalesce(sum(${AMOUNT_CENTS}), 0), ${LOCKED} from "shifts" left join "staff_members" on "staff_members"."id" = "shifts"."employee_id" where (${RANGE_FIRST}) group by "shifts"."business_date", "shifts"."employee_id", "shifts"."location_id" order by "shifts"."business_date", "shifts"."employee_id" asc, "shifts"."location_id" asc limit ?`,
  /** GET /timesheets/reports/employees: one statement. */
  employeesFirst: employees(`(${RANGE_FIRST})`),
  employeesAfter: employees(`((${RANGE_FIRST}) and "shifts"."employee_id" > ?)`),
};

function employees(where) {
  return `select "shifts"."employee_id", "staff_members"."external_id", "staff_members"."name", count(*), coalesce(sum("shifts"."duration"), 0), coalesce(sum("shifts"."total_paid_breaks"), 0), coalesce(sum("shifts"."total_unpaid_breaks"), 0), coalesce(sum("shifts"."payable_duration"), 0), coalesce(sum(${AMOUNT_CENTS}), 0), coalesce(sum(json_array_length("shifts"."flags") > 0), 0) from "shifts" left join "staff_members" on "staff_members"."id" = "shifts"."employee_id" where ${where} group by "shifts"."employee_id" order by "shifts"."employee_id" asc limit ?`;
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

/** The four statements of one listing page, as [sql, values] pairs. */
export function listingStatements(p, after) {
  const [pageSql, pageValues] = keyset(p.first, after, SQL.pageFirst, SQL.pageAfter, p, p.limit + 1);
  const [breaksSql] = keyset(p.first, after, SQL.breaksFirst, SQL.breaksAfter, p, p.limit + 1);
  return [
    [pageSql, pageValues],
    [breaksSql, [p.org, ...pageValues]],
    [SQL.totals, [p.org, p.first, p.last]],
    [SQL.lockedDays, [p.org, p.first, p.last]],
  ];
}

export const exportStatement = (p, after) => keyset(p.first, after, SQL.exportFirst, SQL.exportAfter, p, EXPORT_PAGE_SIZE);

export function reportStatements(p) {
  const values = [p.org, p.first, p.last, p.limit + 1];
  const days = p.page > 1 ? [`${SQL.reportDays} offset ?`, [...values, (p.page - 1) * p.limit]] : [SQL.reportDays, values];
  return [days, [SQL.totals, [p.org, p.first, p.last]]];
}

export function employeeReportStatement(p, afterEmployeeId) {
  return afterEmployeeId === null
    ? [SQL.employeesFirst, [p.org, p.first, p.last, p.limit + 1]]
    : [SQL.employeesAfter, [p.org, p.first, p.last, afterEmployeeId, p.limit + 1]];
}
