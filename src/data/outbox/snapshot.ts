import { Column, getTableColumns, is, SQL, sql, Table } from "drizzle-orm";
import { SQLiteAsyncDialect, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { D1_LIMITS } from "@/data/d1-limits";
import { sqlText } from "@/data/sql-literal";

/**
 * A selection as drizzle's `db.select(fields)` takes it: tables (or aliases), columns, SQL expressions and objects
 * of those. An event can store what such a selection answers as one JSON value, computed by SQLite inside the write
 * batch (`snapshotOf`), and read it back as drizzle would have answered the select (`fromSnapshot`), so the event's
 * data is the API's serializer applied to the API's own read, with no round trip.
 */
export type Fields = { [key: string]: SQLiteTable | Column | SQL | SQL.Aliased | Fields };

/** A key of the code's own (a column or field name) as a SQL string literal: keys bind no parameter (D1 allows 100). */
const key = sqlText;

/** Pairs per SQL function call: D1 allows 32 arguments per function (json_insert takes the target, then 2 per pair). */
const PAIRS_PER_CALL = Math.floor((D1_LIMITS.functionArguments - 1) / 2);

/** A JSON path to a key of the code's own, as a SQL string literal. */
const path = (name: string) => sqlText(`$."${name}"`);

/**
 * `json_object` of the named values, in order; more than 15 pairs are added by `json_insert` calls of 15 each, so no
 * call passes D1's 32 arguments (a shifts row has 21 columns). A value that is JSON (a nested object) stays JSON.
 */
function jsonObject(pairs: readonly (readonly [string, SQL])[]): SQL {
  const first = pairs.slice(0, PAIRS_PER_CALL);
  let object = sql`json_object(${sql.join(
    first.map(([name, value]) => sql`${key(name)}, ${value}`),
    sql`, `,
  )})`;
  for (let start = PAIRS_PER_CALL; start < pairs.length; start += PAIRS_PER_CALL) {
    const more = pairs.slice(start, start + PAIRS_PER_CALL).map(([name, value]) => sql`${path(name)}, ${value}`);
    object = sql`json_insert(${object}, ${sql.join(more, sql`, `)})`;
  }
  return object;
}

const dialect = new SQLiteAsyncDialect();
const rowSnapshots = new WeakMap<SQLiteTable, SQL>();

/**
 * `json_object(...)` of every column of the table's row, keyed by column name (SQLite values as stored). It binds
 * nothing, so its text is built once per table and isolate: a row's event is the costliest statement of a write to
 * build (one call per column).
 */
export function rowSnapshot(table: SQLiteTable): SQL {
  let snapshot = rowSnapshots.get(table);
  if (!snapshot) {
    const built = jsonObject(Object.values(getTableColumns(table)).map((column) => [column.name, sql`${column}`] as const));
    snapshot = sql.raw(dialect.sqlToQuery(built).sql);
    rowSnapshots.set(table, snapshot);
  }
  return snapshot;
}

const snapshotValue = (value: Fields[string]): SQL =>
  is(value, Table)
    ? rowSnapshot(value as SQLiteTable)
    : is(value, Column) || is(value, SQL) || is(value, SQL.Aliased)
      ? sql`${value}`
      : snapshotOf(value as Fields);

/** The selection as one `json_object(...)`: a table's row by column name, nested objects as objects. */
export const snapshotOf = (fields: Fields): SQL =>
  jsonObject(Object.entries(fields).map(([name, value]) => [name, snapshotValue(value)] as const));

const fromDriver = (column: Column, value: unknown) => (value === null || value === undefined ? null : column.mapFromDriverValue(value));

/** A row snapshot (column name → SQLite value) read back as drizzle reads the row. */
export function rowOf<T extends SQLiteTable>(table: T, snapshot: Record<string, unknown>): T["$inferSelect"] {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) row[key] = fromDriver(column, snapshot[column.name]);
  return row as T["$inferSelect"];
}

/** A `snapshotOf(fields)` value read back as `db.select(fields)` answers a row. */
export function fromSnapshot<T = Record<string, unknown>>(fields: Fields, snapshot: Record<string, unknown>): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    const stored = snapshot[key];
    if (is(value, Table)) out[key] = rowOf(value as SQLiteTable, stored as Record<string, unknown>);
    else if (is(value, Column)) out[key] = fromDriver(value, stored);
    else if (is(value, SQL) || is(value, SQL.Aliased)) out[key] = stored ?? null;
    else out[key] = fromSnapshot(value as Fields, stored as Record<string, unknown>);
  }
  return out as T;
}
