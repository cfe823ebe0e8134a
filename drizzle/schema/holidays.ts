import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns";
import { locations, organizations } from "./directory";

/**
 * The organization's changes to a location's public holidays (domain/public-holidays): dates it adds (a local holiday
 * the dataset lacks, an agreed substitute day) and dates it removes. No row: the dataset's holidays as they are.
 */
export const holidayOverrides = sqliteTable(
  "holiday_overrides",
  {
    locationId: text("location_id")
      .primaryKey()
      .references(() => locations.id),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    added: text("added", { mode: "json" }).$type<{ date: string; name: string }[]>().notNull(),
    removed: text("removed", { mode: "json" }).$type<string[]>().notNull(),
    createdAt: timestamp("created_at").notNull(),
    updatedAt: timestamp("updated_at").notNull(),
  },
  (t) => [index("holiday_overrides_organization").on(t.organizationId)],
);
