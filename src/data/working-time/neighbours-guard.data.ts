import { writeGuards } from "@db/schema";
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { guard } from "@/data/write/guard";
import type { ProblemError } from "@/problems/problem";
import type { EntrySpanRow, ShiftSpanRow } from "./work-spans.data";

/**
 * Optimistic concurrency for the working-time check of a schedule write. The check reads each worker's published
 * entries and worked shifts around the planned time (its "neighbours") and judges them; the write's batch then
 * carries a guard that fails unless exactly those neighbours are still there, as read: none added, removed or moved
 * by another write meanwhile (a concurrent create, a clock-out, a timesheet edit). Two concurrent writes that each
 * pass alone but break a rule together cannot both land: the second batch finds the first's entry among the worker's
 * neighbours and fails whole. No counter is kept anywhere: the guard compares the rows themselves, so every path that
 * writes time (schedule writes, punches, timesheets, requests) is covered without bumping anything, and a write at a
 * location without a pack carries no guard at all.
 *
 * A neighbour is told by what the rules read of it: an entry by id, start, end and UTC offset; a worked shift by
 * those and its ended breaks' total milliseconds.
 */

/** An entry's fingerprint as the guard's SQL spells it. */
const entryKey = (row: Pick<EntrySpanRow, "id" | "startAt" | "endAt" | "utcOffset">) =>
  `E:${row.id}:${row.startAt.getTime()}:${row.endAt.getTime()}:${row.utcOffset}`;

const endedBreakMs = (row: Pick<ShiftSpanRow, "breaksJson">) =>
  row.breaksJson.reduce((sum, b) => sum + (b.endAt === null ? 0 : b.endAt - b.startAt), 0);

/** A worked (closed) shift's fingerprint as the guard's SQL spells it. */
const shiftKey = (row: ShiftSpanRow) =>
  `S:${row.id}:${row.startAt.getTime()}:${row.endAt?.getTime() ?? ""}:${row.utcOffset}:${endedBreakMs(row)}`;

export interface Neighbours {
  organizationId: string;
  employeeIds: readonly string[];
  /** The window the check read: entries and shifts starting in [from, to]. */
  from: Date;
  to: Date;
  entries: readonly EntrySpanRow[];
  shifts: readonly ShiftSpanRow[];
}

/** The same rows as the check's reads (work-spans.data), each as its fingerprint, but the entries `exceptIds`. */
const currentKeys = (n: Neighbours, exceptIds: readonly string[]): SQL => {
  const ids = JSON.stringify(n.employeeIds);
  const from = n.from.getTime();
  const to = n.to.getTime();
  return sql`SELECT 'E:' || id || ':' || start_at || ':' || end_at || ':' || utc_offset AS k FROM schedule_entries
      WHERE employee_id IN (SELECT value FROM json_each(${ids})) AND organization_id = ${n.organizationId}
        AND start_at >= ${from} AND start_at <= ${to} AND is_draft = 0 AND deleted_at IS NULL
        AND id NOT IN (SELECT value FROM json_each(${JSON.stringify(exceptIds)}))
    UNION ALL
    SELECT 'S:' || id || ':' || start_at || ':' || end_at || ':' || utc_offset || ':' ||
        (SELECT COALESCE(SUM(json_extract(b.value, '$.endAt') - json_extract(b.value, '$.startAt')), 0)
          FROM json_each(breaks_json) b WHERE json_extract(b.value, '$.endAt') IS NOT NULL)
      FROM shifts
      WHERE employee_id IN (SELECT value FROM json_each(${ids})) AND organization_id = ${n.organizationId}
        AND start_at >= ${from} AND start_at <= ${to} AND end_at IS NOT NULL AND deleted_at IS NULL`;
};

/** The refusal of a lost race, as the write that lost it says it (`recheck`: the violations judged now). */
export const workingTimeUnchanged = guard({
  column: writeGuards.workingTime,
  problem: (recheck: () => Promise<ProblemError>) => recheck(),
  sql: (n: Neighbours, exceptIds: readonly string[]): SQL => {
    const expected = [...n.entries.map(entryKey), ...n.shifts.map(shiftKey)];
    // Same count and nothing outside what was read: the same set (each key names its row's id, so none repeats).
    return sql`(WITH current(k) AS (${currentKeys(n, exceptIds)})
      SELECT 1 WHERE (SELECT COUNT(*) FROM current) = ${expected.length}
        AND NOT EXISTS (SELECT k FROM current EXCEPT SELECT value FROM json_each(${JSON.stringify(expected)})))`;
  },
});

/**
 * The statement a write batch carries for the neighbours one check read: it inserts NULL into the NOT NULL
 * write_guards.working_time when they changed, failing the whole batch (SQLite checks NOT NULL before the primary
 * key's ON CONFLICT), else changes nothing. `exceptIds`: entries the batch itself writes before the guard runs.
 */
export const neighboursUnchanged = (db: Database, n: Neighbours, exceptIds: readonly string[]) =>
  db
    .insert(writeGuards)
    .values({ id: 1, ok: 1, workingTime: workingTimeUnchanged.sql(n, exceptIds) as unknown as number })
    .onConflictDoNothing();
