import type { BatchItem } from "drizzle-orm/batch";
import { drizzle } from "drizzle-orm/d1";
import * as schema from "../../drizzle/schema";

export const createDatabase = (binding: D1Database) => drizzle(binding, { schema });

export type Database = ReturnType<typeof createDatabase>;

export type Statement = BatchItem<"sqlite">;

/** One atomic batch of statements assembled from parts, some possibly empty (the results are not needed). */
export function writeAll(db: Database, statements: Statement[]) {
  const [first, ...rest] = statements;
  if (!first) throw new Error("writeAll needs at least one statement");
  return db.batch([first, ...rest]);
}
