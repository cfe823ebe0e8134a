import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

const timestamp = (name: string) => integer(name, { mode: "timestamp_ms" });

/** Columns every tenant-owned record carries: soft delete keeps `active` and `deletedAt` in step. */
const lifecycle = {
  active: integer("active", { mode: "boolean" }).notNull().default(true),
  createdAt: timestamp("created_at").notNull(),
  updatedAt: timestamp("updated_at").notNull(),
  deletedAt: timestamp("deleted_at"),
};

export const organizations = sqliteTable(
  "organizations",
  {
    id: text("id").primaryKey(),
    partnerId: text("partner_id").notNull(),
    name: text("name").notNull(),
    externalId: text("external_id"),
    timezone: text("timezone").notNull().default("UTC"),
    country: text("country"),
    currencyCode: text("currency_code"),
    ...lifecycle,
  },
  (t) => [
    uniqueIndex("organizations_partner_external_id").on(t.partnerId, t.externalId),
    index("organizations_partner_updated").on(t.partnerId, t.updatedAt),
  ],
);

export const locations = sqliteTable(
  "locations",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    name: text("name").notNull(),
    website: text("website"),
    country: text("country"),
    state: text("state"),
    city: text("city"),
    addressLine1: text("address_line1"),
    addressLine2: text("address_line2"),
    zipCode: integer("zip_code"),
    externalId: text("external_id"),
    longitude: text("longitude"),
    latitude: text("latitude"),
    clockInDistanceCentimeters: integer("clock_in_distance_centimeters"),
    clockOutDistanceCentimeters: integer("clock_out_distance_centimeters"),
    breakStartDistanceCentimeters: integer("break_start_distance_centimeters"),
    breakEndDistanceCentimeters: integer("break_end_distance_centimeters"),
    timezone: text("timezone").notNull().default("UTC"),
    geofenceMode: text("geofence_mode", { enum: ["block", "flag"] }).notNull().default("block"),
    ...lifecycle,
  },
  (t) => [
    uniqueIndex("locations_organization_external_id").on(t.organizationId, t.externalId),
    index("locations_organization_id").on(t.organizationId, t.id),
  ],
);

export const accessRoles = sqliteTable(
  "access_roles",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    name: text("name").notNull(),
    /** JSON array of permission strings. */
    permissions: text("permissions", { mode: "json" }).$type<string[]>().notNull(),
    ...lifecycle,
  },
  (t) => [
    uniqueIndex("access_roles_organization_name").on(t.organizationId, t.name).where(sql`deleted_at IS NULL`),
    index("access_roles_organization_id").on(t.organizationId, t.id),
  ],
);

export const roles = sqliteTable(
  "roles",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    name: text("name").notNull(),
    hourlyWage: real("hourly_wage"),
    externalId: text("external_id"),
    ...lifecycle,
  },
  (t) => [
    uniqueIndex("roles_organization_external_id").on(t.organizationId, t.externalId),
    index("roles_organization_id").on(t.organizationId, t.id),
  ],
);

export const staffMembers = sqliteTable(
  "staff_members",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    name: text("name").notNull(),
    email: text("email"),
    phoneNumber: text("phone_number"),
    externalId: text("external_id"),
    externalPayrollId: text("external_payroll_id"),
    accessRoleId: text("access_role_id").notNull().references(() => accessRoles.id),
    hourlyWage: real("hourly_wage"),
    wageType: text("wage_type"),
    employmentType: text("employment_type"),
    currencyCode: text("currency_code"),
    birthDate: timestamp("birth_date"),
    /** Assignments are small id sets read with the member (clock-in checks them), so they live on the row. */
    locationIds: text("location_ids", { mode: "json" }).$type<string[]>().notNull(),
    roleIds: text("role_ids", { mode: "json" }).$type<string[]>().notNull(),
    ...lifecycle,
  },
  (t) => [
    uniqueIndex("staff_members_organization_external_id").on(t.organizationId, t.externalId),
    index("staff_members_organization_id").on(t.organizationId, t.id),
  ],
);

export const policyTypes = sqliteTable(
  "policy_types",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    name: text("name").notNull(),
    type: text("type").notNull(),
    ...lifecycle,
  },
  (t) => [index("policy_types_organization_id").on(t.organizationId, t.id)],
);

export const timeOffSettings = sqliteTable("time_off_settings", {
  organizationId: text("organization_id").primaryKey().references(() => organizations.id),
  settings: text("settings", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  createdAt: timestamp("created_at").notNull(),
  updatedAt: timestamp("updated_at").notNull(),
});

export const breakTypes = sqliteTable(
  "break_types",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    locationId: text("location_id").notNull().references(() => locations.id),
    name: text("name").notNull(),
    durationMinutes: integer("duration_minutes").notNull(),
    frequencyMinutes: integer("frequency_minutes").notNull(),
    paid: integer("paid", { mode: "boolean" }).notNull(),
    mandatory: integer("mandatory", { mode: "boolean" }).notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    ...lifecycle,
  },
  (t) => [index("break_types_location").on(t.organizationId, t.locationId, t.id)],
);

export const shifts = sqliteTable(
  "shifts",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    employeeId: text("employee_id").notNull().references(() => staffMembers.id),
    locationId: text("location_id").notNull().references(() => locations.id),
    roleId: text("role_id").notNull().references(() => roles.id),
    /** UTC instants; the wire's local startTime/endTime are derived with utcOffset. */
    startAt: timestamp("start_at").notNull(),
    endAt: timestamp("end_at"),
    /** Minutes east of UTC at the shift's start. */
    utcOffset: integer("utc_offset").notNull(),
    /** Local date the shift started on at its location (YYYY-MM-DD): the timesheet key. */
    businessDate: text("business_date").notNull(),
    hourlyWage: real("hourly_wage").notNull().default(0),
    duration: integer("duration").notNull().default(0),
    totalPaidBreaks: integer("total_paid_breaks").notNull().default(0),
    totalUnpaidBreaks: integer("total_unpaid_breaks").notNull().default(0),
    payableDuration: integer("payable_duration").notNull().default(0),
    flags: text("flags", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    manualEntry: integer("manual_entry", { mode: "boolean" }).notNull().default(false),
    ...lifecycle,
  },
  (t) => [
    // At most one open shift per staff member, whatever the concurrency.
    uniqueIndex("shifts_one_open_per_employee").on(t.employeeId).where(sql`end_at IS NULL AND deleted_at IS NULL`),
    index("shifts_organization_business_date").on(t.organizationId, t.businessDate, t.id),
    // Timesheet pages are ordered by (business_date, id), so each index ends with both and a page reads no more
    // than it returns. Staff member and location ids are unique across organizations: no organization prefix,
    // which lets a filtered read steer away from the organization index (see timesheet-query's scopeTerm).
    index("shifts_employee_business_date").on(t.employeeId, t.businessDate, t.id),
    index("shifts_location_business_date").on(t.locationId, t.businessDate, t.id),
  ],
);

export const shiftBreaks = sqliteTable(
  "shift_breaks",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    shiftId: text("shift_id").notNull().references(() => shifts.id),
    typeId: text("type_id").references(() => breakTypes.id),
    name: text("name").notNull(),
    paid: integer("paid", { mode: "boolean" }).notNull(),
    mandatory: integer("mandatory", { mode: "boolean" }).notNull(),
    frequencyMinutes: integer("frequency_minutes").notNull(),
    durationInSettingsMinutes: integer("duration_in_settings_minutes").notNull(),
    startAt: timestamp("start_at").notNull(),
    endAt: timestamp("end_at"),
    automatic: integer("automatic", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    index("shift_breaks_shift").on(t.shiftId, t.startAt),
    // At most one open break per shift.
    uniqueIndex("shift_breaks_one_open_per_shift").on(t.shiftId).where(sql`end_at IS NULL`),
  ],
);

export const shiftEvents = sqliteTable(
  "shift_events",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    shiftId: text("shift_id").notNull().references(() => shifts.id),
    employeeId: text("employee_id").notNull(),
    kind: text("kind", { enum: ["clock_in", "clock_out", "break_start", "break_end"] }).notNull(),
    /** The break a break event belongs to; '' for clock events, so the unique index below covers them too. */
    breakId: text("break_id").notNull().default(""),
    occurredAt: timestamp("occurred_at").notNull(),
    receivedAt: timestamp("received_at").notNull(),
    latitude: real("latitude"),
    longitude: real("longitude"),
    accuracyCentimeters: integer("accuracy_centimeters"),
    distanceCentimeters: integer("distance_centimeters"),
    verdict: text("verdict").notNull(),
    flags: text("flags", { mode: "json" }).$type<string[]>().notNull(),
    idempotencyKey: text("idempotency_key"),
  },
  (t) => [
    // Each event happens once: one clock-in and clock-out per shift, one start and end per break.
    uniqueIndex("shift_events_once").on(t.shiftId, t.kind, t.breakId),
    index("shift_events_employee").on(t.employeeId, t.occurredAt),
  ],
);

export const shiftNotes = sqliteTable(
  "shift_notes",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    shiftId: text("shift_id").notNull().references(() => shifts.id),
    authorId: text("author_id").notNull(),
    text: text("text").notNull(),
    createdAt: timestamp("created_at").notNull(),
  },
  (t) => [index("shift_notes_shift").on(t.shiftId, t.id)],
);

export const lockedDays = sqliteTable(
  "locked_days",
  {
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    locationId: text("location_id").notNull().references(() => locations.id),
    date: text("date").notNull(),
    lockedBy: text("locked_by").notNull(),
    createdAt: timestamp("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.locationId, t.date] }), index("locked_days_organization_date").on(t.organizationId, t.date)],
);

/** Who changed a timesheet shift and when, with the shift (and its breaks) as JSON before and after. */
export const shiftAudits = sqliteTable(
  "shift_audits",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    shiftId: text("shift_id").notNull().references(() => shifts.id),
    action: text("action", { enum: ["create", "update", "delete"] }).notNull(),
    actorPartnerId: text("actor_partner_id").notNull(),
    actorStaffMemberId: text("actor_staff_member_id"),
    at: timestamp("at").notNull(),
    before: text("before", { mode: "json" }).$type<Record<string, unknown>>(),
    after: text("after", { mode: "json" }).$type<Record<string, unknown>>(),
  },
  (t) => [index("shift_audits_shift").on(t.organizationId, t.shiftId, t.at)],
);

/** Stored first responses of POSTs sent with an Idempotency-Key, replayed to retries for 24 h. */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    status: integer("status"),
    body: text("body"),
    contentType: text("content_type"),
    createdAt: timestamp("created_at").notNull(),
    expiresAt: timestamp("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index("idempotency_keys_expires").on(t.expiresAt)],
);
