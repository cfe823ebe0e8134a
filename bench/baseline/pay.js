// Baseline pay lines: GET /api/timesheets/pay paged by staff member as ours (`limit`, `cursor`, `Link`), sending our
// Worker's two round trips (pay-statements.js) with the same bound values, written by hand with no framework, no validation, no authentication or authorisation (the
// organization comes from the `organizationId` query parameter), and no drizzle: rows are read by column name.
// The pay rules themselves are the product's, not the framework's: the classification is src/domain's own pure
// functions, imported as they are, so what this leaves out is only what our Worker does around them.
import { computePay } from "../../src/domain/pay-classification.ts";
import { payShiftFromStored } from "../../src/domain/pay-shift.ts";
import { payLinesPageStatements, payLinesStatements } from "./pay-statements.js";

const send = async (db, pairs) => (await db.batch(pairs.map(([sql, values]) => db.prepare(sql).bind(...values)))).map((r) => r.results);

const ruleSetOf = (r) => ({
  id: r.id,
  locationId: r.location_id,
  effectiveFrom: r.effective_from,
  preset: r.preset,
  workweekStartsOn: r.workweek_starts_on,
  workdayStartsAt: r.workday_starts_at,
  dailyOvertimeAfterMinutes: r.daily_overtime_after_minutes,
  dailyDoubleTimeAfterMinutes: r.daily_double_time_after_minutes,
  weeklyOvertimeAfterMinutes: r.weekly_overtime_after_minutes,
  seventhConsecutiveDay: r.seventh_consecutive_day === 1,
  overtimeMultiplier: r.overtime_multiplier,
  doubleTimeMultiplier: r.double_time_multiplier,
  rounding: { incrementMinutes: r.rounding_increment_minutes, mode: r.rounding_mode },
  mealBreak: r.meal_break === null ? null : JSON.parse(r.meal_break),
});

async function payLines(db, request) {
  const url = new URL(request.url);
  const organizationId = url.searchParams.get("organizationId");
  const startDate = url.searchParams.get("startDate");
  const endDate = url.searchParams.get("endDate");
  const limit = Number(url.searchParams.get("limit") ?? 100);
  const cursor = url.searchParams.get("cursor");
  const afterId = cursor === null ? undefined : atob(cursor).split("|")[2];
  const range = { organizationId, startDate, endDate, limit, afterId };
  const [sets, organization, pageRows] = await send(db, payLinesStatements(range));
  const pageIds = pageRows.slice(0, limit).map((r) => r.id);
  const rows = pageIds.length ? await send(db, payLinesPageStatements(range, pageIds)) : [];
  // Per 90 ids: shifts, time off, premiums owed (none seeded: the bench's organization has no Fair Workweek pack).
  const part = (k) => rows.filter((_, i) => i % 3 === k).flat();
  const [shiftRows, timeOffRows, staffRows] = [part(0), part(1), pageRows.slice(0, limit)];

  const ids = new Set([...shiftRows.map((s) => s.employee_id), ...timeOffRows.map((t) => t.worker_id)]);
  const currency = organization[0]?.currency_code ?? "USD";
  const employees = new Map();
  const salaried = new Set();
  for (const s of staffRows) {
    if (!ids.has(s.id)) continue;
    if (s.wage_type === "salary") salaried.add(s.id);
    employees.set(s.id, {
      externalId: s.external_id,
      externalPayrollId: s.external_payroll_id,
      currencyCode: s.currency_code ?? currency,
      hourlyWage: s.wage_type === "salary" ? null : (s.hourly_wage ?? 0),
    });
  }
  const shifts = shiftRows.map((s) =>
    payShiftFromStored({
      id: s.id,
      employeeId: s.employee_id,
      locationId: s.location_id,
      businessDate: s.business_date,
      startAt: new Date(s.start_at),
      endAt: s.end_at === null ? null : new Date(s.end_at),
      utcOffset: s.utc_offset,
      hourlyWage: salaried.has(s.employee_id) ? null : s.hourly_wage,
      breaks: JSON.parse(s.breaks_json),
    }),
  );
  const timeOff = timeOffRows.flatMap((t) =>
    JSON.parse(t.hour_configuration).map((day) => ({
      employeeId: t.worker_id,
      date: day.date,
      hours: day.hours,
      hourlyWage: employees.get(t.worker_id)?.hourlyWage ?? 0,
    })),
  );
  const pay = computePay({ startDate, endDate, shifts, timeOff, ruleSets: sets.map(ruleSetOf) });
  const headers = {};
  if (pageRows.length > limit) {
    const next = new URL(request.url);
    next.searchParams.set("cursor", btoa([startDate, endDate, pageIds[pageIds.length - 1]].join("|")).replaceAll("=", ""));
    headers.Link = `<${next.pathname}${next.search}>; rel="next"`;
  }
  return Response.json(
    {
      startDate,
      endDate,
      employees: pay.employees.map(({ employeeId, lines, ...totals }) => {
        const employee = employees.get(employeeId);
        return {
          employeeId,
          externalId: employee?.externalId ?? null,
          externalPayrollId: employee?.externalPayrollId ?? null,
          currencyCode: employee?.currencyCode ?? "USD",
          ...totals,
          lines,
        };
      }),
      totals: pay.totals,
    },
    { headers },
  );
}

/** The worker's routes for this scenario. */
export const routes = [{ method: "GET", pattern: /^\/api\/timesheets\/pay$/, handle: (db, _match, request) => payLines(db, request) }];
