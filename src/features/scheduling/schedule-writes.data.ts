import { consents, scheduleEntries } from "@db/schema";
import { and, eq, isNull, ne, or, type SQL, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import type { ChangeContext } from "@/data/fair-workweek/schedule-changes.data";
import { addedChangeRows, changeRowsOf, changeRulesAt, entryState, recordingChanges } from "@/data/fair-workweek/schedule-changes.data";
import { type Ending, endRequestsOf } from "@/data/shift-requests/shift-request-endings.data";
import { softDeleted } from "@/data/tenancy";
import { judgePlannedSpan, judgeViolations } from "@/data/working-time/schedule-check.data";
import { guarded } from "@/data/write/constraint-problems";
import { preconditionGuard, rowExists } from "@/data/write/precondition-guard";
import { businessDate } from "@/domain/local-time";
import { planEntrySpan } from "@/domain/schedule-entry";
import {
  type AlsoWritten,
  findLive,
  getLive,
  insertRecord,
  type ReadContext,
  updateLive,
  type WriteContext,
} from "@/platform/crud/tenant-queries";
import { invalidField, validationFailed } from "@/problems/problem";
import type { ScheduleChangeRow } from "@/wire/schedule-change.schemas";
import type { LocationRow, ScheduleScope } from "./schedule-access.guards";
import { checkEntryReferences } from "./schedule-references.data";
import { type EntryDates, entryDates, entryGuards, entryUnfrozen, ownEntryDates, scheduleGuardProblems } from "./schedules.guards";
import type { EntryCreateInput, EntryPatchInput, EntryRemoveInput, ScheduleEntryRow } from "./schedules.schemas";

/**
 * The freeze guard of an entry's row (start_at: entryUnfrozen) over `runs` — the new dates, and in an UPDATE the
 * row's own (old) ones — and its refusal naming the period; `named`: the dates to name it by (old ones as read).
 */
export function frozenGuard(db: Database, organizationId: string, start: Date | SQL, runs: readonly EntryDates[], named: EntryDates[]) {
  const value = start instanceof Date ? start.getTime() : start;
  return {
    startAt: entryUnfrozen.sql(value, organizationId, runs) as unknown as Date,
    problem: entryUnfrozen.about({
      db,
      organizationId,
      runs: named.flatMap((run) =>
        typeof run.first === "string" && typeof run.last === "string" ? [{ first: run.first, last: run.last }] : [],
      ),
    }),
  };
}

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
  (db: Database, organizationId: string, id: string, reason: Ending["reason"], now: Date, changes?: SQL): AlsoWritten =>
  (where) => {
    const ending = endRequestsOf(db, {
      organizationId,
      entryIds: [id],
      reason,
      now,
      when: rowExists(scheduleEntries, and(where, changes)),
    });
    return { before: [ending.statement], events: [ending.event] };
  };

/** Both of an update's other writes, in order (each given the update's own condition). */
const both =
  (...parts: (AlsoWritten | undefined)[]): AlsoWritten =>
  (where) => {
    const written = parts.map((part) => part?.(where) ?? { before: [], events: [] });
    return { before: written.flatMap((w) => w.before), events: written.flatMap((w) => w.events) };
  };

/** The entry's row exactly as a write read it: its worker and times, live and published. */
const asRead = (was: ScheduleEntryRow): SQL =>
  and(
    eq(scheduleEntries.id, was.id),
    eq(scheduleEntries.employeeId, was.employeeId),
    eq(scheduleEntries.startAt, was.startAt),
    eq(scheduleEntries.endAt, was.endAt),
    eq(scheduleEntries.isDraft, false),
    isNull(scheduleEntries.deletedAt),
  )!;

/**
 * The Fair Workweek change log of an update of a published entry (`rows`, classified from the entry as read): the
 * batch holds only while the entry is still as read (a precondition guard: a concurrent change answers 412, so a
 * change is never recorded against times it did not change), and the rows land exactly when the update applies.
 */
const recordingChangesOf = (
  db: Database,
  organizationId: string,
  was: ScheduleEntryRow,
  rows: readonly ScheduleChangeRow[],
): AlsoWritten | undefined =>
  rows.length === 0
    ? undefined
    : (where) => {
        const recording = recordingChanges(db, organizationId, rows, () => rowExists(scheduleEntries, where));
        return {
          before: [preconditionGuard(db, rowExists(scheduleEntries, asRead(was))), ...recording.statements],
          events: recording.events,
        };
      };

/** The location's change rules on the earlier of an entry's dates: null for drafts, or without a pack. */
export const rulesFor = (db: Database, organizationId: string, locationId: string, starts: Date[], utcOffset: number) =>
  changeRulesAt(db, organizationId, locationId, businessDate(new Date(Math.min(...starts.map((d) => d.getTime()))), utcOffset));

/** A consentId a write names is one of the worker's consents (else 400 naming it); the batch's guard re-checks it. */
async function checkConsent(db: Database, organizationId: string, employeeId: string, consentId: string | undefined) {
  if (consentId === undefined) return;
  const [row] = await db
    .select({ id: consents.id })
    .from(consents)
    .where(
      and(
        eq(consents.organizationId, organizationId),
        eq(consents.id, consentId),
        eq(consents.employeeId, employeeId),
        isNull(consents.deletedAt),
      ),
    );
  if (!row) throw invalidField("consentId", "not a consent of this staff member");
}

/** The id a new entry is judged under before it has one. */
const NEW_ENTRY_ID = "";

/** POST /schedules (published at once) and POST /schedules/drafts. */
export async function createEntry(
  c: WriteContext,
  scope: ScheduleScope,
  location: LocationRow,
  body: EntryCreateInput,
  isDraft: boolean,
  now: Date,
): Promise<ScheduleEntryRow> {
  const { db } = c.var;
  const { organizationId } = scope;
  const breaks = body.breaks ?? [];
  const planned = span(
    { start: body.startTime, end: body.endTime },
    body.utcOffset !== undefined ? { utcOffset: body.utcOffset } : { timeZone: location.timezone },
  );
  await checkEntryReferences(db, organizationId, location.id, { employeeId: body.employeeId, roleId: body.roleId, breaks });
  await checkConsent(db, organizationId, body.employeeId, body.consentId);
  const workingTime = isDraft
    ? null
    : await judgePlannedSpan(db, organizationId, location.id, {
        id: NEW_ENTRY_ID,
        employeeId: body.employeeId,
        start: planned.start,
        end: planned.end,
        utcOffset: planned.utcOffset,
      });
  const workingTimeOverride = workingTime ? judgeViolations(workingTime.violations, body.workingTimeOverride, c.var.principal) : null;
  const guard = { organizationId, employeeId: body.employeeId, entryId: "", start: planned.start, end: planned.end };
  const rules = isDraft ? null : await rulesFor(db, organizationId, location.id, [planned.start], planned.utcOffset);
  const newDates = entryDates(planned);
  const frozen = frozenGuard(db, organizationId, planned.start, [newDates], [newDates]);
  const added = (scheduleEntryId: string) =>
    addedChangeRows(
      rules,
      {
        organizationId,
        locationId: location.id,
        scheduleEntryId,
        employeeId: body.employeeId,
        start: planned.start,
        end: planned.end,
        utcOffset: planned.utcOffset,
      },
      now,
    );
  return guarded(
    insertRecord(
      c,
      scheduleEntries,
      organizationId,
      {
        locationId: entryGuards.notOnTimeOff.sql(location.id, guard) as unknown as string,
        employeeId: entryGuards.noOverlap.sql(guard) as unknown as string,
        roleId: entryGuards.available.sql(body.roleId, guard, body.ignoreAvailability) as unknown as string,
        startAt: frozen.startAt,
        endAt: planned.end,
        utcOffset: planned.utcOffset,
        timezone: entryGuards.restConsent.sql(location.timezone, {
          ...guard,
          rest: rules?.restConsent ?? null,
          startDate: businessDate(planned.start, planned.utcOffset),
          consentId: body.consentId ?? null,
        }) as unknown as string,
        breaks,
        note: body.note ?? null,
        ignoreAvailability: body.ignoreAvailability,
        isDraft,
        publishedAt: isDraft ? null : now,
        workingTimeOverride,
      },
      "schedule_entry.created",
      (entryId) => {
        const recording = recordingChanges(db, organizationId, added(entryId));
        // After the events (it changes nothing): the worker's other time is still as judged, the new entry aside.
        return { after: recording.statements, events: recording.events, trailing: workingTime?.guards([entryId]) };
      },
    ),
    [frozen.problem, ...scheduleGuardProblems, ...(workingTime ? [workingTime.problem] : [])],
  );
}

/** PATCH /schedules/{id} and /schedules/drafts/{id}: times are read with the body's utcOffset, else the entry's. */
export async function patchEntry(c: WriteContext, scope: ScheduleScope, id: string, body: EntryPatchInput, isDraft: boolean, at: Date) {
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
  await checkConsent(db, organizationId, employeeId, body.consentId);
  const workingTime = isDraft
    ? null
    : await judgePlannedSpan(
        db,
        organizationId,
        was.locationId,
        { id, employeeId, start: planned.start, end: planned.end, utcOffset: planned.utcOffset },
        id,
      );
  const workingTimeOverride = workingTime
    ? judgeViolations(workingTime.violations, body.workingTimeOverride, c.var.principal)
    : was.workingTimeOverride;
  const guard = { organizationId, employeeId, entryId: id, start: planned.start, end: planned.end };
  const rules = isDraft ? null : await rulesFor(db, organizationId, was.locationId, [was.startAt, planned.start], was.utcOffset);
  // Its old minutes and its new ones: moving an entry out of frozen dates changes their premiums as moving one in does.
  const newDates = entryDates(planned);
  const oldDates = entryDates({ start: was.startAt, end: was.endAt, utcOffset: was.utcOffset });
  const frozen = frozenGuard(db, organizationId, planned.start, [ownEntryDates, newDates], [oldDates, newDates]);
  const changes = changeRowsOf(
    rules,
    {
      organizationId,
      locationId: was.locationId,
      scheduleEntryId: id,
      utcOffset: was.utcOffset,
      before: entryState(was),
      after: { employeeId, start: planned.start, end: planned.end, published: true, deleted: false },
    },
    changeContext(body),
    at,
  );
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
        startAt: frozen.startAt,
        endAt: planned.end,
        utcOffset: planned.utcOffset,
        timezone: entryGuards.restConsent.sql(was.timezone, {
          ...guard,
          rest: rules?.restConsent ?? null,
          startDate: businessDate(planned.start, planned.utcOffset),
          consentId: body.consentId ?? null,
        }),
        breaks,
        note: body.note === undefined ? was.note : body.note,
        ignoreAvailability: body.ignoreAvailability,
        workingTimeOverride,
      },
      "Schedule entry",
      "schedule_entry.updated",
      isDraft
        ? undefined
        : both(
            workingTime ? () => ({ before: workingTime.guards(), events: [] }) : undefined,
            endingRequests(
              db,
              organizationId,
              id,
              "ENTRY_CHANGED",
              at,
              or(
                ne(scheduleEntries.startAt, planned.start),
                ne(scheduleEntries.endAt, planned.end),
                ne(scheduleEntries.employeeId, employeeId),
              ),
            ),
            recordingChangesOf(db, organizationId, was, changes),
          ),
    ),
    [frozen.problem, ...scheduleGuardProblems, ...(workingTime ? [workingTime.problem] : [])],
  );
}

/** What a manager's write says about its change: employer initiated, with the body's reason and exemption. */
const changeContext = (body: { changeReason?: string | undefined; exemption?: ChangeContext["exemption"] }): ChangeContext => ({
  initiatedBy: "EMPLOYER",
  exemption: body.exemption ?? null,
  reason: body.changeReason ?? null,
});

/**
 * DELETE /schedules/{id} and /schedules/drafts/{id}; a published entry's cancellation goes to the change log. Refused
 * on frozen dates (its row's own): a cancellation there would add a premium dated in a closed period.
 */
export async function removeEntry(
  c: WriteContext,
  scope: ScheduleScope,
  id: string,
  isDraft: boolean,
  now: Date,
  query: EntryRemoveInput = {},
) {
  const { db } = c.var;
  const { organizationId } = scope;
  let recording: AlsoWritten | undefined;
  const was = await findEntry(db, scope, id, isDraft);
  if (!isDraft) {
    const rules = await rulesFor(db, organizationId, was.locationId, [was.startAt], was.utcOffset);
    const write = { organizationId, locationId: was.locationId, scheduleEntryId: id, utcOffset: was.utcOffset };
    const rows = changeRowsOf(rules, { ...write, before: entryState(was), after: null }, changeContext(query), now);
    recording = recordingChangesOf(db, organizationId, was, rows);
  }
  const oldDates = entryDates({ start: was.startAt, end: was.endAt, utcOffset: was.utcOffset });
  const frozen = frozenGuard(db, organizationId, sql`"schedule_entries"."start_at"`, [ownEntryDates], [oldDates]);
  return guarded(
    updateLive(
      c,
      scheduleEntries,
      organizationId,
      entryOfKind(scope, id, isDraft),
      { ...softDeleted(), startAt: frozen.startAt },
      "Schedule entry",
      "schedule_entry.deleted",
      isDraft ? undefined : both(endingRequests(db, organizationId, id, "ENTRY_DELETED", now), recording),
    ),
    [frozen.problem],
  );
}
