// The SQL our Worker sends to D1 for a page of pay lines (GET /api/timesheets/pay without filters), as plain strings:
// the `.toSQL().sql` of src/features/pay/pay-inputs.data.ts's readPayInputsPage, two round trips: the rule sets, the
// currency and the page's staff members (their rows); then their shifts and time off by IN lists of at most 90 ids.
// `payLinesStatements` and `payLinesPageStatements` answer them with the bound values of a request, in drizzle's
// order. The baseline Worker sends exactly these, and the pay scenario compares both, statements AND values, with a
// fresh trace of our Worker at every run.
//
// Plain JS with no Worker-only imports: the bench (Node) imports it too.

const DAY_MS = 86_400_000;
const marks = (ids) => ids.map(() => "?").join(", ");
const addDays = (date, days) => new Date(Date.parse(date) + days * DAY_MS).toISOString().slice(0, 10);

export const SQL = {
  ruleSets: `select "id", "organization_id", "location_id", "scope_key", "name", "effective_from", "preset", "workweek_starts_on", "workday_starts_at", "daily_overtime_after_minutes", "daily_double_time_after_minutes", "weekly_overtime_after_minutes", "seventh_consecutive_day", "overtime_multiplier", "double_time_multiplier", "rounding_increment_minutes", "rounding_mode", "meal_break", "created_at", "updated_at", "deleted_at" from "pay_rule_sets" where ("pay_rule_sets"."organization_id" = ? and "pay_rule_sets"."deleted_at" is null)`,
  shifts: (ids) =>
    `select "id", "employee_id", "location_id", "business_date", "start_at", "end_at", "utc_offset", "hourly_wage", "breaks_json" from "shifts" where (+"shifts"."organization_id" = ? and "shifts"."business_date" >= ? and "shifts"."business_date" <= ? and "shifts"."deleted_at" is null and "shifts"."employee_id" in (${marks(ids)}))`,
  timeOff: (ids) =>
    `select "time_off_requests"."worker_id", "time_off_requests"."hour_configuration" from "time_off_requests" inner join "time_off_policies" on "time_off_policies"."id" = "time_off_requests"."policy_id" where ("time_off_requests"."organization_id" = ? and "time_off_requests"."status" = ? and "time_off_requests"."deleted_at" is null and "time_off_requests"."start_at" < ? and "time_off_requests"."end_at" > ? and "time_off_policies"."paid" = ? and "time_off_requests"."worker_id" in (${marks(ids)}))`,
  organization: `select "currency_code", '' from "organizations" where "organizations"."id" = ?`,
  page: [
    'select "id", "name", "external_id", "external_payroll_id", "currency_code", "hourly_wage", "wage_type" from "staff_members" where ("staff_members"."organization_id" = ? and (EXISTS (SELECT 1 FROM shifts AS worked WHERE worked.employee_id = "staff_members"."id"',
    "        AND worked.business_date >= ? AND worked.business_date <= ? AND worked.deleted_at IS NULL)",
    "      OR EXISTS (SELECT 1 FROM time_off_requests AS away INNER JOIN time_off_policies AS policy ON policy.id = away.policy_id",
    '        WHERE away.worker_id = "staff_members"."id" AND away.status = \'approved\' AND away.deleted_at IS NULL',
    "        AND away.start_at < ? AND away.end_at > ? AND policy.paid = 1)",
    '      OR "staff_members"."id" IN (SELECT owed.employee_id FROM schedule_change_log AS owed WHERE owed.organization_id = ?',
    "        AND owed.entry_date >= ? AND owed.entry_date <= ?",
    '        AND owed.premium_rule IS NOT NULL AND owed.deleted_at IS NULL))) order by "staff_members"."id" asc limit ?',
  ].join("\n"),
  /** Fair Workweek: the organization's rule packs per location (what REST premiums are judged by). */
  packs: `select "location_id", "organization_id", "rule_pack", "overrides", "created_at", "updated_at" from "location_fair_workweek" where "location_fair_workweek"."organization_id" = ?`,
  /** Fair Workweek: the change log's priced changes of the range (the premiums owed) of `ids`. */
  premiums: (ids) =>
    `select "id", "organization_id", "location_id", "schedule_entry_id", "employee_id", "kind", "notice_minutes", "minutes_lost", "minutes_added", "entry_minutes", "initiated_by", "exemption", "reason", "entry_date", "rule_pack", "premium_hours", "premium_amount", "premium_rule", "active", "created_at", "updated_at", "deleted_at" from "schedule_change_log" where ("schedule_change_log"."organization_id" = ? and "schedule_change_log"."entry_date" >= ? and "schedule_change_log"."entry_date" <= ? and "schedule_change_log"."premium_rule" IS NOT NULL and "schedule_change_log"."deleted_at" IS NULL and "schedule_change_log"."employee_id" in (${marks(ids)}))`,
};

/** Ids bound in one IN list (src/features/pay/pay-inputs.data.ts's IDS_PER_STATEMENT). */
export const IDS_PER_STATEMENT = 90;

/** The first round trip of a page: [sql, values] of the rule sets, the currency, the page's staff members (limit + 1) and the Fair Workweek packs. */
export function payLinesStatements({ organizationId, startDate, endDate, limit = 100, afterId }) {
  // A next page (its cursor's last staff member id) keeps the ids after it.
  const after = afterId === undefined ? [] : [afterId];
  const page = afterId === undefined ? SQL.page : SQL.page.replace(" = ? and (EXISTS", ' = ? and "staff_members"."id" > ? and (EXISTS');
  return [
    [SQL.ruleSets, [organizationId]],
    [SQL.organization, [organizationId]],
    [
      page,
      [
        organizationId,
        ...after,
        addDays(startDate, -8),
        addDays(endDate, 7),
        Date.parse(`${endDate}T00:00:00Z`) + 2 * DAY_MS,
        Date.parse(`${startDate}T00:00:00Z`) - DAY_MS,
        organizationId,
        startDate,
        endDate,
        limit + 1,
      ],
    ],
    [SQL.packs, [organizationId]],
  ];
}

/** The second: the shifts from 8 days before the range to 7 after (its workweeks, whole), the time off and the premiums owed of `ids`, 90 ids a statement each. */
export function payLinesPageStatements({ organizationId, startDate, endDate }, ids) {
  const pairs = [];
  for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) {
    const part = ids.slice(i, i + IDS_PER_STATEMENT);
    pairs.push(
      [SQL.shifts(part), [organizationId, addDays(startDate, -8), addDays(endDate, 7), ...part]],
      [
        SQL.timeOff(part),
        [
          organizationId,
          "approved",
          Date.parse(`${endDate}T00:00:00Z`) + 2 * DAY_MS,
          Date.parse(`${startDate}T00:00:00Z`) - DAY_MS,
          1,
          ...part,
        ],
      ],
      [SQL.premiums(part), [organizationId, startDate, endDate, ...part]],
    );
  }
  return pairs;
}
