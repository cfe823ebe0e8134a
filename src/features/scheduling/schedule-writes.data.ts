import { scheduleEntries } from "@db/schema";
import { and, eq, ne, or, type SQL } from "drizzle-orm";
import type { Database } from "@/data/client";
import { guarded } from "@/data/write/constraint-problems";
import { rowExists } from "@/data/write/precondition-guard";
import { planEntrySpan } from "@/domain/schedule-entry";
import {
  type AlsoWritten,
  findLive,
  getLive,
  insertRecord,
  type ReadContext,
  softDeleteLive,
  updateLive,
  type WriteContext,
} from "@/platform/crud/tenant-queries";
import { validationFailed } from "@/problems/problem";
import type { LocationRow, ScheduleScope } from "./schedule-access.guards";
import { checkEntryReferences } from "./schedule-references.data";
import { entryGuards, scheduleGuardProblems } from "./schedules.guards";
import type { EntryCreateInput, EntryPatchInput, ScheduleEntryRow } from "./schedules.schemas";
import { type Ending, endRequestsOf } from "./shift-request-endings.data";

function span(wallClock: { start: string; end: string }, rule: { utcOffset: number } | { timeZone: string }) {
  const plan = planEntrySpan({ start: new Date(wallClock.start), end: new Date(wallClock.end) }, rule);
  if (!plan.ok) throw validationFailed(plan.errors);
  return plan;
}

/** The entries of one kind at the scope's location: published ones, or drafts. */
export const entryOfKind = (scope: ScheduleScope, id: string, isDraft: boolean): SQL =>
  and(eq(scheduleEntries.id, id), eq(scheduleEntries.locationId, scope.locationId), eq(scheduleEntries.isDraft, isDraft))!;

export const findEntry = (db: Database, scope: ScheduleScope, id: string, isDraft: boolean) =>
  findLive(db, scheduleEntries, scope.organizationId, entryOfKind(scope, id, isDraft), "Schedule entry");

/** GET /schedules/{id} and /schedules/drafts/{id}: the entry with its ETag. */
export const getEntry = (c: ReadContext, scope: ScheduleScope, id: string, isDraft: boolean) =>
  getLive(c, scheduleEntries, scope.organizationId, entryOfKind(scope, id, isDraft), "Schedule entry");

/**
 * A write of a published entry ends the live shift requests naming it when it changes the entry's time or worker
 * (`changes`: a condition on the entry's row as the write finds it) or deletes it, in its own batch, exactly when
 * the write applies (the update's own condition). A draft has no requests.
 */
const endingRequests =
  (db: Database, organizationId: string, id: string, reason: Ending["reason"], changes?: SQL): AlsoWritten =>
  (where) => {
    const ending = endRequestsOf(db, {
      organizationId,
      entryIds: [id],
      reason,
      now: new Date(),
      when: rowExists(scheduleEntries, and(where, changes)),
    });
    return { before: [ending.statement], events: [ending.event] };
  };

/** POST /schedules (published at once) and POST /schedules/drafts. */
export async function createEntry(
  c: WriteContext,
  scope: ScheduleScope,
  location: LocationRow,
  body: EntryCreateInput,
  isDraft: boolean,
): Promise<ScheduleEntryRow> {
  const { db } = c.var;
  const { organizationId } = scope;
  const breaks = body.breaks ?? [];
  const planned = span(
    { start: body.startTime, end: body.endTime },
    body.utcOffset !== undefined ? { utcOffset: body.utcOffset } : { timeZone: location.timezone },
  );
  await checkEntryReferences(db, organizationId, location.id, { employeeId: body.employeeId, roleId: body.roleId, breaks });
  const guard = { organizationId, employeeId: body.employeeId, entryId: "", start: planned.start, end: planned.end };
  const now = new Date();
  return guarded(
    insertRecord(
      c,
      scheduleEntries,
      organizationId,
      {
        locationId: entryGuards.notOnTimeOff.sql(location.id, guard) as unknown as string,
        employeeId: entryGuards.noOverlap.sql(guard) as unknown as string,
        roleId: entryGuards.available.sql(body.roleId, guard, body.ignoreAvailability) as unknown as string,
        startAt: planned.start,
        endAt: planned.end,
        utcOffset: planned.utcOffset,
        timezone: location.timezone,
        breaks,
        note: body.note ?? null,
        ignoreAvailability: body.ignoreAvailability,
        isDraft,
        publishedAt: isDraft ? null : now,
      },
      "schedule_entry.created",
    ),
    scheduleGuardProblems,
  );
}

/** PATCH /schedules/{id} and /schedules/drafts/{id}: times are read with the body's utcOffset, else the entry's. */
export async function patchEntry(c: WriteContext, scope: ScheduleScope, id: string, body: EntryPatchInput, isDraft: boolean) {
  const { db } = c.var;
  const { organizationId } = scope;
  const was = await findEntry(db, scope, id, isDraft);
  const utcOffset = body.utcOffset ?? was.utcOffset;
  const planned = span(
    {
      start: body.startTime ?? new Date(was.startAt.getTime() + was.utcOffset * 60_000).toISOString(),
      end: body.endTime ?? new Date(was.endAt.getTime() + was.utcOffset * 60_000).toISOString(),
    },
    { utcOffset },
  );
  const employeeId = body.employeeId ?? was.employeeId;
  const roleId = body.roleId ?? was.roleId;
  const breaks = body.breaks ?? was.breaks;
  await checkEntryReferences(db, organizationId, was.locationId, { employeeId, roleId, breaks });
  const guard = { organizationId, employeeId, entryId: id, start: planned.start, end: planned.end };
  return guarded(
    updateLive(
      c,
      scheduleEntries,
      organizationId,
      entryOfKind(scope, id, isDraft),
      {
        locationId: entryGuards.notOnTimeOff.sql(was.locationId, guard),
        employeeId: entryGuards.noOverlap.sql(guard),
        roleId: entryGuards.available.sql(roleId, guard, body.ignoreAvailability),
        startAt: planned.start,
        endAt: planned.end,
        utcOffset: planned.utcOffset,
        breaks,
        note: body.note === undefined ? was.note : body.note,
        ignoreAvailability: body.ignoreAvailability,
      },
      "Schedule entry",
      "schedule_entry.updated",
      isDraft
        ? undefined
        : endingRequests(
            db,
            organizationId,
            id,
            "ENTRY_CHANGED",
            or(
              ne(scheduleEntries.startAt, planned.start),
              ne(scheduleEntries.endAt, planned.end),
              ne(scheduleEntries.employeeId, employeeId),
            ),
          ),
    ),
    scheduleGuardProblems,
  );
}

export const removeEntry = (c: WriteContext, scope: ScheduleScope, id: string, isDraft: boolean) =>
  softDeleteLive(
    c,
    scheduleEntries,
    scope.organizationId,
    entryOfKind(scope, id, isDraft),
    "Schedule entry",
    "schedule_entry.deleted",
    isDraft ? undefined : endingRequests(c.var.db, scope.organizationId, id, "ENTRY_DELETED"),
  );
