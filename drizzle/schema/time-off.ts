import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { lifecycle, timestamp } from "./columns";
import { organizations } from "./directory";

export const policyTypes = sqliteTable(
  "policy_types",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    name: text("name").notNull(),
    type: text("type").notNull(),
    ...lifecycle,
  },
  (t) => [index("policy_types_organization_id").on(t.organizationId, t.id)],
);

export const timeOffSettings = sqliteTable("time_off_settings", {
  organizationId: text("organization_id").primaryKey().references(() => organizations.id),
  settings: text("settings", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  createdAt: timestamp("created_at").notNull(),
  updatedAt: timestamp("updated_at").notNull(),
});
