import { organizationDirectory, organizationMoves, organizations } from "@db/schema";
import { and, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { auditStatement } from "@/data/audit/audit-entries";
import { type AuditRequest, linkAuditRequest } from "@/data/audit/audit-request";
import { createDatabase, type Database } from "@/data/client";
import { newId } from "@/data/ids";
import { eventStatement } from "@/data/outbox/outbox";
import { rawRun } from "@/data/raw-statement";
import { directoryCacheMs } from "@/data/shard-routes";
import { directoryBinding, regionOf, shardBinding, shardConfig } from "@/data/shards";
import { OPERATOR_ACTOR } from "@/domain/audit";
import { copyFilesPage, crossesRegions, deleteFilesOf, FILE_PREFIXES } from "./files";
import {
  arrivalGuard,
  type Cursor,
  comparePage,
  copyPage,
  DELETE_ROWS,
  deletePage,
  type MovedOrganization,
  type PageResult,
  TargetUnmarked,
} from "./pages";
import { MOVED_TABLES } from "./tables";

/**
 * Moving an organization from its shard S to another, T, as a resumable state machine whose state lives in the
 * directory's database (organization_moves). Each call advances it by a bounded number of pages, so one Worker
 * invocation stays short, and any call may be interrupted anywhere: every step is idempotent and its progress is
 * saved only after its work committed.
 *   freeze  insert the organization's freeze on S: from then on every write batch on S for it fails (503
 *           ORGANIZATION_MOVING), in the database; then the marker on T (a freeze row on T naming T: it freezes the
 *           organization there too, so the Cron's passes leave its copied rows alone); wait `settleMs` so that
 *           requests answered just before finish their bookkeeping (the Idempotency-Key answer).
 *   copy    table by table (MOVED_TABLES, parents first), keyset page by page: T's rows in the page's key range
 *           are replaced by S's, in a batch behind the marker's guard (pages.ts arrivalGuard).
 *           Between data regions (src/data/shards.ts), then the organization's R2 objects, prefix by prefix, page by
 *           page, to the target region's bucket (./files.ts).
 *   verify  table by table, page by page: every column's value and storage type the same on S and T. A difference
 *           sends the move back to copy from that table (then verify again from the first), at most
 *           MAX_VERIFY_FAILURES times, then the move stops as failed (still frozen: abort it).
 *   flip    UPDATE organization_directory SET shard = T WHERE shard = S AND the move's step is still flip (one
 *           statement: an abort and a flip never both win), then clear T's marker: requests now go to T, where no
 *           freeze is, so writes resume there, and a stale call's copy or abort on T is refused. Until the marker
 *           goes T is still frozen, so a stale copy meanwhile writes S's frozen rows again, changing nothing. The
 *           batch clearing the marker records the organization's `organization.moved` event and its audit entry
 *           (actor OPERATOR) on T, once: only while the marker is there (after the copy, which never overwrites it).
 *           Any other directory value fails the move.
 *   delete  after `settleMs` more, plus the lifetime of an isolate's directory entry (requests routed before the
 *           flip finish reading S: data/shard-routes), S's rows, children first
 *           (MOVED_TABLES reversed), by pages; between regions, then S's region's objects of the organization. The freeze row stays on S as a tombstone
 *           naming T: a request routed to S before the flip cannot write there (503, and its retry goes to T).
 * Before the flip an operator may abort (only while the directory names S, in the same statement): T's copied rows
 * are deleted behind the marker's guard, then the marker, then S's freeze; the organization never left. A move that
 * failed after the directory came to name T may be replaced by a new move: the organization is where it is.
 */

export type MoveStep = (typeof organizationMoves.$inferSelect)["step"];
type MoveRow = typeof organizationMoves.$inferSelect;

const FINISHED: ReadonlySet<MoveStep> = new Set(["done", "aborted"]);
const STOPPED: ReadonlySet<MoveStep> = new Set(["done", "aborted", "failed"]);
const ABORTABLE: MoveStep[] = ["freeze", "copy", "verify", "flip", "failed"];
export const MAX_VERIFY_FAILURES = 3;
const REVERSED = [...MOVED_TABLES].reverse();

export interface MoveState {
  organizationId: string;
  source: string;
  target: string;
  step: MoveStep;
  /** The table the step is at, when it walks tables. */
  table: string | null;
  rowsCopied: number;
  rowsDeleted: number;
  verifyFailures: number;
  error: string | null;
  /** Whether another call has anything left to do. */
  finished: boolean;
}

export interface MoveOptions {
  /** Units of work (pages) this call may do. */
  pages?: number;
  /** How long the freeze stands before the copy starts, and the flip before the source's rows are deleted. */
  settleMs?: number;
  now?: () => Date;
  /** The operator's request (its IP country) for the audit entry of the move's flip. */
  audit?: AuditRequest;
}

/** A move the operator asked for that cannot be: the status says why (400 bad target, 404 unknown, 409 busy). */
export class MoveRefused extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

export const DEFAULT_SETTLE_MS = 10_000;
const DEFAULT_PAGES = 20;

const tableOf = (row: MoveRow): string | null => {
  if (row.step === "copy" && row.tableIndex >= MOVED_TABLES.length) return `files:${FILE_PREFIXES[row.tableIndex - MOVED_TABLES.length]}`;
  if (row.step === "copy" || row.step === "verify") return MOVED_TABLES[row.tableIndex]?.name ?? null;
  if (row.step === "delete" || row.step === "abort") return REVERSED[row.tableIndex]?.name ?? null;
  return null;
};

const stateOf = (row: MoveRow): MoveState => ({
  organizationId: row.organizationId,
  source: row.source,
  target: row.target,
  step: row.step,
  table: tableOf(row),
  rowsCopied: row.rowsCopied,
  rowsDeleted: row.rowsDeleted,
  verifyFailures: row.verifyFailures,
  error: row.error,
  finished: STOPPED.has(row.step),
});

async function loadMove(db: Database, organizationId: string): Promise<MoveRow | undefined> {
  const [row] = await db.select().from(organizationMoves).where(eq(organizationMoves.organizationId, organizationId));
  return row;
}

async function directoryEntry(db: Database, organizationId: string) {
  const [entry] = await db.select().from(organizationDirectory).where(eq(organizationDirectory.organizationId, organizationId));
  return entry;
}

/** The move's state, or undefined when the organization was never moved. */
export async function moveState(env: Env, organizationId: string): Promise<MoveState | undefined> {
  const row = await loadMove(createDatabase(directoryBinding(env)), organizationId);
  return row && stateOf(row);
}

/**
 * Starts moving `organizationId` to the shard `target` (a binding named in SHARDS), or answers the move already
 * under way to that target. Refuses an unknown shard, the shard it is on, an organization not in the directory,
 * and a move under way elsewhere.
 */
export async function startMove(env: Env, organizationId: string, target: string, now = new Date()): Promise<MoveState> {
  const { shards } = shardConfig(env);
  if (!shards.includes(target)) throw new MoveRefused(400, `"${target}" is not one of SHARDS (${shards.join(", ")}).`);
  const db = createDatabase(directoryBinding(env));
  const entry = await directoryEntry(db, organizationId);
  if (!entry) throw new MoveRefused(404, `No organization ${organizationId} in the directory.`);
  const existing = await loadMove(db, organizationId);
  const settledOnTarget = existing?.step === "failed" && entry.shard === existing.target;
  if (existing && !FINISHED.has(existing.step) && !settledOnTarget) {
    if (existing.target !== target)
      throw new MoveRefused(409, `The organization is being moved to ${existing.target}; finish or abort that move first.`);
    return stateOf(existing);
  }
  if (entry.shard === target) throw new MoveRefused(400, `The organization is already on ${target}.`);
  const fresh = {
    organizationId,
    source: entry.shard,
    target,
    step: "freeze" as const,
    tableIndex: 0,
    cursor: null,
    verifyFailures: 0,
    rowsCopied: 0,
    rowsDeleted: 0,
    error: null,
    startedAt: now,
    updatedAt: now,
  };
  const [started] = await db
    .insert(organizationMoves)
    .values(fresh)
    .onConflictDoUpdate({
      target: organizationMoves.organizationId,
      set: fresh,
      setWhere: or(
        inArray(organizationMoves.step, [...FINISHED]),
        and(
          eq(organizationMoves.step, "failed"),
          sql`EXISTS (SELECT 1 FROM organization_directory d WHERE d.organization_id = ${organizationId} AND d.shard = "organization_moves"."target")`,
        ),
      ),
    })
    .returning();
  if (started) return stateOf(started);
  // Another operator started one meanwhile.
  const other = (await loadMove(db, organizationId))!;
  if (other.target !== target) throw new MoveRefused(409, `The organization is being moved to ${other.target}.`);
  return stateOf(other);
}

/** Turns a move that has not flipped the directory into an abort (its next calls undo the copy). */
export async function requestAbort(env: Env, organizationId: string, now = new Date()): Promise<MoveState> {
  const db = createDatabase(directoryBinding(env));
  const row = await loadMove(db, organizationId);
  if (!row || FINISHED.has(row.step)) throw new MoveRefused(404, "No move of this organization is under way.");
  if (row.step === "abort") return stateOf(row);
  const entry = await directoryEntry(db, organizationId);
  if (!ABORTABLE.includes(row.step) || entry?.shard !== row.source) {
    throw new MoveRefused(409, "The directory already names the target: the move can only finish.");
  }
  // The directory's check and the step's change in one statement: a flip committing in between cannot slip past.
  const [aborting] = await db
    .update(organizationMoves)
    .set({ step: "abort", tableIndex: 0, cursor: null, updatedAt: now })
    .where(
      and(
        eq(organizationMoves.organizationId, organizationId),
        inArray(organizationMoves.step, ABORTABLE),
        sql`EXISTS (SELECT 1 FROM organization_directory d WHERE d.organization_id = ${organizationId} AND d.shard = "organization_moves"."source")`,
      ),
    )
    .returning();
  if (!aborting) throw new MoveRefused(409, "The move moved on meanwhile; read its state and try again.");
  return stateOf(aborting);
}

type Changes = Partial<Pick<MoveRow, "step" | "tableIndex" | "cursor" | "verifyFailures" | "rowsCopied" | "rowsDeleted" | "error">>;

/** What one unit of work did: the state to save, or "wait" (nothing to do yet). */
type Outcome = Changes | "wait";

interface StepContext {
  env: Env;
  directory: Database;
  row: MoveRow;
  organization: MovedOrganization;
  now: Date;
  settleMs: number;
  audit?: AuditRequest;
}

const cursorOf = (row: MoveRow): Cursor => (row.cursor === null ? null : (JSON.parse(row.cursor) as unknown[]));

/** After a page of a table walk: the next page, the next table, or `done` past the last table. */
function walk(row: MoveRow, next: Cursor, tables: number, done: Changes): Changes {
  if (next) return { cursor: JSON.stringify(next) };
  if (row.tableIndex + 1 < tables) return { tableIndex: row.tableIndex + 1, cursor: null };
  return { tableIndex: 0, cursor: null, ...done };
}

async function freeze({ env, row, now, settleMs }: StepContext): Promise<Outcome> {
  const source = shardBinding(env, row.source);
  await source
    .prepare(
      `INSERT INTO organization_freezes (organization_id, moving_to, started_at) VALUES (?, ?, ?)
        ON CONFLICT (organization_id) DO UPDATE SET moving_to = excluded.moving_to`,
    )
    .bind(row.organizationId, row.target, now.getTime())
    .run();
  await shardBinding(env, row.target)
    .prepare(
      `INSERT INTO organization_freezes (organization_id, moving_to, started_at) VALUES (?, ?, ?)
        ON CONFLICT (organization_id) DO UPDATE SET moving_to = excluded.moving_to, started_at = excluded.started_at`,
    )
    .bind(row.organizationId, row.target, now.getTime())
    .run();
  const startedAt = await source
    .prepare("SELECT started_at FROM organization_freezes WHERE organization_id = ?")
    .bind(row.organizationId)
    .first<number>("started_at");
  if (now.getTime() - (startedAt ?? now.getTime()) < settleMs) return "wait";
  return { step: "copy", tableIndex: 0, cursor: null };
}

const unmarked = (row: MoveRow) => `${row.target} holds no marker of this move (flipped or aborted meanwhile?): nothing was copied.`;

/**
 * Past the last table, a move between data regions copies the organization's R2 objects to the target region's
 * bucket, prefix by prefix (tableIndex MOVED_TABLES.length + the prefix's), a listing page at a time (the cursor).
 */
async function copyFiles({ env, row }: StepContext): Promise<Outcome> {
  const prefixIndex = row.tableIndex - MOVED_TABLES.length;
  const cursor = row.cursor === null ? undefined : (JSON.parse(row.cursor) as string);
  const { copied, next } = await copyFilesPage(env, row, prefixIndex, cursor);
  const progress = { rowsCopied: row.rowsCopied + copied };
  if (next !== undefined) return { ...progress, cursor: JSON.stringify(next) };
  if (prefixIndex + 1 < FILE_PREFIXES.length) return { ...progress, tableIndex: row.tableIndex + 1, cursor: null };
  return { ...progress, step: "verify", tableIndex: 0, cursor: null };
}

async function copy(context: StepContext): Promise<Outcome> {
  const { env, row, organization } = context;
  if (row.tableIndex >= MOVED_TABLES.length) return copyFiles(context);
  const target = shardBinding(env, row.target);
  let page: PageResult;
  try {
    page = await copyPage(
      shardBinding(env, row.source),
      target,
      MOVED_TABLES[row.tableIndex]!,
      organization,
      cursorOf(row),
      arrivalGuard(target, row.organizationId, row.target),
    );
  } catch (error) {
    // A stale call (the move went on without it) saves nothing: its save finds the move elsewhere.
    if (error instanceof TargetUnmarked) return { step: "failed", error: unmarked(row) };
    throw error;
  }
  const tablesDone = crossesRegions(env, row.source, row.target)
    ? { tableIndex: MOVED_TABLES.length, cursor: null }
    : { step: "verify" as const };
  return { rowsCopied: row.rowsCopied + page.rows, ...walk(row, page.next, MOVED_TABLES.length, tablesDone) };
}

async function verify({ env, row, organization }: StepContext): Promise<Outcome> {
  const table = MOVED_TABLES[row.tableIndex]!;
  const page = await comparePage(shardBinding(env, row.source), shardBinding(env, row.target), table, organization, cursorOf(row));
  if (page.same) return walk(row, page.next, MOVED_TABLES.length, { step: "flip" });
  const verifyFailures = row.verifyFailures + 1;
  if (verifyFailures >= MAX_VERIFY_FAILURES) {
    return {
      step: "failed",
      verifyFailures,
      error: `${table.name} still differs between ${row.source} and ${row.target} after ${verifyFailures} copies.`,
    };
  }
  return { step: "copy", verifyFailures, cursor: null };
}

async function flip({ env, directory, row, now, audit }: StepContext): Promise<Outcome> {
  await directory
    .update(organizationDirectory)
    .set({ shard: row.target })
    .where(
      and(
        eq(organizationDirectory.organizationId, row.organizationId),
        eq(organizationDirectory.shard, row.source),
        sql`EXISTS (SELECT 1 FROM organization_moves m WHERE m.organization_id = ${row.organizationId} AND m.step = 'flip')`,
      ),
    );
  // Read back rather than trust the update's count: a call interrupted after its flip resumes here.
  const entry = await directoryEntry(directory, row.organizationId);
  if (entry?.shard !== row.target) {
    return { step: "failed", error: `The directory names ${entry?.shard ?? "nothing"}, not ${row.target}: the flip did not happen.` };
  }
  // Only now that the directory names T: an abort that won instead still finds its marker to undo the copy behind.
  // With the marker goes the organization's data region, T's (a move between regions changes it; verify compared
  // S's value): one batch, so no stale copy can write S's back once writes resume on T. Its event (the organization
  // as it is now) only while the marker is there: a call interrupted after this batch records none again.
  const target = createDatabase(shardBinding(env, row.target));
  if (audit) linkAuditRequest(target, audit);
  const eventId = newId();
  const marked = sql`EXISTS (SELECT 1 FROM organization_freezes f WHERE f.organization_id = ${row.organizationId} AND f.moving_to = ${row.target})`;
  await target.batch([
    rawRun(target, sql`UPDATE organizations SET data_region = ${regionOf(env, row.target)} WHERE id = ${row.organizationId}`),
    eventStatement(
      target,
      {
        organizationId: row.organizationId,
        occurredAt: now,
        rows: {
          table: organizations,
          where: sql`${organizations.id} = ${row.organizationId} AND ${marked}`,
          typeOf: sql`'organization.moved'`,
        },
      },
      eventId,
    ),
    auditStatement(target, OPERATOR_ACTOR, [eventId]),
    rawRun(target, sql`DELETE FROM organization_freezes WHERE organization_id = ${row.organizationId}`),
  ]);
  return { step: "delete", tableIndex: 0, cursor: null };
}

/** Deletes the organization's rows from `shard`, children first; `done` once every table is empty of them. */
async function deleteFrom(
  shard: string,
  { env, row, organization }: StepContext,
  done: () => Promise<Changes>,
  guard?: D1PreparedStatement,
): Promise<Outcome> {
  const deleted = await deletePage(shardBinding(env, shard), REVERSED[row.tableIndex]!, organization, guard);
  const rowsDeleted = row.rowsDeleted + deleted;
  if (deleted === DELETE_ROWS) return { rowsDeleted };
  if (row.tableIndex + 1 < REVERSED.length) return { rowsDeleted, tableIndex: row.tableIndex + 1 };
  return { rowsDeleted, tableIndex: 0, ...(await done()) };
}

async function abort(context: StepContext): Promise<Outcome> {
  const { env, directory, row } = context;
  const entry = await directoryEntry(directory, row.organizationId);
  if (entry?.shard !== row.source) return { step: "failed", error: `The directory names ${entry?.shard ?? "nothing"}: the abort stopped.` };
  const target = shardBinding(env, row.target);
  const unfreeze = async (): Promise<Changes> => {
    // The copies of a move between regions in the target region's bucket (none within a region: the bucket is S's).
    if (crossesRegions(env, row.source, row.target)) await deleteFilesOf(env, row.target, row.organizationId);
    await target
      .prepare("DELETE FROM organization_freezes WHERE organization_id = ? AND moving_to = ?")
      .bind(row.organizationId, row.target)
      .run();
    await shardBinding(env, row.source)
      .prepare("DELETE FROM organization_freezes WHERE organization_id = ?")
      .bind(row.organizationId)
      .run();
    return { step: "aborted" };
  };
  try {
    return await deleteFrom(row.target, context, unfreeze, arrivalGuard(target, row.organizationId, row.target));
  } catch (error) {
    // No marker: the freeze never set it (nothing was copied), or an earlier call of this abort removed it already
    // (after deleting the copy). The flip cannot have: the directory names S and the step is abort.
    if (error instanceof TargetUnmarked) return { rowsDeleted: row.rowsDeleted, tableIndex: 0, ...(await unfreeze()) };
    throw error;
  }
}

const STEPS: Partial<Record<MoveStep, (context: StepContext) => Promise<Outcome>>> = {
  freeze,
  copy,
  verify,
  flip,
  delete: async (context) => {
    const { env, row, now, settleMs } = context;
    // Requests that read the directory before the flip (or on a replica behind it, or an isolate's entry read before
    // it: data/shard-routes) may still read S: give them time.
    const settled = settleMs + directoryCacheMs(env);
    if (row.tableIndex === 0 && row.rowsDeleted === 0 && now.getTime() - row.updatedAt.getTime() < settled) return "wait";
    return deleteFrom(row.source, context, async () => {
      // The source region's objects go with its rows (within a region they are the target's too: they stay).
      if (crossesRegions(env, row.source, row.target)) await deleteFilesOf(env, row.source, row.organizationId);
      return { step: "done" };
    });
  },
  abort,
};

/** Saves `changes` only if the move is still where this call found it: two operators never both advance it. */
async function save(db: Database, row: MoveRow, changes: Changes, now: Date): Promise<MoveRow | undefined> {
  const [saved] = await db
    .update(organizationMoves)
    .set({ ...changes, updatedAt: now })
    .where(
      and(
        eq(organizationMoves.organizationId, row.organizationId),
        eq(organizationMoves.step, row.step),
        eq(organizationMoves.tableIndex, row.tableIndex),
        row.cursor === null ? isNull(organizationMoves.cursor) : eq(organizationMoves.cursor, row.cursor),
        eq(organizationMoves.rowsCopied, row.rowsCopied),
        eq(organizationMoves.rowsDeleted, row.rowsDeleted),
      ),
    )
    .returning();
  return saved;
}

/** Advances the organization's move by up to `pages` units of work and answers where it stands. */
export async function advanceMove(env: Env, organizationId: string, options: MoveOptions = {}): Promise<MoveState> {
  const directory = createDatabase(directoryBinding(env));
  let row = await loadMove(directory, organizationId);
  if (!row) throw new MoveRefused(404, "No move of this organization was started.");
  const entry = await directoryEntry(directory, organizationId);
  const organization: MovedOrganization = { id: organizationId, partnerId: entry?.partnerId ?? "" };
  const now = options.now ?? (() => new Date());
  for (let budget = options.pages ?? DEFAULT_PAGES; budget > 0 && !STOPPED.has(row.step); budget--) {
    const at = now();
    const settleMs = options.settleMs ?? DEFAULT_SETTLE_MS;
    const outcome = await STEPS[row.step]!({ env, directory, row, organization, now: at, settleMs, audit: options.audit });
    if (outcome === "wait") break;
    const saved = await save(directory, row, outcome, at);
    if (!saved) return stateOf((await loadMove(directory, organizationId))!);
    row = saved;
  }
  return stateOf(row);
}
