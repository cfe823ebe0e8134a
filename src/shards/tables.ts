/**
 * Every table of a shard, classified for moving an organization between shards (src/shards/move-organization.ts).
 * test/shards/tables.test.ts fails when a table exists that is classified nowhere here, and when MOVED_TABLES is
 * not in foreign-key order.
 *
 * MOVED_TABLES are copied in this order (parents before children: D1 enforces foreign keys) and deleted in reverse.
 * Each names how its rows belong to an organization and its primary key, the keyset the pages walk.
 */
export type Ownership =
  /** Rows with organization_id = the organization. */
  | "organization_id"
  /** The organizations row itself: id = the organization. */
  | "id"
  /** Idempotency-Key records, keyed by a scope "<partner>:<organization>:<staff member or empty>". */
  | "idempotency_scope";

export interface MovedTable {
  name: string;
  owner: Ownership;
  key: readonly string[];
  /** Rows the copy and its verification leave out (the delete still removes them). */
  transient?: string;
}

const owned = (name: string, key: readonly string[] = ["id"]): MovedTable => ({ name, owner: "organization_id", key });

export const MOVED_TABLES: readonly MovedTable[] = [
  { name: "organizations", owner: "id", key: ["id"] },
  owned("access_roles"),
  owned("roles"),
  owned("locations"),
  owned("holiday_overrides", ["location_id"]),
  owned("policy_types"),
  owned("time_off_settings", ["organization_id"]),
  owned("attendance_settings", ["organization_id"]),
  owned("staff_members"),
  owned("cost_codes"),
  owned("cost_code_assignments", ["cost_code_id", "employee_id"]),
  owned("custom_fields"),
  owned("break_types"),
  owned("wage_rates"),
  owned("locked_days", ["location_id", "date"]),
  owned("open_shifts"),
  owned("availabilities"),
  owned("availability_occurrences", ["availability_id", "start_at"]),
  owned("schedule_entries"),
  owned("open_shift_preferences"),
  owned("shift_requests"),
  owned("shifts"),
  owned("shift_audits"),
  owned("shift_breaks"),
  owned("shift_events"),
  owned("shift_notes"),
  owned("attendance_exceptions"),
  owned("time_off_policies"),
  owned("worker_policies"),
  owned("time_off_ledger"),
  owned("time_off_requests"),
  owned("pay_rule_sets"),
  owned("pay_rule_set_uses", ["rule_set_id", "period_start_date"]),
  owned("pay_period_settings", ["organization_id"]),
  owned("payroll_settings", ["organization_id"]),
  owned("pay_periods", ["organization_id", "start_date"]),
  // Its rows name objects in R2, in its region's bucket: within a region the keys stay valid on the target and nothing in
  // R2 moves; between regions the move copies the objects too (./files.ts).
  owned("pay_period_snapshots", ["organization_id", "period_start_date", "version"]),
  owned("timesheet_approvals", ["organization_id", "period_start_date", "employee_id"]),
  owned("events"),
  owned("audit_log"),
  owned("webhooks"),
  owned("webhook_deliveries"),
  // Its rows name objects in R2, in its region's bucket like the payroll snapshots'.
  owned("exports"),
  owned("jobs"),
  owned("demand_intervals", ["location_id", "metric", "kind", "start_at"]),
  owned("labor_targets", ["location_id"]),
  owned("location_fair_workweek", ["location_id"]),
  owned("location_fair_workweek_versions"),
  owned("location_working_time", ["location_id"]),
  owned("location_working_time_versions"),
  owned("good_faith_estimates"),
  // Kiosks (features/kiosk): devices of a location, PINs and wrong PINs of a staff member.
  owned("devices"),
  owned("staff_member_pins", ["employee_id"]),
  owned("pin_failures"),
  // Kiosk photos: rows name objects in R2, in its region's bucket like the payroll snapshots'.
  owned("photos"),
  owned("schedule_changes"),
  owned("consents"),
  // A claim without an answer belongs to a request still running: during the freeze it fails and releases its key.
  { name: "idempotency_keys", owner: "idempotency_scope", key: ["scope", "key"], transient: `"status" IS NULL` },
];

/** Tables that hold no organization's data, and why: a move leaves them alone. */
export const UNMOVED_TABLES: Readonly<Record<string, string>> = {
  write_guards: "one constant row every write batch's guards insert into and never change",
  organization_directory: "the directory, read from the DB binding only; the move flips its entry there",
  organization_freezes: "per shard: the freeze (and the tombstone after a move) is the source shard's own state",
  organization_moves: "the moves' state, in the directory's database only",
  partner_token_uses: "the exchanged partner tokens' ids, a partner's and no organization's, in the directory's database only",
  partner_api_versions: "each partner's pinned API version, a partner's and no organization's, in the directory's database only",
  d1_migrations: "each database's own migration history",
};

/** Names SQLite and D1 keep for themselves (sqlite_sequence, _cf_KV, …): not the schema's. */
export const isInternalTable = (name: string) => name.startsWith("sqlite_") || name.startsWith("_cf_");
