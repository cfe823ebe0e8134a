import type { Database } from "@/data/client";
import type { PassScope } from "@/data/clock";
import { D1_LIMITS } from "@/data/d1-limits";
import { closeShifts, FIRST_SHIFT, planClosures, readDueShifts, type ShiftCursor } from "./auto-clock-out";
import { type EntryCursor, FIRST_ENTRY, raiseNoShows } from "./no-shows";

/** NO_SHOW exceptions raised per batch (one round trip). */
export const NO_SHOWS_PER_BATCH = 500;
/** Open shifts read per chunk (one read round trip, and one write round trip when any is due). */
export const SHIFTS_PER_CHUNK = 250;
/**
 * D1 answers at most 1,000 queries per Worker invocation, and one Cron invocation runs every shard's jobs: the
 * attendance passes share 600 statements (counted one by one, whether or not D1 counts a batch as one query), the
 * rest is the other jobs'. A pass that reaches its share stops; the next, 30 minutes on, carries on where the work is.
 */
export const STATEMENTS_PER_INVOCATION = Math.floor(D1_LIMITS.queriesPerInvocation * 0.6);
/** Statements of each batch the pass sends: a no-show batch, a chunk's read, a chunk's close. */
const STATEMENTS = { noShows: 3, read: 7, close: 9 } as const;

export interface AttendancePassReport {
  noShows: number;
  autoClockOuts: number;
  roundTrips: number;
  statements: number;
}

/**
 * The Cron Trigger's attendance pass over one database, every organization at once: NO_SHOW for published entries
 * nobody clocked in for, then forgotten shifts closed automatically (MISSED_CLOCK_OUT, and the working-time exceptions
 * of the location's pack). Each exception happens once
 * by the unique indexes, whoever writes it and however often or late the pass runs; each batch is atomic with its
 * events. Round trips: ⌈due no-shows / 500⌉ + 2 × ⌈open shifts due / 250⌉ (+ 1), within `maxStatements`. `scope`:
 * the live organizations (sandboxes are left out), or one sandbox at its own time (data/clock).
 */
export async function runAttendancePass(
  db: Database,
  now: Date,
  maxStatements = STATEMENTS_PER_INVOCATION,
  scope: PassScope = "live",
): Promise<AttendancePassReport> {
  const report: AttendancePassReport = { noShows: 0, autoClockOuts: 0, roundTrips: 0, statements: 0 };
  const sent = (statements: number) => {
    report.roundTrips++;
    report.statements += statements;
  };
  // No-shows may take half of the share.
  let entries: EntryCursor | null = FIRST_ENTRY;
  while (entries && report.statements + STATEMENTS.noShows <= maxStatements / 2) {
    const { raised, next } = await raiseNoShows(db, now, NO_SHOWS_PER_BATCH, entries, scope);
    sent(STATEMENTS.noShows);
    report.noShows += raised;
    entries = raised < NO_SHOWS_PER_BATCH ? null : next;
  }
  let cursor: ShiftCursor = FIRST_SHIFT;
  while (report.statements + STATEMENTS.read + STATEMENTS.close <= maxStatements) {
    const due = await readDueShifts(db, now, cursor, SHIFTS_PER_CHUNK, scope);
    sent(STATEMENTS.read);
    const closures = planClosures(due, now);
    if (closures.length > 0) {
      report.autoClockOuts += await closeShifts(db, closures, now);
      sent(STATEMENTS.close);
    }
    const last = due.rows.at(-1);
    if (!last || due.rows.length < SHIFTS_PER_CHUNK) break;
    cursor = { startAt: last.shift.startAt.getTime(), id: last.shift.id };
  }
  return report;
}
