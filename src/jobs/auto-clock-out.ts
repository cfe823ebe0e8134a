import { attendanceExceptions, attendanceSettings, breakTypes, scheduleEntries, shifts } from "@db/schema";
import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import { auditStatement } from "@/data/audit/audit-entries";
import type { Database } from "@/data/client";
import { inPassScope, type PassScope } from "@/data/clock";
import { frozenHere } from "@/data/freezes";
import { newId } from "@/data/ids";
import { eventsOfRowsByOrganization } from "@/data/outbox/outbox";
import { rawRun } from "@/data/raw-statement";
import { breaksOfShift } from "@/data/shifts/break-copies.data";
import { type OpenShiftsWorkingTime, openShiftsJudge, openShiftsWorkingTimeReads } from "@/data/working-time/open-shifts-findings.data";
import {
  type AttendanceFinding,
  autoClockOutAt,
  DEFAULT_ATTENDANCE_SETTINGS,
  EARLY_CLOCK_IN_WINDOW_MINUTES,
  entryWorkedAt,
  LONGEST_ENTRY_MINUTES,
  mandatoryBreakFindings,
  SHORTEST_AUTO_CLOCK_OUT_MINUTES,
} from "@/domain/attendance";
import { systemActor } from "@/domain/audit";
import { AUTO_ORIGIN } from "@/domain/punch-source";
import { closedShift } from "@/features/time-tracking/punch-rows.data";
import type { ShiftRow } from "@/wire/shift.schemas";

const MINUTE_MS = 60_000;
/** Entries that started up to this long before a shift may hold its start. */
const LONGEST_ENTRY_MS = LONGEST_ENTRY_MINUTES * MINUTE_MS;

/** Where the pass is in the open shifts, by (start, id). */
export interface ShiftCursor {
  startAt: number;
  id: string;
}

export const FIRST_SHIFT: ShiftCursor = { startAt: -1, id: "" };

/**
 * Open shifts after `cursor` that have been open at least their organization's `autoClockOutAfterMinutes` (never
 * when it is null), oldest first, skipping organizations frozen for a move: a subquery the chunk's reads share.
 */
function dueShiftIds(now: Date, cursor: ShiftCursor, limit: number, scope: PassScope): SQL {
  const time = now.getTime();
  const after = sql`CASE WHEN s.organization_id IS NULL THEN ${DEFAULT_ATTENDANCE_SETTINGS.autoClockOutAfterMinutes}
    ELSE s.auto_clock_out_after_minutes END`;
  return sql`SELECT sh.id FROM shifts sh LEFT JOIN attendance_settings s ON s.organization_id = sh.organization_id
    WHERE sh.end_at IS NULL AND sh.deleted_at IS NULL AND sh.start_at <= ${time - SHORTEST_AUTO_CLOCK_OUT_MINUTES * MINUTE_MS}
      AND (sh.start_at > ${cursor.startAt} OR (sh.start_at = ${cursor.startAt} AND sh.id > ${cursor.id}))
      AND sh.start_at <= ${time} - ${MINUTE_MS} * ${after}
      AND NOT ${frozenHere(sql`sh.organization_id`)}
      AND ${inPassScope(sql`sh.organization_id`, scope)}
    ORDER BY sh.start_at, sh.id LIMIT ${limit}`;
}

/**
 * One chunk of shifts due for automatic clock-out, in one read batch: the shifts with their threshold, the break
 * types of their locations (mandatory ones not taken raise MISSED_MEAL_BREAK), the published entries they may work and,
 * for those at a location with a working-time pack, what the pack's rules read (openShiftsWorkingTimeReads): 7 statements.
 */
export async function readDueShifts(db: Database, now: Date, cursor: ShiftCursor, limit: number, scope: PassScope = "live") {
  const due = dueShiftIds(now, cursor, limit, scope);
  const [rows, types, entries, ...workingTime] = await db.batch([
    db
      .select({
        shift: shifts,
        afterMinutes: sql<number | null>`CASE WHEN ${attendanceSettings.organizationId} IS NULL
          THEN ${DEFAULT_ATTENDANCE_SETTINGS.autoClockOutAfterMinutes} ELSE ${attendanceSettings.autoClockOutAfterMinutes} END`,
      })
      .from(shifts)
      .leftJoin(attendanceSettings, eq(attendanceSettings.organizationId, shifts.organizationId))
      .where(sql`${shifts.id} IN (${due})`)
      .orderBy(shifts.startAt, shifts.id),
    db
      .selectDistinct({ type: breakTypes })
      .from(shifts)
      .innerJoin(
        breakTypes,
        and(
          eq(breakTypes.organizationId, shifts.organizationId),
          eq(breakTypes.locationId, shifts.locationId),
          isNull(breakTypes.deletedAt),
        ),
      )
      .where(sql`${shifts.id} IN (${due})`),
    db
      .select({
        id: scheduleEntries.id,
        employeeId: scheduleEntries.employeeId,
        locationId: scheduleEntries.locationId,
        start: scheduleEntries.startAt,
        end: scheduleEntries.endAt,
      })
      .from(shifts)
      .innerJoin(
        scheduleEntries,
        and(
          eq(scheduleEntries.employeeId, shifts.employeeId),
          sql`${scheduleEntries.startAt} >= ${shifts.startAt} - ${LONGEST_ENTRY_MS}`,
          sql`${scheduleEntries.startAt} <= ${shifts.startAt} + ${EARLY_CLOCK_IN_WINDOW_MINUTES * MINUTE_MS}`,
          eq(scheduleEntries.locationId, shifts.locationId),
          eq(scheduleEntries.isDraft, false),
          isNull(scheduleEntries.deletedAt),
        ),
      )
      .where(sql`${shifts.id} IN (${due})`),
    ...openShiftsWorkingTimeReads(db, due, now),
  ]);
  return { rows, types: types.map((t) => t.type), entries, workingTime: workingTime as OpenShiftsWorkingTime };
}

export type DueShifts = Awaited<ReturnType<typeof readDueShifts>>;

/** How the pass closes one shift: at its entry's end, or its start plus the threshold, never before its last punch. */
export interface Closure {
  shift: ShiftRow;
  scheduleEntryId: string | null;
  closed: ReturnType<typeof closedShift>;
  /** The MISSED_CLOCK_OUT this close raises: made here, so only this batch's close can have written it. */
  exceptionId: string;
  /** The MISSED_MEAL_BREAK it raises when a mandatory break type was due and not taken (closed.notTaken). */
  missedBreak: { id: string; minutes: number } | null;
  /** The working-time exceptions it raises by the location's pack (workedShiftFindings), each with the id made here. */
  workingTime: (AttendanceFinding & { id: string })[];
}

/**
 * The closures due now among a chunk's shifts (autoClockOutAt), each closed as a clock-out closes it (closedShift) and
 * judged as a clock-out is by the location's working-time pack.
 */
export function planClosures({ rows, types, entries, workingTime }: DueShifts, now: Date): Closure[] {
  const judge = openShiftsJudge(workingTime);
  return rows.flatMap(({ shift, afterMinutes }) => {
    const breaks = breaksOfShift(shift);
    const lastPunch = Math.max(shift.startAt.getTime(), ...breaks.map((b) => (b.endAt ?? b.startAt).getTime()));
    const own = entries.filter((e) => e.employeeId === shift.employeeId && e.locationId === shift.locationId);
    const entry = entryWorkedAt(own, shift.startAt);
    const at = autoClockOutAt({ start: shift.startAt, lastPunch: new Date(lastPunch), entryEnd: entry?.end ?? null, afterMinutes, now });
    if (!at) return [];
    const here = types.filter((t) => t.locationId === shift.locationId);
    const closed = closedShift(shift, breaks, here, { at, flags: ["AUTO_CLOCK_OUT"] }, now, AUTO_ORIGIN);
    const [missed] = mandatoryBreakFindings(shift.startAt, at, closed.notTaken);
    const missedBreak = missed ? { id: newId(), minutes: missed.minutes ?? 0 } : null;
    const found = judge({ ...shift, endAt: at, breaks: closed.breaks }).map((f) => ({ ...f, id: newId() }));
    return [{ shift, scheduleEntryId: entry?.id ?? null, closed, exceptionId: newId(), missedBreak, workingTime: found }];
  });
}

/** A value of the JSON item `j` a statement reads from its one JSON parameter. */
const field = (path: string) => sql.raw(`json_extract(j.value, '$.${path}')`);

/** Each item names the close it belongs to under `close`, apart from its own fields. */
const closeOf = (c: Closure) => ({
  shiftId: c.shift.id,
  version: c.closed.changes.updatedAt.getTime(),
  endAt: c.closed.changes.endAt.getTime(),
  exceptionId: c.exceptionId,
});

/** The shift reads as the close wrote it (its version, end and flag): the close took, by this pass or a twin of it. */
const closedAsPlanned = sql.raw(`EXISTS (SELECT 1 FROM shifts c WHERE c.id = json_extract(j.value, '$.close.shiftId')
  AND c.updated_at = json_extract(j.value, '$.close.version') AND c.end_at = json_extract(j.value, '$.close.endAt')
  AND c.flags LIKE '%"AUTO_CLOCK_OUT"%')`);

/**
 * The close is this batch's: its MISSED_CLOCK_OUT landed. A twin pass (the same scheduled instant, delivered twice)
 * plans the same close, but the exception's unique index lets one pass's row in, so only that pass goes on.
 */
const closedByThisBatch = sql.raw(
  `EXISTS (SELECT 1 FROM attendance_exceptions x WHERE x.id = json_extract(j.value, '$.close.exceptionId'))`,
);

const json = (items: unknown[]) => JSON.stringify(items);

/** What each exception of a close names: where, who, when and the entry it is measured against. */
const exceptionOf = (c: Closure) => ({
  organizationId: c.shift.organizationId,
  locationId: c.shift.locationId,
  employeeId: c.shift.employeeId,
  businessDate: c.shift.businessDate,
  scheduleEntryId: c.scheduleEntryId,
});

/**
 * Closes a chunk's shifts in one atomic batch of a fixed number of statements (one JSON parameter each, whatever the
 * chunk's size). The close is a conditional update — still open, still the version read, not frozen for a move, its
 * day not locked; MISSED_CLOCK_OUT follows for the shifts it closed (once per shift), and everything else only for the
 * shifts whose exception this batch wrote: the open break ended, MISSED_MEAL_BREAK for a mandatory break type not taken
 * (nothing is deducted for it), the working-time exceptions of the location's pack (REST_TOO_SHORT,
 * DAILY_MAXIMUM_EXCEEDED, …: workedShiftFindings), the clock-out (and break-end) events on the shift's record, and the events
 * `shift.clocked_out` and `attendance_exception.raised`. A
 * shift a real clock-out closed a moment before is left entirely alone. Answers how many shifts it closed.
 */
export async function closeShifts(db: Database, closures: readonly Closure[], now: Date): Promise<number> {
  if (closures.length === 0) return 0;
  const time = now.getTime();
  const closes = closures.map((c) => ({
    close: closeOf(c),
    readVersion: c.shift.updatedAt.getTime(),
    duration: c.closed.changes.duration,
    totalPaidBreaks: c.closed.changes.totalPaidBreaks,
    totalUnpaidBreaks: c.closed.changes.totalUnpaidBreaks,
    payableDuration: c.closed.changes.payableDuration,
    flags: c.closed.changes.flags,
  }));
  const exceptions = closures.map((c) => ({ close: closeOf(c), ...exceptionOf(c), minutes: c.closed.changes.duration }));
  const endedBreaks = closures.flatMap((c) => (c.closed.ended ? [{ close: closeOf(c), breakId: c.closed.ended.id }] : []));
  const missedBreaks = closures.flatMap((c) =>
    c.missedBreak ? [{ close: closeOf(c), ...exceptionOf(c), id: c.missedBreak.id, minutes: c.missedBreak.minutes }] : [],
  );
  const punch = (c: Closure, kind: string, breakId: string) => ({
    close: closeOf(c),
    id: newId(),
    organizationId: c.shift.organizationId,
    employeeId: c.shift.employeeId,
    kind,
    breakId,
  });
  const punches = closures.flatMap((c) => [
    punch(c, "clock_out", ""),
    ...(c.closed.ended ? [punch(c, "break_end", c.closed.ended.id)] : []),
  ]);
  const workingTime = closures.flatMap((c) => c.workingTime.map((f) => ({ close: closeOf(c), ...exceptionOf(c), ...f })));
  const raisedIds = [...closures.map((c) => c.exceptionId), ...missedBreaks.map((m) => m.id), ...workingTime.map((f) => f.id)];
  const eventIds = [newId(), newId()] as const;
  const [closed] = await db.batch([
    rawRun(
      db,
      sql`UPDATE shifts SET end_at = ${field("close.endAt")}, duration = ${field("duration")},
          total_paid_breaks = ${field("totalPaidBreaks")}, total_unpaid_breaks = ${field("totalUnpaidBreaks")},
          payable_duration = ${field("payableDuration")}, active = 0, flags = ${field("flags")}, updated_at = ${field("close.version")},
          clock_out_source = 'AUTO', clock_out_device_id = NULL
        FROM json_each(${json(closes)}) j
        WHERE shifts.id = ${field("close.shiftId")} AND shifts.end_at IS NULL AND shifts.deleted_at IS NULL
          AND shifts.updated_at = ${field("readVersion")} AND NOT ${frozenHere(sql`shifts.organization_id`)}
          AND NOT EXISTS (SELECT 1 FROM locked_days WHERE location_id = shifts.location_id AND date = shifts.business_date)`,
    ),
    rawRun(
      db,
      sql`INSERT INTO attendance_exceptions (id, organization_id, location_id, employee_id, type, business_date,
          schedule_entry_id, shift_id, minutes, status, note, detected_at, resolved_at, resolved_by, updated_at)
        SELECT ${field("close.exceptionId")}, ${field("organizationId")}, ${field("locationId")}, ${field("employeeId")},
          'MISSED_CLOCK_OUT', ${field("businessDate")}, ${field("scheduleEntryId")}, ${field("close.shiftId")}, ${field("minutes")},
          'OPEN', NULL, ${time}, NULL, NULL, ${time}
        FROM json_each(${json(exceptions)}) j WHERE ${closedAsPlanned}
        ON CONFLICT DO NOTHING`,
    ),
    rawRun(
      db,
      sql`UPDATE shift_breaks SET end_at = ${field("close.endAt")} FROM json_each(${json(endedBreaks)}) j
        WHERE shift_breaks.id = ${field("breakId")} AND shift_breaks.end_at IS NULL AND ${closedByThisBatch}`,
    ),
    rawRun(
      db,
      sql`INSERT INTO attendance_exceptions (id, organization_id, location_id, employee_id, type, business_date,
          schedule_entry_id, shift_id, minutes, status, note, detected_at, resolved_at, resolved_by, updated_at)
        SELECT ${field("id")}, ${field("organizationId")}, ${field("locationId")}, ${field("employeeId")},
          'MISSED_MEAL_BREAK', ${field("businessDate")}, NULL, ${field("close.shiftId")}, ${field("minutes")},
          'OPEN', NULL, ${time}, NULL, NULL, ${time}
        FROM json_each(${json(missedBreaks)}) j WHERE ${closedByThisBatch}
        ON CONFLICT DO NOTHING`,
    ),
    rawRun(
      db,
      sql`INSERT INTO attendance_exceptions (id, organization_id, location_id, employee_id, type, business_date,
          schedule_entry_id, shift_id, minutes, status, note, detected_at, resolved_at, resolved_by, updated_at)
        SELECT ${field("id")}, ${field("organizationId")}, ${field("locationId")}, ${field("employeeId")},
          ${field("type")}, ${field("businessDate")}, ${field("scheduleEntryId")}, ${field("close.shiftId")}, ${field("minutes")},
          'OPEN', NULL, ${time}, NULL, NULL, ${time}
        FROM json_each(${json(workingTime)}) j WHERE ${closedByThisBatch}
        ON CONFLICT DO NOTHING`,
    ),
    rawRun(
      db,
      sql`INSERT INTO shift_events (id, organization_id, shift_id, employee_id, kind, break_id, occurred_at, received_at,
          latitude, longitude, accuracy_centimeters, distance_centimeters, verdict, flags, idempotency_key, source)
        SELECT ${field("id")}, ${field("organizationId")}, ${field("close.shiftId")}, ${field("employeeId")}, ${field("kind")},
          ${field("breakId")}, ${field("close.endAt")}, ${time}, NULL, NULL, NULL, NULL, 'undetermined', '["AUTO_CLOCK_OUT"]', NULL, 'AUTO'
        FROM json_each(${json(punches)}) j WHERE ${closedByThisBatch}`,
    ),
    eventsOfRowsByOrganization(
      db,
      now,
      {
        table: shifts,
        where: sql`${shifts.id} IN (SELECT ${field("close.shiftId")} FROM json_each(${json(closes.map((c) => ({ close: c.close })))}) j
        WHERE ${closedByThisBatch})`,
        typeOf: sql`'shift.clocked_out'`,
      },
      eventIds[0],
    ),
    eventsOfRowsByOrganization(
      db,
      now,
      {
        table: attendanceExceptions,
        where: sql`${attendanceExceptions.id} IN (SELECT value FROM json_each(${json(raisedIds)}))`,
        typeOf: sql`'attendance_exception.raised'`,
      },
      eventIds[1],
    ),
    // No person closed these: the audit log names the pass (SYSTEM), with each shift before and after.
    auditStatement(db, systemActor("attendance-pass"), eventIds),
  ]);
  return closed.changes;
}
