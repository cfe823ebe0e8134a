// The SQL our Worker sends to D1 for clock-in, clock-out and shift-state, as plain strings (drizzle's output, copied
// from a traced run of bench/counting-entry.ts). The baseline Worker sends exactly these, with the same bound values;
// the bench compares them with a fresh trace of our Worker at every run and says so when they drift apart.

/** Clock-in and clock-out: ONE read batch (the punch context of src/routes/time-tracking/punch-context.ts). */
export const PUNCH_READS = [
  // staff member: [organizationId, staffMemberId]
  `select "id", "organization_id", "name", "email", "phone_number", "external_id", "external_payroll_id", "access_role_id", "hourly_wage", "wage_type", "employment_type", "currency_code", "birth_date", "location_ids", "role_ids", "active", "created_at", "updated_at", "deleted_at" from "staff_members" where (("staff_members"."organization_id" = ? and "staff_members"."deleted_at" is null) and "staff_members"."id" = ?)`,
  // location: [organizationId, locationId]
  `select "id", "organization_id", "name", "website", "country", "state", "city", "address_line1", "address_line2", "zip_code", "external_id", "longitude", "latitude", "clock_in_distance_centimeters", "clock_out_distance_centimeters", "break_start_distance_centimeters", "break_end_distance_centimeters", "timezone", "geofence_mode", "kiosk_photo_required", "active", "created_at", "updated_at", "deleted_at" from "locations" where (("locations"."organization_id" = ? and "locations"."deleted_at" is null) and "locations"."id" = ?)`,
  // role: [organizationId, roleId or '']
  `select "id", "organization_id", "name", "hourly_wage", "external_id", "active", "created_at", "updated_at", "deleted_at" from "roles" where (("roles"."organization_id" = ? and "roles"."deleted_at" is null) and "roles"."id" = ?)`,
  // cost code of the body (clock-in's costCodeId): [organizationId, costCodeId or '']
  `select "id" from "cost_codes" where (("cost_codes"."organization_id" = ? and "cost_codes"."deleted_at" is null) and "cost_codes"."id" = ?)`,
  // open shift: [organizationId, staffMemberId]
  `select "id", "organization_id", "employee_id", "location_id", "role_id", "start_at", "end_at", "utc_offset", "business_date", "hourly_wage", "salaried", "wage_rate_id", "duration", "total_paid_breaks", "total_unpaid_breaks", "payable_duration", "flags", "manual_entry", "clock_in_source", "clock_in_device_id", "clock_out_source", "clock_out_device_id", "cost_code_id", "breaks_json", "custom_fields", "active", "created_at", "updated_at", "deleted_at" from "shifts" where (("shifts"."organization_id" = ? and "shifts"."deleted_at" is null) and "shifts"."employee_id" = ? and "shifts"."end_at" is null)`,
  // its breaks: [organizationId, staffMemberId]
  `select "id", "organization_id", "shift_id", "type_id", "name", "paid", "mandatory", "frequency_minutes", "duration_in_settings_minutes", "start_at", "end_at", "automatic" from "shift_breaks" where "shift_breaks"."shift_id" in (select "id" from "shifts" where (("shifts"."organization_id" = ? and "shifts"."deleted_at" is null) and "shifts"."employee_id" = ? and "shifts"."end_at" is null)) order by "shift_breaks"."start_at"`,
  // latest event: [organizationId, staffMemberId, 1]
  `select "id", "organization_id", "shift_id", "employee_id", "kind", "break_id", "occurred_at", "received_at", "latitude", "longitude", "accuracy_centimeters", "distance_centimeters", "verdict", "flags", "idempotency_key", "source", "device_id", "photo_id" from "shift_events" where ("shift_events"."organization_id" = ? and "shift_events"."employee_id" = ?) order by "shift_events"."occurred_at" desc limit ?`,
  // location's break types: [organizationId, locationId]
  `select "id", "organization_id", "location_id", "name", "duration_minutes", "frequency_minutes", "paid", "mandatory", "enabled", "active", "created_at", "updated_at", "deleted_at" from "break_types" where (("break_types"."organization_id" = ? and "break_types"."deleted_at" is null) and "break_types"."location_id" = ?)`,
  // locked days near the instant or on the open shift's date: [organizationId, locationId, from, to, organizationId, staffMemberId]
  `select "date" from "locked_days" where ("locked_days"."organization_id" = ? and "locked_days"."location_id" = ? and ("locked_days"."date" between ? and ? or "locked_days"."date" in (select "business_date" from "shifts" where (("shifts"."organization_id" = ? and "shifts"."deleted_at" is null) and "shifts"."employee_id" = ? and "shifts"."end_at" is null))))`,
  // the staff member's wage rates in effect by the day after: [organizationId, staffMemberId, to]
  `select "id", "role_id", "location_id", "hourly_rate", "effective_from" from "wage_rates" where ("wage_rates"."organization_id" = ? and "wage_rates"."employee_id" = ? and "wage_rates"."deleted_at" is null and "wage_rates"."effective_from" <= ?)`,
  // every custom field of the organization, deleted ones too (the clock-out's guard fingerprints them): [organizationId]
  `select "id", "type", "options", "pattern", "required", "active", "deleted_at", "updated_at" from "custom_fields" where "custom_fields"."organization_id" = ?`,
  // the request's Idempotency-Key: [scope, key], both '' without the header
  `select "scope", "key", "request_hash", "status", "body", "content_type", "created_at", "expires_at" from "idempotency_keys" where ("idempotency_keys"."scope" = ? and "idempotency_keys"."key" = ?)`,
  // a kiosk's photo of the punch: [organizationId, photoId or '']
  `select "id", "location_id", "shift_id" from "photos" where ("photos"."organization_id" = ? and "photos"."id" = ?)`,
];

/**
 * What attendance exceptions are found with, at the end of the same read batch (src/features/attendance/
 * punch-attendance.data.ts): the settings and published entries near the punch for a clock-in or clock-out, and for a
 * clock-out the pay rule sets and the workday's other closed shifts (the meal rule).
 */
const ATTENDANCE_READS = [
  // settings: [organizationId]
  `select "organization_id", "late_grace_minutes", "early_leave_grace_minutes", "no_show_after_minutes", "auto_clock_out_after_minutes", "created_at", "updated_at" from "attendance_settings" where "attendance_settings"."organization_id" = ?`,
  // published entries near: [staffMemberId, around - 72 h, around + 2 h, locationId, organizationId, 0]
  `select "id", "start_at", "end_at" from "schedule_entries" where ("schedule_entries"."employee_id" = ? and "schedule_entries"."start_at" >= ? and "schedule_entries"."start_at" <= ? and "schedule_entries"."location_id" = ? and "schedule_entries"."organization_id" = ? and "schedule_entries"."is_draft" = ? and "schedule_entries"."deleted_at" is null)`,
];
const MEAL_RULE_READS = [
  // pay rule sets of the organization and the location: [organizationId, locationId]
  `select "id", "organization_id", "location_id", "scope_key", "name", "effective_from", "preset", "workweek_starts_on", "workday_starts_at", "daily_overtime_after_minutes", "daily_double_time_after_minutes", "weekly_overtime_after_minutes", "seventh_consecutive_day", "overtime_multiplier", "double_time_multiplier", "rounding_increment_minutes", "rounding_mode", "meal_break", "created_at", "updated_at", "deleted_at" from "pay_rule_sets" where ("pay_rule_sets"."organization_id" = ? and "pay_rule_sets"."deleted_at" is null and ("pay_rule_sets"."location_id" is null or "pay_rule_sets"."location_id" = ?))`,
  // the open shift's workday's closed shifts: [staffMemberId, organizationId, staffMemberId]
  `select "id", "employee_id", "location_id", "business_date", "start_at", "end_at", "utc_offset", "hourly_wage", "breaks_json" from "shifts" where ("shifts"."employee_id" = ? and "shifts"."business_date" IN (select "business_date" from "shifts" where ("shifts"."organization_id" = ? and "shifts"."employee_id" = ? and "shifts"."end_at" is null)) and "shifts"."end_at" is not null and "shifts"."deleted_at" is null)`,
];

export const CLOCK_IN_READS = [...PUNCH_READS, ...ATTENDANCE_READS];
export const CLOCK_OUT_READS = [...PUNCH_READS, ...ATTENDANCE_READS, ...MEAL_RULE_READS];

/** An attendance exception raised by a punch (UNSCHEDULED_SHIFT, LATE_CLOCK_IN, …), once: 15 values. */
export const EXCEPTION_WRITE = `insert into "attendance_exceptions" ("id", "organization_id", "location_id", "employee_id", "type", "business_date", "schedule_entry_id", "shift_id", "minutes", "status", "note", "detected_at", "resolved_at", "resolved_by", "updated_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing`;

/**
 * With an Idempotency-Key: FIRST in the punch's write batch (src/lib/idempotency.ts `recordStatements`), the key's
 * expired use is dropped and this answer stored; a concurrent twin fails the whole batch on the primary key.
 */
export const IDEMPOTENCY_WRITES = [
  // drop an expired use of the key: [scope, key, now]
  `delete from "idempotency_keys" where ("idempotency_keys"."scope" = ? and "idempotency_keys"."key" = ? and "idempotency_keys"."expires_at" <= ?)`,
  // the answer: [scope, key, requestHash, 200, body, contentType, now, now + 24 h]
  `insert into "idempotency_keys" ("scope", "key", "request_hash", "status", "body", "content_type", "created_at", "expires_at") values (?, ?, ?, ?, ?, ?, ?, ?)`,
];

/**
 * Clock-in: ONE write batch (atomic, src/routes/time-tracking/punch-writes.ts): the shift and its clock_in event.
 * The shift's organization_id is NULL when its business date is locked, its employee_id NULL when another shift of
 * the staff member overlaps it (NOT NULL fails the batch: DAY_LOCKED, SHIFT_OVERLAP).
 */
export const CLOCK_IN_WRITES = [
  // shift: [id, organizationId, locationId, businessDate, staffMemberId, organizationId, staffMemberId, id, startAt,
  //   locationId, staffMemberId, businessDate, businessDate, organizationId, organizationId, businessDate, businessDate,
  //   then the 22 columns from role_id to deleted_at]; location_id is NULL when the staff member's timesheet of the
  //   date is approved or its pay period closed (TIMESHEET_APPROVED)
  `insert into "shifts" ("id", "organization_id", "employee_id", "location_id", "role_id", "start_at", "end_at", "utc_offset", "business_date", "hourly_wage", "salaried", "wage_rate_id", "duration", "total_paid_breaks", "total_unpaid_breaks", "payable_duration", "flags", "manual_entry", "clock_in_source", "clock_in_device_id", "clock_out_source", "clock_out_device_id", "cost_code_id", "breaks_json", "custom_fields", "active", "created_at", "updated_at", "deleted_at") values (?, (SELECT ? WHERE NOT (EXISTS (SELECT 1 FROM locked_days WHERE location_id = ? AND date = ?))), (SELECT ? WHERE NOT EXISTS (SELECT 1 FROM shifts
    WHERE +organization_id = ? AND employee_id = ? AND deleted_at IS NULL
      AND id <> ? AND end_at > ?)), (SELECT ? WHERE NOT ((EXISTS (SELECT 1 FROM timesheet_approvals WHERE employee_id = ? AND period_end_date >= ?
      AND period_start_date <= ? AND organization_id = ?)
    OR EXISTS (SELECT 1 FROM pay_periods WHERE organization_id = ? AND status = 'CLOSED'
    AND frozen_to >= ? AND frozen_from <= ?)))), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  // event: 18 values (source, device_id and photo_id last)
  `insert into "shift_events" ("id", "organization_id", "shift_id", "employee_id", "kind", "break_id", "occurred_at", "received_at", "latitude", "longitude", "accuracy_centimeters", "distance_centimeters", "verdict", "flags", "idempotency_key", "source", "device_id", "photo_id") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
];

/**
 * Clock-out without an open break or automatic break: ONE write batch (atomic). The event's organization_id, shift_id
 * and employee_id are guards: NULL when the shift's day got locked, when it is no longer open, when it changed since
 * the read (its updated_at), failing the whole batch.
 */
export const CLOCK_OUT_WRITES = [
  // clock_out event: [id, organizationId, locationId, businessDate, shiftId, organizationId, shiftId, organizationId,
  //   shift's updatedAt, the 7 columns from kind to distance_centimeters, then the verdict guard: [verdict,
  //   staffMemberId, businessDate, businessDate, organizationId, organizationId, businessDate, businessDate] (NULL when
  //   the timesheet is approved or the period closed), then flags, idempotency_key, source, device_id, photo_id]
  `insert into "shift_events" ("id", "organization_id", "shift_id", "employee_id", "kind", "break_id", "occurred_at", "received_at", "latitude", "longitude", "accuracy_centimeters", "distance_centimeters", "verdict", "flags", "idempotency_key", "source", "device_id", "photo_id") values (?, (SELECT ? WHERE NOT (EXISTS (SELECT 1 FROM locked_days WHERE location_id = ? AND date = ?))), (SELECT id FROM shifts WHERE id = ? AND organization_id = ?
    AND end_at IS NULL AND deleted_at IS NULL), (SELECT employee_id FROM shifts WHERE id = ? AND organization_id = ?
    AND updated_at = ?), ?, ?, ?, ?, ?, ?, ?, ?, (SELECT ? WHERE NOT ((EXISTS (SELECT 1 FROM timesheet_approvals WHERE employee_id = ? AND period_end_date >= ?
      AND period_start_date <= ? AND organization_id = ?)
    OR EXISTS (SELECT 1 FROM pay_periods WHERE organization_id = ? AND status = 'CLOSED'
    AND frozen_to >= ? AND frozen_from <= ?)))), ?, ?, ?, ?, ?)`,
  // close the shift: [endAt, duration, paid, unpaid, payable, flags, clockOutSource, clockOutDeviceId, then the
  //   custom fields guard: [organizationId, the fields' fingerprint as read (count:sum of updated_at), the values' JSON]
  //   (NULL when a custom field changed since the read), then 0, updatedAt, organizationId, shiftId]
  `update "shifts" set "end_at" = ?, "duration" = ?, "total_paid_breaks" = ?, "total_unpaid_breaks" = ?, "payable_duration" = ?, "flags" = ?, "clock_out_source" = ?, "clock_out_device_id" = ?, "custom_fields" = (CASE WHEN (SELECT count(*) || ':' || ifnull(sum(f."updated_at"), 0) FROM custom_fields f WHERE f."organization_id" = ?) = ? THEN ? END), "active" = ?, "updated_at" = ? where ("shifts"."organization_id" = ? and "shifts"."id" = ?)`,
];

/** Shift-state: ONE read batch (src/routes/time-tracking/shift-state.ts). */
export const SHIFT_STATE_READS = [
  // staff member exists: [organizationId, staffMemberId]
  `select "id" from "staff_members" where (("staff_members"."organization_id" = ? and "staff_members"."deleted_at" is null) and "staff_members"."id" = ?)`,
  // location: [organizationId, locationId]
  `select "id", "organization_id", "name", "website", "country", "state", "city", "address_line1", "address_line2", "zip_code", "external_id", "longitude", "latitude", "clock_in_distance_centimeters", "clock_out_distance_centimeters", "break_start_distance_centimeters", "break_end_distance_centimeters", "timezone", "geofence_mode", "kiosk_photo_required", "active", "created_at", "updated_at", "deleted_at" from "locations" where (("locations"."organization_id" = ? and "locations"."deleted_at" is null) and "locations"."id" = ?)`,
  // open shift union shifts of the 3 business dates around today: [org, staff, org, staff, d-1, d, d+1]
  `select "id", "organization_id", "employee_id", "location_id", "role_id", "start_at", "end_at", "utc_offset", "business_date", "hourly_wage", "salaried", "wage_rate_id", "duration", "total_paid_breaks", "total_unpaid_breaks", "payable_duration", "flags", "manual_entry", "clock_in_source", "clock_in_device_id", "clock_out_source", "clock_out_device_id", "cost_code_id", "breaks_json", "custom_fields", "active", "created_at", "updated_at", "deleted_at" from "shifts" where (("shifts"."organization_id" = ? and "shifts"."deleted_at" is null) and "shifts"."employee_id" = ? and "shifts"."end_at" is null) union select "id", "organization_id", "employee_id", "location_id", "role_id", "start_at", "end_at", "utc_offset", "business_date", "hourly_wage", "salaried", "wage_rate_id", "duration", "total_paid_breaks", "total_unpaid_breaks", "payable_duration", "flags", "manual_entry", "clock_in_source", "clock_in_device_id", "clock_out_source", "clock_out_device_id", "cost_code_id", "breaks_json", "custom_fields", "active", "created_at", "updated_at", "deleted_at" from "shifts" where (("shifts"."organization_id" = ? and "shifts"."deleted_at" is null) and "shifts"."employee_id" = ? and "shifts"."business_date" in (?, ?, ?))`,
  // their breaks: same values
  `select "id", "organization_id", "shift_id", "type_id", "name", "paid", "mandatory", "frequency_minutes", "duration_in_settings_minutes", "start_at", "end_at", "automatic" from "shift_breaks" where "shift_breaks"."shift_id" in (select "id" from "shifts" where (("shifts"."organization_id" = ? and "shifts"."deleted_at" is null) and "shifts"."employee_id" = ? and "shifts"."end_at" is null) union select "id" from "shifts" where (("shifts"."organization_id" = ? and "shifts"."deleted_at" is null) and "shifts"."employee_id" = ? and "shifts"."business_date" in (?, ?, ?))) order by "shift_breaks"."start_at"`,
  // enabled break types: [organizationId, locationId, 1]
  `select "id" from "break_types" where (("break_types"."organization_id" = ? and "break_types"."deleted_at" is null) and "break_types"."location_id" = ? and "break_types"."enabled" = ?)`,
  // whether the open shift's business date is locked at its location: [organizationId, organizationId, staffMemberId]
  `select "locked_days"."date" from "locked_days" inner join "shifts" on ("shifts"."location_id" = "locked_days"."location_id" and "shifts"."business_date" = "locked_days"."date") where ("locked_days"."organization_id" = ? and (("shifts"."organization_id" = ? and "shifts"."deleted_at" is null) and "shifts"."employee_id" = ? and "shifts"."end_at" is null))`,
];
