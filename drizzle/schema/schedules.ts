import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { lifecycle, timestamp } from "./columns";
import { locations, organizations, roles, staffMembers } from "./directory";

/** A shift offered to the staff of a location, claimed by up to staffCountRequired of them. */
export const openShifts = sqliteTable(
  "open_shifts",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    roleId: text("role_id")
      .notNull()
      .references(() => roles.id),
    /** UTC instants; the wire's local startDate/endDate are derived with utcOffset. */
    startAt: timestamp("start_at").notNull(),
    endAt: timestamp("end_at").notNull(),
    utcOffset: integer("utc_offset").notNull(),
    timezone: text("timezone").notNull(),
    /** Break type ids of the location. */
    breaks: text("breaks", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    staffCountRequired: integer("staff_count_required").notNull(),
    requireApproval: integer("require_approval", { mode: "boolean" }).notNull(),
    isDraft: integer("is_draft", { mode: "boolean" }).notNull(),
    publishedAt: timestamp("published_at"),
    ...lifecycle,
  },
  (t) => [index("open_shifts_location_start").on(t.locationId, t.startAt)],
);

/** A planned shift of a staff member: a draft until published. */
export const scheduleEntries = sqliteTable(
  "schedule_entries",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    employeeId: text("employee_id")
      .notNull()
      .references(() => staffMembers.id),
    roleId: text("role_id")
      .notNull()
      .references(() => roles.id),
    startAt: timestamp("start_at").notNull(),
    endAt: timestamp("end_at").notNull(),
    utcOffset: integer("utc_offset").notNull(),
    /** The location's zone when the entry was written: bulk copies keep wall-clock times in it. */
    timezone: text("timezone").notNull(),
    breaks: text("breaks", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    note: text("note"),
    isDraft: integer("is_draft", { mode: "boolean" }).notNull(),
    publishedAt: timestamp("published_at"),
    /** The last write said ignoreAvailability: publishing the draft does not skip it for its worker's unavailability. */
    ignoreAvailability: integer("ignore_availability", { mode: "boolean" }).notNull().default(false),
    /** The open shift whose claim or assignment created the entry. */
    openShiftId: text("open_shift_id").references(() => openShifts.id),
    /** The working-time violations the last write overrode, with its reason and who (domain/working-time). */
    workingTimeOverride: text("working_time_override", { mode: "json" }).$type<{
      reason: string;
      by: string | null;
      at: string;
      violations: { rule: string; limit: number; actual: number; unit: string; source: string }[];
    }>(),
    ...lifecycle,
  },
  (t) => [
    // A location's week (published or drafts) in page order (start, id); the overlap guard reads a staff member's by start.
    index("schedule_entries_location_draft_start").on(t.locationId, t.isDraft, t.startAt, t.id),
    // A staff member's entries by start, with their end: the overlap and rest-consent guards judge each entry of the
    // range on the index's own columns (schedules.guards), reading the table only for one that is near.
    index("schedule_entries_employee_start").on(t.employeeId, t.startAt, t.endAt),
    // The attendance pass reads published entries by start across organizations (no-shows).
    index("schedule_entries_published_start").on(t.startAt).where(sql`is_draft = 0 AND deleted_at IS NULL`),
  ],
);

/**
 * A worker's claim or preference on an open shift. APPROVED with isDraft is a draft assignment (on a draft open
 * shift): it holds a place, and publishing gives it its schedule entry.
 */
export const openShiftPreferences = sqliteTable(
  "open_shift_preferences",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    openShiftId: text("open_shift_id")
      .notNull()
      .references(() => openShifts.id),
    workerId: text("worker_id")
      .notNull()
      .references(() => staffMembers.id),
    preference: text("preference", { enum: ["PREFERRED", "NOT_PREFERRED"] }).notNull(),
    status: text("status", { enum: ["PENDING", "APPROVED", "DECLINED", "RETRACTED"] }).notNull(),
    isDraft: integer("is_draft", { mode: "boolean" }).notNull().default(false),
    /** No foreign key: the approval is written before the entry it names, in the same batch (the entry guards on it). */
    scheduleShiftId: text("schedule_shift_id"),
    assignedAt: timestamp("assigned_at"),
    ...lifecycle,
  },
  (t) => [
    // One live claim or preference per worker and open shift, whatever the concurrency (ALREADY_CLAIMED).
    uniqueIndex("open_shift_preferences_one_live")
      .on(t.openShiftId, t.workerId)
      .where(sql`status IN ('PENDING', 'APPROVED') AND deleted_at IS NULL`),
    // The capacity guard counts a shift's approved places.
    index("open_shift_preferences_shift_status").on(t.openShiftId, t.status),
  ],
);
