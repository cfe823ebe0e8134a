// Baseline labor cost: GET /api/timesheets/labor-cost sending our Worker's round trips (labor-cost-statements.js) with
// the same bound values, by hand, with no framework, validation, authentication or drizzle (the organization is the
// `organizationId` query parameter); the pay rules and the grouping are src/domain's own pure functions, imported as
// they are, so what this leaves out is only what our Worker does around them. Also PUT …/demand, the same statements
// as ours (demand-statements.js).
import { laborCostAccumulator, parseGroupBy } from "../../src/domain/labor-cost.ts";
import { computeChargedPay } from "../../src/domain/pay-classification.ts";
import { payShiftFromStored } from "../../src/domain/pay-shift.ts";
import { demandTrips } from "./demand-statements.js";
import { LABOR_COST_PAGE, laborCostPageRead, laborCostShiftsRead } from "./labor-cost-statements.js";
import { writeGuard } from "./write-guard.js";

const send = async (db, pairs) => (await db.batch(pairs.map(([sql, values]) => db.prepare(sql).bind(...values)))).map((r) => r.results);

export const ruleSetOf = (r) => ({
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
  // The meal periods (a JSON array, [] for none) and the premium's hours: the columns that replaced `meal_break`.
  mealBreaks: JSON.parse(r.meal_breaks),
  mealPenaltyHours: r.meal_penalty_hours,
});

async function laborCost(db, request) {
  const url = new URL(request.url);
  const organizationId = url.searchParams.get("organizationId");
  const startDate = url.searchParams.get("startDate");
  const endDate = url.searchParams.get("endDate");
  const { keys } = parseGroupBy(url.searchParams.get("groupBy") ?? undefined);
  const range = { organizationId, startDate, endDate };
  const accumulator = laborCostAccumulator(keys);
  let afterId;
  for (;;) {
    const [sets, , pageRows] = await send(db, laborCostPageRead({ ...range, afterId }));
    const staffRows = pageRows.slice(0, LABOR_COST_PAGE);
    const ids = staffRows.map((r) => r.id);
    const rows = ids.length ? await send(db, laborCostShiftsRead(range, ids)) : [];
    // Per 90 ids: shifts, time off, premiums owed (pay-statements.js).
    const part = (k) => rows.filter((_, i) => i % 3 === k).flat();
    const [shiftRows, timeOffRows] = [part(0), part(1)];
    const wages = new Map(staffRows.map((s) => [s.id, s.wage_type === "salary" ? null : (s.hourly_wage ?? 0)]));
    const salaried = new Set(staffRows.filter((s) => s.wage_type === "salary").map((s) => s.id));
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
        hourlyWage: wages.get(t.worker_id) ?? 0,
      })),
    );
    const charges = new Map(shiftRows.map((s) => [s.id, { locationId: s.location_id, roleId: s.role_id, costCodeId: s.cost_code_id }]));
    for (const e of computeChargedPay({ startDate, endDate, shifts, timeOff, ruleSets: sets.map(ruleSetOf) })) {
      accumulator.add(e.pay.employeeId, e.lines, charges);
    }
    if (pageRows.length <= LABOR_COST_PAGE) break;
    afterId = ids.at(-1);
  }
  return Response.json({ startDate, endDate, groupBy: keys, ...accumulator.result() });
}

async function upsertDemand(db, match, request) {
  const [, organizationId, locationId] = match;
  const upload = await request.json();
  // The caller's country as ours reads it (src/platform/middleware/database.ts): both Workers sit behind the same door.
  const country = request.cf?.country;
  const ipCountry = typeof country === "string" && /^[A-Z0-9]{2}$/.test(country) ? country : null;
  const trips = demandTrips({ organizationId, locationId, upload, guard: writeGuard(request), now: Date.now(), ipCountry });
  for (const { pairs } of trips) await send(db, pairs);
  const starts = upload.intervals.map((i) => Date.parse(i.start));
  return Response.json({
    locationId,
    metric: upload.metric,
    kind: upload.kind,
    upserted: upload.intervals.length,
    startTime: new Date(Math.min(...starts)).toISOString(),
    endTime: new Date(Math.max(...starts) + 900_000).toISOString(),
  });
}

/** The worker's routes for this scenario. */
export const routes = [
  { method: "GET", pattern: /^\/api\/timesheets\/labor-cost$/, handle: (db, _match, request) => laborCost(db, request) },
  { method: "PUT", pattern: /^\/api\/organizations\/([^/]+)\/locations\/([^/]+)\/demand$/, handle: upsertDemand },
];
