import { scheduleEntries, shiftRequests, staffMembers } from "@db/schema";
import { and, desc, eq, gt, inArray, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import type { Database, Statement } from "@/data/client";
import { changeRowsOf, changeRulesAt, entryState, recordingChanges } from "@/data/fair-workweek/schedule-changes.data";
import { newId } from "@/data/ids";
import { decodeKeyCursor, encodeKeyCursor } from "@/data/key-cursor";
import { type CancelReason, endRequestsOf } from "@/data/shift-requests/shift-request-endings.data";
import {
  judgePlanned,
  judgeViolations,
  overrideFor,
  type WorkingTimeOverrideInput,
  type WorkingTimeOverrideRecord,
} from "@/data/working-time/schedule-check.data";
import { whenDuplicate } from "@/data/write/constraint-problems";
import { guard } from "@/data/write/guard";
import { guardedBatch } from "@/data/write/guarded-batch";
import { businessDate } from "@/domain/local-time";
import { conflict, forbidden, invalidField, notFound } from "@/problems/problem";
import { type ScheduleScope, writerOf } from "./schedule-access.guards";
import { entryGuards, scheduleGuardProblems } from "./schedules.guards";
import { type ScheduleEntryRow, serializeEntry } from "./schedules.schemas";
import { type ShiftRequestRow, serializeShiftRequest, statusAt } from "./shift-requests.schemas";

type Action = "accepted" | "approved" | "declined" | "cancelled";

const entriesChanged = () =>
  conflict("SHIFT_REQUEST_NOT_PENDING", "The request's entries changed hands, moved or started meanwhile: nothing was written.");

/** An entry now belongs to `to`, moved by this approval (its `now`). */
const movedTo = (entry: ScheduleEntryRow, to: string, now: Date) =>
  sql`EXISTS (SELECT 1 FROM schedule_entries WHERE id = ${entry.id} AND employee_id = ${to} AND updated_at = ${now.getTime()})`;

/**
 * shift_requests.status of an approval: APPROVED only with both reassignments of the batch made, else NULL — a request
 * still accepted whose entries changed hands meanwhile (moved, deleted, given to someone else, started).
 */
const approvedWithBothMoves = guard({
  column: shiftRequests.status,
  problem: entriesChanged,
  sql: (moves: readonly { entry: ScheduleEntryRow; to: string }[], now: Date) =>
    sql`CASE WHEN ${sql.join(
      moves.map(({ entry, to }) => movedTo(entry, to, now)),
      sql` AND `,
    )} THEN 'APPROVED' END`,
});

/**
 * shift_requests.schedule_entry_id of a new request: the entry's id while it, and a swap's entry given back, are
 * still as the request read them (live, published, same worker and times), else NULL: a request is about its
 * entries as they were, and a change committed after the read would not have ended it.
 */
const entriesAsRead = guard({
  column: shiftRequests.scheduleEntryId,
  problem: () => invalidField("scheduleEntryId", "the entry (or the entry given back) changed meanwhile: read it again"),
  sql: (entries: readonly [ScheduleEntryRow, ...ScheduleEntryRow[]]) =>
    sql`(SELECT ${entries[0].id} WHERE ${sql.join(
      entries.map(
        (e) => sql`EXISTS (SELECT 1 FROM schedule_entries WHERE id = ${e.id} AND employee_id = ${e.employeeId}
          AND start_at = ${e.startAt.getTime()} AND end_at = ${e.endAt.getTime()} AND deleted_at IS NULL AND is_draft = 0)`,
      ),
      sql` AND `,
    )})`,
});

const notPending = (status: string) =>
  conflict("SHIFT_REQUEST_NOT_PENDING", `The shift request is ${status.toLowerCase()}: read it again.`);

/** The refusal of an action the request's statement did not apply: its state now, or its entries started or went. */
const refusalNow = async (db: Database, scope: ScheduleScope, id: string, from: readonly string[], now: Date) => {
  const status = statusAt(await findShiftRequest(db, scope, id), now);
  return from.includes(status)
    ? conflict("SHIFT_REQUEST_NOT_PENDING", "The shift request's entry has started or is gone: nothing was written.")
    : notPending(status);
};

/** A SQL boolean: the request's entries (both, for a swap giving one back) are live and have not started. */
const entriesAhead = (row: Pick<ShiftRequestRow, "scheduleEntryId" | "targetScheduleEntryId">, now: Date) => {
  const ids = [row.scheduleEntryId, ...(row.targetScheduleEntryId ? [row.targetScheduleEntryId] : [])];
  return sql`(SELECT COUNT(*) FROM schedule_entries WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))
    AND deleted_at IS NULL AND start_at > ${now.getTime()}) = ${ids.length}`;
};

/** What a staff member acting as themself sees: their own requests, those naming them, and open drops. */
const visibleTo = (employeeId: string): SQL =>
  or(
    eq(shiftRequests.requesterId, employeeId),
    eq(shiftRequests.targetEmployeeId, employeeId),
    and(eq(shiftRequests.type, "DROP"), isNull(shiftRequests.targetEmployeeId)),
  )!;

const atLocation = (scope: ScheduleScope) =>
  and(eq(shiftRequests.organizationId, scope.organizationId), eq(shiftRequests.locationId, scope.locationId))!;

export async function findShiftRequest(db: Database, scope: ScheduleScope, id: string): Promise<ShiftRequestRow> {
  const [row] = await db
    .select()
    .from(shiftRequests)
    .where(and(atLocation(scope), eq(shiftRequests.id, id), scope.ownStaffMemberId ? visibleTo(scope.ownStaffMemberId) : undefined));
  if (!row) throw notFound("Shift request");
  return row;
}

/** A request's status as stored and read (`statusAt`): a live one whose entry has started reads EXPIRED. */
function statusReads(status: string, now: Date): SQL {
  const live = inArray(shiftRequests.status, ["PENDING", "ACCEPTED"]);
  if (status === "EXPIRED") return and(live, lte(shiftRequests.expiresAt, now))!;
  if (status === "PENDING" || status === "ACCEPTED") return and(eq(shiftRequests.status, status), gt(shiftRequests.expiresAt, now))!;
  return eq(shiftRequests.status, status);
}

/** Pages follow (created_at, id), newest first. */
export const encodeShiftRequestCursor = (row: Pick<ShiftRequestRow, "createdAt" | "id">) =>
  encodeKeyCursor(row.createdAt.getTime(), row.id);

function decodeShiftRequestCursor(cursor: string) {
  const [ms, id] = decodeKeyCursor(cursor, /^(\d{1,15})\|([0-9A-Za-z-]{1,64})$/);
  return { createdAt: Number(ms), id: id! };
}

/**
 * One page (limit + 1 rows, so the caller knows whether more remain) of the location's requests visible to the
 * caller, newest first, after the cursor; the status filter reads as the wire does (EXPIRED included), in SQL, so
 * a page is never cut short by a filter applied after it.
 */
export async function listShiftRequests(
  db: Database,
  scope: ScheduleScope,
  query: { status?: string; limit: number; cursor?: string },
  now: Date,
) {
  const after = query.cursor ? decodeShiftRequestCursor(query.cursor) : null;
  return db
    .select()
    .from(shiftRequests)
    .where(
      and(
        atLocation(scope),
        scope.ownStaffMemberId ? visibleTo(scope.ownStaffMemberId) : undefined,
        query.status === undefined ? undefined : statusReads(query.status, now),
        after ? sql`(${shiftRequests.createdAt}, ${shiftRequests.id}) < (${after.createdAt}, ${after.id})` : undefined,
      ),
    )
    .orderBy(desc(shiftRequests.createdAt), desc(shiftRequests.id))
    .limit(query.limit + 1);
}

/** A published entry of the location that has not started, by id (400 naming `field` otherwise). */
async function requestableEntry(db: Database, scope: ScheduleScope, id: string, field: string, now: Date) {
  const [entry] = await db
    .select()
    .from(scheduleEntries)
    .where(
      and(
        eq(scheduleEntries.organizationId, scope.organizationId),
        eq(scheduleEntries.locationId, scope.locationId),
        eq(scheduleEntries.id, id),
        isNull(scheduleEntries.deletedAt),
      ),
    );
  if (!entry) throw invalidField(field, "no schedule entry with that id at this location");
  if (entry.isDraft) throw invalidField(field, "only a published entry can be requested");
  if (entry.startAt <= now) throw invalidField(field, "the entry has started");
  return entry;
}

async function activeAtLocation(db: Database, scope: ScheduleScope, employeeId: string) {
  const [staff] = await db
    .select({ id: staffMembers.id, locationIds: staffMembers.locationIds, active: staffMembers.active })
    .from(staffMembers)
    .where(and(eq(staffMembers.organizationId, scope.organizationId), eq(staffMembers.id, employeeId), isNull(staffMembers.deletedAt)));
  return Boolean(staff?.active && staff.locationIds.includes(scope.locationId));
}

export async function createShiftRequest(
  db: Database,
  scope: ScheduleScope,
  body: { type: "DROP" | "SWAP"; scheduleEntryId: string; targetEmployeeId?: string; targetScheduleEntryId?: string; note?: string },
  now: Date,
) {
  const entry = await requestableEntry(db, scope, body.scheduleEntryId, "scheduleEntryId", now);
  if (scope.ownStaffMemberId && entry.employeeId !== scope.ownStaffMemberId) {
    throw forbidden("Only the entry's own worker, or a manager with SCHEDULE_WRITE, requests a drop or swap of it.");
  }
  if (body.type === "SWAP" && !body.targetEmployeeId) throw invalidField("targetEmployeeId", "required for a SWAP");
  if (body.type === "DROP" && body.targetScheduleEntryId) throw invalidField("targetScheduleEntryId", "only a SWAP gives an entry back");
  if (body.targetEmployeeId) {
    if (body.targetEmployeeId === entry.employeeId) throw invalidField("targetEmployeeId", "must be someone other than the entry's worker");
    if (!(await activeAtLocation(db, scope, body.targetEmployeeId))) {
      throw invalidField("targetEmployeeId", "no active staff member assigned to this location with that id");
    }
  }
  const entries: [ScheduleEntryRow, ...ScheduleEntryRow[]] = [entry];
  if (body.targetScheduleEntryId) {
    const given = await requestableEntry(db, scope, body.targetScheduleEntryId, "targetScheduleEntryId", now);
    if (given.employeeId !== body.targetEmployeeId) throw invalidField("targetScheduleEntryId", "must be an entry of targetEmployeeId");
    entries.push(given);
  }
  // A swap is possible only while neither entry has started.
  const expiresAt = new Date(Math.min(...entries.map((e) => e.startAt.getTime())));
  const row: ShiftRequestRow = {
    id: newId(now.getTime()),
    organizationId: scope.organizationId,
    locationId: scope.locationId,
    type: body.type,
    status: "PENDING",
    scheduleEntryId: entry.id,
    requesterId: entry.employeeId,
    targetEmployeeId: body.targetEmployeeId ?? null,
    targetScheduleEntryId: body.targetScheduleEntryId ?? null,
    acceptedBy: null,
    decidedBy: null,
    note: body.note ?? null,
    cancelReason: null,
    expiresAt,
    createdAt: now,
    updatedAt: now,
  };
  await guardedBatch(
    writerOf(db, scope),
    [db.insert(shiftRequests).values({ ...row, scheduleEntryId: entriesAsRead.sql(entries) as unknown as string })],
    [
      whenDuplicate(shiftRequests, () => conflict("SHIFT_REQUEST_EXISTS", "The entry already has a pending or accepted shift request.")),
      entriesAsRead,
    ],
    {
      events: [
        { type: "shift_request.created", organizationId: scope.organizationId, occurredAt: now, data: serializeShiftRequest(row, now) },
      ],
    },
  );
  return row;
}

/**
 * One transition, decided by the statement itself (status in `from`, not expired, and its entries still ahead): of
 * two colleagues accepting one drop, one changes the row and the other changes nothing and is told 409.
 */
async function transition(
  db: Database,
  scope: ScheduleScope,
  was: ShiftRequestRow,
  from: readonly string[],
  set: Partial<ShiftRequestRow> & { status: string },
  action: Action,
  now: Date,
) {
  const status = statusAt(was, now);
  if (!from.includes(status)) throw notPending(status);
  const row: ShiftRequestRow = { ...was, ...set, updatedAt: now };
  const [result] = await guardedBatch(
    writerOf(db, scope),
    [
      db
        .update(shiftRequests)
        .set({ ...set, updatedAt: now })
        .where(
          and(
            eq(shiftRequests.id, was.id),
            sql`${shiftRequests.status} IN (${sql.join(
              from.map((s) => sql`${s}`),
              sql`, `,
            )})`,
            sql`${shiftRequests.expiresAt} > ${now.getTime()}`,
            action === "accepted" ? entriesAhead(was, now) : undefined,
          ),
        ),
    ],
    [],
    {
      events: [
        {
          type: `shift_request.${action}`,
          organizationId: scope.organizationId,
          occurredAt: now,
          data: serializeShiftRequest(row, now),
          whenChanged: true,
        },
      ],
    },
  );
  if (result.meta.changes === 0) throw await refusalNow(db, scope, was.id, from, now);
  return row;
}

/** POST …/accept: the target, or for an open drop any active colleague at the location other than the requester. */
export async function acceptShiftRequest(db: Database, scope: ScheduleScope, id: string, now: Date) {
  const was = await findShiftRequest(db, scope, id);
  const actor = scope.ownStaffMemberId ?? scope.principal.staffMemberId;
  if (!actor) throw forbidden("A shift request is accepted by a staff member: the target, or for an open drop a colleague.");
  if (was.targetEmployeeId ? actor !== was.targetEmployeeId : actor === was.requesterId) {
    throw forbidden(was.targetEmployeeId ? "Only the request's target accepts it." : "The requester cannot accept their own drop.");
  }
  if (!was.targetEmployeeId && !(await activeAtLocation(db, scope, actor))) {
    throw forbidden("Only an active colleague assigned to the location accepts an open drop.");
  }
  return transition(db, scope, was, ["PENDING"], { status: "ACCEPTED", acceptedBy: actor }, "accepted", now);
}

export async function declineShiftRequest(db: Database, scope: ScheduleScope, id: string, now: Date) {
  const was = await findShiftRequest(db, scope, id);
  return transition(db, scope, was, ["PENDING", "ACCEPTED"], { status: "DECLINED", decidedBy: deciderOf(scope) }, "declined", now);
}

export async function cancelShiftRequest(db: Database, scope: ScheduleScope, id: string, now: Date) {
  const was = await findShiftRequest(db, scope, id);
  if (scope.ownStaffMemberId && scope.ownStaffMemberId !== was.requesterId) throw forbidden("Only the requester cancels a shift request.");
  const actor = scope.ownStaffMemberId ?? scope.principal.staffMemberId;
  const cancelReason: CancelReason = actor === was.requesterId ? "REQUESTER_CANCELLED" : "MANAGER_CANCELLED";
  return transition(db, scope, was, ["PENDING", "ACCEPTED"], { status: "CANCELLED", cancelReason }, "cancelled", now);
}

const deciderOf = (scope: ScheduleScope) => scope.principal.staffMemberId ?? `partner:${scope.principal.partnerId}`;

/**
 * The working-time judgement of an approval's reassignments: each moved entry judged as its new worker's, with their
 * published entries and worked shifts (the location's pack). Refuses (409 WORKING_TIME_CONFLICT) unless overridden;
 * answers each entry's override record (undefined: the location has no pack, the entry keeps its own) and the guards
 * that the workers' neighbours are unchanged, run before the moves so that they compare what the check read.
 */
async function judgeReassignments(
  db: Database,
  scope: ScheduleScope,
  moves: readonly { entry: ScheduleEntryRow; to: string }[],
  override: WorkingTimeOverrideInput,
) {
  const planned = moves.map(({ entry, to }) => ({
    id: entry.id,
    employeeId: to,
    start: entry.startAt,
    end: entry.endAt,
    utcOffset: entry.utcOffset,
  }));
  const judged = await judgePlanned(db, scope.organizationId, moves[0]!.entry.locationId, planned);
  const violations = [...new Map([...judged.byEntry.values()].flat().map((v) => [JSON.stringify(v), v])).values()];
  const record = judgeViolations(violations, override, scope.principal);
  return {
    overrideOf: (entryId: string): WorkingTimeOverrideRecord | null | undefined => {
      const own = judged.byEntry.get(entryId);
      if (own === undefined) return undefined;
      return record && own.length ? overrideFor(record, own) : null;
    },
    guards: judged.guards(),
    problem: judged.problem,
  };
}

/**
 * POST …/approve: ACCEPTED → APPROVED with the entry given to the acceptor (and, for a swap, the entry given back
 * to the requester) in one batch. Each entry's reassignment re-checks overlap, time off and availability in its own
 * statement, and is judged by the location's working-time pack (409 WORKING_TIME_CONFLICT unless overridden); the
 * approval is written only if the reassignments were, so a refusal writes nothing.
 */
export async function approveShiftRequest(
  db: Database,
  scope: ScheduleScope,
  id: string,
  now: Date,
  workingTimeOverride?: WorkingTimeOverrideInput,
) {
  const was = await findShiftRequest(db, scope, id);
  // Who made or accepted a request never changes while it is ACCEPTED: the read decides.
  const caller = scope.principal.staffMemberId;
  if (caller && (caller === was.requesterId || caller === was.acceptedBy)) {
    throw forbidden("Nobody approves a shift request they made or accepted: another manager decides.");
  }
  const status = statusAt(was, now);
  if (status !== "ACCEPTED") throw notPending(status);
  const acceptor = was.acceptedBy!;
  const entries = await db
    .select()
    .from(scheduleEntries)
    .where(
      and(
        eq(scheduleEntries.organizationId, scope.organizationId),
        sql`${scheduleEntries.id} IN (${was.scheduleEntryId}, ${was.targetScheduleEntryId ?? was.scheduleEntryId})`,
        isNull(scheduleEntries.deletedAt),
      ),
    );
  const given = entries.find((e) => e.id === was.scheduleEntryId);
  const back = was.targetScheduleEntryId ? entries.find((e) => e.id === was.targetScheduleEntryId) : undefined;
  if (!given || (was.targetScheduleEntryId && !back)) throw notPending("no longer possible: its entry was deleted");
  // Still accepted, and its entries not started (a change of either would have cancelled it: this is the backstop).
  const stillAccepted = sql`EXISTS (SELECT 1 FROM shift_requests WHERE id = ${was.id} AND status = 'ACCEPTED'
    AND expires_at > ${now.getTime()}) AND ${entriesAhead(was, now)}`;
  const moves = [{ entry: given, to: acceptor }, ...(back ? [{ entry: back, to: was.requesterId }] : [])];
  const workingTime = await judgeReassignments(db, scope, moves, workingTimeOverride);
  const overrideOf = (entry: ScheduleEntryRow) => {
    const record = workingTime.overrideOf(entry.id);
    return record === undefined ? entry.workingTimeOverride : record;
  };
  const reassign = (entry: ScheduleEntryRow, from: string, to: string, leaving?: ScheduleEntryRow) => {
    const span = {
      organizationId: scope.organizationId,
      employeeId: to,
      entryId: entry.id,
      leavingEntryId: leaving?.id,
      start: entry.startAt,
      end: entry.endAt,
    };
    return db
      .update(scheduleEntries)
      .set({
        employeeId: entryGuards.noOverlap.sql(span),
        locationId: entryGuards.notOnTimeOff.sql(entry.locationId, span),
        roleId: entryGuards.available.sql(entry.roleId, span),
        workingTimeOverride: overrideOf(entry),
        updatedAt: now,
      })
      .where(and(eq(scheduleEntries.id, entry.id), eq(scheduleEntries.employeeId, from), isNull(scheduleEntries.deletedAt), stillAccepted));
  };
  const row: ShiftRequestRow = { ...was, status: "APPROVED", decidedBy: deciderOf(scope), updatedAt: now };
  const approved = sql`EXISTS (SELECT 1 FROM shift_requests WHERE id = ${was.id} AND status = 'APPROVED' AND updated_at = ${now.getTime()})`;
  const entryEvent = (entry: ScheduleEntryRow, to: string) => ({
    type: "schedule_entry.updated" as const,
    organizationId: scope.organizationId,
    occurredAt: now,
    data: serializeEntry({ ...entry, employeeId: to, workingTimeOverride: overrideOf(entry), updatedAt: now }),
    when: approved,
  });
  // The entries change hands: the other live requests naming them (a swap's given-back entry, say) end with it.
  const others = endRequestsOf(db, {
    organizationId: scope.organizationId,
    entryIds: moves.map((m) => m.entry.id),
    reason: "ENTRY_CHANGED",
    now,
    when: approved,
    except: was.id,
  });
  // The change log (Fair Workweek): each worker's side of the reassignment, EMPLOYEE initiated, so it earns nothing.
  const rules = await changeRulesAt(db, scope.organizationId, given.locationId, businessDate(given.startAt, given.utcOffset));
  const changeRows = moves.flatMap(({ entry, to }) =>
    changeRowsOf(
      rules,
      {
        organizationId: scope.organizationId,
        locationId: entry.locationId,
        scheduleEntryId: entry.id,
        utcOffset: entry.utcOffset,
        before: entryState(entry),
        after: { ...entryState(entry), employeeId: to },
      },
      { initiatedBy: "EMPLOYEE", reason: `shift request ${was.id}` },
      now,
    ),
  );
  const recording = recordingChanges(db, scope.organizationId, changeRows, () => approved);
  const writes: Statement[] = [
    reassign(given, was.requesterId, acceptor, back),
    back ? reassign(back, acceptor, was.requesterId, given) : db.select({ id: shiftRequests.id }).from(shiftRequests).where(sql`0`),
    db
      .update(shiftRequests)
      .set({
        status: approvedWithBothMoves.sql(moves, now),
        decidedBy: row.decidedBy,
        updatedAt: now,
      })
      .where(and(eq(shiftRequests.id, was.id), eq(shiftRequests.status, "ACCEPTED"), sql`${shiftRequests.expiresAt} > ${now.getTime()}`)),
    others.statement,
    ...recording.statements,
  ];
  const written = await guardedBatch(
    writerOf(db, scope),
    // The neighbours' guards first: they compare the rows as the check read them, before the entries move.
    [...workingTime.guards, ...writes] as [Statement, ...Statement[]],
    [...scheduleGuardProblems, approvedWithBothMoves, workingTime.problem],
    {
      events: [
        {
          type: "shift_request.approved",
          organizationId: scope.organizationId,
          occurredAt: now,
          data: serializeShiftRequest(row, now),
          when: approved,
        },
        entryEvent(given, acceptor),
        ...(back ? [entryEvent(back, was.requesterId)] : []),
        others.event,
        ...recording.events,
      ],
    },
  );
  // The approval's UPDATE follows the guards and the two reassignments.
  const approval = (written as readonly { meta: { changes: number } }[])[workingTime.guards.length + 2]!;
  if (approval.meta.changes === 0) throw await refusalNow(db, scope, was.id, ["ACCEPTED"], now);
  return row;
}
