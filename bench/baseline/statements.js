// The SQL our Worker sends to D1 for clock-in, clock-out and shift-state, as plain strings (drizzle's output, copied
// from a traced run of bench/counting-entry.ts). The baseline Worker sends exactly these, with the same bound values;
// the bench compares them with a fresh trace of our Worker at every run and says so when they drift apart.

/** Clock-in and clock-out: ONE read batch (the punch context of src/routes/time-tracking/punch-context.ts). */
export const PUNCH_READS = [
  // staff member: [organizationId, staffMemberId]
  `select "id", "organization_id", "name", "email", "phone_number", "external_id", "external_payroll_id", "access_role_id", "hourly_wage", "wage_type", "employment_type", "currency_code", "birth_date", "location_ids", "role_ids", "active", "created_at", "updated_at", "deleted_at" from "staff_members" where (("staff_members"."organization_id" = ? and "staff_members"."deleted_at" is null) and "staff_members"."id" = ?)`,
  // location: [organizationId, locationId]
  `select "id", "organization_id", "name", "website", "country", "state", "city", "address_line1", "address_line2", "zip_code", "external_id", "longitude", "latitude", "clock_in_distance_centimeters", "clock_out_distance_centimeters", "break_start_distance_centimeters", "break_end_distance_centimeters", "timezone", "geofence_mode", "active", "created_at", "updated_at", "deleted_at" from "locations" where (("locations"."organization_id" = ? and "locations"."deleted_at" is null) and "locations"."id" = ?)`,
  // role: [organizationId, roleId or '']
  `select "id", "organization_id", "name", "hourly_wage", "external_id", "active", "created_at", "updated_at", "deleted_at" from "roles" where (("roles"."organization_id" = ? and "roles"."deleted_at" is null) and "roles"."id" = ?)`,
  // open shift: [organizationId, staffMemberId]
  `select "id", "organization_id", "employee_id", "location_id", "role_id", "start_at", "end_at", "utc_offset", "business_date", "hourly_wage", "duration", "total_paid_breaks", "total_unpaid_breaks", "payable_duration", "flags", "manual_entry", "active", "created_at", "updated_at", "deleted_at" from "shifts" where (("shifts"."organization_id" = ? and "shifts"."deleted_at" is null) and "shifts"."employee_id" = ? and "shifts"."end_at" is null)`,
  // its breaks: [organizationId, staffMemberId]
  `select "id", "organization_id", "shift_id", "type_id", "name", "paid", "mandatory", "frequency_minutes", "duration_in_settings_minutes", "start_at", "end_at", "automatic" from "shift_breaks" where "shift_breaks"."shift_id" in (select "id" from "shifts" where (("shifts"."organization_id" = ? and "shifts"."deleted_at" is null) and "shifts"."employee_id" = ? and "shifts"."end_at" is null)) order by "shift_breaks"."start_at"`,
  // latest event: [organizationId, staffMemberId, 1]
  `select "id", "organization_id", "shift_id", "employee_id", "kind", "break_id", "occurred_at", "received_at", "latitude", "longitude", "accuracy_centimeters", "distance_centimeters", "verdict", "flags", "idempotency_key" from "shift_events" where ("shift_events"."organization_id" = ? and "shift_events"."employee_id" = ?) order by "shift_events"."occurred_at" desc limit ?`,
  // location's break types: [organizationId, locationId]
  `select "id", "organization_id", "location_id", "name", "duration_minutes", "frequency_minutes", "paid", "mandatory", "enabled", "active", "created_at", "updated_at", "deleted_at" from "break_types" where (("break_types"."organization_id" = ? and "break_types"."deleted_at" is null) and "break_types"."location_id" = ?)`,
  // locked days near the instant or on the open shift's date: [organizationId, locationId, from, to, organizationId, staffMemberId]
  `select "date" from "locked_days" where ("locked_days"."organization_id" = ? and "locked_days"."location_id" = ? and ("locked_days"."date" between ? and ? or "locked_days"."date" in (select "business_date" from "shifts" where (("shifts"."organization_id" = ? and "shifts"."deleted_at" is null) and "shifts"."employee_id" = ? and "shifts"."end_at" is null))))`,
];

/** Clock-in: ONE write batch (atomic): the shift (20 values) and its clock_in event (15 values). */
export const CLOCK_IN_WRITES = [
  // shift
  `insert into "shifts" ("id", "organization_id", "employee_id", "location_id", "role_id", "start_at", "end_at", "utc_offset", "business_date", "hourly_wage", "duration", "total_paid_breaks", "total_unpaid_breaks", "payable_duration", "flags", "manual_entry", "active", "created_at", "updated_at", "deleted_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  // event
  `insert into "shift_events" ("id", "organization_id", "shift_id", "employee_id", "kind", "break_id", "occurred_at", "received_at", "latitude", "longitude", "accuracy_centimeters", "distance_centimeters", "verdict", "flags", "idempotency_key") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
];

/**
 * Clock-out without an open break or automatic break: ONE write batch (atomic). The event's shift_id is a subquery
 * that is NULL once the shift is closed, so a concurrent clock-out fails the whole batch (NOT NULL constraint).
 */
export const CLOCK_OUT_WRITES = [
  // clock_out event: 15 values, the third being the shift id for the still-open subquery
  `insert into "shift_events" ("id", "organization_id", "shift_id", "employee_id", "kind", "break_id", "occurred_at", "received_at", "latitude", "longitude", "accuracy_centimeters", "distance_centimeters", "verdict", "flags", "idempotency_key") values (?, ?, (SELECT id FROM "shifts" WHERE "shifts"."id" = ? AND "shifts"."end_at" IS NULL), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  // end any open break: [endAt, shiftId]
  `update "shift_breaks" set "end_at" = ? where ("shift_breaks"."shift_id" = ? and "shift_breaks"."end_at" is null)`,
  // close the shift: 20 column values, then [shiftId]
  `update "shifts" set "id" = ?, "organization_id" = ?, "employee_id" = ?, "location_id" = ?, "role_id" = ?, "start_at" = ?, "end_at" = ?, "utc_offset" = ?, "business_date" = ?, "hourly_wage" = ?, "duration" = ?, "total_paid_breaks" = ?, "total_unpaid_breaks" = ?, "payable_duration" = ?, "flags" = ?, "manual_entry" = ?, "active" = ?, "created_at" = ?, "updated_at" = ?, "deleted_at" = ? where ("shifts"."id" = ? and "shifts"."end_at" is null)`,
];

/** Shift-state: ONE read batch (src/routes/time-tracking/shift-state.ts). */
export const SHIFT_STATE_READS = [
  // staff member exists: [organizationId, staffMemberId]
  `select "id" from "staff_members" where (("staff_members"."organization_id" = ? and "staff_members"."deleted_at" is null) and "staff_members"."id" = ?)`,
  // location: [organizationId, locationId]
  `select "id", "organization_id", "name", "website", "country", "state", "city", "address_line1", "address_line2", "zip_code", "external_id", "longitude", "latitude", "clock_in_distance_centimeters", "clock_out_distance_centimeters", "break_start_distance_centimeters", "break_end_distance_centimeters", "timezone", "geofence_mode", "active", "created_at", "updated_at", "deleted_at" from "locations" where (("locations"."organization_id" = ? and "locations"."deleted_at" is null) and "locations"."id" = ?)`,
  // open shift union shifts of the 3 business dates around today: [org, staff, org, staff, d-1, d, d+1]
  `select "id", "organization_id", "employee_id", "location_id", "role_id", "start_at", "end_at", "utc_offset", "business_date", "hourly_wage", "duration", "total_paid_breaks", "total_unpaid_breaks", "payable_duration", "flags", "manual_entry", "active", "created_at", "updated_at", "deleted_at" from "shifts" where (("shifts"."organization_id" = ? and "shifts"."deleted_at" is null) and "shifts"."employee_id" = ? and "shifts"."end_at" is null) union select "id", "organization_id", "employee_id", "location_id", "role_id", "start_at", "end_at", "utc_offset", "business_date", "hourly_wage", "duration", "total_paid_breaks", "total_unpaid_breaks", "payable_duration", "flags", "manual_entry", "active", "created_at", "updated_at", "deleted_at" from "shifts" where (("shifts"."organization_id" = ? and "shifts"."deleted_at" is null) and "shifts"."employee_id" = ? and "shifts"."business_date" in (?, ?, ?))`,
  // their breaks: same values
  `select "id", "organization_id", "shift_id", "type_id", "name", "paid", "mandatory", "frequency_minutes", "duration_in_settings_minutes", "start_at", "end_at", "automatic" from "shift_breaks" where "shift_breaks"."shift_id" in (select "id" from "shifts" where (("shifts"."organization_id" = ? and "shifts"."deleted_at" is null) and "shifts"."employee_id" = ? and "shifts"."end_at" is null) union select "id" from "shifts" where (("shifts"."organization_id" = ? and "shifts"."deleted_at" is null) and "shifts"."employee_id" = ? and "shifts"."business_date" in (?, ?, ?))) order by "shift_breaks"."start_at"`,
  // enabled break types: [organizationId, locationId, 1]
  `select "id" from "break_types" where (("break_types"."organization_id" = ? and "break_types"."deleted_at" is null) and "break_types"."location_id" = ? and "break_types"."enabled" = ?)`,
];
