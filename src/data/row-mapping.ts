import { Column, is, type Query, SQL } from "drizzle-orm";
import type { Database, Statement } from "./client";
import { batchItem } from "./raw-statement";

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

/**
 * The rows of a D1 result as drizzle would map them, read by column name. drizzle's own mapping turns each row object
 * into an array (`Object.keys`), then walks every field's path and asks `is()` what it is, per row and column: on a
 * page of 100 shifts that was 3.3 ms of a listing's CPU (docs/PERFORMANCE.md, issue 21). This decides per column
 * once. Null when the select does not fit (a joined select's nested objects, an unaliased SQL expression, two columns
 * answered under one name): drizzle's mapping serves those.
 */
export function rowReader(fields: SelectedField[] | undefined): ((result: D1Result) => Row[]) | null {
  if (!fields?.length) return null;
  const readers: ColumnReader[] = [];
  for (const field of fields) {
    const reader = readerOf(field);
    if (!reader) return null;
    readers.push(reader);
  }
  if (new Set(readers.map((r) => r.name)).size !== readers.length) return null;
  return (result) => {
    const answered = result.results as Row[];
    const rows: Row[] = new Array(answered.length);
    for (let i = 0; i < answered.length; i++) {
      const stored = answered[i]!;
      const row: Row = {};
      for (const { name, key, decode } of readers) {
        const value = stored[name];
        row[key] = value === null || decode === null ? value : decode(value);
      }
      rows[i] = row;
    }
    return rows;
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

/** The row mapping for a prepared query: rowReader's where it fits, drizzle's own otherwise. */
export function rowMappingOf(query: DrizzlePrepared): (result: D1Result) => unknown {
  const read = query.executeMethod === "all" && !query.customResultMapper ? rowReader(query.fields) : null;
  return read ?? ((result) => query.mapResult(result, true));
}

/**
 * A select built for this request, its rows read by rowReader: for reads answering many rows (a listing's page, an
 * export's). Usable in `db.batch` or awaited, as the query itself.
 */
export function readByName<Q extends Statement>(db: Database, query: Q): Q {
  const built = (query as unknown as { _prepare(): DrizzlePrepared })._prepare();
  return batchItem(db, built.getQuery(), rowMappingOf(built), built.stmt) as unknown as Q;
}
