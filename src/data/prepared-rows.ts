import { type Column, getTableColumns, type SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";

/** A value as D1 binds it. */
type BoundValue = string | number | null;

/**
 * For statements built once per isolate (data/prepared) that write whole rows, or the same columns of one: the
 * columns as placeholders named by their keys, and a row's values for them as D1 binds them, each encoded by its
 * column as drizzle encodes a written value (an instant as its milliseconds, a boolean as 0/1, JSON as text).
 * drizzle would encode a placeholder of a written value itself, but not a null one (its instant encoder throws), so
 * the placeholders are bound as given and `values` encodes.
 */
export function rowBinding<T extends SQLiteTable, K extends keyof T["$inferSelect"] & string = keyof T["$inferSelect"] & string>(
  table: T,
  keys?: readonly K[],
) {
  const all = getTableColumns(table) as unknown as Record<string, Column>;
  const columns = (keys ?? (Object.keys(all) as K[])).map((key) => [key, all[key]!] as const);
  const placeholders = Object.fromEntries(columns.map(([key]) => [key, sql`${sql.placeholder(key)}`])) as Record<K, SQL>;
  return {
    keys: columns.map(([key]) => key),
    /** Every column as its placeholder: the `values` of an insert or the `set` of an update. */
    placeholders,
    /** The row's values of the columns, by key. Every column must be given (null, not left out). */
    values(row: Pick<T["$inferSelect"], K>): Record<K, BoundValue> {
      const bound = {} as Record<K, BoundValue>;
      for (const [key, column] of columns) {
        const value = (row as Record<string, unknown>)[key];
        if (value === undefined) throw new TypeError(`No value for ${key}`);
        bound[key] = value === null ? null : (column.mapToDriverValue(value) as BoundValue);
      }
      return bound;
    },
  };
}
