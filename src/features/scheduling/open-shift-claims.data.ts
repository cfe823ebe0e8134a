import { openShiftPreferences, openShifts, staffMembers } from "@db/schema";
import { and, eq, isNull, or } from "drizzle-orm";
import type { Database, Statement } from "@/data/client";
import { organizationNow } from "@/data/clock";
import { newId } from "@/data/ids";
import { inOrganization } from "@/data/tenancy";
import type { WorkingTimeOverrideInput } from "@/data/working-time/schedule-check.data";
import { guardedBatch } from "@/data/write/guarded-batch";
import { type ClaimRefusal, claimRefusal, claimStatus } from "@/domain/open-shift-claim";
import { conflict, invalidField, notFound } from "@/problems/problem";
import { transition } from "./open-shift-preferences.data";
import { findOpenShift } from "./open-shift-reads.data";
import { approvedEntry, approvedEntryFrozen, judgeApprovals, recordingAssignments, spanOf, touched } from "./open-shift-statements.data";
import { claimedEvent } from "./open-shifts.events";
import type { PreferenceRow } from "./open-shifts.schemas";
import { type ScheduleScope, workerOf, writerOf } from "./schedule-access.guards";
import { claimGuards, preferenceNotPending, scheduleGuardProblems } from "./schedules.guards";

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
      .where(
        and(
          eq(openShiftPreferences.openShiftId, openShiftId),
          eq(openShiftPreferences.workerId, workerId),
          LIVE,
          isNull(openShiftPreferences.deletedAt),
        ),
      ),
  ]);
  if (!shifts[0]) throw notFound("Open shift");
  if (!workers[0]) throw invalidField("workerId", "no staff member with that id in this organization");
  return { shift: shifts[0], worker: workers[0], existing: existing[0] ?? null };
}

const refuse = (refusal: ClaimRefusal | null) => {
  if (refusal) throw conflict(refusal, refusals[refusal]);
};

/**
 * POST /open-shifts/{id}/claim: a PREFERRED preference. Without requireApproval it is approved at once with its
 * published schedule entry — the capacity check and the approval are the one INSERT (its open_shift_id guard
 * counts the approved places), so concurrent claims never exceed staffCountRequired. With it, it waits PENDING.
 */
export async function claim(
  db: Database,
  scope: ScheduleScope,
  openShiftId: string,
  workerIdInput: string | undefined,
  workingTimeOverride?: WorkingTimeOverrideInput,
): Promise<PreferenceRow> {
  const workerId = workerOf(scope, workerIdInput);
  const { shift, worker, existing } = await claimContext(db, scope, openShiftId, workerId);
  refuse(claimRefusal({ openShift: shift, worker, existing }));
  const now = await organizationNow({ db, ...scope });
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
  // Approved at once, its entry is judged by the location's working-time pack; a PENDING claim is judged when assigned.
  const workingTime = await judgeApprovals(
    db,
    scope,
    shift,
    status === "APPROVED" ? [{ entryId: row.scheduleShiftId!, workerId }] : [],
    workingTimeOverride,
  );
  const statements: Statement[] =
    status === "APPROVED"
      ? [
          db.insert(openShiftPreferences).values({ ...row, openShiftId: claimGuards.placeLeft.sql(openShiftId) }),
          approvedEntry(db, scope, shift, row.id, workerId, row.scheduleShiftId!, now, false, workingTime.overrideOf(row.scheduleShiftId!)),
        ]
      : [
          db.insert(openShiftPreferences).values({
            ...row,
            workerId: claimGuards.noOverlap.sql(span),
            organizationId: claimGuards.notOnTimeOff.sql(scope.organizationId, span),
            preference: claimGuards.available.sql(row.preference, span) as "PREFERRED",
          }),
        ];
  const recording = await recordingAssignments(
    db,
    scope,
    shift,
    status === "APPROVED" ? [{ entryId: row.scheduleShiftId!, workerId, preferred: true }] : [],
    now,
  );
  await guardedBatch(
    writerOf(db, scope),
    [touched(db, openShiftId, now), ...statements, ...recording.statements],
    [approvedEntryFrozen(db, scope, [shift]), ...scheduleGuardProblems, ...workingTime.problems],
    {
      events: [claimedEvent(row), ...recording.events],
      trailing: workingTime.guards,
    },
  );
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
  const now = await organizationNow({ db, ...scope });
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
  // A PREFERRED preference is a wish to work it: refused on approved time off (TIME_OFF_CONFLICT), like a claim.
  const values =
    body.preference === "PREFERRED"
      ? {
          ...row,
          organizationId: claimGuards.notOnTimeOff.sql(scope.organizationId, spanOf(scope, shift, workerId)),
          preference: claimGuards.available.sql(row.preference, spanOf(scope, shift, workerId)) as "PREFERRED",
        }
      : row;
  await guardedBatch(
    writerOf(db, scope),
    [touched(db, openShiftId, now), db.insert(openShiftPreferences).values(values)],
    scheduleGuardProblems,
    {
      events: [{ ...claimedEvent(row), type: "open_shift.preference_created" }],
    },
  );
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
  if (!pending) {
    // Another organization's staff member (or none) has no claim here to retract: a 400 naming it, not a conflict.
    const [worker] = await db
      .select({ id: staffMembers.id })
      .from(staffMembers)
      .where(and(inOrganization(staffMembers, scope.organizationId), eq(staffMembers.id, workerId)));
    if (!worker) throw invalidField("workerId", "no staff member with that id in this organization");
    throw preferenceNotPending();
  }
  return transition(db, scope, openShiftId, pending.id, { status: "RETRACTED" });
}
