import { sql } from "drizzle-orm";
import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { PunchSource } from "../../src/domain/punch-source";
import type { ShiftWageSource } from "../../src/domain/shift-wage";
import type { TrustFlag } from "../../src/domain/trust";
import { lifecycle, timestamp } from "./columns";
import { costCodes } from "./cost-codes";
import { locations, organizations, roles, staffMembers } from "./directory";

export const breakTypes = sqliteTable(
  "break_types",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
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

/** A break as shifts.breaks_json holds it (instants in epoch milliseconds). */
export interface ShiftBreakCopy {
  id: string;
  typeId: string | null;
  name: string;
  paid: boolean;
  mandatory: boolean;
  frequencyMinutes: number;
  durationInSettingsMinutes: number;
  startAt: number;
  endAt: number | null;
  automatic: boolean;
}

export const shifts = sqliteTable(
  "shifts",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    employeeId: text("employee_id")
      .notNull()
      .references(() => staffMembers.id),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    roleId: text("role_id")
      .notNull()
      .references(() => roles.id),
    /** UTC instants; the wire's local startTime/endTime are derived with utcOffset. */
    startAt: timestamp("start_at").notNull(),
    endAt: timestamp("end_at"),
    /** Minutes east of UTC at the shift's start. */
    utcOffset: integer("utc_offset").notNull(),
    /** Local date the shift started on at its location (YYYY-MM-DD): the timesheet key. */
    businessDate: text("business_date").notNull(),
    /** The wage the shift is paid at; 0 for a salaried staff member's shift (`salaried`), whose wire hourlyWage is null. */
    hourlyWage: real("hourly_wage").notNull().default(0),
    /**
     * The staff member was salaried (wage_type 'salary') when the shift was recorded (clock-in, manual entry, or a
     * role change): not paid by the hour, so the wire's hourlyWage is null, as pay lines' rate is.
     */
    salaried: integer("salaried", { mode: "boolean" }).notNull().default(false),
    /** The wage rate (wage_rates) the shift's hourlyWage was resolved from, or NULL (the role's or staff member's wage). */
    wageRateId: text("wage_rate_id"),
    /**
     * Where hourlyWage came from (domain/shift-wage): RESOLVED by the wage rules (a rate, else the role's or staff
     * member's wage), or SET_BY_HAND. A wage rate written with a past effectiveFrom re-rates RESOLVED shifts only.
     */
    wageSource: text("wage_source").$type<ShiftWageSource>().notNull().default("RESOLVED"),
    duration: integer("duration").notNull().default(0),
    totalPaidBreaks: integer("total_paid_breaks").notNull().default(0),
    totalUnpaidBreaks: integer("total_unpaid_breaks").notNull().default(0),
    payableDuration: integer("payable_duration").notNull().default(0),
    flags: text("flags", { mode: "json" }).$type<TrustFlag[]>().notNull().default(sql`'[]'`),
    manualEntry: integer("manual_entry", { mode: "boolean" }).notNull().default(false),
    /** Where the clock-in came from (domain/punch-source) and the kiosk that recorded it; its shift_events row says the same. */
    clockInSource: text("clock_in_source").$type<PunchSource>().notNull().default("MOBILE"),
    clockInDeviceId: text("clock_in_device_id"),
    /** Where the clock-out came from (null while the shift is open) and the kiosk that recorded it. */
    clockOutSource: text("clock_out_source").$type<PunchSource>(),
    clockOutDeviceId: text("clock_out_device_id"),
    /**
     * A copy of the shift's shift_breaks rows in (start_at, id) order, kept by triggers on shift_breaks (migration
     * shift_breaks_json_triggers), never written by the application: a timesheet page reads its breaks with its
     * shifts, in one statement that reads what it returns.
     */
    /** The cost code the time is charged to (an active code assigned to the worker when written), or null. */
    costCodeId: text("cost_code_id").references(() => costCodes.id),
    breaksJson: text("breaks_json", { mode: "json" }).$type<ShiftBreakCopy[]>().notNull().default(sql`'[]'`),
    /** The values of the organization's custom fields (custom_fields), keyed by field id. */
    customFields: text("custom_fields", { mode: "json" }).$type<Record<string, string>>().notNull().default(sql`'{}'`),
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
    // The report by employee walks one organization's staff members in id order from its cursor and sums each one's
    // shifts of the range: a page reads its own employees' shifts, not the organization's (timesheet-reports).
    index("shifts_organization_employee_date").on(t.organizationId, t.employeeId, t.businessDate),
    // The time-off pass reads shifts changed since its cursor (per-hour accrual corrections).
    index("shifts_organization_updated").on(t.organizationId, t.updatedAt),
    // The no-show pass asks whether a staff member's shift ended after an entry began: it reads the shifts since then.
    index("shifts_employee_end").on(t.employeeId, t.endAt),
    // The attendance pass reads open shifts, oldest first, across organizations (forgotten clock-outs).
    index("shifts_open_start").on(t.startAt).where(sql`end_at IS NULL AND deleted_at IS NULL`),
  ],
);

export const shiftBreaks = sqliteTable(
  "shift_breaks",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    shiftId: text("shift_id")
      .notNull()
      .references(() => shifts.id),
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
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    shiftId: text("shift_id")
      .notNull()
      .references(() => shifts.id),
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
    flags: text("flags", { mode: "json" }).$type<TrustFlag[]>().notNull(),
    idempotencyKey: text("idempotency_key"),
    /** Where the event came from (domain/punch-source), the kiosk that recorded it, and the kiosk's photo of it. */
    source: text("source").$type<PunchSource>().notNull().default("MOBILE"),
    deviceId: text("device_id"),
    photoId: text("photo_id"),
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
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    shiftId: text("shift_id")
      .notNull()
      .references(() => shifts.id),
    authorId: text("author_id").notNull(),
    text: text("text").notNull(),
    createdAt: timestamp("created_at").notNull(),
  },
  (t) => [index("shift_notes_shift").on(t.shiftId, t.id)],
);
