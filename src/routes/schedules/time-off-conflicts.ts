import { sql, type SQL } from "drizzle-orm";
import type { Database } from "../../lib/db";

/**
 * The one place schedules meet time off (TIME_OFF_CONFLICT, and bulk copy's skips). Time-off requests live on
 * another branch; at merge both functions must read the time-off requests table (`time_off_requests`): the
 * APPROVED, live (deleted_at IS NULL) requests of the staff member whose [start, end) overlaps the span's
 * [start, end) — each starts before the other ends. Until then no one has time off.
 */

/**
 * A SQL boolean, true when `employeeId` has approved time off overlapping [start, end). Used inside guard
 * columns of write statements, so it must compare only with bound values (no outer column references).
 */
export function timeOffConflict(employeeId: string, start: Date, end: Date): SQL {
  void employeeId;
  void start;
  void end;
  return sql`0`;
}

export interface TimeOffSpan {
  employeeId: string;
  start: Date;
  end: Date;
}

/** The approved time off of these staff members overlapping [start, end), read in one statement. */
export async function approvedTimeOff(
  db: Database,
  organizationId: string,
  employeeIds: readonly string[],
  range: { start: Date; end: Date },
): Promise<TimeOffSpan[]> {
  void db;
  void organizationId;
  void employeeIds;
  void range;
  return [];
}
