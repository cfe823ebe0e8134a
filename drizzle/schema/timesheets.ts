import { index, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns";
import { locations, organizations } from "./directory";
import { shifts } from "./time-tracking";

export const lockedDays = sqliteTable(
  "locked_days",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
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
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    shiftId: text("shift_id")
      .notNull()
      .references(() => shifts.id),
    action: text("action", { enum: ["create", "update", "delete"] }).notNull(),
    actorPartnerId: text("actor_partner_id").notNull(),
    actorStaffMemberId: text("actor_staff_member_id"),
    at: timestamp("at").notNull(),
    before: text("before", { mode: "json" }).$type<Record<string, unknown>>(),
    after: text("after", { mode: "json" }).$type<Record<string, unknown>>(),
  },
  (t) => [index("shift_audits_shift").on(t.organizationId, t.shiftId, t.at)],
);
