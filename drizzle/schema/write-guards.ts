import { integer, sqliteTable } from "drizzle-orm/sqlite-core";

/**
 * One row, never read: every write batch opens with an insert into it whose `ok` is NULL when the caller's access
 * token is stale (src/lib/principal-guard.ts). NOT NULL is checked before the primary key's ON CONFLICT DO NOTHING,
 * so a stale token fails the batch and a current one changes nothing.
 */
export const writeGuards = sqliteTable("write_guards", {
  id: integer("id").primaryKey(),
  ok: integer("ok").notNull(),
});
