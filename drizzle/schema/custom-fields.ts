import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { lifecycle } from "./columns";
import { organizations } from "./directory";

/**
 * Custom fields on shifts: a TEXT field (its value matches `pattern`, when set) or a LIST field (its value is one of
 * `options`). Shifts keep their values in shifts.custom_fields, keyed by field id. `name` is unique among the
 * organization's active fields; a delete is soft (active false), and the values past shifts hold stay.
 */
export const customFields = sqliteTable(
  "custom_fields",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    name: text("name").notNull(),
    type: text("type", { enum: ["TEXT", "LIST"] }).notNull(),
    /** LIST: the values allowed, in the order given; null for TEXT. */
    options: text("options", { mode: "json" }).$type<string[]>(),
    /** TEXT: the regular expression the whole value must match, or null (any text); null for LIST. */
    pattern: text("pattern"),
    required: integer("required", { mode: "boolean" }).notNull().default(false),
    ...lifecycle,
  },
  (t) => [
    uniqueIndex("custom_fields_active_name").on(t.organizationId, t.name).where(sql`active = 1 AND deleted_at IS NULL`),
    index("custom_fields_organization_id").on(t.organizationId, t.id),
  ],
);
