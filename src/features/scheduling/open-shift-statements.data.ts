import { openShifts, scheduleEntries } from "@db/schema";
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { addedChangeRows, changeRulesAt, recordingChanges } from "@/data/fair-workweek/schedule-changes.data";
import {
  distinctViolations,
  judgePlanned,
  judgeViolations,
  namingExisting,
  overrideFor,
  type WorkingTimeOverrideInput,
  type WorkingTimeOverrideRecord,
} from "@/data/working-time/schedule-check.data";
import { businessDate } from "@/domain/local-time";
import { nextVersion } from "@/platform/http/conditional";
import type { OpenShiftRow } from "./open-shifts.schemas";
import type { ScheduleScope } from "./schedule-access.guards";
import { entryDates, entryGuards, entryUnfrozen } from "./schedules.guards";

/**
 * Bumps the open shift's updatedAt with a change to its preferences, so incremental sync sees it; with `when`, only
 * if that condition holds once the batch's earlier statements ran (a refused change touches nothing).
 */
export const touched = (db: Database, shiftId: string, now: Date, when?: SQL) =>
  db
    .update(openShifts)
    .set({ updatedAt: nextVersion(openShifts.updatedAt, now) })
    .where(and(eq(openShifts.id, shiftId), when));

/** The span a worker would work on the open shift, as the schedule guards take it. */
export const spanOf = (scope: ScheduleScope, shift: OpenShiftRow, workerId: string, entryId = "") => ({
  organizationId: scope.organizationId,
  employeeId: workerId,
  entryId,
  start: shift.startAt,
  end: shift.endAt,
});

const openShiftSpan = (shift: OpenShiftRow) => ({ start: shift.startAt, end: shift.endAt, utcOffset: shift.utcOffset });

/** The refusal of approvedEntry's freeze guard, naming the closed period that froze a date of the open shift. */
export const approvedEntryFrozen = (db: Database, scope: ScheduleScope, shifts: readonly OpenShiftRow[]) =>
  entryUnfrozen.about({ db, organizationId: scope.organizationId, runs: shifts.map((shift) => entryDates(openShiftSpan(shift))) });

/**
 * The published schedule entry an approval creates, written only if the approval statement before it applied, and
 * not on a date a closed pay period froze (its ADDED premium would be dated there): list approvedEntryFrozen.
 */
export function approvedEntry(
  db: Database,
  scope: ScheduleScope,
  shift: OpenShiftRow,
  preferenceId: string,
  workerId: string,
  entryId: string,
  now: Date,
  ignoreAvailability = false,
  workingTimeOverride: WorkingTimeOverrideRecord | null = null,
) {
  const guard = spanOf(scope, shift, workerId, entryId);
  return db.insert(scheduleEntries).values({
    id: entryId,
    organizationId: entryGuards.approvedWith.sql(scope.organizationId, preferenceId, entryId),
    locationId: entryGuards.notOnTimeOff.sql(shift.locationId, guard),
    employeeId: entryGuards.noOverlap.sql(guard),
    roleId: entryGuards.available.sql(shift.roleId, guard, ignoreAvailability),
    startAt: entryUnfrozen.sql(shift.startAt.getTime(), scope.organizationId, [entryDates(openShiftSpan(shift))]) as unknown as Date,
    endAt: shift.endAt,
    utcOffset: shift.utcOffset,
    timezone: shift.timezone,
    breaks: shift.breaks,
    isDraft: false,
    publishedAt: now,
    openShiftId: shift.id,
    workingTimeOverride,
    createdAt: now,
    updatedAt: now,
  });
}

/**
 * The change log of entries an open shift's claims or assignments create (Fair Workweek): ADDED for each worker,
 * EMPLOYEE initiated (the worker claimed it or stated a preference for it: no premium) unless the worker said
 * NOT_PREFERRED. Recorded only for entries the batch wrote.
 */
export async function recordingAssignments(
  db: Database,
  scope: ScheduleScope,
  shift: OpenShiftRow,
  assigned: readonly { entryId: string; workerId: string; preferred: boolean }[],
  now: Date,
) {
  if (assigned.length === 0 || shift.isDraft) return { statements: [], events: [] };
  const rules = await changeRulesAt(db, scope.organizationId, shift.locationId, businessDate(shift.startAt, shift.utcOffset));
  const rows = assigned.flatMap(({ entryId, workerId, preferred }) =>
    addedChangeRows(
      rules,
      {
        organizationId: scope.organizationId,
        locationId: shift.locationId,
        scheduleEntryId: entryId,
        employeeId: workerId,
        start: shift.startAt,
        end: shift.endAt,
        utcOffset: shift.utcOffset,
      },
      now,
      { initiatedBy: preferred ? "EMPLOYEE" : "EMPLOYER", reason: `open shift ${shift.id}` },
    ),
  );
  return recordingChanges(db, scope.organizationId, rows, (entryId) => sql`EXISTS (SELECT 1 FROM schedule_entries WHERE id = ${entryId})`);
}

/**
 * The working-time judgement of the entries approvals on a published open shift create (a claim approved at once,
 * an assignment), judged together per worker as a create judges one entry: 409 WORKING_TIME_CONFLICT listing the
 * violations unless `override` comes from a caller with WORKING_TIME_OVERRIDE (403 otherwise). Answers each entry's
 * override record, the guards their batch carries (its workers' time still as judged) and their refusal; nothing
 * for a draft open shift (its assignments are entries only at publish).
 */
export async function judgeApprovals(
  db: Database,
  scope: ScheduleScope,
  shift: OpenShiftRow,
  approvals: readonly { entryId: string; workerId: string }[],
  override: WorkingTimeOverrideInput,
) {
  if (approvals.length === 0 || shift.isDraft) return { overrideOf: () => null, guards: [], problems: [] };
  const planned = approvals.map(({ entryId, workerId }) => ({
    id: entryId,
    employeeId: workerId,
    start: shift.startAt,
    end: shift.endAt,
    utcOffset: shift.utcOffset,
  }));
  const judged = await judgePlanned(db, scope.organizationId, shift.locationId, planned);
  const newIds = new Set(approvals.map((a) => a.entryId));
  for (const [entryId, violations] of judged.byEntry) judged.byEntry.set(entryId, namingExisting(violations, newIds));
  const record = judgeViolations(distinctViolations(judged.byEntry), override, scope.principal);
  return {
    overrideOf: (entryId: string): WorkingTimeOverrideRecord | null => {
      const own = judged.byEntry.get(entryId) ?? [];
      return record && own.length ? overrideFor(record, own) : null;
    },
    guards: judged.guards(approvals.map((a) => a.entryId)),
    problems: [judged.problem],
  };
}
