// The SQL our Worker sends to D1 for pay lines (GET /api/timesheets/pay without filters), as plain strings: the
// `.toSQL().sql` of src/features/pay/pay-inputs.data.ts's payInputStatements, one batch of five. `payLinesStatements`
// answers them with the bound values of a request, in drizzle's order. The baseline Worker sends exactly these, and
// the pay scenario compares both, statements AND values, with a fresh trace of our Worker at every run.
//
// Plain JS with no Worker-only imports: the bench (Node) imports it too.

const DAY_MS = 86_400_000;
const addDays = (date, days) => new Date(Date.parse(date) + days * DAY_MS).toISOString().slice(0, 10);

export const SQL = {
  ruleSets: `select "id", "organization_id", "location_id", "scope_key", "name", "effective_from", "preset", "workweek_starts_on", "workday_starts_at", "daily_overtime_after_minutes", "daily_double_time_after_minutes", "weekly_overtime_after_minutes", "seventh_consecutive_day", "overtime_multiplier", "double_time_multiplier", "rounding_increment_minutes", "rounding_mode", "meal_break", "created_at", "updated_at", "deleted_at" from "pay_rule_sets" where ("pay_rule_sets"."organization_id" = ? and "pay_rule_sets"."deleted_at" is null)`,
  shifts: `select "id", "employee_id", "location_id", "business_date", "start_at", "end_at", "utc_offset", "hourly_wage", "breaks_json" from "shifts" where ("shifts"."organization_id" = ? and "shifts"."business_date" >= ? and "shifts"."business_date" <= ? and "shifts"."deleted_at" is null)`,
  timeOff: `select "time_off_requests"."worker_id", "time_off_requests"."hour_configuration" from "time_off_requests" inner join "time_off_policies" on "time_off_policies"."id" = "time_off_requests"."policy_id" where ("time_off_requests"."organization_id" = ? and "time_off_requests"."status" = ? and "time_off_requests"."deleted_at" is null and "time_off_requests"."start_at" < ? and "time_off_requests"."end_at" > ? and "time_off_policies"."paid" = ?)`,
  organization: `select "currency_code", '' from "organizations" where "organizations"."id" = ?`,
  staff: `select "id", "name", "external_id", "external_payroll_id", "currency_code", "hourly_wage", "wage_type" from "staff_members" where "staff_members"."organization_id" = ?`,
};

/** [sql, values] of the pay lines batch: the shifts from 8 days before the range to 7 after (its workweeks, whole). */
export function payLinesStatements({ organizationId, startDate, endDate }) {
  return [
    [SQL.ruleSets, [organizationId]],
    [SQL.shifts, [organizationId, addDays(startDate, -8), addDays(endDate, 7)]],
    [
      SQL.timeOff,
      [organizationId, "approved", Date.parse(`${endDate}T00:00:00Z`) + 2 * DAY_MS, Date.parse(`${startDate}T00:00:00Z`) - DAY_MS, 1],
    ],
    [SQL.organization, [organizationId]],
    [SQL.staff, [organizationId]],
  ];
}
