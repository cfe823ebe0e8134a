import type { SQL } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import type { Database, Statement } from "./client";

const dialect = new SQLiteAsyncDialect();

/**
 * A raw SQL statement usable both on its own (awaited) and inside a batch (`guardedBatch`). drizzle's own `db.run`/
 * `db.all` cannot be batched once they bind parameters (its D1 batch reads a prepared statement they lack), so
 * this gives the batch the D1 statement it expects.
 */
function raw<T>(db: Database, query: SQL, map: (result: D1Result) => T): Statement & PromiseLike<T> {
  const built = dialect.sqlToQuery(query);
  const stmt = db.$client.prepare(built.sql);
  const item = {
    stmt,
    _prepare: () => item,
    getQuery: () => built,
    mapResult: (result: D1Result) => map(result),
    // biome-ignore lint/suspicious/noThenProperty: drizzle batches and awaits its queries as thenables; this is one
    then<R1 = T, R2 = never>(onFulfilled?: (value: T) => R1 | PromiseLike<R1>, onRejected?: (reason: unknown) => R2 | PromiseLike<R2>) {
      return stmt
        .bind(...built.params)
        .all()
        .then((result) => map(result))
        .then(onFulfilled, onRejected);
    },
  };
  return item as unknown as Statement & PromiseLike<T>;
}

/** A write; answers how many rows it changed. */
export const rawRun = (db: Database, query: SQL) => raw(db, query, (r) => ({ changes: r.meta.changes }));

/** A read (or a write with RETURNING); answers its rows. */
export const rawAll = <T>(db: Database, query: SQL) => raw(db, query, (r) => r.results as T[]);
