import { index, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns";
import { locations, organizations, staffMembers } from "./directory";

/**
 * A location's Fair Workweek rule pack (domain/fair-workweek/packs) and its overrides (JSON, validated against the
 * pack's shape by the API). No row, or a NULL rule_pack: no Fair Workweek rules at that location.
 */
export const locationFairWorkweek = sqliteTable("location_fair_workweek", {
  locationId: text("location_id")
    .primaryKey()
    .references(() => locations.id),
  organizationId: text("organization_id")
    .notNull()
    .references(() => organizations.id),
  rulePack: text("rule_pack"),
  overrides: text("overrides", { mode: "json" }).$type<Record<string, unknown>>(),
  createdAt: timestamp("created_at").notNull(),
  updatedAt: timestamp("updated_at").notNull(),
});

/**
 * The location's Fair Workweek setting as it was from each `effectiveFrom` (a local date of the location): a PUT
 * writes the version effective from the day it is made, so past dates keep the pack they had. The one in effect on
 * a date is the newest whose effectiveFrom is on or before it; before the first, no pack. location_fair_workweek
 * keeps the setting as last written (what GET answers and its event carries).
 */
export const locationFairWorkweekVersions = sqliteTable(
  "location_fair_workweek_versions",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    effectiveFrom: text("effective_from").notNull(),
    rulePack: text("rule_pack"),
    overrides: text("overrides", { mode: "json" }).$type<Record<string, unknown>>(),
    createdAt: timestamp("created_at").notNull(),
    updatedAt: timestamp("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("location_fair_workweek_versions_location_date").on(t.locationId, t.effectiveFrom),
    index("location_fair_workweek_versions_organization").on(t.organizationId, t.locationId),
  ],
);

/**
 * A staff member's good-faith estimates of weekly hours, one per effectiveFrom (the history): the one in effect on a
 * date is the newest whose effectiveFrom is on or before it.
 */
export const goodFaithEstimates = sqliteTable(
  "good_faith_estimates",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    employeeId: text("employee_id")
      .notNull()
      .references(() => staffMembers.id),
    weeklyHoursMin: real("weekly_hours_min").notNull(),
    weeklyHoursMax: real("weekly_hours_max").notNull(),
    /** Local date (YYYY-MM-DD) from which the estimate applies. */
    effectiveFrom: text("effective_from").notNull(),
    createdAt: timestamp("created_at").notNull(),
    updatedAt: timestamp("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("good_faith_estimates_employee_date").on(t.employeeId, t.effectiveFrom),
    index("good_faith_estimates_organization").on(t.organizationId, t.id),
  ],
);
