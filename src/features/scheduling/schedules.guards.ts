import { openShiftPreferences, openShifts, scheduleEntries } from "@db/schema";
import { type SQL, sql } from "drizzle-orm";
import { type ConstraintProblems, whenDuplicate, whenNull } from "@/data/write/constraint-problems";
import { unavailableDuring } from "@/features/availability/availability.guards";
import { conflict, type ProblemError } from "@/problems/problem";
import { timeOffConflict } from "./time-off-conflicts.guards";

/**
 * Schedule invariants are checked by the write itself (as shift-guards.ts does for shifts): each guard is the
 * value of a NOT NULL column that turns NULL when the invariant would break, failing the statement and its batch.
 *   schedule_entries.employee_id NULL             → overlaps another entry of the staff member (SCHEDULE_OVERLAP)
 *   schedule_entries.location_id NULL             → on approved time off of the staff member (TIME_OFF_CONFLICT)
 *   schedule_entries.organization_id NULL         → the approval it belongs to did not happen (PREFERENCE_NOT_PENDING)
 *   schedule_entries.role_id NULL                 → the staff member is unavailable then (WORKER_UNAVAILABLE)
 *   open_shift_preferences.preference NULL        → the worker is unavailable during the open shift (WORKER_UNAVAILABLE)
 *   open_shift_preferences.open_shift_id NULL     → no place left on the open shift (OPEN_SHIFT_FULL)
 *   open_shift_preferences.worker_id NULL         → the claim overlaps the worker's schedule (SCHEDULE_OVERLAP)
 *   open_shift_preferences.organization_id NULL   → the claim falls on approved time off (TIME_OFF_CONFLICT)
 *   open_shifts.staff_count_required NULL         → fewer places than already approved (OPEN_SHIFT_FULL)
 *   open_shift_preferences.status NULL            → a draft assignment on a shift published meanwhile (OPEN_SHIFT_CHANGED)
 *   open_shifts.role_id NULL                      → publish meets a draft assignment it did not read (OPEN_SHIFT_CHANGED)
 */

export interface EntrySpan {
  organizationId: string;
  employeeId: string;
  /** The entry being written, which never overlaps itself. */
  entryId: string;
  /** Another entry the same batch takes from the staff member (a swap's other side): not an overlap either. */
  leavingEntryId?: string;
  start: Date;
  end: Date;
}

/** A SQL boolean: another live entry (draft or published) of the staff member overlaps [start, end). */
export const overlapsSchedule = (span: EntrySpan): SQL =>
  sql`EXISTS (SELECT 1 FROM schedule_entries WHERE employee_id = ${span.employeeId} AND +organization_id = ${span.organizationId}
    AND deleted_at IS NULL AND id <> ${span.entryId} AND id <> ${span.leavingEntryId ?? span.entryId}
    AND start_at < ${span.end.getTime()} AND end_at > ${span.start.getTime()})`;

/** `value`, or NULL when `refusal` holds. */
const unless = (value: string | number, refusal: SQL): SQL => sql`(SELECT ${value} WHERE NOT (${refusal}))`;

export const unlessOverlapping = (span: EntrySpan): SQL => unless(span.employeeId, overlapsSchedule(span));

export const unlessOnTimeOff = (value: string, span: EntrySpan): SQL =>
  unless(value, timeOffConflict(span.employeeId, span.start, span.end));

/** `value`, or NULL when an UNAVAILABLE occurrence of the staff member overlaps the span; as is when ignored. */
export const unlessUnavailable = <T extends string>(value: T, span: EntrySpan, ignoreAvailability = false): SQL | T =>
  ignoreAvailability ? value : unless(value, unavailableDuring(span.organizationId, span.employeeId, span.start, span.end));

/** Approved places of an open shift, counted by the statement that would add one. */
export const approvedPlaces = (openShiftId: string): SQL =>
  sql`(SELECT COUNT(*) FROM open_shift_preferences WHERE open_shift_id = ${openShiftId} AND status = 'APPROVED' AND deleted_at IS NULL)`;

/** `openShiftId`, or NULL when its approved places already reach staffCountRequired. */
export const unlessFull = (openShiftId: string): SQL =>
  sql`(SELECT ${openShiftId} WHERE ${approvedPlaces(openShiftId)} < (SELECT staff_count_required FROM open_shifts
    WHERE id = ${openShiftId} AND deleted_at IS NULL))`;

/** `organizationId`, or NULL unless the preference was approved with this entry by an earlier statement of the batch. */
export const ifApprovedWith = (organizationId: string, preferenceId: string, entryId: string): SQL =>
  sql`(SELECT ${organizationId} WHERE EXISTS (SELECT 1 FROM open_shift_preferences WHERE id = ${preferenceId}
    AND schedule_shift_id = ${entryId} AND status = 'APPROVED'))`;

/** `count`, or NULL when fewer than the places already approved. */
export const unlessBelowApproved = (openShiftId: string, count: number): SQL =>
  sql`(SELECT ${count} WHERE ${count} >= ${approvedPlaces(openShiftId)})`;

/** `status`, or NULL unless the open shift is still a live draft (a draft assignment must not land on a published shift). */
export const ifStillDraft = (status: string, openShiftId: string): SQL =>
  sql`(SELECT ${status} WHERE EXISTS (SELECT 1 FROM open_shifts WHERE id = ${openShiftId} AND is_draft = 1 AND deleted_at IS NULL))`;

/**
 * For the publish of an open shift: its role id, or NULL when it has a draft assignment other than `appliedIds`
 * (one committed after publish read them, which would otherwise stay a draft with no entry on a published shift).
 */
export const unlessUnreadAssignments = (appliedIds: readonly string[]): SQL =>
  sql`(SELECT "open_shifts"."role_id" WHERE NOT EXISTS (SELECT 1 FROM open_shift_preferences
    WHERE open_shift_id = "open_shifts"."id" AND is_draft = 1 AND status = 'APPROVED' AND deleted_at IS NULL
    AND id NOT IN (SELECT value FROM json_each(${JSON.stringify(appliedIds)}))))`;

export const openShiftChanged = (): ProblemError =>
  conflict(
    "OPEN_SHIFT_CHANGED",
    "The open shift was published, or given a draft assignment, meanwhile: nothing was written; read it again and retry.",
  );

export const scheduleOverlap = (): ProblemError =>
  conflict("SCHEDULE_OVERLAP", "The staff member already has a schedule entry that overlaps these times.");

export const timeOffConflictProblem = (): ProblemError =>
  conflict("TIME_OFF_CONFLICT", "The staff member has approved time off during these times.");

export const workerUnavailable = (): ProblemError =>
  conflict(
    "WORKER_UNAVAILABLE",
    "The staff member is unavailable during these times (their availability); a manager may pass ignoreAvailability.",
  );

export const openShiftFull = (): ProblemError => conflict("OPEN_SHIFT_FULL", "Every place on this open shift is taken.");

export const preferenceNotPending = (): ProblemError =>
  conflict("PREFERENCE_NOT_PENDING", "The preference is no longer pending: read it again.");

export const scheduleGuardProblems: ConstraintProblems = [
  whenNull(scheduleEntries.employeeId, scheduleOverlap),
  whenNull(scheduleEntries.locationId, timeOffConflictProblem),
  whenNull(scheduleEntries.organizationId, preferenceNotPending),
  whenNull(scheduleEntries.roleId, workerUnavailable),
  whenNull(openShiftPreferences.preference, workerUnavailable),
  whenNull(openShiftPreferences.openShiftId, openShiftFull),
  whenNull(openShiftPreferences.workerId, scheduleOverlap),
  whenNull(openShiftPreferences.organizationId, timeOffConflictProblem),
  whenNull(openShifts.staffCountRequired, openShiftFull),
  whenNull(openShiftPreferences.status, openShiftChanged),
  whenNull(openShifts.roleId, openShiftChanged),
  whenDuplicate(openShiftPreferences, () =>
    conflict("ALREADY_CLAIMED", "This worker already has a claim or preference on this open shift."),
  ),
];
