import { integer, sqliteTable } from "drizzle-orm/sqlite-core";

/**
 * One row, never read: every write batch opens with an insert into it whose `ok` is NULL when the caller's access
 * token is stale (src/data/write/guarded-batch.ts), and a write with a precondition (src/data/write/precondition-guard.ts) adds
 * one whose `precondition` is NULL when it does not hold. `settled` is NULL when the principal's organization is
 * frozen on this shard for a move (drizzle/schema/shard-moves.ts). `working_time` is NULL when a worker's published
 * entries or worked shifts changed since a schedule write judged them against the working-time rules
 * (src/data/working-time/neighbours-guard.data.ts). NOT NULL is checked before the primary key's ON CONFLICT
 * DO NOTHING, so a failed guard fails the batch (each column names its cause) and a passing one changes nothing.
 */
export const writeGuards = sqliteTable("write_guards", {
  id: integer("id").primaryKey(),
  ok: integer("ok").notNull(),
  precondition: integer("precondition").notNull().default(1),
  settled: integer("settled").notNull().default(1),
  workingTime: integer("working_time").notNull().default(1),
});
