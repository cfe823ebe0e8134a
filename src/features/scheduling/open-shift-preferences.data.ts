import { openShiftPreferences } from "@db/schema";
import { and, eq, isNull, or, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { organizationNow } from "@/data/clock";
import type { EventType } from "@/data/outbox/outbox";
import { guardedBatch } from "@/data/write/guarded-batch";
import { notFound } from "@/problems/problem";
import { findOpenShift } from "./open-shift-reads.data";
import { spanOf, touched } from "./open-shift-statements.data";
import { preferenceEvent } from "./open-shifts.events";
import type { PreferenceRow } from "./open-shifts.schemas";
import { type ScheduleScope, writerOf } from "./schedule-access.guards";
import { claimGuards, preferenceNotPending, scheduleGuardProblems } from "./schedules.guards";

/** A preference of the open shift; a caller acting as themself reaches only their own (others are 404). */
export async function findPreference(db: Database, scope: ScheduleScope, openShiftId: string, preferenceId: string) {
  const shift = await findOpenShift(db, scope, openShiftId);
  const [preference] = await db
    .select()
    .from(openShiftPreferences)
    .where(
      and(
        eq(openShiftPreferences.organizationId, scope.organizationId),
        eq(openShiftPreferences.openShiftId, openShiftId),
        eq(openShiftPreferences.id, preferenceId),
        isNull(openShiftPreferences.deletedAt),
        scope.ownStaffMemberId ? eq(openShiftPreferences.workerId, scope.ownStaffMemberId) : undefined,
      ),
    );
  if (!preference) throw notFound("Preference");
  return { shift, preference };
}

/** The event of a preference's transition: retracted by its worker, removed by a manager, or its preference changed. */
const transitionEvent = (changes: Partial<PreferenceRow>): EventType =>
  changes.status === "RETRACTED"
    ? "open_shift.retracted"
    : changes.status === "DECLINED"
      ? "open_shift.preference_removed"
      : "open_shift.preference_updated";

/** One conditional transition of a pending preference; 409 PREFERENCE_NOT_PENDING when it is no longer pending. */
export async function transition(
  db: Database,
  scope: ScheduleScope,
  openShiftId: string,
  preferenceId: string,
  changes: Partial<PreferenceRow>,
  from: "PENDING" | "PENDING_OR_DRAFT" = "PENDING",
  guards: Record<string, unknown> = {},
): Promise<PreferenceRow> {
  const now = await organizationNow({ db, ...scope });
  const pending = eq(openShiftPreferences.status, "PENDING");
  const draftAssignment = and(eq(openShiftPreferences.status, "APPROVED"), eq(openShiftPreferences.isDraft, true));
  const [updated] = await guardedBatch(
    writerOf(db, scope),
    [
      db
        .update(openShiftPreferences)
        .set({ ...changes, ...guards, updatedAt: now })
        .where(and(eq(openShiftPreferences.id, preferenceId), from === "PENDING" ? pending : or(pending, draftAssignment)))
        .returning(),
      // Only when the transition above applied: the preference then carries this write's updatedAt.
      touched(
        db,
        openShiftId,
        now,
        sql`EXISTS (SELECT 1 FROM ${openShiftPreferences} WHERE ${openShiftPreferences.id} = ${preferenceId}
          AND ${openShiftPreferences.updatedAt} = ${now.getTime()})`,
      ),
    ],
    scheduleGuardProblems,
    { events: [preferenceEvent(scope.organizationId, transitionEvent(changes), preferenceId, now)] },
  );
  const row = (updated as PreferenceRow[])[0];
  if (!row) throw preferenceNotPending();
  return row;
}

/** POST …/preferences/{preferenceId}/retract: by its worker or a manager, while pending. */
export async function retractPreference(db: Database, scope: ScheduleScope, openShiftId: string, preferenceId: string) {
  await findPreference(db, scope, openShiftId, preferenceId);
  return transition(db, scope, openShiftId, preferenceId, { status: "RETRACTED" });
}

/** PATCH …/preferences/{preferenceId}: changes PREFERRED/NOT_PREFERRED while pending. */
export async function changePreference(
  db: Database,
  scope: ScheduleScope,
  openShiftId: string,
  preferenceId: string,
  preference: PreferenceRow["preference"],
) {
  const { shift, preference: was } = await findPreference(db, scope, openShiftId, preferenceId);
  // Turning PREFERRED is a wish to work it: refused on time off or unavailability, as a new PREFERRED one is.
  const span = spanOf(scope, shift, was.workerId);
  const guards =
    preference === "PREFERRED"
      ? {
          preference: claimGuards.available.sql("PREFERRED", span),
          organizationId: claimGuards.notOnTimeOff.sql(scope.organizationId, span),
        }
      : {};
  return transition(db, scope, openShiftId, preferenceId, { preference }, "PENDING", guards);
}

/** PATCH …/preferences/{preferenceId}/remove: a manager declines a pending preference or withdraws a draft assignment. */
export async function declinePreference(db: Database, scope: ScheduleScope, openShiftId: string, preferenceId: string) {
  await findPreference(db, scope, openShiftId, preferenceId);
  return transition(db, scope, openShiftId, preferenceId, { status: "DECLINED", isDraft: false, assignedAt: null }, "PENDING_OR_DRAFT");
}
