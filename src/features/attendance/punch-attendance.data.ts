import { payRuleSets, scheduleEntries, shifts } from "@db/schema";
import { and, eq, gte, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import {
  type AttendanceFinding,
  clockInFindings,
  clockOutFindings,
  EARLY_CLOCK_IN_WINDOW_MINUTES,
  LONGEST_ENTRY_MINUTES,
  type ScheduledSpan,
} from "@/domain/attendance";
import type { PunchKind } from "@/domain/geofence";
import { missedMealBreak, type PayShift } from "@/domain/pay-classification";
import { governingRuleSets } from "@/domain/pay-rules";
import { payShiftFromStored } from "@/domain/pay-shift";
import { payShiftColumns } from "@/features/pay/pay-inputs.data";
import { ruleSetOfRow } from "@/features/pay/pay-rules.schemas";
import type { ShiftBreakRow, ShiftRow } from "@/features/shifts/shifts.schemas";
import type { AttendanceExceptionRow } from "./attendance.schemas";
import { settingsOf } from "./attendance.schemas";
import { exceptionRow } from "./attendance-exceptions.data";
import { settingsStatement } from "./attendance-settings.data";

const MINUTE_MS = 60_000;
/**
 * Entries that started up to this long before the punch: enough for a clock-out of a shift open 48 hours (the longest
 * automatic clock-out) in an entry of up to 24. A longer shift is measured against no entry (no EARLY_CLOCK_OUT).
 */
const ENTRY_LOOKBACK_MS = (48 * 60 + LONGEST_ENTRY_MINUTES) * MINUTE_MS;

interface PunchPlace {
  organizationId: string;
  staffMemberId: string;
  locationId: string;
  /** The instant the punch is about. */
  around: Date;
  /** A break punch reads nothing here; only a clock-out reads the pay rules and the workday's other shifts (the meal rule). */
  kind: PunchKind;
}

/** Only rows of a statement that `when` allows: a literal, so SQLite's planner drops the statement's reads. */
const onlyIf = (when: boolean) => sql.raw(when ? "1" : "0");

/**
 * What a clock-in or clock-out needs to find its attendance exceptions, as statements of the punch's own read batch
 * (no round trip of their own): the organization's settings, the staff member's published entries at the location
 * near the punch, and for a clock-out the pay rule sets and the other closed shifts of the open shift's workday.
 */
export function attendanceReads(db: Database, place: PunchPlace) {
  const time = place.around.getTime();
  const clockOut = place.kind === "clock_out";
  const clock = clockOut || place.kind === "clock_in";
  const openShiftDate = db
    .select({ date: shifts.businessDate })
    .from(shifts)
    .where(and(eq(shifts.organizationId, place.organizationId), eq(shifts.employeeId, place.staffMemberId), isNull(shifts.endAt)));
  return [
    settingsStatement(db, place.organizationId, onlyIf(clock)),
    db
      .select({ id: scheduleEntries.id, start: scheduleEntries.startAt, end: scheduleEntries.endAt })
      .from(scheduleEntries)
      .where(
        and(
          onlyIf(clock),
          eq(scheduleEntries.employeeId, place.staffMemberId),
          gte(scheduleEntries.startAt, new Date(time - ENTRY_LOOKBACK_MS)),
          lte(scheduleEntries.startAt, new Date(time + EARLY_CLOCK_IN_WINDOW_MINUTES * MINUTE_MS)),
          eq(scheduleEntries.locationId, place.locationId),
          eq(scheduleEntries.organizationId, place.organizationId),
          eq(scheduleEntries.isDraft, false),
          isNull(scheduleEntries.deletedAt),
        ),
      ),
    db
      .select()
      .from(payRuleSets)
      .where(
        and(
          onlyIf(clockOut),
          eq(payRuleSets.organizationId, place.organizationId),
          isNull(payRuleSets.deletedAt),
          or(isNull(payRuleSets.locationId), eq(payRuleSets.locationId, place.locationId)),
        ),
      ),
    db
      .select(payShiftColumns)
      .from(shifts)
      .where(
        and(
          onlyIf(clockOut),
          eq(shifts.employeeId, place.staffMemberId),
          sql`${shifts.businessDate} IN ${openShiftDate}`,
          isNotNull(shifts.endAt),
          isNull(shifts.deletedAt),
        ),
      ),
  ] as const;
}

type Reads = ReturnType<typeof attendanceReads>;
export type AttendanceRows = readonly [Awaited<Reads[0]>, Awaited<Reads[1]>, Awaited<Reads[2]>, Awaited<Reads[3]>];

/** What the punch's read found, ready for the rules. */
export function attendanceContext([settings, entries, ruleSets, dayShifts]: AttendanceRows) {
  return {
    settings: settingsOf(settings[0]),
    entries: entries as ScheduledSpan[],
    ruleSets: ruleSets.map(ruleSetOfRow),
    dayShifts: dayShifts.map((row) => payShiftFromStored(row)),
  };
}

export type AttendanceContext = ReturnType<typeof attendanceContext>;

const rowsOf = (shift: ShiftRow, findings: readonly AttendanceFinding[], at: Date): AttendanceExceptionRow[] =>
  findings.map((finding) =>
    exceptionRow(
      {
        organizationId: shift.organizationId,
        locationId: shift.locationId,
        employeeId: shift.employeeId,
        businessDate: shift.businessDate,
        shiftId: shift.id,
      },
      finding,
      at,
    ),
  );

/** A clock-in's exceptions: LATE_CLOCK_IN or UNSCHEDULED_SHIFT. */
export const clockInExceptions = (context: AttendanceContext, shift: ShiftRow, detectedAt: Date) =>
  rowsOf(shift, clockInFindings(shift.startAt, context.entries, context.settings), detectedAt);

/**
 * A clock-out's exceptions: EARLY_CLOCK_OUT, and MISSED_MEAL_BREAK when this shift is the one during which its
 * workday passed the meal rule's threshold without a qualifying break (an earlier shift's clock-out raised it otherwise).
 */
export function clockOutExceptions(
  context: AttendanceContext,
  shift: ShiftRow,
  closed: { endAt: Date; breaks: readonly ShiftBreakRow[] },
  detectedAt: Date,
) {
  const findings = clockOutFindings(shift.startAt, closed.endAt, context.entries, context.settings);
  const closing = payShiftFromStored({
    ...shift,
    endAt: closed.endAt,
    breaks: closed.breaks.map((b) => ({ ...b, startAt: b.startAt.getTime(), endAt: b.endAt?.getTime() ?? null })),
  });
  const day = [...context.dayShifts.filter((s) => s.id !== shift.id), closing] as (PayShift & { endTime: Date })[];
  const governing = governingRuleSets(context.ruleSets)(shift.locationId, shift.businessDate);
  const missed = missedMealBreak(day, governing);
  if (missed?.shiftId === shift.id) findings.push({ type: "MISSED_MEAL_BREAK", scheduleEntryId: null, minutes: missed.minutesPast });
  return rowsOf(shift, findings, detectedAt);
}
