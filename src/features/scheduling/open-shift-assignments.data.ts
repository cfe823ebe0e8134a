import { openShiftPreferences, openShifts } from "@db/schema";
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Database, Statement } from "@/data/client";
import { organizationNow } from "@/data/clock";
import { newId } from "@/data/ids";
import type { WorkingTimeOverrideInput, WorkingTimeOverrideRecord } from "@/data/working-time/schedule-check.data";
import { guardedBatch } from "@/data/write/guarded-batch";
import { assignmentKind, placesFit } from "@/domain/open-shift-claim";
import { invalidField, notFound } from "@/problems/problem";
import { findPreference } from "./open-shift-preferences.data";
import { findOpenShift } from "./open-shift-reads.data";
import { approvedEntry, approvedEntryFrozen, judgeApprovals, recordingAssignments, spanOf, touched } from "./open-shift-statements.data";
import { assignedEvents } from "./open-shifts.events";
import type { OpenShiftRow, PreferenceRow } from "./open-shifts.schemas";
import { type ScheduleScope, writerOf } from "./schedule-access.guards";
import { approvedPlaces, claimGuards, openShiftFull, preferenceNotPending, scheduleGuardProblems } from "./schedules.guards";

/**
 * The statements approving pending preferences of one open shift. On a published shift each is approved with its
 * schedule entry; on a draft it becomes a draft assignment (its entry comes at publish). Each approval carries the
 * capacity guard, so in one batch the first one over staffCountRequired fails them all.
 */
function assignStatements(
  db: Database,
  scope: ScheduleScope,
  shift: OpenShiftRow,
  preferences: readonly PreferenceRow[],
  now: Date,
  ignoreAvailability: boolean,
  /** The entry id each preference's approval creates. */
  entryIds: ReadonlyMap<string, string>,
  overrideOf: (entryId: string) => WorkingTimeOverrideRecord | null,
) {
  const kind = assignmentKind(shift);
  return preferences.flatMap((preference): Statement[] => {
    const entryId = entryIds.get(preference.id)!;
    const approve = db
      .update(openShiftPreferences)
      .set({
        status: kind === "draft" ? claimGuards.stillDraft.sql("APPROVED", shift.id) : "APPROVED",
        isDraft: kind === "draft",
        scheduleShiftId: kind === "draft" ? null : entryId,
        assignedAt: now,
        updatedAt: now,
        openShiftId: claimGuards.placeLeft.sql(shift.id),
        workerId: claimGuards.noOverlap.sql(spanOf(scope, shift, preference.workerId)),
        // A draft assignment has no entry (and so no entry guards) until publish: its conflicts surface here.
        organizationId: claimGuards.notOnTimeOff.sql(scope.organizationId, spanOf(scope, shift, preference.workerId)),
        preference: claimGuards.available.sql(
          preference.preference,
          spanOf(scope, shift, preference.workerId),
          ignoreAvailability,
        ) as "PREFERRED",
      })
      .where(and(eq(openShiftPreferences.id, preference.id), eq(openShiftPreferences.status, "PENDING")));
    return kind === "draft"
      ? [approve]
      : [
          approve,
          approvedEntry(db, scope, shift, preference.id, preference.workerId, entryId, now, ignoreAvailability, overrideOf(entryId)),
        ];
  });
}

async function assignAll(
  db: Database,
  scope: ScheduleScope,
  shift: OpenShiftRow,
  preferenceIds: readonly string[],
  ignoreAvailability = false,
  workingTimeOverride?: WorkingTimeOverrideInput,
) {
  const [preferences, [places]] = await db.batch([
    db
      .select()
      .from(openShiftPreferences)
      .where(
        and(
          eq(openShiftPreferences.organizationId, scope.organizationId),
          eq(openShiftPreferences.openShiftId, shift.id),
          inArray(openShiftPreferences.id, [...preferenceIds]),
          isNull(openShiftPreferences.deletedAt),
        ),
      ),
    db
      .select({ approved: approvedPlaces(shift.id).mapWith(Number) })
      .from(openShifts)
      .where(eq(openShifts.id, shift.id)),
  ]);
  const unknown = preferenceIds.find((id) => !preferences.some((p) => p.id === id));
  if (unknown) throw notFound("Preference");
  if (preferences.some((p) => p.status !== "PENDING")) throw preferenceNotPending();
  if (!placesFit(places?.approved ?? 0, preferences.length, shift.staffCountRequired)) throw openShiftFull();
  const now = await organizationNow({ db, ...scope });
  const entryIds = new Map(preferences.map((p) => [p.id, newId(now.getTime())]));
  // The entries a published open shift's assignments create are judged by the location's working-time pack.
  const workingTime = await judgeApprovals(
    db,
    scope,
    shift,
    assignmentKind(shift) === "draft" ? [] : preferences.map((p) => ({ entryId: entryIds.get(p.id)!, workerId: p.workerId })),
    workingTimeOverride,
  );
  const recording = await recordingAssignments(
    db,
    scope,
    shift,
    assignmentKind(shift) === "draft"
      ? []
      : preferences.map((p) => ({ entryId: entryIds.get(p.id)!, workerId: p.workerId, preferred: p.preference === "PREFERRED" })),
    now,
  );
  await guardedBatch(
    writerOf(db, scope),
    [
      touched(db, shift.id, now),
      ...assignStatements(db, scope, shift, preferences, now, ignoreAvailability, entryIds, workingTime.overrideOf),
      ...recording.statements,
    ],
    [approvedEntryFrozen(db, scope, [shift]), ...scheduleGuardProblems, ...workingTime.problems],
    {
      events: [assignedEvents(scope.organizationId, preferenceIds, now), ...recording.events],
      trailing: workingTime.guards,
    },
  );
  return db
    .select()
    .from(openShiftPreferences)
    .where(inArray(openShiftPreferences.id, [...preferenceIds]))
    .orderBy(openShiftPreferences.id);
}

/** POST …/preferences/{preferenceId}/assign. */
export async function assign(db: Database, scope: ScheduleScope, openShiftId: string, preferenceId: string) {
  const { shift } = await findPreference(db, scope, openShiftId, preferenceId);
  const [row] = await assignAll(db, scope, shift, [preferenceId]);
  return row!;
}

/** POST /open-shifts/{id}/preferences/bulk-assign: all or none; over capacity is 409 OPEN_SHIFT_FULL. */
export async function bulkAssign(
  db: Database,
  scope: ScheduleScope,
  openShiftId: string,
  preferenceIds: readonly string[],
  ignoreAvailability = false,
  workingTimeOverride?: WorkingTimeOverrideInput,
) {
  if (new Set(preferenceIds).size !== preferenceIds.length) throw invalidField("preferenceIds", "must not repeat an id");
  return assignAll(db, scope, await findOpenShift(db, scope, openShiftId), preferenceIds, ignoreAvailability, workingTimeOverride);
}
