import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns";
import { locations, organizations } from "./directory";

/**
 * A location's working-time rule pack (domain/working-time/packs), its overrides of figures an agreement may change
 * (JSON, validated by the API), and its school terms (minors' school days). No row, or a NULL rule_pack: no
 * working-time rules at that location.
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
  createdAt: timestamp("created_at").notNull(),
  updatedAt: timestamp("updated_at").notNull(),
});
