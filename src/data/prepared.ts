import { fillPlaceholders, type Placeholder, type Query, sql } from "drizzle-orm";
import { createDatabase, type Database, type Statement } from "./client";
import { batchItem, type Reading } from "./raw-statement";
import { type DrizzlePrepared, rowMappingOf } from "./row-mapping";

/** A value as D1 binds it. */
type BoundValue = string | number | null;

/** The values of a prepared statement, as placeholders while it is built. */
export type Placeholders<V> = { [K in keyof V]-?: Placeholder<K & string, V[K]> };

/** drizzle for building statements, never running them: nothing is prepared on its client. */
const builder = createDatabase({ prepare: () => null } as unknown as D1Database);

const placeholders = new Proxy({}, { get: (_, name) => sql.placeholder(String(name)) });

/**
 * A statement whose SQL drizzle builds once per isolate; each request binds its values to it and gets drizzle's typed
 * rows (mapped by data/row-mapping). Building a query's SQL is most of what drizzle costs a hot request
 * (docs/PERFORMANCE.md, issue 21).
 * drizzle's own `.prepare()` does not fit: `db.batch` neither takes its prepared query nor fills its placeholders,
 * and it holds the D1 statement of the request that prepared it. This does, inside `db.batch` and `guardedBatch`
 * or awaited alone.
 *
 *   const staffMember = prepared((db, p: Placeholders<{ id: string }>) =>
 *     db.select().from(staffMembers).where(eq(staffMembers.id, p.id)));
 *   const [rows] = await db.batch([staffMember(db, { id })]);
 *
 * The query's shape must not depend on the values (a list of values is a placeholder each: a fixed length). Values
 * are bound as D1 takes them (an instant as its milliseconds): drizzle encodes a placeholder by its column only in
 * inserted values, not in conditions.
 */
export function prepared<V extends Record<keyof V, BoundValue>, Q extends Statement & { prepare(): unknown }>(
  build: (db: Database, p: Placeholders<V>) => Q,
) {
  let template: { query: Query; rows: Reading<unknown> } | undefined;
  return (db: Database, values: V): Q => {
    if (!template) {
      const built = build(builder, placeholders as Placeholders<V>).prepare() as DrizzlePrepared;
      template = { query: built.getQuery(), rows: rowMappingOf(built) };
    }
    const { query, rows } = template;
    const params = fillPlaceholders(query.params, values as Record<string, unknown>);
    return batchItem(db, { sql: query.sql, params }, rows) as unknown as Q;
  };
}
