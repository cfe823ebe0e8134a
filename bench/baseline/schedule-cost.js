// Baseline schedule cost: GET …/locations/{locationId}/schedules/cost sending our Worker's two round trips
// (schedule-cost-statements.js) with the same bound values, by hand, with no framework, validation, authentication or
// drizzle; the projection, the pay rules and the figures are src/domain's own pure functions, imported as they are,
// so what this leaves out is only what our Worker does around them.
import { localDayBounds } from "../../src/domain/local-time.ts";
import { computeChargedPay } from "../../src/domain/pay-classification.ts";
import { payShiftFromStored } from "../../src/domain/pay-shift.ts";
import { projectedShifts, salesByDate, scheduleCost } from "../../src/domain/schedule-cost.ts";
import { ruleSetOf } from "./labor-cost.js";
import { locationRead, projectionRead } from "./schedule-cost-statements.js";

const send = async (db, pairs) => (await db.batch(pairs.map(([sql, values]) => db.prepare(sql).bind(...values)))).map((r) => r.results);

const groupBy = (rows) => {
  const map = new Map();
  for (const row of rows) map.set(row.employeeId, [...(map.get(row.employeeId) ?? []), row]);
  return map;
};

async function scheduleCostOf(db, match, request) {
  const [, organizationId, locationId] = match;
  const url = new URL(request.url);
  const startDate = url.searchParams.get("startDate");
  const endDate = url.searchParams.get("endDate");
  const includeDrafts = url.searchParams.get("includeDrafts") === "true";
  const [[sql, values]] = locationRead({ organizationId, locationId });
  const location = await db
    .prepare(sql)
    .bind(...values)
    .first();
  if (!location) return Response.json({ code: "LOCATION_NOT_FOUND" }, { status: 404 });
  const range = {
    start: localDayBounds(startDate, location.timezone).start.getTime(),
    end: localDayBounds(endDate, location.timezone).end.getTime(),
  };
  const now = new Date();
  const read = projectionRead({ organizationId, locationId, startDate, endDate, includeDrafts, range, now: now.getTime() });
  // The last two reads (Fair Workweek premiums and packs) are sent as ours sends them and not applied: the bench's
  // organization has no pack, so they answer nothing and neither projection has a premium line.
  const [sets, shiftRows, entryRows, rateRows, staffRows, roleRows, typeRows, intervals, targetRows, organization] = await send(db, read);
  const salaried = new Set(staffRows.filter((s) => s.wage_type === "salary").map((s) => s.id));
  const shifts = shiftRows.map((s) => ({
    id: s.id,
    employeeId: s.employee_id,
    locationId: s.location_id,
    businessDate: s.business_date,
    startAt: new Date(s.start_at),
    endAt: s.end_at === null ? null : new Date(s.end_at),
    utcOffset: s.utc_offset,
    hourlyWage: salaried.has(s.employee_id) ? null : s.hourly_wage,
    breaks: JSON.parse(s.breaks_json),
  }));
  const entries = entryRows.map((e) => ({
    id: e.id,
    employeeId: e.employee_id,
    locationId: e.location_id,
    roleId: e.role_id,
    startAt: new Date(e.start_at),
    endAt: new Date(e.end_at),
    utcOffset: e.utc_offset,
    breakTypeIds: JSON.parse(e.breaks),
  }));
  const wages = {
    rates: groupBy(
      rateRows.map((r) => ({
        employeeId: r.employee_id,
        id: r.id,
        roleId: r.role_id,
        locationId: r.location_id,
        hourlyRate: r.hourly_rate,
        effectiveFrom: r.effective_from,
      })),
    ),
    roles: new Map(roleRows.map((r) => [r.id, { id: r.id, hourlyWage: r.hourly_wage }])),
    staff: new Map(staffRows.map((s) => [s.id, { id: s.id, hourlyWage: s.hourly_wage, wageType: s.wage_type }])),
  };
  const breakTypes = typeRows.map((t) => ({
    id: t.id,
    locationId: t.location_id,
    name: t.name,
    mandatory: t.mandatory === 1,
    enabled: t.enabled === 1,
    frequencyMinutes: t.frequency_minutes,
    durationMinutes: t.duration_minutes,
    paid: t.paid === 1,
  }));
  const projected = projectedShifts({ now, shifts, entries, breakTypes, wages });
  const ruleSets = sets.map(ruleSetOf);
  const employees = computeChargedPay({ startDate, endDate, shifts: projected.map(payShiftFromStored), timeOff: [], ruleSets });
  const targets = { laborPercent: targetRows[0]?.labor_percent ?? null, salesPerLaborHour: targetRows[0]?.sales_per_labor_hour ?? null };
  const sales = salesByDate(
    intervals.map((i) => ({ startAt: i.start_at, value: i.value })),
    location.timezone,
  );
  const cost = scheduleCost({ employees, startDate, endDate, locationId, shifts: projected, sales, targets });
  return Response.json({
    locationId,
    startDate,
    endDate,
    includeDrafts,
    currencyCode: organization[0]?.currency_code ?? "USD",
    targets,
    ...cost,
  });
}

/** The worker's routes for this scenario. */
export const routes = [
  { method: "GET", pattern: /^\/api\/organizations\/([^/]+)\/locations\/([^/]+)\/schedules\/cost$/, handle: scheduleCostOf },
];
