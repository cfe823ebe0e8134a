import { and, eq, inArray, isNull, or } from "drizzle-orm";
import { openShiftPreferences, openShifts, scheduleEntries, staffMembers } from "../../../drizzle/schema";
import { assignmentKind, claimRefusal, claimStatus, placesFit, type ClaimRefusal } from "../../domain/open-shift-claim";
import { type Database, type Statement, writeAll } from "../../lib/db";
import { guarded } from "../../lib/db-errors";
import { newId } from "../../lib/ids";
import { conflict, invalidField, notFound } from "../../lib/problem";
import { inOrganization } from "../../lib/tenancy";
import { workerOf, type ScheduleScope } from "../schedules/schedule-access";
import {
  approvedPlaces,
  ifApprovedWith,
  openShiftFull,
  preferenceNotPending,
  scheduleGuardProblems,
  unlessFull,
  unlessOnTimeOff,
  unlessOverlapping,
} from "../schedules/schedule-guards";
import { findOpenShift } from "./open-shift-reads";
import type { OpenShiftRow, PreferenceRow } from "./open-shifts.schemas";

const refusals: Record<ClaimRefusal, string> = {
  OPEN_SHIFT_NOT_PUBLISHED: "The open shift is a draft: it can be claimed once published.",
  WORKER_NOT_ASSIGNED: "The staff member is not active and assigned to the open shift's location.",
  ALREADY_CLAIMED: "This worker already has a claim or preference on this open shift.",
};

const LIVE = or(eq(openShiftPreferences.status, "PENDING"), eq(openShiftPreferences.status, "APPROVED"));

/** The open shift, the worker and the worker's live claim on it, read in one batch. */
async function claimContext(db: Database, scope: ScheduleScope, openShiftId: string, workerId: string) {
  const [shifts, workers, existing] = await db.batch([
    db
      .select()
      .from(openShifts)
      .where(
        and(
          inOrganization(openShifts, scope.organizationId),
          eq(openShifts.locationId, scope.locationId),
          eq(openShifts.id, openShiftId),
          scope.ownStaffMemberId ? eq(openShifts.isDraft, false) : undefined,
        ),
      ),
    db
      .select({ active: staffMembers.active, locationIds: staffMembers.locationIds })
      .from(staffMembers)
      .where(and(inOrganization(staffMembers, scope.organizationId), eq(staffMembers.id, workerId))),
    db
      .select({ status: openShiftPreferences.status })
      .from(openShiftPreferences)
      .where(and(eq(openShiftPreferences.openShiftId, openShiftId), eq(openShiftPreferences.workerId, workerId), LIVE, isNull(openShiftPreferences.deletedAt))),
  ]);
  if (!shifts[0]) throw notFound("Open shift");
  if (!workers[0]) throw invalidField("workerId", "no staff member with that id in this organization");
  return { shift: shifts[0], worker: workers[0], existing: existing[0] ?? null };
}

const refuse = (refusal: ClaimRefusal | null) => {
  if (refusal) throw conflict(refusal, refusals[refusal]);
};

const touched = (db: Database, shiftId: string, now: Date) => db.update(openShifts).set({ updatedAt: now }).where(eq(openShifts.id, shiftId));

const spanOf = (scope: ScheduleScope, shift: OpenShiftRow, workerId: string, entryId = "") => ({
  organizationId: scope.organizationId,
  employeeId: workerId,
  entryId,
  start: shift.startAt,
  end: shift.endAt,
});

/** The published schedule entry an approval creates, written only if the approval statement before it applied. */
function approvedEntry(db: Database, scope: ScheduleScope, shift: OpenShiftRow, preferenceId: string, workerId: string, entryId: string, now: Date) {
  const guard = spanOf(scope, shift, workerId, entryId);
  return db.insert(scheduleEntries).values({
    id: entryId,
    organizationId: ifApprovedWith(scope.organizationId, preferenceId, entryId),
    locationId: unlessOnTimeOff(shift.locationId, guard),
    employeeId: unlessOverlapping(guard),
    roleId: shift.roleId,
    startAt: shift.startAt,
    endAt: shift.endAt,
    utcOffset: shift.utcOffset,
    timezone: shift.timezone,
    breaks: shift.breaks,
    isDraft: false,
    publishedAt: now,
    openShiftId: shift.id,
    createdAt: now,
    updatedAt: now,
  });
}

/**
 * POST /open-shifts/{id}/claim: a PREFERRED preference. Without requireApproval it is approved at once with its
 * published schedule entry — the capacity check and the approval are the one INSERT (its open_shift_id guard
 * counts the approved places), so concurrent claims never exceed staffCountRequired. With it, it waits PENDING.
 */
export async function claim(db: Database, scope: ScheduleScope, openShiftId: string, workerIdInput: string | undefined): Promise<PreferenceRow> {
  const workerId = workerOf(scope, workerIdInput);
  const { shift, worker, existing } = await claimContext(db, scope, openShiftId, workerId);
  refuse(claimRefusal({ openShift: shift, worker, existing }));
  const now = new Date();
  const status = claimStatus(shift.requireApproval);
  const row: PreferenceRow = {
    id: newId(now.getTime()),
    organizationId: scope.organizationId,
    openShiftId,
    workerId,
    preference: "PREFERRED",
    status,
    isDraft: false,
    scheduleShiftId: status === "APPROVED" ? newId(now.getTime()) : null,
    assignedAt: status === "APPROVED" ? now : null,
    active: true,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
  const span = spanOf(scope, shift, workerId);
  const statements: Statement[] =
    status === "APPROVED"
      ? [
          db.insert(openShiftPreferences).values({ ...row, openShiftId: unlessFull(openShiftId) }),
          approvedEntry(db, scope, shift, row.id, workerId, row.scheduleShiftId!, now),
        ]
      : [
          db.insert(openShiftPreferences).values({
            ...row,
            workerId: unlessOverlapping(span),
            organizationId: unlessOnTimeOff(scope.organizationId, span),
          }),
        ];
  await guarded(writeAll(db, [...statements, touched(db, openShiftId, now)]), scheduleGuardProblems);
  return row;
}

/** POST /open-shifts/{id}/preferences: a PENDING preference, PREFERRED or NOT_PREFERRED; managers may state one on a draft. */
export async function createPreference(
  db: Database,
  scope: ScheduleScope,
  openShiftId: string,
  body: { workerId?: string; preference: "PREFERRED" | "NOT_PREFERRED" },
): Promise<PreferenceRow> {
  const workerId = workerOf(scope, body.workerId);
  const { shift, worker, existing } = await claimContext(db, scope, openShiftId, workerId);
  refuse(claimRefusal({ openShift: { ...shift, isDraft: false }, worker, existing }));
  const now = new Date();
  const row: PreferenceRow = {
    id: newId(now.getTime()),
    organizationId: scope.organizationId,
    openShiftId,
    workerId,
    preference: body.preference,
    status: "PENDING",
    isDraft: false,
    scheduleShiftId: null,
    assignedAt: null,
    active: true,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
  await guarded(writeAll(db, [db.insert(openShiftPreferences).values(row), touched(db, openShiftId, now)]), scheduleGuardProblems);
  return row;
}

/** A preference of the open shift; a caller acting as themself reaches only their own (others are 404). */
async function findPreference(db: Database, scope: ScheduleScope, openShiftId: string, preferenceId: string) {
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

/** One conditional transition of a pending preference; 409 PREFERENCE_NOT_PENDING when it is no longer pending. */
async function transition(
  db: Database,
  openShiftId: string,
  preferenceId: string,
  changes: Partial<PreferenceRow>,
  from: "PENDING" | "PENDING_OR_DRAFT" = "PENDING",
): Promise<PreferenceRow> {
  const now = new Date();
  const pending = eq(openShiftPreferences.status, "PENDING");
  const draftAssignment = and(eq(openShiftPreferences.status, "APPROVED"), eq(openShiftPreferences.isDraft, true));
  const [updated] = await writeAll(db, [
    db
      .update(openShiftPreferences)
      .set({ ...changes, updatedAt: now })
      .where(and(eq(openShiftPreferences.id, preferenceId), from === "PENDING" ? pending : or(pending, draftAssignment)))
      .returning(),
    touched(db, openShiftId, now),
  ]);
  const row = (updated as PreferenceRow[])[0];
  if (!row) throw preferenceNotPending();
  return row;
}

/** POST /open-shifts/{id}/retract: the worker withdraws their pending claim. */
export async function retractClaim(db: Database, scope: ScheduleScope, openShiftId: string, workerIdInput: string | undefined) {
  const workerId = workerOf(scope, workerIdInput);
  await findOpenShift(db, scope, openShiftId);
  const [pending] = await db
    .select({ id: openShiftPreferences.id })
    .from(openShiftPreferences)
    .where(
      and(
        eq(openShiftPreferences.openShiftId, openShiftId),
        eq(openShiftPreferences.workerId, workerId),
        eq(openShiftPreferences.status, "PENDING"),
        isNull(openShiftPreferences.deletedAt),
      ),
    );
  if (!pending) throw preferenceNotPending();
  return transition(db, openShiftId, pending.id, { status: "RETRACTED" });
}

/** POST …/preferences/{preferenceId}/retract: by its worker or a manager, while pending. */
export async function retractPreference(db: Database, scope: ScheduleScope, openShiftId: string, preferenceId: string) {
  await findPreference(db, scope, openShiftId, preferenceId);
  return transition(db, openShiftId, preferenceId, { status: "RETRACTED" });
}

/** PATCH …/preferences/{preferenceId}: changes PREFERRED/NOT_PREFERRED while pending. */
export async function changePreference(db: Database, scope: ScheduleScope, openShiftId: string, preferenceId: string, preference: PreferenceRow["preference"]) {
  await findPreference(db, scope, openShiftId, preferenceId);
  return transition(db, openShiftId, preferenceId, { preference });
}

/** PATCH …/preferences/{preferenceId}/remove: a manager declines a pending preference or withdraws a draft assignment. */
export async function declinePreference(db: Database, scope: ScheduleScope, openShiftId: string, preferenceId: string) {
  await findPreference(db, scope, openShiftId, preferenceId);
  return transition(db, openShiftId, preferenceId, { status: "DECLINED", isDraft: false, assignedAt: null }, "PENDING_OR_DRAFT");
}

/**
 * The statements approving pending preferences of one open shift. On a published shift each is approved with its
 * schedule entry; on a draft it becomes a draft assignment (its entry comes at publish). Each approval carries the
 * capacity guard, so in one batch the first one over staffCountRequired fails them all.
 */
function assignStatements(db: Database, scope: ScheduleScope, shift: OpenShiftRow, preferences: readonly PreferenceRow[], now: Date) {
  const kind = assignmentKind(shift);
  return preferences.flatMap((preference): Statement[] => {
    const entryId = newId(now.getTime());
    const approve = db
      .update(openShiftPreferences)
      .set({
        status: "APPROVED",
        isDraft: kind === "draft",
        scheduleShiftId: kind === "draft" ? null : entryId,
        assignedAt: now,
        updatedAt: now,
        openShiftId: unlessFull(shift.id),
        workerId: unlessOverlapping(spanOf(scope, shift, preference.workerId)),
      })
      .where(and(eq(openShiftPreferences.id, preference.id), eq(openShiftPreferences.status, "PENDING")));
    return kind === "draft" ? [approve] : [approve, approvedEntry(db, scope, shift, preference.id, preference.workerId, entryId, now)];
  });
}

async function assignAll(db: Database, scope: ScheduleScope, shift: OpenShiftRow, preferenceIds: readonly string[]) {
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
    db.select({ approved: approvedPlaces(shift.id).mapWith(Number) }).from(openShifts).where(eq(openShifts.id, shift.id)),
  ]);
  const unknown = preferenceIds.find((id) => !preferences.some((p) => p.id === id));
  if (unknown) throw notFound("Preference");
  if (preferences.some((p) => p.status !== "PENDING")) throw preferenceNotPending();
  if (!placesFit(places?.approved ?? 0, preferences.length, shift.staffCountRequired)) throw openShiftFull();
  const now = new Date();
  await guarded(writeAll(db, [...assignStatements(db, scope, shift, preferences, now), touched(db, shift.id, now)]), scheduleGuardProblems);
  return db.select().from(openShiftPreferences).where(inArray(openShiftPreferences.id, [...preferenceIds])).orderBy(openShiftPreferences.id);
}

/** POST …/preferences/{preferenceId}/assign. */
export async function assign(db: Database, scope: ScheduleScope, openShiftId: string, preferenceId: string) {
  const { shift } = await findPreference(db, scope, openShiftId, preferenceId);
  const [row] = await assignAll(db, scope, shift, [preferenceId]);
  return row!;
}

/** POST /open-shifts/{id}/preferences/bulk-assign: all or none; over capacity is 409 OPEN_SHIFT_FULL. */
export async function bulkAssign(db: Database, scope: ScheduleScope, openShiftId: string, preferenceIds: readonly string[]) {
  if (new Set(preferenceIds).size !== preferenceIds.length) throw invalidField("preferenceIds", "must not repeat an id");
  return assignAll(db, scope, await findOpenShift(db, scope, openShiftId), preferenceIds);
}
