import { integer } from "drizzle-orm/sqlite-core";

export const timestamp = (name: string) => integer(name, { mode: "timestamp_ms" });

/** Columns every tenant-owned record carries: soft delete keeps `active` and `deletedAt` in step. */
export const lifecycle = {
  active: integer("active", { mode: "boolean" }).notNull().default(true),
  createdAt: timestamp("created_at").notNull(),
  updatedAt: timestamp("updated_at").notNull(),
  deletedAt: timestamp("deleted_at"),
};
