import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns";
import { organizations, staffMembers } from "./directory";

/** When a staff member cannot (UNAVAILABLE) or would like to (PREFERRED) work: one-off, or recurring by an RRULE. */
export const availabilities = sqliteTable(
  "availabilities",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    employeeId: text("employee_id")
      .notNull()
      .references(() => staffMembers.id),
    type: text("type").notNull(),
    /** The first occurrence's local wall-clock start and end (epoch ms of the reading written with Z). */
    startTime: timestamp("start_time").notNull(),
    endTime: timestamp("end_time").notNull(),
    timezone: text("timezone").notNull(),
    recurrence: text("recurrence"),
    /** Local dates (YYYY-MM-DD, unique, in order) on which the rule has no occurrence. */
    exdates: text("exdates", { mode: "json" }).$type<string[]>().notNull().default([]),
    /**
     * The wall-clock time up to which availability_occurrences holds the rule's occurrences; null when nothing is
     * left to write (a one-off, a rule that ended). The Cron writes more before fewer than two years remain.
     */
    occurrencesThrough: timestamp("occurrences_through"),
    note: text("note"),
    createdAt: timestamp("created_at").notNull(),
    updatedAt: timestamp("updated_at").notNull(),
    deletedAt: timestamp("deleted_at"),
  },
  (t) => [
    index("availabilities_employee").on(t.employeeId, t.organizationId),
    index("availabilities_occurrences_through").on(t.occurrencesThrough).where(sql`deleted_at IS NULL AND occurrences_through IS NOT NULL`),
  ],
);

/**
 * A live availability's occurrences as instants, written with it (a recurring rule's from a month back to two
 * years ahead, kept ahead by the Cron): what the
 * scheduling guards and eligibility check in SQL, since SQL cannot expand an RRULE.
 */
export const availabilityOccurrences = sqliteTable(
  "availability_occurrences",
  {
    availabilityId: text("availability_id")
      .notNull()
      .references(() => availabilities.id),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    employeeId: text("employee_id").notNull(),
    type: text("type").notNull(),
    startAt: integer("start_at").notNull(),
    endAt: integer("end_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.availabilityId, t.startAt] }), index("availability_occurrences_employee").on(t.employeeId, t.startAt)],
);
