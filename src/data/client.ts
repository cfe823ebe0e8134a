import type { BatchItem } from "drizzle-orm/batch";
import { drizzle } from "drizzle-orm/d1";

/**
 * drizzle over a binding or a request's D1 session (src/platform/middleware/database.ts). Its D1 driver only calls `prepare` and
 * `batch`, which a session has; the type asks for a whole D1Database. Without a schema: nothing uses drizzle's
 * relational queries (`db.query`), and with one drizzle would rebuild every table's relations on each call — every
 * request opens one.
 */
export const createDatabase = (binding: D1Database | D1DatabaseSession) => drizzle(binding as D1Database);

export type Database = ReturnType<typeof createDatabase>;

/** A statement of a batch. Writes go through data/write/guarded-batch's guardedBatch, never db.batch directly. */
export type Statement = BatchItem<"sqlite">;
