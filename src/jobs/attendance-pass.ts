import type { Database } from "@/data/client";
import { raiseNoShows } from "@/features/attendance/no-shows.data";
import { closeShifts, FIRST_SHIFT, planClosures, readDueShifts, type ShiftCursor } from "./auto-clock-out";

/** NO_SHOW exceptions raised per batch (one round trip). */
export const NO_SHOWS_PER_BATCH = 500;
/** Open shifts read per chunk (one read round trip, and one write round trip when any is due). */
export const SHIFTS_PER_CHUNK = 250;
/** A pass stops after this many batches of each kind; the next pass, 30 minutes on, carries on. */
const MAX_BATCHES = 80;

export interface AttendancePassReport {
  noShows: number;
  autoClockOuts: number;
  roundTrips: number;
}

/**
 * The Cron Trigger's attendance pass over one database, every organization at once: NO_SHOW for published entries
 * nobody clocked in for, then forgotten shifts closed automatically (MISSED_CLOCK_OUT). Each exception happens once
 * by the unique indexes, whoever writes it and however often or late the pass runs; each batch is atomic with its
 * events. Round trips are bounded by chunks: ⌈due no-shows / 500⌉ + 2 × ⌈open shifts due / 250⌉ (+ 1).
 */
export async function runAttendancePass(db: Database, now: Date): Promise<AttendancePassReport> {
  const report: AttendancePassReport = { noShows: 0, autoClockOuts: 0, roundTrips: 0 };
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const raised = await raiseNoShows(db, now, NO_SHOWS_PER_BATCH);
    report.roundTrips++;
    report.noShows += raised;
    if (raised < NO_SHOWS_PER_BATCH) break;
  }
  let cursor: ShiftCursor = FIRST_SHIFT;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const due = await readDueShifts(db, now, cursor, SHIFTS_PER_CHUNK);
    report.roundTrips++;
    const closures = planClosures(due, now);
    if (closures.length > 0) {
      report.autoClockOuts += await closeShifts(db, closures, now);
      report.roundTrips++;
    }
    const last = due.rows.at(-1);
    if (!last || due.rows.length < SHIFTS_PER_CHUNK) break;
    cursor = { startAt: last.shift.startAt.getTime(), id: last.shift.id };
  }
  return report;
}
