import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/** `column IN (list)` with the whole list bound as ONE JSON parameter, so it never meets D1's 100-parameter cap. */
export const inJsonList = (column: SQLiteColumn, values: readonly string[]): SQL =>
  sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;

export const notInJsonList = (column: SQLiteColumn, values: readonly string[]): SQL =>
  sql`${column} NOT IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;

/** Whether a JSON-array column holds `value`. */
export const jsonArrayContains = (column: SQLiteColumn, value: string): SQL =>
  sql`EXISTS (SELECT 1 FROM json_each(${column}) WHERE value = ${value})`;
