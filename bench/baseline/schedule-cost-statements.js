// The SQL our Worker sends to D1 for GET …/locations/{locationId}/schedules/cost
// (src/features/schedule-cost/schedule-cost.data.ts), as plain strings: the `.toSQL().sql` of its two round trips —
// the location, then one batch of every read of the projection (the staff members are a subquery, never an IN list).
// `scheduleCostTrips` answers them with the bound values of a request, in drizzle's order; the labor-cost scenario
// compares them with a fresh trace of our Worker at every run.
//
// Plain JS with no Worker-only imports: the bench (Node) imports it too.

const DAY_MS = 86_400_000;
const addDays = (date, days) => new Date(Date.parse(date) + days * DAY_MS).toISOString().slice(0, 10);

const staff = (includeDrafts) =>
  includeDrafts
    ? "SELECT employee_id FROM schedule_entries WHERE location_id = ? AND +organization_id = ? AND start_at >= ? AND start_at < ? AND deleted_at IS NULL UNION SELECT employee_id FROM shifts WHERE location_id = ? AND +organization_id = ? AND business_date >= ? AND business_date <= ? AND deleted_at IS NULL UNION SELECT employee_id FROM schedule_changes WHERE location_id = ? AND organization_id = ? AND entry_date >= ? AND entry_date <= ? AND premium_rule IS NOT NULL AND deleted_at IS NULL"
    : "SELECT employee_id FROM schedule_entries WHERE location_id = ? AND +organization_id = ? AND start_at >= ? AND start_at < ? AND deleted_at IS NULL AND is_draft = 0 UNION SELECT employee_id FROM shifts WHERE location_id = ? AND +organization_id = ? AND business_date >= ? AND business_date <= ? AND deleted_at IS NULL UNION SELECT employee_id FROM schedule_changes WHERE location_id = ? AND organization_id = ? AND entry_date >= ? AND entry_date <= ? AND premium_rule IS NOT NULL AND deleted_at IS NULL";

export const SQL = {
  location:
    'select "id", "timezone" from "locations" where (("locations"."organization_id" = ? and "locations"."deleted_at" is null) and "locations"."id" = ?)',
  ruleSets:
    'select "id", "organization_id", "location_id", "scope_key", "name", "effective_from", "preset", "workweek_starts_on", "workday_starts_at", "daily_overtime_after_minutes", "daily_double_time_after_minutes", "weekly_overtime_after_minutes", "seventh_consecutive_day", "overtime_multiplier", "double_time_multiplier", "rounding_increment_minutes", "rounding_mode", "meal_break", "created_at", "updated_at", "deleted_at" from "pay_rule_sets" where ("pay_rule_sets"."organization_id" = ? and "pay_rule_sets"."deleted_at" is null)',
  shifts: (includeDrafts) =>
    `select "id", "employee_id", "location_id", "business_date", "start_at", "end_at", "utc_offset", "hourly_wage", "breaks_json" from "shifts" where ("shifts"."employee_id" IN (${staff(includeDrafts)}) and +"shifts"."organization_id" = ? and "shifts"."business_date" >= ? and "shifts"."business_date" <= ? and "shifts"."deleted_at" is null)`,
  entries: (includeDrafts) =>
    `select "id", "employee_id", "location_id", "role_id", "start_at", "end_at", "utc_offset", "breaks" from "schedule_entries" where ("schedule_entries"."employee_id" IN (${staff(includeDrafts)}) and +"schedule_entries"."organization_id" = ? and "schedule_entries"."start_at" >= ? and "schedule_entries"."start_at" < ? and "schedule_entries"."end_at" > ? and "schedule_entries"."deleted_at" is null)`.replace(
      /\)$/,
      includeDrafts ? ")" : ' and "schedule_entries"."is_draft" = ?)',
    ),
  wageRates: (includeDrafts) =>
    `select "employee_id", "id", "role_id", "location_id", "hourly_rate", "effective_from" from "wage_rates" where ("wage_rates"."employee_id" IN (${staff(includeDrafts)}) and "wage_rates"."organization_id" = ? and "wage_rates"."deleted_at" is null and "wage_rates"."effective_from" <= ?)`,
  staff: (includeDrafts) =>
    `select "id", "hourly_wage", "wage_type" from "staff_members" where ("staff_members"."id" IN (${staff(includeDrafts)}) and "staff_members"."organization_id" = ?)`,
  roles: 'select "id", "hourly_wage" from "roles" where "roles"."organization_id" = ?',
  breakTypes:
    'select "id", "location_id", "name", "mandatory", "enabled", "frequency_minutes", "duration_minutes", "paid" from "break_types" where ("break_types"."organization_id" = ? and "break_types"."deleted_at" is null)',
  sales:
    'select "start_at", "value" from "demand_intervals" where ("demand_intervals"."location_id" = ? and "demand_intervals"."metric" = ? and "demand_intervals"."kind" = ? and "demand_intervals"."start_at" >= ? and "demand_intervals"."start_at" < ? and "demand_intervals"."organization_id" = ?)',
  targets:
    'select "labor_percent", "sales_per_labor_hour" from "labor_targets" where ("labor_targets"."location_id" = ? and "labor_targets"."organization_id" = ?)',
  organization: 'select "currency_code" from "organizations" where "organizations"."id" = ?',
  /** Fair Workweek: the priced changes of the location's entries dated in the range, and the organization's packs. */
  premiums:
    'select "employee_id", "entry_date", "premium_hours", "premium_amount", "premium_rule" from "schedule_changes" where ("schedule_changes"."organization_id" = ? and "schedule_changes"."location_id" = ? and "schedule_changes"."entry_date" >= ? and "schedule_changes"."entry_date" <= ? and "schedule_changes"."premium_rule" IS NOT NULL and "schedule_changes"."deleted_at" is null)',
  packs:
    'select "location_id", "organization_id", "rule_pack", "overrides", "created_at", "updated_at" from "location_fair_workweek" where "location_fair_workweek"."organization_id" = ?',
};

/** The first round trip: the location, with its zone. */
export const locationRead = ({ organizationId, locationId }) => [[SQL.location, [organizationId, locationId]]];

/**
 * The second: every read of the projection. `range` is the location's local days [startDate, endDate] as instants
 * ({ start, end } in ms, as src/domain/local-time's localDayBounds gives them); `now` in ms.
 */
export function projectionRead({ organizationId, locationId, startDate, endDate, includeDrafts = false, range, now }) {
  const staffValues = [locationId, organizationId, range.start, range.end, locationId, organizationId, startDate, endDate];
  staffValues.push(locationId, organizationId, startDate, endDate);
  // src/domain/pay-workweek's payReadWindow, and a day's margin either side for entries in other zones.
  const window = { from: addDays(startDate, -8), to: addDays(endDate, 7) };
  const entriesFrom = Date.parse(`${window.from}T00:00:00Z`) - 2 * DAY_MS;
  const entriesTo = Date.parse(`${addDays(window.to, 1)}T00:00:00Z`) + 2 * DAY_MS;
  return [
    [SQL.ruleSets, [organizationId]],
    [SQL.shifts(includeDrafts), [...staffValues, organizationId, window.from, window.to]],
    [SQL.entries(includeDrafts), [...staffValues, organizationId, entriesFrom, entriesTo, now, ...(includeDrafts ? [] : [0])]],
    [SQL.wageRates(includeDrafts), [...staffValues, organizationId, window.to]],
    [SQL.staff(includeDrafts), [...staffValues, organizationId]],
    [SQL.roles, [organizationId]],
    [SQL.breakTypes, [organizationId]],
    [SQL.sales, [locationId, "SALES", "FORECAST", range.start, range.end, organizationId]],
    [SQL.targets, [locationId, organizationId]],
    [SQL.organization, [organizationId]],
    [SQL.premiums, [organizationId, locationId, startDate, endDate]],
    [SQL.packs, [organizationId]],
  ];
}
