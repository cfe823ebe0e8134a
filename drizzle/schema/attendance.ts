import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns";
import { locations, organizations, staffMembers } from "./directory";
import { scheduleEntries } from "./schedules";
import { shifts } from "./time-tracking";

/** An organization's attendance thresholds; an organization without a row has the defaults (domain/attendance). */
export const attendanceSettings = sqliteTable("attendance_settings", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organizations.id),
  lateGraceMinutes: integer("late_grace_minutes").notNull(),
  earlyLeaveGraceMinutes: integer("early_leave_grace_minutes").notNull(),
  noShowAfterMinutes: integer("no_show_after_minutes").notNull(),
  /** Null: never close a forgotten shift. */
  autoClockOutAfterMinutes: integer("auto_clock_out_after_minutes"),
  createdAt: timestamp("created_at").notNull(),
  updatedAt: timestamp("updated_at").notNull(),
});

/**
 * Schedule against actual: what a punch (LATE_CLOCK_IN, EARLY_CLOCK_OUT, UNSCHEDULED_SHIFT, MISSED_MEAL_BREAK) or the
 * Cron pass (NO_SHOW, MISSED_CLOCK_OUT) found. Each happens once, by the unique indexes, whoever writes it and however
 * often: writers insert with ON CONFLICT DO NOTHING and record events only for the rows that landed.
 */
export const attendanceExceptions = sqliteTable(
  "attendance_exceptions",
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
    type: text("type").notNull(),
    /** The local date of the shift (or, for NO_SHOW, of the entry's start) at its location. */
    businessDate: text("business_date").notNull(),
    scheduleEntryId: text("schedule_entry_id").references(() => scheduleEntries.id),
    shiftId: text("shift_id").references(() => shifts.id),
    minutes: integer("minutes"),
    status: text("status").notNull(),
    note: text("note"),
    detectedAt: timestamp("detected_at").notNull(),
    resolvedAt: timestamp("resolved_at"),
    resolvedBy: text("resolved_by"),
    updatedAt: timestamp("updated_at").notNull(),
  },
  (t) => [
    index("attendance_exceptions_date").on(t.organizationId, t.businessDate, t.id),
    uniqueIndex("attendance_exceptions_once_per_shift").on(t.shiftId, t.type).where(sql`shift_id IS NOT NULL`),
    uniqueIndex("attendance_exceptions_once_per_entry")
      .on(t.scheduleEntryId, t.type)
      .where(sql`type IN ('NO_SHOW', 'LATE_CLOCK_IN', 'EARLY_CLOCK_OUT')`),
  ],
);
