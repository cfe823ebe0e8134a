import { timeOffRequests } from "@db/schema";
import { and, eq, gt, isNull, lt, type SQL, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { inJsonList } from "@/data/json-list";

/**
 * The one place schedules meet time off (TIME_OFF_CONFLICT, and bulk copy's skips): a staff member's approved,
 * live time-off requests whose [start, end) overlaps the span's [start, end). Request instants are stored in UTC.
 */

/**
 * A SQL boolean, true when `employeeId` has approved time off overlapping [start, end). Used inside guard
 * columns of write statements, so it compares only with bound values (no outer column references).
 */
export const timeOffConflict = (employeeId: string, start: Date, end: Date): SQL =>
  sql`EXISTS (SELECT 1 FROM time_off_requests WHERE worker_id = ${employeeId} AND status = 'approved'
    AND deleted_at IS NULL AND start_at < ${end.getTime()} AND end_at > ${start.getTime()})`;

/**
 * A SQL boolean for statements over schedule_entries (publish): the row's own staff member has approved time off
 * overlapping the row's [start_at, end_at).
 */
export const entryOnTimeOff: SQL = sql`EXISTS (SELECT 1 FROM time_off_requests WHERE worker_id = "schedule_entries"."employee_id"
    AND status = 'approved' AND deleted_at IS NULL AND start_at < "schedule_entries"."end_at" AND end_at > "schedule_entries"."start_at")`;

export interface TimeOffSpan {
  employeeId: string;
  start: Date;
  end: Date;
}

/** The approved time off of these staff members overlapping [start, end), read in one statement (any number of them: one JSON parameter). */
export async function approvedTimeOff(
  db: Database,
  organizationId: string,
  employeeIds: readonly string[],
  range: { start: Date; end: Date },
): Promise<TimeOffSpan[]> {
  if (employeeIds.length === 0) return [];
  const rows = await db
    .select({ employeeId: timeOffRequests.workerId, start: timeOffRequests.startAt, end: timeOffRequests.endAt })
    .from(timeOffRequests)
    .where(
      and(
        eq(timeOffRequests.organizationId, organizationId),
        inJsonList(timeOffRequests.workerId, employeeIds),
        eq(timeOffRequests.status, "approved"),
        isNull(timeOffRequests.deletedAt),
        lt(timeOffRequests.startAt, range.end),
        gt(timeOffRequests.endAt, range.start),
      ),
    );
  return rows;
}
