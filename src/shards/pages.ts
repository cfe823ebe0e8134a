import { writeGuards } from "@db/schema";
import { nullInto, refusedBy } from "@/data/write/constraint-problems";
import type { MovedTable } from "./tables";

/**
 * One keyset page of one organization's rows of one table, copied, compared or deleted: the move's unit of work
 * (src/shards/move-organization.ts). Plain D1 statements over the tables' own column lists, so a new column is
 * moved without a code change; every statement binds at most 100 parameters.
 */

export interface MovedOrganization {
  id: string;
  partnerId: string;
}

/** A table's key values after which the next page starts; null for the first page. */
export type Cursor = unknown[] | null;

/**
 * The marker a move leaves for its organization on the target T while it copies (an organization_freezes row on T
 * naming T): every batch a move writes on T opens with this guard, which fails it, writing nothing, unless the
 * marker is there. The flip removes the marker, so a stale call still copying or undoing a copy after it cannot
 * touch the rows T now serves. Same trick as the write guard: NULL into the NOT NULL write_guards.settled.
 */
export function arrivalGuard(target: D1Database, organizationId: string, targetName: string): D1PreparedStatement {
  return target
    .prepare(
      `INSERT INTO write_guards (id, ok, settled)
        VALUES (1, 1, (SELECT 1 WHERE EXISTS (SELECT 1 FROM organization_freezes WHERE organization_id = ? AND moving_to = ?)))
        ON CONFLICT DO NOTHING`,
    )
    .bind(organizationId, targetName);
}

/** A write on the target refused by its arrival guard: the move's marker is not there (flipped, aborted, or never set). */
export class TargetUnmarked extends Error {
  constructor() {
    super("The target holds no marker of this move: nothing was written there.");
  }
}

async function behindGuard<T>(batch: Promise<T>): Promise<T> {
  try {
    return await batch;
  } catch (error) {
    if (refusedBy(error, nullInto(writeGuards.settled))) throw new TargetUnmarked();
    throw error;
  }
}

export const PAGE_ROWS = 100;
export const DELETE_ROWS = 500;
const MAX_PARAMETERS = 100;

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The condition selecting the organization's rows of `table`, with its parameters. */
export function ownerCondition(table: MovedTable, organization: MovedOrganization): [sql: string, params: unknown[]] {
  switch (table.owner) {
    case "id":
      return [`"id" = ?`, [organization.id]];
    case "organization_id":
      return [`"organization_id" = ?`, [organization.id]];
    case "idempotency_scope": {
      // Every scope that starts "<partner>:<organization>:" (";" sorts right after ":"), through the primary key.
      const prefix = `${organization.partnerId}:${organization.id}:`;
      return [`"scope" >= ? AND "scope" < ?`, [prefix, `${prefix.slice(0, -1)};`]];
    }
  }
}

/** The organization's rows a copy carries: its rows less the table's transient ones. */
function copiedCondition(table: MovedTable, organization: MovedOrganization): [sql: string, params: unknown[]] {
  const [owner, params] = ownerCondition(table, organization);
  return [table.transient ? `${owner} AND NOT (${table.transient})` : owner, params];
}

function pageQuery(table: MovedTable, organization: MovedOrganization, selected: string, after: Cursor, limit: number) {
  const [owner, params] = copiedCondition(table, organization);
  const key = table.key.map(quoted).join(", ");
  const keyset = after ? ` AND (${key}) > (${after.map(() => "?").join(", ")})` : "";
  return {
    sql: `SELECT ${selected} FROM ${quoted(table.name)} WHERE ${owner}${keyset} ORDER BY ${key} LIMIT ?`,
    params: [...params, ...(after ?? []), limit],
  };
}

/** The table's columns in schema order, from the database itself. */
export async function columnsOf(db: D1Database, table: string): Promise<string[]> {
  const { results } = await db.prepare("SELECT name FROM pragma_table_info(?) ORDER BY cid").bind(table).all<{ name: string }>();
  return results.map((r) => r.name);
}

const keyOf = (table: MovedTable, columns: string[], row: unknown[]) => table.key.map((k) => row[columns.indexOf(k)]);

export interface PageResult {
  rows: number;
  /** Where the next page starts; null when this page was the table's last. */
  next: Cursor;
}

/**
 * Copies the page after `after` from `source` to `target` in one atomic batch: the target's rows of the
 * organization in the page's key range are replaced by the source's (so a resumed or repeated copy converges, and a
 * row deleted on the source since an earlier pass goes too). Foreign keys are checked at the batch's end: a parent
 * row replaced here keeps the children copied before. The batch opens with `guard` (arrivalGuard): TargetUnmarked
 * when it refuses.
 */
export async function copyPage(
  source: D1Database,
  target: D1Database,
  table: MovedTable,
  organization: MovedOrganization,
  after: Cursor,
  guard: D1PreparedStatement,
): Promise<PageResult> {
  const columns = await columnsOf(source, table.name);
  const page = pageQuery(table, organization, columns.map(quoted).join(", "), after, PAGE_ROWS);
  const rows = await source
    .prepare(page.sql)
    .bind(...page.params)
    .raw<unknown[]>();
  const last = rows.length === PAGE_ROWS ? keyOf(table, columns, rows.at(-1)!) : null;
  const [owner, ownerParams] = copiedCondition(table, organization);
  const key = table.key.map(quoted).join(", ");
  const marks = (values: unknown[]) => values.map(() => "?").join(", ");
  const range = [after ? ` AND (${key}) > (${marks(after)})` : "", last ? ` AND (${key}) <= (${marks(last)})` : ""].join("");
  const clear = target
    .prepare(`DELETE FROM ${quoted(table.name)} WHERE ${owner}${range}`)
    .bind(...ownerParams, ...(after ?? []), ...(last ?? []));
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
  const inserts: D1PreparedStatement[] = [];
  for (let i = 0; i < rows.length; i += perStatement) {
    const part = rows.slice(i, i + perStatement);
    const values = part.map((row) => `(${marks(row)})`).join(", ");
    inserts.push(
      target.prepare(`INSERT INTO ${quoted(table.name)} (${columns.map(quoted).join(", ")}) VALUES ${values}`).bind(...part.flat()),
    );
  }
  await behindGuard(target.batch([guard, target.prepare("PRAGMA defer_foreign_keys = ON"), clear, ...inserts]));
  return { rows: rows.length, next: last };
}

/**
 * Compares the page after `after` on both databases, value and storage type of every column (SQLite's quote()):
 * `same` is false at the first difference, including a row on one side only.
 */
export async function comparePage(
  source: D1Database,
  target: D1Database,
  table: MovedTable,
  organization: MovedOrganization,
  after: Cursor,
): Promise<PageResult & { same: boolean }> {
  const [columns, targetColumns] = await Promise.all([columnsOf(source, table.name), columnsOf(target, table.name)]);
  if (columns.join() !== targetColumns.join()) return { rows: 0, next: null, same: false };
  const selected = [...table.key.map(quoted), ...columns.map((c) => `quote(${quoted(c)})`)].join(", ");
  const page = pageQuery(table, organization, selected, after, PAGE_ROWS);
  const [left, right] = await Promise.all(
    [source, target].map((db) =>
      db
        .prepare(page.sql)
        .bind(...page.params)
        .raw<unknown[]>(),
    ),
  );
  const same = JSON.stringify(left) === JSON.stringify(right);
  const next = left!.length === PAGE_ROWS ? left!.at(-1)!.slice(0, table.key.length) : null;
  return { rows: left!.length, next, same };
}

/**
 * Deletes up to DELETE_ROWS of the organization's rows of `table`: answers how many (fewer: the table is done). With
 * `guard` (arrivalGuard) the delete runs behind it: TargetUnmarked when it refuses.
 */
export async function deletePage(
  db: D1Database,
  table: MovedTable,
  organization: MovedOrganization,
  guard?: D1PreparedStatement,
): Promise<number> {
  const [owner, params] = ownerCondition(table, organization);
  const name = quoted(table.name);
  // Counted by RETURNING: D1's `changes` also counts what triggers change (shift_breaks' keep shifts.breaks_json).
  const deletion = db
    .prepare(`DELETE FROM ${name} WHERE rowid IN (SELECT rowid FROM ${name} WHERE ${owner} LIMIT ?) RETURNING 1 AS deleted`)
    .bind(...params, DELETE_ROWS);
  if (!guard) return (await deletion.all()).results.length;
  const [, deleted] = await behindGuard(db.batch([guard, deletion]));
  return deleted!.results.length;
}

/** Every row of the organization in `table`, each column as SQLite's quote() of it, in key order: a dump to compare. */
export async function dumpTable(db: D1Database, table: MovedTable, organization: MovedOrganization): Promise<string[][]> {
  const columns = await columnsOf(db, table.name);
  const [owner, params] = ownerCondition(table, organization);
  const sql = `SELECT ${columns.map((c) => `quote(${quoted(c)})`).join(", ")} FROM ${quoted(table.name)} WHERE ${owner} ORDER BY ${table.key.map(quoted).join(", ")}`;
  return db
    .prepare(sql)
    .bind(...params)
    .raw<string[]>();
}
