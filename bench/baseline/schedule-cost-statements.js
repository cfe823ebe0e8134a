// The SQL our Worker sends to D1 for GET …/locations/{locationId}/schedules/cost
// (src/features/schedule-cost/schedule-cost.data.ts), from this run's recording of ours (recording.js): two round
// trips — the location, then one batch of every read of the projection (the staff members are a subquery, never an
// IN list). `locationRead` and `projectionRead` answer them with the bound values of a request, in drizzle's order;
// the labor-cost scenario compares them with its trace of our Worker. Recorded without drafts (the bench's requests).
//
// Plain JS with no Worker-only imports: the bench (Node) imports it too.
import { fromRecording, statement, trip } from "./recording.js";

const DAY_MS = 86_400_000;
const addDays = (date, days) => new Date(Date.parse(date) + days * DAY_MS).toISOString().slice(0, 10);

/** The projection's reads in the order ours batches them, each checked to read its table (`from "<table>"`). */
const READS = [
  ["ruleSets", "pay_rule_sets"],
  ["shifts", "shifts"],
  ["entries", "schedule_entries"],
  ["wageRates", "wage_rates"],
  ["staff", "staff_members"],
  ["roles", "roles"],
  ["breakTypes", "break_types"],
  ["sales", "demand_intervals"],
  ["targets", "labor_targets"],
  ["organization", "organizations"],
  ["premiums", "schedule_changes"],
  ["packs", "location_fair_workweek_versions"],
];

/** Filled from the recording of a schedule cost request of ours (published entries only). */
export const SQL = {};

fromRecording(["schedule cost"], (r) => {
  SQL.location = statement(r, "schedule cost", 0, 0, 'select "id", "timezone" from "locations"');
  trip(r, "schedule cost", 0, 1);
  trip(r, "schedule cost", 1, READS.length);
  READS.forEach(([name, table], i) => {
    const sql = statement(r, "schedule cost", 1, i, "select");
    if (!sql.includes(` from "${table}"`))
      throw new Error(`recording: schedule cost's read ${i + 1} no longer reads "${table}": ${sql.slice(0, 120)}`);
    SQL[name] = sql;
  });
});

/** The first round trip: the location, with its zone. */
export const locationRead = ({ organizationId, locationId }) => [[SQL.location, [organizationId, locationId]]];

/**
 * The second: every read of the projection. `range` is the location's local days [startDate, endDate] as instants
 * ({ start, end } in ms, as src/domain/local-time's localDayBounds gives them); `now` in ms.
 */
export function projectionRead({ organizationId, locationId, startDate, endDate, includeDrafts = false, range, now }) {
  if (includeDrafts) throw new Error("schedule-cost-statements: only a projection without drafts is recorded");
  const staffValues = [locationId, organizationId, range.start, range.end, locationId, organizationId, startDate, endDate];
  staffValues.push(locationId, organizationId, startDate, endDate);
  // src/domain/pay-workweek's payReadWindow, and a day's margin either side for entries in other zones.
  const window = { from: addDays(startDate, -16), to: addDays(endDate, 14) };
  const entriesFrom = Date.parse(`${window.from}T00:00:00Z`) - 2 * DAY_MS;
  const entriesTo = Date.parse(`${addDays(window.to, 1)}T00:00:00Z`) + 2 * DAY_MS;
  return [
    [SQL.ruleSets, [organizationId]],
    [SQL.shifts, [...staffValues, organizationId, window.from, window.to]],
    [SQL.entries, [...staffValues, organizationId, entriesFrom, entriesTo, now, 0]],
    [SQL.wageRates, [...staffValues, organizationId, window.to]],
    [SQL.staff, [...staffValues, organizationId]],
    [SQL.roles, [organizationId]],
    [SQL.breakTypes, [organizationId]],
    [SQL.sales, [locationId, "SALES", "FORECAST", range.start, range.end, organizationId]],
    [SQL.targets, [locationId, organizationId]],
    [SQL.organization, [organizationId]],
    [SQL.premiums, [organizationId, locationId, startDate, endDate]],
    [SQL.packs, [organizationId]],
  ];
}
