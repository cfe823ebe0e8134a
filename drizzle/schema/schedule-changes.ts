import { index, integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { lifecycle } from "./columns";
import { locations, organizations, staffMembers } from "./directory";

/**
 * The Fair Workweek change log: one row per change of a published schedule entry inside its location's notice
 * window (domain/fair-workweek/schedule-change), written in the change's own batch, with the premium it earns as the
 * location's rule pack says when it was written. Pay reads the premiums by entry_date (the changed entry's original
 * local date).
 */
export const scheduleChanges = sqliteTable(
  "schedule_changes",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    /** No foreign key: an entry first published is written in the same batch, and the log outlives its entry. */
    scheduleEntryId: text("schedule_entry_id").notNull(),
    employeeId: text("employee_id")
      .notNull()
      .references(() => staffMembers.id),
    kind: text("kind", { enum: ["ADDED", "EXTENDED", "SHORTENED", "MOVED", "CANCELLED", "REASSIGNED"] }).notNull(),
    noticeMinutes: integer("notice_minutes").notNull(),
    minutesLost: integer("minutes_lost").notNull(),
    minutesAdded: integer("minutes_added").notNull(),
    /** Minutes of the entry as scheduled before the change (its new length for an ADDED). */
    entryMinutes: integer("entry_minutes").notNull(),
    initiatedBy: text("initiated_by", { enum: ["EMPLOYER", "EMPLOYEE"] }).notNull(),
    exemption: text("exemption", { enum: ["EMPLOYEE_REQUEST", "MUTUAL_CONSENT", "FORCE_MAJEURE"] }),
    reason: text("reason"),
    /** The changed entry's original local business date (its new one for an ADDED): the date its premium is paid on. */
    entryDate: text("entry_date").notNull(),
    rulePack: text("rule_pack").notNull(),
    premiumHours: real("premium_hours"),
    premiumAmount: real("premium_amount"),
    premiumRule: text("premium_rule"),
    ...lifecycle,
  },
  // ONE index: every read names the organization and dates, the listing in its order, and a read by worker picks its
  // workers' changes on the index alone. A publish's summary reads its own rows by primary key (their id prefix).
  (t) => [index("schedule_changes_organization_date").on(t.organizationId, t.entryDate, t.id, t.employeeId)],
);

/**
 * A worker's own consent (Fair Workweek): to work inside the rest window between shifts (REST), or to added hours
 * (ADDED_HOURS), for one entry or (scheduleEntryId null) whichever entry names it. A schedule write inside the rest
 * window of a pack requiring consent names it by `consentId` (checked in the write's batch).
 */
export const consents = sqliteTable(
  "consents",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    employeeId: text("employee_id")
      .notNull()
      .references(() => staffMembers.id),
    kind: text("kind", { enum: ["REST", "ADDED_HOURS"] }).notNull(),
    scheduleEntryId: text("schedule_entry_id"),
    note: text("note"),
    ...lifecycle,
  },
  (t) => [index("consents_employee").on(t.employeeId, t.id), index("consents_organization").on(t.organizationId, t.id)],
);
