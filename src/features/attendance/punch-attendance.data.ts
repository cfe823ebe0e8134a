import { payRuleSets, scheduleEntries, shifts } from "@db/schema";
import { and, eq, gte, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { payShiftColumns } from "@/data/pay/pay-shift-columns";
import { type Placeholders, prepared } from "@/data/prepared";
import {
  type WorkingTimeSetting,
  workedShiftFindings,
  workingTimeContext,
  workingTimeReads,
} from "@/data/working-time/worked-shift-findings.data";
import {
  type AttendanceFinding,
  clockInFindings,
  clockOutFindings,
  EARLY_CLOCK_IN_WINDOW_MINUTES,
  LONGEST_ENTRY_MINUTES,
  mandatoryBreakFindings,
  type ScheduledSpan,
} from "@/domain/attendance";
import type { PunchKind } from "@/domain/geofence";
import { type MealWaiver, waivedMealsOn } from "@/domain/meal-periods";
import { missedMealBreak, type PayShift } from "@/domain/pay-classification";
import { governingRuleSets } from "@/domain/pay-rules";
import { payShiftFromStored } from "@/domain/pay-shift";
import type { Worker } from "@/domain/working-time/checks";
import { ruleSetOfRow } from "@/wire/pay-rule-set.schemas";
import type { ShiftBreakRow, ShiftRow } from "@/wire/shift.schemas";
import { type AttendanceExceptionRow, settingsOf } from "./attendance.schemas";
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
  kind: PunchKind;
}

type Member = Placeholders<{ organizationId: string; staffMemberId: string }>;

// The statements of attendanceReads, built once per isolate (data/prepared).
const entriesNear = prepared((db, p: Member & Placeholders<{ locationId: string; from: number; to: number }>) =>
  db
    .select({ id: scheduleEntries.id, start: scheduleEntries.startAt, end: scheduleEntries.endAt })
    .from(scheduleEntries)
    .where(
      and(
        eq(scheduleEntries.employeeId, p.staffMemberId),
        gte(scheduleEntries.startAt, p.from),
        lte(scheduleEntries.startAt, p.to),
        eq(scheduleEntries.locationId, p.locationId),
        eq(scheduleEntries.organizationId, p.organizationId),
        eq(scheduleEntries.isDraft, false),
        isNull(scheduleEntries.deletedAt),
      ),
    ),
);
const ruleSetsAt = prepared((db, p: Placeholders<{ organizationId: string; locationId: string }>) =>
  db
    .select()
    .from(payRuleSets)
    .where(
      and(
        eq(payRuleSets.organizationId, p.organizationId),
        isNull(payRuleSets.deletedAt),
        or(isNull(payRuleSets.locationId), eq(payRuleSets.locationId, p.locationId)),
      ),
    ),
);
/** The member's closed shifts of the open shift's business date. */
const workdayShifts = prepared((db, p: Member) => {
  const openShiftDate = db
    .select({ date: shifts.businessDate })
    .from(shifts)
    .where(and(eq(shifts.organizationId, p.organizationId), eq(shifts.employeeId, p.staffMemberId), isNull(shifts.endAt)));
  return db
    .select(payShiftColumns)
    .from(shifts)
    .where(
      and(
        eq(shifts.employeeId, p.staffMemberId),
        sql`${shifts.businessDate} IN ${openShiftDate}`,
        isNotNull(shifts.endAt),
        isNull(shifts.deletedAt),
      ),
    );
});

/**
 * What a clock-in or clock-out needs to find its attendance exceptions, as statements appended to the punch's own
 * read batch (no round trip of their own): the organization's settings and the staff member's published entries at
 * the location near the punch; a clock-out also the pay rule sets, the other closed shifts of the open shift's
 * workday (the meal rule) and the working-time pipeline's reads (data/working-time/worked-shift-findings). A break
 * punch reads none.
 */
export function attendanceReads(db: Database, place: PunchPlace) {
  if (place.kind !== "clock_in" && place.kind !== "clock_out") return [];
  const { organizationId, staffMemberId, locationId } = place;
  const time = place.around.getTime();
  const found = [
    settingsStatement(db, organizationId),
    entriesNear(db, {
      organizationId,
      staffMemberId,
      locationId,
      from: time - ENTRY_LOOKBACK_MS,
      to: time + EARLY_CLOCK_IN_WINDOW_MINUTES * MINUTE_MS,
    }),
  ] as const;
  if (place.kind === "clock_in") return found;
  const member = { organizationId, staffMemberId };
  return [
    ...found,
    ruleSetsAt(db, { organizationId, locationId }),
    workdayShifts(db, member),
    ...workingTimeReads(db, { ...place, staffMemberId }),
  ] as const;
}

type ClockOutReads = Extract<ReturnType<typeof attendanceReads>, readonly [unknown, unknown, unknown, unknown, unknown, unknown, unknown]>;
/** The rows of attendanceReads, in their order: none for a break punch, two for a clock-in, seven for a clock-out. */
export type AttendanceRows = Partial<{ -readonly [K in 0 | 1 | 2 | 3 | 4 | 5 | 6]: Awaited<ClockOutReads[K]> }>;

/** What the punch's read found, ready for the rules. */
export function attendanceContext({
  0: settings,
  1: entries = [],
  2: ruleSets = [],
  3: dayShifts = [],
  4: workingTime = [],
  5: recent = [],
  6: byDate = [],
}: AttendanceRows) {
  return {
    settings: settingsOf(settings?.[0]),
    entries: entries as ScheduledSpan[],
    ruleSets: ruleSets.map(ruleSetOfRow),
    dayShifts: dayShifts.map((row) => payShiftFromStored(row)),
    workingTime: workingTimeContext(workingTime as WorkingTimeSetting[], recent, byDate),
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
 * workday passed a meal period of the pay rules without a qualifying break (an earlier shift's clock-out raised it
 * otherwise) or, failing that, when a mandatory break type was due in the shift and not taken (`notTaken`).
 */
export function clockOutExceptions(
  context: AttendanceContext,
  shift: ShiftRow,
  closed: { endAt: Date; breaks: readonly ShiftBreakRow[]; notTaken: readonly { frequencyMinutes: number }[] },
  detectedAt: Date,
  mealWaivers: readonly Omit<MealWaiver, "employeeId">[] = [],
  worker: Worker = { birthDate: null, optOut: null },
) {
  const findings = [
    ...clockOutFindings(shift.startAt, closed.endAt, context.entries, context.settings),
    ...workingTimeFindings(context, shift, closed, worker),
  ];
  const ofPolicy = mandatoryBreakFindings(shift.startAt, closed.endAt, closed.notTaken);
  const governing = governingRuleSets(context.ruleSets)(shift.locationId, shift.businessDate);
  if (governing.rules.mealBreaks.length === 0) return rowsOf(shift, [...findings, ...ofPolicy], detectedAt);
  const closing = payShiftFromStored({
    ...shift,
    endAt: closed.endAt,
    breaks: closed.breaks.map((b) => ({ ...b, startAt: b.startAt.getTime(), endAt: b.endAt?.getTime() ?? null })),
  });
  const day = [...context.dayShifts.filter((s) => s.id !== shift.id), closing] as (PayShift & { endTime: Date })[];
  const waivers = mealWaivers.map((w) => ({ ...w, employeeId: shift.employeeId }));
  const missed = missedMealBreak(day, governing, waivedMealsOn(waivers, shift.employeeId, shift.businessDate));
  if (missed?.shiftId === shift.id) findings.push({ type: "MISSED_MEAL_BREAK", scheduleEntryId: null, minutes: missed.minutesPast });
  else findings.push(...ofPolicy);
  return rowsOf(shift, findings, detectedAt);
}

/** The working-time rules of the location's pack (on the shift's date) broken by the shift this clock-out closes. */
const workingTimeFindings = (
  context: AttendanceContext,
  shift: ShiftRow,
  closed: { endAt: Date; breaks: readonly ShiftBreakRow[] },
  worker: Worker,
) => workedShiftFindings(context.workingTime, { ...shift, endAt: closed.endAt, breaks: closed.breaks }, worker);
