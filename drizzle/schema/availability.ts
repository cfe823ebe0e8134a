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
    note: text("note"),
    createdAt: timestamp("created_at").notNull(),
    updatedAt: timestamp("updated_at").notNull(),
    deletedAt: timestamp("deleted_at"),
  },
  (t) => [index("availabilities_employee").on(t.employeeId, t.organizationId)],
);

/**
 * A live availability's occurrences as instants, written with it (two years of a recurring rule): what the
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
