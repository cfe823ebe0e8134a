import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns";
import { locations, organizations } from "./directory";

/**
 * A location's working-time rule pack (domain/working-time/packs), its overrides of figures an agreement may change
 * (JSON, validated by the API), and its school terms (minors' school days). No row, or a NULL rule_pack: no
 * working-time rules at that location. rule_pack, overrides and effective_from are the setting as last written (what
 * its event carries); which pack judges a date is location_working_time_versions'.
 */
export const locationWorkingTime = sqliteTable("location_working_time", {
  locationId: text("location_id")
    .primaryKey()
    .references(() => locations.id),
  organizationId: text("organization_id")
    .notNull()
    .references(() => organizations.id),
  rulePack: text("rule_pack"),
  overrides: text("overrides", { mode: "json" }).$type<Record<string, unknown>>(),
  schoolTerms: text("school_terms", { mode: "json" }).$type<{ startDate: string; endDate: string }[]>().notNull(),
  /** The local date the last written setting takes effect (null: school terms only, never a pack). */
  effectiveFrom: text("effective_from"),
  createdAt: timestamp("created_at").notNull(),
  updatedAt: timestamp("updated_at").notNull(),
});

/**
 * The location's working-time setting as it is from each `effective_from` (a local date of the location): the one in
 * effect on a date is the newest whose effective_from is on or before it; the earliest also judges the dates before
 * it (the law applied before the location named it). A PUT writes the version of its date (default: the location's
 * today), replacing one of the same date.
 */
export const locationWorkingTimeVersions = sqliteTable(
  "location_working_time_versions",
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
    uniqueIndex("location_working_time_versions_location_date").on(t.locationId, t.effectiveFrom),
    index("location_working_time_versions_organization").on(t.organizationId, t.locationId),
  ],
);
