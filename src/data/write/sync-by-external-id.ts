import { and, getTableColumns, isNotNull, or, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable, SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import { chunk, rowsPerStatement } from "@/data/chunk";
import type { Database, Statement } from "@/data/client";
import { inJsonList, notInJsonList } from "@/data/json-list";
import { inOrganization, softDeleted } from "@/data/tenancy";
import { guardedBatch, type Writer } from "./guarded-batch";

/** A tenant table with the columns sync manages itself. */
export type SyncTable = SQLiteTable & {
  id: SQLiteColumn;
  organizationId: SQLiteColumn;
  externalId: SQLiteColumn;
  active: SQLiteColumn;
  updatedAt: SQLiteColumn;
  deletedAt: SQLiteColumn;
};

const MANAGED = ["id", "organizationId", "externalId", "active", "createdAt", "updatedAt", "deletedAt"] as const;

/** The columns a sync record may decide: everything but identity and lifecycle. */
export type ContentKey<T extends SyncTable> = Exclude<keyof T["$inferSelect"] & string, (typeof MANAGED)[number]>;

export interface SyncEntry<T extends SyncTable> {
  /** The row inserted when the externalId is new: every column, a fresh id, defaults for what the record omits. */
  row: T["$inferInsert"] & { id: string; externalId: string };
  /** The content columns the record gives; an existing row keeps the stored value of every other one. */
  given: readonly ContentKey<T>[];
}

export interface UpsertGroup<K extends string, R> {
  given: K[];
  rows: R[];
}

/**
 * Rows grouped by the set of columns they give (listed in `columnOrder`, whatever order each entry names them),
 * so every row of a multi-row upsert binds the same SET; payload order is kept within a group.
 */
export function groupByGiven<K extends string, R>(
  entries: readonly { row: R; given: readonly K[] }[],
  columnOrder: readonly string[],
): UpsertGroup<K, R>[] {
  const groups = new Map<string, UpsertGroup<K, R>>();
  for (const { row, given } of entries) {
    const named = new Set<string>(given);
    const canonical = columnOrder.filter((column) => named.has(column)) as K[];
    const signature = canonical.join();
    const group = groups.get(signature) ?? { given: canonical, rows: [] };
    group.rows.push(row);
    groups.set(signature, group);
  }
  return [...groups.values()];
}

/** Each group sliced so one statement holds at most `rowsPerUpsert` rows. */
export const upsertChunks = <K extends string, R>(groups: readonly UpsertGroup<K, R>[], rowsPerUpsert: number): UpsertGroup<K, R>[] =>
  groups.flatMap(({ given, rows }) => chunk(rows, rowsPerUpsert).map((part) => ({ given, rows: part })));

/** Every column is bound for every row (a null too), so the column count is what a row costs. */
export const rowsPerUpsert = (table: SQLiteTable) => rowsPerStatement(Object.keys(getTableColumns(table)).length);

const excluded = (column: SQLiteColumn) => sql.raw(`excluded."${column.name}"`);

/**
 * One upsert per chunk: on a known externalId the given columns, `active` and restoring a deleted row come from
 * the payload, and only when something differs, so an identical record changes nothing (updatedAt included).
 */
export function upsertStatements<T extends SyncTable>(db: Database, table: T, entries: readonly SyncEntry<T>[]) {
  const columns: Record<string, SQLiteColumn> = getTableColumns(table);
  const order = Object.keys(columns);
  return upsertChunks(groupByGiven(entries, order), rowsPerUpsert(table)).map(({ given, rows }) => {
    const decided = [...given, "active"].map((key) => columns[key]!);
    const set: Record<string, SQL> = {};
    for (const key of [...given, "active", "updatedAt", "deletedAt"]) set[key] = excluded(columns[key]!);
    return db
      .insert(table)
      .values(rows)
      .onConflictDoUpdate({
        target: [table.organizationId, table.externalId],
        set: set as SQLiteUpdateSetSource<T>,
        setWhere: or(isNotNull(table.deletedAt), ...decided.map((column) => sql`${column} IS NOT ${excluded(column)}`)),
      })
      .returning({ id: table.id });
  });
}

export interface SyncOptions<T extends SyncTable> {
  entries: readonly SyncEntry<T>[];
  /** Soft-delete the live rows with an externalId that no entry names. */
  deactivateMissing: boolean;
  now: Date;
  /** A further condition a row must meet to be deactivated (e.g. one the caller may act on). */
  deactivateOnly?: SQL;
  /** Statements of the same batch that run before the upserts and after them: guards that fail the batch. */
  guardsBefore?: readonly Statement[];
  guardsAfter?: readonly Statement[];
  /** Record `<resource>.created|updated|deleted`, one event per row the sync changed (data/outbox/outbox). */
  events?: { resource: "location" | "staff_member" };
  /** Statements after the events: writes the sync causes (see guardedBatch). */
  trailing?: Statement[];
}

/**
 * The rows this sync wrote: its `now` is the updatedAt of each (an identical record keeps its own), named by the
 * payload or deactivated by it.
 */
function changedRows(table: SyncTable, organizationId: string, externalIds: string[], now: Date, resource: string) {
  const at = now.getTime();
  const c = getTableColumns(table) as Record<string, SQLiteColumn>;
  return {
    table,
    where: sql`${table.organizationId} = ${organizationId} AND ${table.updatedAt} = ${at}
      AND (${inJsonList(table.externalId, externalIds)} OR ${table.deletedAt} = ${at})`,
    typeOf: sql`CASE WHEN ${table.deletedAt} IS NOT NULL THEN ${`${resource}.deleted`}
      WHEN ${c.createdAt!} = ${at} THEN ${`${resource}.created`} ELSE ${`${resource}.updated`} END`,
  };
}

/**
 * Upserts the entries by (organization, externalId) in ONE atomic batch: the principal guard, the deactivation, the
 * chunked upserts between the caller's guards, and the read-back. `created` and `updated` count the rows written,
 * told apart by the ids this call proposed.
 */
export async function syncByExternalId<T extends SyncTable>(
  writer: Writer,
  table: T,
  organizationId: string,
  { entries, deactivateMissing, now, deactivateOnly, guardsBefore = [], guardsAfter = [], events, trailing }: SyncOptions<T>,
) {
  const { db } = writer;
  const externalIds = entries.map((entry) => entry.row.externalId);
  const proposedIds = new Set(entries.map((entry) => entry.row.id));
  // Rows without an externalId are never touched; with deactivateMissing off the statement matches nothing.
  const deactivate = db
    .update(table)
    .set(softDeleted(now) as SQLiteUpdateSetSource<T>)
    .where(
      and(
        inOrganization(table, organizationId),
        isNotNull(table.externalId),
        deactivateMissing ? notInJsonList(table.externalId, externalIds) : sql`0`,
        deactivateOnly,
      ),
    )
    .returning({ id: table.id });
  const readBack = db
    .select()
    .from(table)
    .where(and(inOrganization(table, organizationId), inJsonList(table.externalId, externalIds)));

  // The deactivation touches only externalIds the upserts do not; the read-back comes last so it sees every write.
  const upserts = upsertStatements(db, table, entries);
  const results = await guardedBatch(writer, [deactivate, ...guardsBefore, ...upserts, ...guardsAfter, readBack], [], {
    events: events
      ? [{ organizationId, occurredAt: now, rows: changedRows(table, organizationId, externalIds, now, events.resource) }]
      : [],
    trailing,
  });
  const [deactivated] = results;
  const stored = results[results.length - 1] as T["$inferSelect"][];
  const firstUpsert = 1 + guardsBefore.length;
  const written = (results.slice(firstUpsert, firstUpsert + upserts.length) as { id: string }[][]).flat();
  const created = written.filter((row) => proposedIds.has(row.id)).length;
  const byExternalId = new Map(stored.map((row) => [row.externalId as string, row]));
  return {
    created,
    updated: written.length - created,
    deactivated: (deactivated as { id: string }[]).length,
    records: externalIds.map((externalId) => byExternalId.get(externalId)!),
  };
}
