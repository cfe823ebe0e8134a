import { Column, is, type Query, SQL } from "drizzle-orm";
import type { Database, Statement } from "./client";
import { batchItem, type Reading } from "./raw-statement";

/** A field of a built select as drizzle's prepared query keeps it: its path in the row and the column or SQL read. */
export type SelectedField = { path: string[]; field: unknown };

type Row = Record<string, unknown>;

/** One column of a row: the name D1 answers it under, the key the row takes, and its decoding (none when as stored). */
type ColumnReader = { name: string; key: string; decode: ((value: unknown) => unknown) | null };

const asStored = Column.prototype.mapFromDriverValue;

function readerOf({ path, field }: SelectedField): ColumnReader | null {
  if (path.length !== 1) return null;
  if (is(field, Column)) {
    const column = field as Column;
    const decode = column.mapFromDriverValue === asStored ? null : (value: unknown) => column.mapFromDriverValue(value);
    return { name: column.name, key: path[0]!, decode };
  }
  if (is(field, SQL.Aliased)) {
    const aliased = field as SQL.Aliased;
    const { decoder } = aliased.sql as unknown as { decoder: { mapFromDriverValue(value: unknown): unknown } };
    return { name: aliased.fieldAlias, key: path[0]!, decode: (value) => decoder.mapFromDriverValue(value) };
  }
  return null;
}

/** A select's rows from what D1 answers: a batch's row objects, or the positional arrays of `.raw()` (awaited alone). */
export interface RowReader {
  fromObjects(result: D1Result): Row[];
  fromArrays(rows: unknown[][]): Row[];
}

/**
 * The rows of a select as drizzle would map them. drizzle's own mapping turns each row object into an array
 * (`Object.keys`), then walks every field's path and asks `is()` what it is, per row and column: on a page of 100
 * shifts that was 3.3 ms of a listing's CPU (docs/PERFORMANCE.md, issue 21). This decides per column once. Null when
 * the select does not fit (a joined select's nested objects, an unaliased SQL expression, two columns answered under
 * one name): drizzle's mapping serves those.
 */
export function rowReader(fields: SelectedField[] | undefined): RowReader | null {
  if (!fields?.length) return null;
  const readers: ColumnReader[] = [];
  for (const field of fields) {
    const reader = readerOf(field);
    if (!reader) return null;
    readers.push(reader);
  }
  if (new Set(readers.map((r) => r.name)).size !== readers.length) return null;
  const decoded = ({ decode }: ColumnReader, value: unknown) => (value === null || decode === null ? value : decode(value));
  return {
    fromObjects: (result) =>
      (result.results as Row[]).map((stored) => {
        const row: Row = {};
        for (const reader of readers) row[reader.key] = decoded(reader, stored[reader.name]);
        return row;
      }),
    fromArrays: (rows) =>
      rows.map((values) => {
        const row: Row = {};
        for (let k = 0; k < readers.length; k++) row[readers[k]!.key] = decoded(readers[k]!, values[k]);
        return row;
      }),
  };
}

/** What drizzle's batch reads of a built query once prepared (its D1 statement, SQL, fields and row mapping). */
export interface DrizzlePrepared {
  stmt: D1PreparedStatement;
  executeMethod: string;
  fields?: SelectedField[];
  customResultMapper?: unknown;
  getQuery(): Query;
  mapResult(result: unknown, isFromBatch: boolean): unknown;
}

/** The row mapping for a prepared query: rowReader's where it fits (`.raw()` awaited alone), drizzle's otherwise. */
export function rowMappingOf(query: DrizzlePrepared): Reading<unknown> {
  const read = query.executeMethod === "all" && !query.customResultMapper ? rowReader(query.fields) : null;
  if (!read) return { fromBatch: (result) => query.mapResult(result, true) };
  return { fromBatch: read.fromObjects, alone: async (bound) => read.fromArrays(await bound.raw()) };
}

/**
 * A select built for this request, its rows read by rowReader: for reads answering many rows (a listing's page, an
 * export's). Usable in `db.batch` or awaited, as the query itself.
 */
export function readRows<Q extends Statement>(db: Database, query: Q): Q {
  const built = (query as unknown as { _prepare(): DrizzlePrepared })._prepare();
  return batchItem(db, built.getQuery(), rowMappingOf(built), built.stmt) as unknown as Q;
}
