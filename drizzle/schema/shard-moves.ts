import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { timestamp } from "./columns";

/**
 * Organizations whose writes are refused on this shard: while one is being moved off it (src/shards), and
 * afterwards as a tombstone naming where it went, so a request that read the directory before the flip fails with
 * 503 ORGANIZATION_MOVING instead of writing to the copy left behind. Every write batch's principal guard checks it
 * (src/data/write/guarded-batch.ts). Never copied by a move; a move onto a shard clears that shard's row at the flip.
 */
export const organizationFreezes = sqliteTable("organization_freezes", {
  organizationId: text("organization_id").primaryKey(),
  movingTo: text("moving_to").notNull(),
  startedAt: timestamp("started_at").notNull(),
});

/**
 * The state of an organization's move between shards, in the directory's database (read from DB only): where it
 * stands between the operator's calls (src/shards/move-organization.ts). `tableIndex` and `cursor` (the JSON of the
 * last key done) say where the current step resumes. A finished move keeps its row (step "done") until the next.
 */
export const organizationMoves = sqliteTable("organization_moves", {
  organizationId: text("organization_id").primaryKey(),
  source: text("source").notNull(),
  target: text("target").notNull(),
  step: text("step", { enum: ["freeze", "copy", "verify", "flip", "delete", "done", "abort", "aborted", "failed"] }).notNull(),
  tableIndex: integer("table_index").notNull().default(0),
  cursor: text("cursor"),
  verifyFailures: integer("verify_failures").notNull().default(0),
  rowsCopied: integer("rows_copied").notNull().default(0),
  rowsDeleted: integer("rows_deleted").notNull().default(0),
  error: text("error"),
  startedAt: timestamp("started_at").notNull(),
  updatedAt: timestamp("updated_at").notNull(),
});
