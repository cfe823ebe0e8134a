import { integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns";
import { locations, organizations } from "./directory";

/**
 * Sales or transactions of a location per 15-minute interval, actual and forecast: one row per (location, metric,
 * kind, start), so a repeated upload overwrites instead of adding (INSERT … ON CONFLICT DO UPDATE).
 */
export const demandIntervals = sqliteTable(
  "demand_intervals",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    metric: text("metric").notNull(),
    /** ACTUAL | FORECAST */
    kind: text("kind").notNull(),
    /** The interval's start (epoch ms, on a 15-minute boundary); it lasts 15 minutes. */
    startAt: integer("start_at").notNull(),
    value: real("value").notNull(),
    createdAt: timestamp("created_at").notNull(),
    updatedAt: timestamp("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.locationId, t.metric, t.kind, t.startAt] })],
);

/** A location's labor targets; a location without a row has none yet. */
export const laborTargets = sqliteTable("labor_targets", {
  locationId: text("location_id")
    .primaryKey()
    .references(() => locations.id),
  organizationId: text("organization_id")
    .notNull()
    .references(() => organizations.id),
  laborPercent: real("labor_percent").notNull(),
  salesPerLaborHour: real("sales_per_labor_hour").notNull(),
  createdAt: timestamp("created_at").notNull(),
  updatedAt: timestamp("updated_at").notNull(),
});
