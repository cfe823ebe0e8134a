import { openShiftPreferences, openShifts, scheduleEntries } from "@db/schema";
import { and, eq, exists, gte, inArray, isNull, lt, not, or, type SQL, sql } from "drizzle-orm";
import { entryUnavailable } from "@/data/availability/availability.guards";
import type { Statement } from "@/data/client";
import { changeRulesRuns, changeRulesStatement, rulesOnDate } from "@/data/fair-workweek/change-rules.data";
import { recordingPublishedAdditions } from "@/data/fair-workweek/published-additions.data";
import { addedChangeRows } from "@/data/fair-workweek/schedule-changes.data";
import { newId } from "@/data/ids";
import { inJsonList } from "@/data/json-list";
import type { EventSpec } from "@/data/outbox/outbox";
import { rawAll } from "@/data/raw-statement";
import { inOrganization } from "@/data/tenancy";
import { workingTimeSettingStatement } from "@/data/working-time/location-working-time.data";
import {
  distinctViolations,
  judgePlanned,
  judgeViolations,
  type ListedViolation,
  namingExisting,
  overrideFor,
  type PlannedSpan,
  type WorkingTimeOverrideRecord,
} from "@/data/working-time/schedule-check.data";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import { addDays, businessDate, localWallClock, offsetMinutesAt } from "@/domain/local-time";
import { publishSelection } from "@/domain/schedule-publish";
import { type ScheduleChangeRow, serializeScheduleChange } from "@/wire/schedule-change.schemas";
import { approvedEntry, approvedEntryFrozen } from "./open-shift-statements.data";
import { projectPremiums } from "./publish-projection.data";
import type { LocationRow, ScheduleScope } from "./schedule-access.guards";
import { instantRange } from "./schedule-range.schemas";
import { entryGuards, entryUnfrozen, needsRestConsent, openShiftGuards, ownEntryDates, scheduleGuardProblems } from "./schedules.guards";
import { entryOnTimeOff } from "./time-off-conflicts.guards";

type SkipReason = "TIME_OFF_CONFLICT" | "WORKER_UNAVAILABLE";

/**
 * POST /schedules/publish: every draft entry and draft open shift of the location starting in the range, and the
 * draft assignments of those open shifts (each becomes its published schedule entry), in ONE D1 batch: a refusal
 * anywhere in it (an assignment now overlapping its worker's schedule) publishes nothing. Every statement is
 * conditional on the draft still being a draft, so a second publish publishes nothing twice.
 *
 * A draft entry on its staff member's approved time off, or on an UNAVAILABLE occurrence of their availability
 * unless the draft was written with ignoreAvailability (either added after the draft was made), is not published: it
 * stays a draft and is reported in `skipped` (TIME_OFF_CONFLICT, WORKER_UNAVAILABLE), the rest publishes — as bulk
 * copy skips and reports. Both are conditions of the publish statement itself, and the report is read inside the
 * same batch, after the update, so it names exactly what stayed behind.
 */
export async function publishRange(
  writer: Writer,
  scope: ScheduleScope,
  location: LocationRow,
  body: { startDate: string; endDate: string; dryRun?: boolean; workingTimeOverride?: { reason: string } | undefined },
  now: Date,
) {
  const { db } = writer;
  const { organizationId } = scope;
  const range = instantRange(body.startDate, body.endDate, location.timezone);
  const draftsOf = (table: typeof scheduleEntries | typeof openShifts) =>
    and(
      inOrganization(table, organizationId),
      eq(table.locationId, location.id),
      eq(table.isDraft, true),
      gte(table.startAt, range.start),
      lt(table.startAt, range.end),
    );
  const heldBack = or(entryOnTimeOff, and(eq(scheduleEntries.ignoreAvailability, false), entryUnavailable))!;
  // The versions of the location's Fair Workweek setting are read in the same batch: each entry is judged by the
  // pack in effect on its own date (two days either side of the range: an entry's own offset, −12:00 to +14:00, may date it there).
  const onDate = businessDate(range.start, offsetMinutesAt(location.timezone, range.start));
  // No join inside the batch: D1 answers rows keyed by column name, so two tables' `id`s would collide.
  const [shifts, preferences, drafts, versions, [workingTimeSetting]] = await db.batch([
    db.select().from(openShifts).where(draftsOf(openShifts)),
    db
      .select()
      .from(openShiftPreferences)
      .where(
        and(
          inArray(openShiftPreferences.openShiftId, db.select({ id: openShifts.id }).from(openShifts).where(draftsOf(openShifts))),
          eq(openShiftPreferences.isDraft, true),
          eq(openShiftPreferences.status, "APPROVED"),
          isNull(openShiftPreferences.deletedAt),
        ),
      ),
    // What a dry run answers it would record as ADDED: the drafts it would publish (changeRowsOf keeps those inside
    // the notice window of their date's pack). A publish reads none: its write records them in SQL.
    db
      .select({
        id: scheduleEntries.id,
        employeeId: scheduleEntries.employeeId,
        startAt: scheduleEntries.startAt,
        endAt: scheduleEntries.endAt,
        utcOffset: scheduleEntries.utcOffset,
      })
      .from(scheduleEntries)
      .where(and(draftsOf(scheduleEntries), isNull(scheduleEntries.deletedAt), not(heldBack), body.dryRun ? undefined : sql`0`)),
    changeRulesStatement(db, organizationId, location.id),
    workingTimeSettingStatement(db, organizationId, location.id),
  ]);
  const runs = changeRulesRuns(versions, location.id, addDays(body.startDate, -2), addDays(body.endDate, 2));
  // Rest between shifts is judged by the pack in effect on the range's first date.
  const rules = rulesOnDate(runs, onDate);
  const shiftById = new Map(shifts.map((s) => [s.id, s]));
  const assignments = preferences
    .map((preference) => ({ preference, shift: shiftById.get(preference.openShiftId)! }))
    .filter((a) => a.shift);
  // Which assignments would meet their worker's approved time off or another entry: their open shift is withheld and
  // reported, as draft entries on time off are. (The batch's guards still refuse a conflict that appears meanwhile.)
  const conflicts = await conflictingAssignments(
    db,
    assignments.map((a) => a.preference.id),
  );
  // Draft entries are published by the range itself, in the write (see below): nothing to read for them.
  const selection = publishSelection(
    {
      openShifts: shifts.map((s) => ({ id: s.id, start: s.startAt })),
      assignments: assignments.map((a) => ({ id: a.preference.id, openShiftId: a.shift.id })),
      conflicting: new Set(conflicts.keys()),
    },
    range,
  );
  const published = { isDraft: false, publishedAt: now, updatedAt: now };
  const applied = assignments.filter((a) => selection.assignmentIds.includes(a.preference.id));
  const entryIdOf = new Map(applied.map(({ preference }) => [preference.id, newId(now.getTime())]));
  const added = (scheduleEntryId: string, span: { employeeId: string; startAt: Date; endAt: Date; utcOffset: number }) =>
    addedChangeRows(
      rulesOnDate(runs, businessDate(span.startAt, span.utcOffset)),
      {
        organizationId,
        locationId: location.id,
        scheduleEntryId,
        employeeId: span.employeeId,
        start: span.startAt,
        end: span.endAt,
        utcOffset: span.utcOffset,
      },
      now,
    );
  // The dry run's changes, computed here (it writes nothing); a publish records the same in SQL (test/schedule-changes-publish).
  const changeRows: ScheduleChangeRow[] = [
    ...drafts.flatMap((d) => added(d.id, d)),
    ...(body.dryRun ? applied : []).flatMap(({ preference, shift }) =>
      added(entryIdOf.get(preference.id)!, {
        employeeId: preference.workerId,
        startAt: shift.startAt,
        endAt: shift.endAt,
        utcOffset: shift.utcOffset,
      }),
    ),
  ];
  // Only a location with a working-time pack reads its drafts and their workers' time (two more round trips). The
  // entries the applied assignments become are judged with the drafts, each worker's together.
  const assigned = applied.map(({ preference, shift }) => ({
    id: entryIdOf.get(preference.id)!,
    employeeId: preference.workerId,
    start: shift.startAt,
    end: shift.endAt,
    utcOffset: shift.utcOffset,
    preferenceId: preference.id,
    openShiftId: shift.id,
  }));
  const workingTime = workingTimeSetting?.rulePack
    ? await draftViolations(writer, organizationId, location.id, and(draftsOf(scheduleEntries), not(heldBack))!, assigned)
    : { byEntry: [], all: [], judgedIds: [], guards: () => [], problems: [] };
  if (body.dryRun) {
    const refused = rules?.restConsent
      ? await db
          .select({ id: scheduleEntries.id })
          .from(scheduleEntries)
          .where(
            and(
              draftsOf(scheduleEntries),
              isNull(scheduleEntries.deletedAt),
              not(heldBack),
              needsRestConsent(organizationId, rules.restConsent),
            ),
          )
          .orderBy(scheduleEntries.id)
      : [];
    const projected = await projectPremiums(db, organizationId, changeRows, now);
    return {
      ...dryRunResult(changeRows, projected, now),
      restConsentRequired: refused.map((row) => row.id),
      workingTimeViolations: workingTime.byEntry,
    };
  }
  const record = judgeViolations(workingTime.all, body.workingTimeOverride, writer.principal);
  const overrides = overridesByEntry(workingTime.byEntry, record);
  const overrideOf = (entryId: string) => {
    const own = workingTime.byEntry.find((e) => e.scheduleEntryId === entryId)?.violations ?? [];
    return record && own.length ? overrideFor(record, own) : null;
  };
  const assignmentStatements = applied.flatMap(({ preference, shift }): Statement[] => {
    const entryId = entryIdOf.get(preference.id)!;
    return [
      db
        .update(openShiftPreferences)
        .set({ isDraft: false, scheduleShiftId: entryId, updatedAt: now })
        .where(
          and(
            eq(openShiftPreferences.id, preference.id),
            eq(openShiftPreferences.isDraft, true),
            eq(openShiftPreferences.status, "APPROVED"),
          ),
        ),
      // Checked against availability when the draft assignment was made: a publish does not refuse it again.
      approvedEntry(db, scope, shift, preference.id, preference.workerId, entryId, now, true, overrideOf(entryId)),
    ];
  });
  // The ADDED changes of the entries this batch makes public (a draft held back records nothing), after its writes.
  const additions = runs.length ? recordingPublishedAdditions(db, organizationId, location.id, runs, now, range) : null;
  const [entryUpdate, shiftUpdate, skipped] = await guardedBatch(
    writer,
    [
      // The same rule as publishSelection (a draft starting in [start, end)), through the location's index.
      db
        .update(scheduleEntries)
        .set({
          ...published,
          // Refused on frozen dates: the entries made public would add premiums (ADDED) dated in a closed period.
          startAt: entryUnfrozen.sql(sql`"schedule_entries"."start_at"`, organizationId, [ownEntryDates]) as unknown as Date,
          ...(rules?.restConsent
            ? { timezone: entryGuards.publishedRestConsent.sql(organizationId, rules.restConsent) as unknown as string }
            : {}),
          ...(overrides
            ? {
                workingTimeOverride: sql`COALESCE((SELECT value FROM json_each(${overrides}) WHERE key = "schedule_entries"."id"), "schedule_entries"."working_time_override")`,
              }
            : {}),
        })
        .where(and(draftsOf(scheduleEntries), not(heldBack))),
      db
        .update(openShifts)
        .set({ ...published, roleId: openShiftGuards.noUnreadAssignments.sql(selection.assignmentIds) })
        .where(and(inJsonList(openShifts.id, selection.openShiftIds), eq(openShifts.isDraft, true), isNull(openShifts.deletedAt))),
      db
        .select({
          id: scheduleEntries.id,
          employeeId: scheduleEntries.employeeId,
          startAt: scheduleEntries.startAt,
          endAt: scheduleEntries.endAt,
          utcOffset: scheduleEntries.utcOffset,
          reason: sql<SkipReason>`CASE WHEN ${entryOnTimeOff} THEN 'TIME_OFF_CONFLICT' ELSE 'WORKER_UNAVAILABLE' END`.as("reason"),
        })
        .from(scheduleEntries)
        .where(and(draftsOf(scheduleEntries), isNull(scheduleEntries.deletedAt), heldBack))
        .orderBy(scheduleEntries.id),
      ...assignmentStatements,
      ...(additions?.statements ?? []),
    ],
    [
      // The drafts start in the range; their minutes may run into the day after it.
      entryUnfrozen.about({ db, organizationId, runs: [{ first: body.startDate, last: addDays(body.endDate, 1) }] }),
      approvedEntryFrozen(
        db,
        scope,
        applied.map((a) => a.shift),
      ),
      ...scheduleGuardProblems,
      ...workingTime.problems,
    ],
    {
      events: [publishedEvent(writer, scope, location, body, now, additions?.summary ?? null)],
      // The workers' other published time is still as judged, the entries this batch publishes aside: a concurrent
      // write (or a draft added since) refuses the publish whole (409 WORKING_TIME_CONFLICT).
      trailing: workingTime.guards([...workingTime.judgedIds, ...entryIdOf.values()]),
    },
  );
  const changes = (result: unknown) => (result as { meta: { changes: number } }).meta.changes;
  return {
    publishedEntries: changes(entryUpdate),
    publishedOpenShifts: changes(shiftUpdate),
    appliedAssignments: applied.length,
    publishedAt: now.toISOString(),
    skipped: skipped.map((e) => ({
      id: e.id,
      employeeId: e.employeeId,
      startTime: localWallClock(e.startAt, e.utcOffset),
      endTime: localWallClock(e.endAt, e.utcOffset),
      reason: e.reason,
    })),
    withheldOpenShifts: selection.withheld.map(({ id, openShiftId }) => {
      const { preference, shift } = assignments.find((a) => a.preference.id === id)!;
      return {
        openShiftId,
        preferenceId: id,
        employeeId: preference.workerId,
        startTime: localWallClock(shift.startAt, shift.utcOffset),
        endTime: localWallClock(shift.endAt, shift.utcOffset),
        reason: conflicts.get(id)!,
      };
    }),
  };
}

/**
 * The working-time violations the drafts a publish would make public (`where`) make, per entry, and all of them once
 * (a rest between two drafts is listed under both, once in `all`).
 */
async function draftViolations(
  writer: Writer,
  organizationId: string,
  locationId: string,
  where: SQL,
  assigned: readonly (PlannedSpan & { preferenceId: string; openShiftId: string })[],
) {
  const { db } = writer;
  const drafts = await db
    .select({
      id: scheduleEntries.id,
      employeeId: scheduleEntries.employeeId,
      start: scheduleEntries.startAt,
      end: scheduleEntries.endAt,
      utcOffset: scheduleEntries.utcOffset,
    })
    .from(scheduleEntries)
    .where(and(where, isNull(scheduleEntries.deletedAt)));
  const judged = await judgePlanned(db, organizationId, locationId, [...drafts, ...assigned]);
  // The assignments' entries do not exist yet: a violation names the drafts and existing entries (and shifts) only.
  const newIds = new Set(assigned.map((a) => a.id));
  for (const [entryId, violations] of judged.byEntry) judged.byEntry.set(entryId, namingExisting(violations, newIds));
  const assignmentOf = new Map(assigned.map((a) => [a.id, { preferenceId: a.preferenceId, openShiftId: a.openShiftId }]));
  const byEntry = [...judged.byEntry]
    .filter(([, violations]) => violations.length > 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([scheduleEntryId, violations]) => ({ scheduleEntryId, ...assignmentOf.get(scheduleEntryId), violations }));
  return {
    byEntry,
    all: distinctViolations(judged.byEntry),
    judgedIds: drafts.map((d) => d.id),
    guards: judged.guards,
    problems: [judged.problem],
  };
}

/** Each overridden entry's record (its own violations, the override's reason, who and when), as one JSON object by id. */
function overridesByEntry(
  byEntry: readonly { scheduleEntryId: string; violations: ListedViolation[] }[],
  record: WorkingTimeOverrideRecord | null,
): string | null {
  if (!record) return null;
  const entries = byEntry.map(({ scheduleEntryId, violations }) => [
    scheduleEntryId,
    { ...record, violations: violations.map(({ rule, limit, actual, unit, source }) => ({ rule, limit, actual, unit, source })) },
  ]);
  return JSON.stringify(Object.fromEntries(entries));
}

/**
 * What a publish would record, writing nothing: the changes (each ADDED inside the pack's window) and their
 * premiums per employee and in total: their hours, and what they would cost (`projected`, cents per employee: the
 * hours at the regular rate schedule cost projects for their workweek, and the flat amounts), marked amountProjected
 * when it prices hours (pay prices them at the week's actual rate once worked).
 */
function dryRunResult(rows: readonly ScheduleChangeRow[], projected: ReadonlyMap<string, number>, now: Date) {
  const sum = (of: readonly ScheduleChangeRow[]) => {
    const employees = new Set(of.map((r) => r.employeeId));
    const cents = [...employees].reduce((t, id) => t + (projected.get(id) ?? 0), 0);
    const premiumHours = Math.round(of.reduce((t, r) => t + (r.premiumHours ?? 0), 0) * 10_000) / 10_000;
    return { changes: of.length, premiumHours, premiumAmount: cents / 100, amountProjected: premiumHours > 0 };
  };
  const employeeIds = [...new Set(rows.map((r) => r.employeeId))].sort();
  return {
    dryRun: true as const,
    evaluatedAt: now.toISOString(),
    changes: rows.map(serializeScheduleChange),
    employees: employeeIds.map((employeeId) => ({ employeeId, ...sum(rows.filter((r) => r.employeeId === employeeId)) })),
    totals: sum(rows),
  };
}

/** The assignments among `preferenceIds` whose worker has approved time off or another entry during the open shift. */
async function conflictingAssignments(
  db: Writer["db"],
  preferenceIds: string[],
): Promise<Map<string, "TIME_OFF_CONFLICT" | "SCHEDULE_OVERLAP">> {
  if (preferenceIds.length === 0) return new Map();
  const rows = await rawAll<{ id: string; onTimeOff: number }>(
    db,
    sql`SELECT p.id, EXISTS (SELECT 1 FROM time_off_requests r WHERE r.worker_id = p.worker_id AND r.status = 'approved'
        AND r.deleted_at IS NULL AND r.start_at < s.end_at AND r.end_at > s.start_at) AS onTimeOff
      FROM open_shift_preferences p JOIN open_shifts s ON s.id = p.open_shift_id
      WHERE p.id IN (SELECT value FROM json_each(${JSON.stringify(preferenceIds)}))
        AND (EXISTS (SELECT 1 FROM time_off_requests r WHERE r.worker_id = p.worker_id AND r.status = 'approved'
            AND r.deleted_at IS NULL AND r.start_at < s.end_at AND r.end_at > s.start_at)
          OR EXISTS (SELECT 1 FROM schedule_entries e WHERE e.employee_id = p.worker_id AND e.deleted_at IS NULL
            AND e.start_at < s.end_at AND e.end_at > s.start_at))`,
  );
  return new Map(rows.map((r) => [r.id, r.onTimeOff ? "TIME_OFF_CONFLICT" : "SCHEDULE_OVERLAP"]));
}

/**
 * schedule.published: the published range and instant, and the Fair Workweek changes the publish recorded (their
 * number, premium hours and flat premium amounts in total: `summary`, read after its writes; zeros without a pack),
 * recorded only when this publish published an entry or an open shift (they carry its `publishedAt`): a publish that
 * finds nothing to publish records nothing. Integrators read what was published through GET /schedules for the range
 * and the changes through GET …/schedule-changes.
 */
function publishedEvent(
  { db }: Writer,
  scope: ScheduleScope,
  location: LocationRow,
  body: { startDate: string; endDate: string },
  now: Date,
  summary: SQL | null,
): EventSpec {
  const publishedNow = (table: typeof scheduleEntries | typeof openShifts) =>
    exists(
      db
        .select({ id: table.id })
        .from(table)
        .where(
          and(
            inOrganization(table, scope.organizationId),
            eq(table.locationId, location.id),
            eq(table.isDraft, false),
            eq(table.publishedAt, now),
          ),
        ),
    );
  const changes = summary ?? sql`(SELECT 0 AS changes, 0 AS premiumHours, 0 AS premiumAmount)`;
  const data = sql`(SELECT json_object('locationId', ${location.id}, 'startDate', ${body.startDate}, 'endDate', ${body.endDate},
      'publishedAt', ${now.toISOString()}, 'changes', s.changes, 'premiumHours', s.premiumHours, 'premiumAmount', s.premiumAmount) AS data
    FROM ${changes} s WHERE ${or(publishedNow(scheduleEntries), publishedNow(openShifts))})`;
  return {
    organizationId: scope.organizationId,
    type: "schedule.published",
    occurredAt: now,
    read: { form: "wire", select: data },
    always: true,
  };
}
