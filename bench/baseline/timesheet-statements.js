// The SQL our Worker sends to D1 for the timesheet reads the bench measures (listing page, totals, export, both
// reports), from this run's recording of ours (recording.js): src/features/timesheets' statements for a date range
// without filters, each on a first page and a page after a cursor. The functions below answer the bound values for a
// request, in drizzle's order. The baseline Worker sends exactly these, and the timesheets scenario compares both —
// statements AND values — with its trace of our Worker at every run.
//
// Plain JS with no Worker-only imports: the bench (Node) imports it too.
import { fromRecording, statement, trip } from "./recording.js";

/** Filled from the recording of the operations named below. */
export const SQL = {};
/** The position of each column a page of shifts reads ({id: 0, organization_id: 1, …}), from the recorded SQL. */
export const SHIFT_COLUMN = {};

/** The column names of a recorded `select "a", "b", … from`. */
const selectedColumns = (sql) => [...sql.slice(0, sql.indexOf(" from ")).matchAll(/"(\w+)"/g)].map((m) => m[1]);

const OPERATIONS = ["listing", "listing, next page", "export", "reports", "reports, page 2", "employees", "employees, next page"];

fromRecording(OPERATIONS, (r) => {
  /**
   * GET /timesheets, one batch of four: [page with its breaks, totals of the range, locked days of the range, the
   * organization's currency (what amounts round to)].
   */
  trip(r, "listing", 0, 4);
  SQL.pageFirst = statement(r, "listing", 0, 0, 'select "id"');
  SQL.totals = statement(r, "listing", 0, 1, "select count(*)");
  SQL.lockedDays = statement(r, "listing", 0, 2, 'select "date", "location_id" from "locked_days"');
  SQL.currency = statement(r, "listing", 0, 3, 'select "currency_code" from "organizations"');
  trip(r, "listing, next page", 0, 4);
  SQL.pageAfter = statement(r, "listing, next page", 0, 0, 'select "id"');
  /**
   * GET /timesheets/export: the first page in one batch with the organization's names, the range's locked days, the
   * active custom fields and the currency ([staff, locations, roles, locked days, custom fields, currency, page]), then
   * one statement per keyset page of 500.
   */
  trip(r, "export", 0, 7);
  SQL.staffNames = statement(r, "export", 0, 0, 'select "id", "name"');
  SQL.locationNames = statement(r, "export", 0, 1, 'select "id", "name"');
  SQL.roleNames = statement(r, "export", 0, 2, 'select "id", "name"');
  if (statement(r, "export", 0, 3) !== SQL.lockedDays) throw new Error("recording: the export reads locked days unlike the listing");
  SQL.exportedFields = statement(r, "export", 0, 4, 'select "id", "name", "active" from "custom_fields"');
  if (statement(r, "export", 0, 5) !== SQL.currency) throw new Error("recording: the export reads the currency unlike the listing");
  SQL.exportFirst = statement(r, "export", 0, 6, 'select "id"');
  trip(r, "export", 1, 1);
  SQL.exportAfter = statement(r, "export", 1, 0, 'select "id"');
  /** GET /timesheets/reports, one batch: [days of the page, totals, currency]; a page after the first with an offset. */
  trip(r, "reports", 0, 3);
  SQL.reportDays = statement(r, "reports", 0, 0, 'select "day"');
  if (statement(r, "reports", 0, 1) !== SQL.totals) throw new Error("recording: the report's totals differ from the listing's");
  if (statement(r, "reports", 0, 2) !== SQL.currency) throw new Error("recording: the report reads the currency unlike the listing");
  trip(r, "reports, page 2", 0, 3);
  SQL.reportDaysOffset = statement(r, "reports, page 2", 0, 0, 'select "day"');
  /** GET /timesheets/reports/employees: one batch, [the page, currency]. */
  trip(r, "employees", 0, 2);
  trip(r, "employees, next page", 0, 2);
  if (statement(r, "employees", 0, 1) !== SQL.currency)
    throw new Error("recording: the employee report reads the currency unlike the listing");
  // One statement for every page: the first is bounded by an empty id (src/features/timesheets employeeReportQuery).
  SQL.employees = statement(r, "employees", 0, 0, 'select "employee_sums"."employee_id"');
  if (statement(r, "employees, next page", 0, 0) !== SQL.employees)
    throw new Error("recording: the employee report's next page reads another statement than its first");
  // Every page of shifts reads the same columns, which the baseline reads by position.
  const columns = selectedColumns(SQL.pageFirst);
  for (const sql of [SQL.pageAfter, SQL.exportFirst, SQL.exportAfter]) {
    if (selectedColumns(sql).join() !== columns.join()) throw new Error("recording: the pages of shifts read other columns");
  }
  for (const key of Object.keys(SHIFT_COLUMN)) delete SHIFT_COLUMN[key];
  columns.forEach((name, i) => {
    SHIFT_COLUMN[name] = i;
  });
});

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

/** The organization's currency: its minor units are what every amount rounds to. */
const currencyStatement = (p) => [SQL.currency, [p.org]];

/** The four statements of one listing page, as [sql, values] pairs. */
export function listingStatements(p, after) {
  return [
    keyset(p.first, after, SQL.pageFirst, SQL.pageAfter, p, p.limit + 1),
    [SQL.totals, [p.org, p.first, p.last]],
    [SQL.lockedDays, [p.org, p.first, p.last]],
    currencyStatement(p),
  ];
}

/** The export's first round trip: the organization's names, the range's locked days, its custom fields, currency and the first page. */
export const exportFirstStatements = (p) => [
  [SQL.staffNames, [p.org]],
  [SQL.locationNames, [p.org]],
  [SQL.roleNames, [p.org]],
  [SQL.lockedDays, [p.org, p.first, p.last]],
  [SQL.exportedFields, [p.org, 1]],
  currencyStatement(p),
  exportStatement(p, null),
];

export const exportStatement = (p, after) => keyset(p.first, after, SQL.exportFirst, SQL.exportAfter, p, EXPORT_PAGE_SIZE);

export function reportStatements(p) {
  const values = [p.org, p.first, p.last, p.limit + 1];
  const days = p.page > 1 ? [SQL.reportDaysOffset, [...values, (p.page - 1) * p.limit]] : [SQL.reportDays, values];
  return [days, [SQL.totals, [p.org, p.first, p.last]], currencyStatement(p)];
}

/** The employee report's one batch: the page of staff members after `afterEmployeeId` ('' on the first), the currency. */
export function employeeReportStatements(p, afterEmployeeId) {
  return [[SQL.employees, [p.org, p.first, p.last, afterEmployeeId ?? "", p.limit + 1]], currencyStatement(p)];
}
