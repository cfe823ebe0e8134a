// Baseline timesheet reads: the listing page (with its totals), the CSV export and both reports, sending our
// Worker's D1 statements (timesheet-statements.js) in the same round trips with the same bound values, written by
// hand with no framework, no validation, no authentication or authorisation (the organization comes from the
// `organizationId` query parameter). What is left is the floor: the D1 calls, the least mapping and arithmetic
// that gives the same response as ours, and the response out.
import { minorUnitsOf } from "../../src/domain/currency-minor-units.ts";
import { amountDecimals, amountText, shiftAmount, unitsToAmount } from "../../src/domain/timesheet-totals.ts";
import {
  decodeShiftCursor,
  EXPORT_PAGE_SIZE,
  employeeReportStatements,
  encodeShiftCursor,
  exportFirstStatements,
  exportStatement,
  listingStatements,
  reportStatements,
  SHIFT_COLUMN,
  timesheetParams,
} from "./timesheet-statements.js";

const problem = (status, code) => Response.json({ status, code }, { status });
const iso = (ms) => new Date(ms).toISOString();
const isoOrNull = (ms) => (ms === null ? null : iso(ms));
const wall = (ms, offset) => (ms === null ? null : new Date(ms + offset * 60_000).toISOString());
/**
 * The decimals amounts round to: the organization's currency's minor units (src/domain's, as ours), from the
 * currency read in the same batch.
 */
const decimalsOf = (currency) => amountDecimals(minorUnitsOf(currency.results[0]?.currency_code));
/** A sum of amounts from the sums at 0, 1, 2 and 3 decimals each statement answers in a row: the currency's. */
const amountOf = (units, decimals) => unitsToAmount(units[decimals], decimals);
/** A salaried staff member's shift has no hourly wage on the wire (nor an amount in the export). */
const wage = (s) => (s.salaried ? null : s.hourlyWage);
const hours = (minutes) => String(Math.round((minutes * 100) / 60) / 100);

function batch(db, pairs) {
  return db.batch(pairs.map(([sql, values]) => db.prepare(sql).bind(...values)));
}

/** Link: rel="next" — the same request with these parameters replaced. */
function nextLink(url, params) {
  const next = new URL(url);
  for (const [name, value] of Object.entries(params)) next.searchParams.set(name, value);
  return `<${next.pathname}${next.search}>; rel="next"`;
}

/** A shifts row in positional form, as the page and export statements answer it (columns at their recorded positions). */
function shiftOf(values) {
  const v = (column) => values[SHIFT_COLUMN[column]];
  return {
    id: v("id"),
    employeeId: v("employee_id"),
    locationId: v("location_id"),
    roleId: v("role_id"),
    startAt: v("start_at"),
    endAt: v("end_at"),
    utcOffset: v("utc_offset"),
    businessDate: v("business_date"),
    hourlyWage: v("hourly_wage"),
    salaried: v("salaried") === 1,
    wageRateId: v("wage_rate_id"),
    duration: v("duration"),
    paidBreaks: v("total_paid_breaks"),
    unpaidBreaks: v("total_unpaid_breaks"),
    payable: v("payable_duration"),
    flags: JSON.parse(v("flags")),
    manualEntry: v("manual_entry") === 1,
    clockInSource: v("clock_in_source"),
    clockInDeviceId: v("clock_in_device_id"),
    clockOutSource: v("clock_out_source"),
    clockOutDeviceId: v("clock_out_device_id"),
    costCodeId: v("cost_code_id"),
    breaksJson: v("breaks_json"),
    customFields: JSON.parse(v("custom_fields")),
    createdAt: v("created_at"),
    updatedAt: v("updated_at"),
    deletedAt: v("deleted_at"),
  };
}

/** Whether a shift's (location, business date) is among the locked days read beside it. */
function lockedLookup(rows) {
  const keys = new Set(rows.map((r) => `${r.location_id}|${r.date}`));
  return (s) => keys.has(`${s.locationId}|${s.businessDate}`);
}

/** A break of a shift's breaks_json copy (camelCase, instants in epoch milliseconds). */
const breakJson = (b, offset) => ({
  startTime: wall(b.startAt, offset),
  endTime: wall(b.endAt, offset),
  typeId: b.typeId,
  paid: b.paid,
  name: b.name,
  mandatory: b.mandatory,
  frequencyMinutes: b.frequencyMinutes,
  durationInSettingsMinutes: b.durationInSettingsMinutes,
  automatic: b.automatic,
  utcStartTime: iso(b.startAt),
  utcEndTime: isoOrNull(b.endAt),
});

const shiftJson = (s, breaks, locked) => ({
  id: s.id,
  employeeId: s.employeeId,
  locationId: s.locationId,
  roleId: s.roleId,
  costCodeId: s.costCodeId,
  customFields: s.customFields,
  startTime: wall(s.startAt, s.utcOffset),
  endTime: wall(s.endAt, s.utcOffset),
  breaks: breaks.map((b) => breakJson(b, s.utcOffset)),
  hourlyWage: wage(s),
  wageRateId: s.wageRateId,
  totalPaidBreaks: s.paidBreaks,
  totalUnpaidBreaks: s.unpaidBreaks,
  duration: s.duration,
  payableDuration: s.payable,
  utcOffset: s.utcOffset,
  utcStartTime: iso(s.startAt),
  utcEndTime: isoOrNull(s.endAt),
  locked,
  active: s.endAt === null && s.deletedAt === null,
  flags: s.flags,
  manualEntry: s.manualEntry,
  clockInSource: s.clockInSource,
  clockInDeviceId: s.clockInDeviceId,
  clockOutSource: s.clockOutSource,
  clockOutDeviceId: s.clockOutDeviceId,
  businessDate: s.businessDate,
  createdAt: iso(s.createdAt),
  updatedAt: iso(s.updatedAt),
  deletedAt: isoOrNull(s.deletedAt),
});

/** GET /api/timesheets: one batch of four statements — page (breaks on its rows), totals, locked days, currency. */
async function listing(db, request) {
  const url = new URL(request.url);
  const p = timesheetParams(url);
  if (!p) return problem(400, "VALIDATION_ERROR");
  const after = p.cursor ? decodeShiftCursor(p.cursor) : null;
  const statements = listingStatements(p, after);
  // The page as raw rows would need a second call: D1's batch answers objects, so read the columns by position.
  const [rows, totals, locked, currency] = await batch(db, statements);
  const shifts = rows.results.slice(0, p.limit).map((r) => shiftOf(Object.values(r)));
  const isLocked = lockedLookup(locked.results);
  const [count, duration, paid, unpaid, payable, ...units] = Object.values(totals.results[0]);
  const headers = {};
  const last = shifts[shifts.length - 1];
  if (rows.results.length > p.limit && last) {
    headers.Link = nextLink(url, { cursor: encodeShiftCursor({ businessDate: last.businessDate, id: last.id }) });
  }
  return Response.json(
    {
      shifts: shifts.map((s) => shiftJson(s, JSON.parse(s.breaksJson), isLocked(s))),
      lockedDays: [...new Set(locked.results.map((l) => l.date))],
      totals: {
        count,
        duration,
        totalPaidBreaks: paid,
        totalUnpaidBreaks: unpaid,
        payableDuration: payable,
        amount: amountOf(units, decimalsOf(currency)),
      },
    },
    { headers },
  );
}

/** CSV as ours writes it: RFC 4180 quoting; user text starting with = + - @ TAB CR gets a leading apostrophe. */
const csvField = (value, text) => {
  if (value === null || value === undefined) return "";
  let field = String(value);
  if (text && typeof value === "string" && /^[=+\-@\t\r]/.test(field)) field = `'${field}`;
  return /[",\r\n]/.test(field) ? `"${field.replaceAll('"', '""')}"` : field;
};
const CSV_HEADER =
  "shiftId,businessDate,employeeId,employeeExternalId,employeePayrollId,employeeName,locationId,locationExternalId," +
  "locationName,roleId,roleExternalId,roleName,utcOffset,localStartTime,localEndTime,utcStartTime,utcEndTime,duration," +
  "totalPaidBreaks,totalUnpaidBreaks,payableDuration,payableHours,hourlyWage,amount,flags,manualEntry,clockInSource," +
  "clockInDeviceId,clockOutSource,clockOutDeviceId,locked";
const localTime = (ms, offset) => (ms === null ? null : wall(ms, offset).replace(/Z$/, ""));

function csvRecord(values, lookups) {
  const s = shiftOf(values);
  const staff = lookups.staff.get(s.employeeId);
  const location = lookups.locations.get(s.locationId);
  const role = lookups.roles.get(s.roleId);
  const [employeeName, employeeExternalId, employeePayrollId] = staff ? [staff.name, staff.external_id, staff.external_payroll_id] : [];
  const [locationName, locationExternalId] = location ? [location.name, location.external_id] : [];
  const [roleName, roleExternalId] = role ? [role.name, role.external_id] : [];
  return `${[
    csvField(s.id),
    csvField(s.businessDate),
    csvField(s.employeeId),
    csvField(employeeExternalId, true),
    csvField(employeePayrollId, true),
    csvField(employeeName, true),
    csvField(s.locationId),
    csvField(locationExternalId, true),
    csvField(locationName, true),
    csvField(s.roleId),
    csvField(roleExternalId, true),
    csvField(roleName, true),
    csvField(s.utcOffset),
    csvField(localTime(s.startAt, s.utcOffset)),
    csvField(localTime(s.endAt, s.utcOffset)),
    csvField(iso(s.startAt)),
    csvField(isoOrNull(s.endAt)),
    csvField(s.duration),
    csvField(s.paidBreaks),
    csvField(s.unpaidBreaks),
    csvField(s.payable),
    csvField(hours(s.payable)),
    csvField(wage(s)),
    csvField(s.salaried ? null : amountText(shiftAmount(s.payable, s.hourlyWage, lookups.decimals), lookups.decimals)),
    csvField(s.flags.join(";")),
    csvField(s.manualEntry),
    csvField(s.clockInSource),
    csvField(s.clockInDeviceId),
    csvField(s.clockOutSource),
    csvField(s.clockOutDeviceId),
    csvField(lookups.isLocked(s)),
    // One column per active custom field (the shift's value, or nothing), as ours writes them after the fixed ones.
    ...lookups.fields.map((f) => csvField(s.customFields[f.id] ?? null, true)),
  ].join(",")}\r\n`;
}

/** GET /api/timesheets/export?format=csv: a stream that reads one keyset page of 500 per pull, as ours does. */
function exportCsv(db, request) {
  const url = new URL(request.url);
  const p = timesheetParams(url);
  if (!p) return problem(400, "VALIDATION_ERROR");
  if ((url.searchParams.get("format") ?? "csv") !== "csv") return problem(400, "VALIDATION_ERROR");
  const encoder = new TextEncoder();
  let after = null;
  let lookups = null;
  const body = new ReadableStream({
    async pull(controller) {
      let rows;
      if (lookups) {
        const [sql, values] = exportStatement(p, after);
        rows = await db
          .prepare(sql)
          .bind(...values)
          .raw();
      } else {
        // The first page comes in one batch with the organization's names, the range's locked days and the currency.
        const [staff, locations, roles, locked, fields, currency, page] = await batch(db, exportFirstStatements(p));
        const byId = (result) => new Map(result.results.map((r) => [r.id, r]));
        lookups = {
          staff: byId(staff),
          locations: byId(locations),
          roles: byId(roles),
          isLocked: lockedLookup(locked.results),
          decimals: decimalsOf(currency),
          // Active fields by name, then id (domain/custom-fields' exportedFields): their names head the extra columns.
          fields: fields.results
            .filter((f) => f.active)
            .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
        };
        // The header names the custom fields, so it goes out with the first page (ours writes it before any row too).
        const header = [CSV_HEADER, ...lookups.fields.map((f) => csvField(f.name, true))].join(",");
        controller.enqueue(encoder.encode(`${header}\r\n`));
        rows = page.results.map((r) => Object.values(r));
      }
      if (rows.length > 0) controller.enqueue(encoder.encode(rows.map((r) => csvRecord(r, lookups)).join("")));
      const last = rows[rows.length - 1];
      if (rows.length < EXPORT_PAGE_SIZE || !last) {
        controller.close();
        return;
      }
      after = { businessDate: last[SHIFT_COLUMN.business_date], id: last[SHIFT_COLUMN.id] };
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8; header=present",
      "Content-Disposition": `attachment; filename="timesheets-${p.first}-${p.last}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}

/** GET /api/timesheets/reports: one batch — the page of (day, staff member, location) sums, the totals, the currency. */
async function reportDays(db, request) {
  const url = new URL(request.url);
  const p = timesheetParams(url);
  if (!p) return problem(400, "VALIDATION_ERROR");
  const [rows, totals, currency] = await batch(db, reportStatements(p));
  const decimals = decimalsOf(currency);
  const headers = {};
  if (rows.results.length > p.limit) headers.Link = nextLink(url, { page: String(p.page + 1) });
  const [, duration, , unpaid, payable, ...units] = Object.values(totals.results[0]);
  return Response.json(
    {
      days: rows.results.slice(0, p.limit).map((r) => {
        const [day, employeeId, externalId, locationId, dayDuration, dayUnpaid, dayPayable, ...rest] = Object.values(r);
        const locked = rest[4];
        return {
          day,
          employeeId,
          externalId,
          locationId,
          organizationId: p.org,
          duration: dayDuration,
          totalUnpaidBreaks: dayUnpaid,
          hoursWorked: hours(dayPayable),
          amount: amountOf(rest, decimals),
          locked: locked === 1,
        };
      }),
      totals: { duration, totalUnpaidBreaks: unpaid, hoursWorked: hours(payable), amount: amountOf(units, decimals) },
    },
    { headers },
  );
}

/** GET /api/timesheets/reports/employees: one batch — one row per staff member, the currency. */
async function reportEmployees(db, request) {
  const url = new URL(request.url);
  const p = timesheetParams(url);
  if (!p) return problem(400, "VALIDATION_ERROR");
  const after = p.cursor ? atob(p.cursor) : null;
  const [page, currency] = await batch(db, employeeReportStatements(p, after));
  const rows = page.results.map((r) => Object.values(r));
  const decimals = decimalsOf(currency);
  const shown = rows.slice(0, p.limit);
  const headers = {};
  const last = shown[shown.length - 1];
  if (rows.length > p.limit && last) headers.Link = nextLink(url, { cursor: btoa(last[0]).replaceAll("=", "") });
  return Response.json(
    shown.map(([employeeId, externalId, name, shifts, duration, paid, unpaid, payable, ...units]) => ({
      employeeId,
      externalId,
      name,
      shifts,
      duration,
      totalPaidBreaks: paid,
      totalUnpaidBreaks: unpaid,
      payableDuration: payable,
      hoursWorked: hours(payable),
      amount: amountOf(units, decimals),
      flaggedShifts: units[4],
    })),
    { headers },
  );
}

/** [method, path pattern, handler]: the worker's routes for this scenario (most specific first). */
export const routes = [
  ["GET", /^\/api\/timesheets\/reports\/employees$/, reportEmployees],
  ["GET", /^\/api\/timesheets\/reports$/, reportDays],
  ["GET", /^\/api\/timesheets\/export$/, exportCsv],
  ["GET", /^\/api\/timesheets$/, listing],
].map(([method, pattern, handler]) => ({ method, pattern, handle: (db, _match, request) => handler(db, request) }));
