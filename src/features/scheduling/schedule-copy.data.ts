import { scheduleEntries, staffMembers } from "@db/schema";
import { and, eq, gt, gte, isNull, lt, sql } from "drizzle-orm";
import { unavailableSpans } from "@/data/availability/availability.guards";
import type { Statement } from "@/data/client";
import { organizationNow } from "@/data/clock";

import { addedChangeRows, recordingChanges } from "@/data/fair-workweek/schedule-changes.data";
import { newId } from "@/data/ids";
import { inJsonList } from "@/data/json-list";
import type { EventType } from "@/data/outbox/outbox";
import { inOrganization } from "@/data/tenancy";
import {
  judgePlanned,
  judgeViolations,
  namingExisting,
  overrideFor,
  type WorkingTimeJudgement,
} from "@/data/working-time/schedule-check.data";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import { addDays, businessDate, localDayBounds, localWallClock } from "@/domain/local-time";
import { daysBetween, planCopies } from "@/domain/schedule-copy";
import { invalidField } from "@/problems/problem";
import type { LocationRow, ScheduleScope } from "./schedule-access.guards";
import { rulesFor } from "./schedule-writes.data";
import { entryDates, entryGuards, entryUnfrozen, scheduleGuardProblems } from "./schedules.guards";

const spanOfRow = (row: { startAt: Date; endAt: Date; utcOffset: number }) => ({
  start: row.startAt,
  end: row.endAt,
  utcOffset: row.utcOffset,
});

import { BULK_COPY_IN_REQUEST_MAX, type ScheduleEntryRow } from "./schedules.schemas";
import { approvedTimeOff } from "./time-off-conflicts.guards";

type SkipReason = "SCHEDULE_OVERLAP" | "TIME_OFF_CONFLICT" | "WORKER_UNAVAILABLE" | "WORKING_TIME_CONFLICT";

/** A copied range spans at most this many days (a few weeks of planning). */
export const MAX_COPY_DAYS = 62;

/** BULK_COPY_IN_REQUEST_MAX, lowered by the deployment's variable of that name (tests); never raised. */
export function copyInRequestMax(env: object): number {
  const max = Number((env as { BULK_COPY_IN_REQUEST_MAX?: string }).BULK_COPY_IN_REQUEST_MAX);
  return Number.isInteger(max) && max >= 0 ? Math.min(max, BULK_COPY_IN_REQUEST_MAX) : BULK_COPY_IN_REQUEST_MAX;
}

const DAY_MS = 86_400_000;

export interface BulkCopyInput {
  fromStartDate: string;
  fromEndDate: string;
  toStartDate: string;
  employeeIds?: string[];
  asDrafts: boolean;
  ignoreAvailability?: boolean;
  workingTimeOverride?: { reason: string } | undefined;
}

/**
 * POST /schedules/bulk-copy: the live entries (drafts and published) of the location starting in the source dates,
 * moved by whole days at the same local times, skipping and reporting copies that would overlap or fall on
 * approved time off, or meet the staff member's unavailability (unless ignoreAvailability). planBulkCopy plans it;
 * writeCopies writes the copies in one batch (the request's, or one page of a BULK job: schedule-copy-job.data.ts),
 * each still guarded against a schedule written meanwhile.
 */
/**
 * A bulk copy planned, nothing written: every 400 answered, each copy's row with its id, the copies skipped (and
 * why), and the working-time judgement of the published copies (its guards go in the write's batch).
 */
export async function planBulkCopy(writer: Writer, scope: ScheduleScope, location: LocationRow, body: BulkCopyInput) {
  const { db } = writer;
  const { organizationId } = scope;
  const length = daysBetween(body.fromStartDate, body.fromEndDate);
  if (length < 0) throw invalidField("fromEndDate", "must not be before fromStartDate");
  if (length >= MAX_COPY_DAYS) throw invalidField("fromEndDate", `a copy covers at most ${MAX_COPY_DAYS} days`);
  const days = daysBetween(body.fromStartDate, body.toStartDate);
  if (days === 0) throw invalidField("toStartDate", "must differ from fromStartDate");
  const from = {
    start: localDayBounds(body.fromStartDate, location.timezone).start,
    end: localDayBounds(body.fromEndDate, location.timezone).end,
  };
  const [sources, named] = await db.batch([
    db
      .select()
      .from(scheduleEntries)
      .where(
        and(
          inOrganization(scheduleEntries, organizationId),
          eq(scheduleEntries.locationId, location.id),
          gte(scheduleEntries.startAt, from.start),
          lt(scheduleEntries.startAt, from.end),
          body.employeeIds ? inJsonList(scheduleEntries.employeeId, body.employeeIds) : undefined,
        ),
      )
      .orderBy(scheduleEntries.startAt, scheduleEntries.id),
    // The staff members the filter names must be the organization's: another's is a foreign reference, not a filter.
    db
      .select({ id: staffMembers.id })
      .from(staffMembers)
      .where(and(inOrganization(staffMembers, organizationId), inJsonList(staffMembers.id, body.employeeIds ?? []))),
  ]);
  const known = new Set(named.map((s) => s.id));
  const unknown = (body.employeeIds ?? []).findIndex((id) => !known.has(id));
  if (unknown >= 0) throw invalidField(`employeeIds.${unknown}`, "no staff member with that id in this organization");
  const employeeIds = [...new Set(sources.map((s) => s.employeeId))];
  // Wide enough for any copy: a day of margin covers DST shifts and entries running past midnight.
  const target = {
    start: localDayBounds(addDays(body.toStartDate, -1), location.timezone).start,
    end: new Date(localDayBounds(addDays(body.toStartDate, length + 1), location.timezone).end.getTime() + DAY_MS),
  };
  const [existing, timeOff, unavailable] = await Promise.all([
    db
      .select({ employeeId: scheduleEntries.employeeId, start: scheduleEntries.startAt, end: scheduleEntries.endAt })
      .from(scheduleEntries)
      .where(
        and(
          eq(scheduleEntries.organizationId, organizationId),
          inJsonList(scheduleEntries.employeeId, employeeIds),
          isNull(scheduleEntries.deletedAt),
          lt(scheduleEntries.startAt, target.end),
          gt(scheduleEntries.endAt, target.start),
        ),
      ),
    approvedTimeOff(db, organizationId, employeeIds, target),
    body.ignoreAvailability ? [] : unavailableSpans(db, organizationId, employeeIds, target),
  ]);
  const plan = planCopies(
    sources.map((s) => ({
      id: s.id,
      employeeId: s.employeeId,
      start: s.startAt,
      end: s.endAt,
      utcOffset: s.utcOffset,
      timezone: s.timezone,
    })),
    days,
    existing,
    timeOff,
    () => newId(),
    unavailable,
  );
  const bySource = new Map(sources.map((s) => [s.id, s]));
  const now = await organizationNow({ db, ...scope });
  // Published copies are judged by the location's working-time pack, together per worker, as a publish's drafts are.
  const workingTime = body.asDrafts
    ? null
    : await judgePlanned(
        db,
        organizationId,
        location.id,
        plan.copies.map((copy) => ({
          id: copy.id,
          employeeId: copy.employeeId,
          start: copy.start,
          end: copy.end,
          utcOffset: copy.utcOffset,
        })),
      );
  const violationsOf = (copyId: string) => workingTime?.byEntry.get(copyId) ?? [];
  const breaking = plan.copies.filter((copy) => violationsOf(copy.id).length > 0);
  const override = judgeViolations(
    breaking.flatMap((copy) => violationsOf(copy.id)),
    body.workingTimeOverride,
    writer.principal,
    { refuse: false },
  );
  // Without an override each breaking copy is skipped, listing its violations; the others cannot break a rule
  // without it (leaving out a span never shortens a rest nor lengthens a day or a week).
  const skippedForWorkingTime = override ? [] : breaking;
  const kept = plan.copies.filter((copy) => !skippedForWorkingTime.includes(copy));
  const rows: ScheduleEntryRow[] = kept.map((copy) => {
    const source = bySource.get(copy.sourceId)!;
    return {
      ...source,
      id: copy.id,
      startAt: copy.start,
      endAt: copy.end,
      utcOffset: copy.utcOffset,
      isDraft: body.asDrafts,
      publishedAt: body.asDrafts ? null : now,
      // Written with this copy's override (or without one), as its publish reads it.
      ignoreAvailability: body.ignoreAvailability ?? false,
      workingTimeOverride: override && violationsOf(copy.id).length ? overrideFor(override, violationsOf(copy.id)) : null,
      openShiftId: null,
      active: true,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    };
  });
  const copyIds = new Set(plan.copies.map((copy) => copy.id));
  return {
    rows,
    workingTime,
    now,
    skipped: [
      ...plan.skipped.map((s) => ({
        sourceId: s.sourceId,
        employeeId: s.employeeId,
        startTime: localWallClock(s.start, s.utcOffset),
        endTime: localWallClock(s.end, s.utcOffset),
        reason: s.reason as SkipReason,
      })),
      ...skippedForWorkingTime.map((copy) => ({
        sourceId: copy.sourceId,
        employeeId: copy.employeeId,
        startTime: localWallClock(copy.start, copy.utcOffset),
        endTime: localWallClock(copy.end, copy.utcOffset),
        reason: "WORKING_TIME_CONFLICT" as SkipReason,
        // A skipped copy has no id: a violation names the worker's existing entries (and shifts) only.
        violations: namingExisting(violationsOf(copy.id), copyIds),
      })),
    ],
  };
}

/**
 * The planned copies written in one atomic batch (the request's whole copy, or one page of a copy job): each guarded
 * against a schedule written meanwhile, with `schedule_entry.created` each and its Fair Workweek change rows.
 */
export async function writeCopies(
  writer: Writer,
  organizationId: string,
  locationId: string,
  rows: ScheduleEntryRow[],
  { workingTime, now }: { workingTime: WorkingTimeJudgement | null; now: Date },
) {
  const { db } = writer;
  // Published copies are schedule changes as a published create is: each inside the pack's notice window is ADDED,
  // and one inside a consent-requiring rest window refuses the copy (409 REST_CONSENT_REQUIRED) unless the worker has
  // a standing REST consent (a copy can name none: as the publish, it takes one given for no entry in particular).
  const rules =
    rows.length === 0 || rows[0]!.isDraft
      ? null
      : await rulesFor(
          db,
          organizationId,
          locationId,
          rows.map((row) => row.startAt),
          rows[0]!.utcOffset,
        );
  const statements: Statement[] = rows.map((row) => {
    const guard = { organizationId, employeeId: row.employeeId, entryId: row.id, start: row.startAt, end: row.endAt };
    return db.insert(scheduleEntries).values({
      ...row,
      locationId: entryGuards.notOnTimeOff.sql(row.locationId, guard),
      employeeId: entryGuards.noOverlap.sql(guard),
      roleId: entryGuards.available.sql(row.roleId, guard, row.ignoreAvailability),
      startAt: entryUnfrozen.sql(row.startAt.getTime(), organizationId, [entryDates(spanOfRow(row))]) as unknown as Date,
      timezone: entryGuards.restConsent.sql(row.timezone, {
        ...guard,
        rest: rules?.restConsent ?? null,
        startDate: businessDate(row.startAt, row.utcOffset),
        consentId: null,
        takesStandingConsent: true,
      }),
    });
  });
  const recording = recordingChanges(
    db,
    organizationId,
    rows.flatMap((row) =>
      addedChangeRows(
        rules,
        {
          organizationId,
          locationId,
          scheduleEntryId: row.id,
          employeeId: row.employeeId,
          start: row.startAt,
          end: row.endAt,
          utcOffset: row.utcOffset,
        },
        now,
      ),
    ),
  );
  // A copy onto frozen dates is refused whole (409 PAY_PERIOD_CLOSED), as a create there is.
  const copyFrozen = entryUnfrozen.about({ db, organizationId, runs: rows.map((row) => entryDates(spanOfRow(row))) });
  const [first, ...rest] = statements;
  const copied = {
    table: scheduleEntries,
    where: inJsonList(
      scheduleEntries.id,
      rows.map((row) => row.id),
    ),
    typeOf: sql`${"schedule_entry.created" satisfies EventType}`,
  };
  if (first)
    await guardedBatch(
      writer,
      [first, ...rest, ...recording.statements],
      [copyFrozen, ...scheduleGuardProblems, ...(workingTime ? [workingTime.problem] : [])],
      {
        events: [{ organizationId, occurredAt: now, rows: copied }, ...recording.events],
        // The workers' other published time is still as judged, the copies aside (else 409 WORKING_TIME_CONFLICT).
        trailing: workingTime?.guards(rows.map((row) => row.id)) ?? [],
      },
    );
}
