import type { Query, SQL } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { Database, Statement } from "./client";

const dialect = new SQLiteAsyncDialect();

/**
 * How a statement's answer is read: from its result in a batch (row objects), and awaited alone, where it may ask D1
 * for less (`.raw()`: positional arrays, no object per row); without `alone`, as in a batch.
 */
export interface Reading<T> {
  fromBatch(result: D1Result): T;
  alone?(bound: D1PreparedStatement): Promise<T>;
}

/**
 * Built SQL and its values as a statement usable both on its own (awaited) and inside a batch (`db.batch`,
 * `guardedBatch`): drizzle's D1 batch takes any item whose `_prepare()` has the D1 statement (`stmt`), the query and
 * `mapResult`, which is what this gives it.
 */
export function batchItem<T>(
  db: Database,
  built: Query,
  reading: ((result: D1Result) => T) | Reading<T>,
  stmt: D1PreparedStatement = db.$client.prepare(built.sql),
): Statement & PromiseLike<T> {
  const { fromBatch, alone } = typeof reading === "function" ? { fromBatch: reading, alone: undefined } : reading;
  const item = {
    stmt,
    _prepare: () => item,
    getQuery: () => built,
    toSQL: () => built,
    mapResult: (result: D1Result) => fromBatch(result),
    // biome-ignore lint/suspicious/noThenProperty: drizzle batches and awaits its queries as thenables; this is one
    then<R1 = T, R2 = never>(onFulfilled?: (value: T) => R1 | PromiseLike<R1>, onRejected?: (reason: unknown) => R2 | PromiseLike<R2>) {
      const bound = stmt.bind(...built.params);
      const answer = alone ? alone(bound) : bound.all().then(fromBatch);
      return answer.then(onFulfilled, onRejected);
    },
  };
  return item as unknown as Statement & PromiseLike<T>;
}

/**
 * A raw SQL statement usable both on its own (awaited) and inside a batch. drizzle's own `db.run`/`db.all` cannot be
 * batched once they bind parameters (its D1 batch reads a prepared statement they lack).
 */
const raw = <T>(db: Database, query: SQL, map: (result: D1Result) => T) => batchItem(db, dialect.sqlToQuery(query), map);

/** A write; answers how many rows it changed. */
export const rawRun = (db: Database, query: SQL) => raw(db, query, (r) => ({ changes: r.meta.changes }));

/** A read (or a write with RETURNING); answers its rows. */
export const rawAll = <T>(db: Database, query: SQL) => raw(db, query, (r) => r.results as T[]);
