import type { BatchItem } from "drizzle-orm/batch";
import { drizzle } from "drizzle-orm/d1";
import * as schema from "../../drizzle/schema";

export const createDatabase = (binding: D1Database) => drizzle(binding, { schema });

export type Database = ReturnType<typeof createDatabase>;

/** A statement of a batch. Writes go through lib/principal-guard's guardedBatch, never db.batch directly. */
export type Statement = BatchItem<"sqlite">;
