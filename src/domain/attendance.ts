/** Schedule against actual: the rules that turn punches and published entries into attendance exceptions. */

export const ATTENDANCE_EXCEPTION_TYPES = [
  "LATE_CLOCK_IN",
  "EARLY_CLOCK_OUT",
  "UNSCHEDULED_SHIFT",
  "NO_SHOW",
  "MISSED_CLOCK_OUT",
  "MISSED_MEAL_BREAK",
  // Working-time rules of the location's pack (domain/working-time), raised when a worked shift closes.
  "REST_TOO_SHORT",
  "DAILY_MAXIMUM_EXCEEDED",
  "BREAK_TOO_SHORT",
  "WEEKLY_AVERAGE_EXCEEDED",
  "MINOR_HOURS",
  "WEEKLY_MAXIMUM_EXCEEDED",
  "MONTHLY_OVERTIME_CAP_EXCEEDED",
] as const;
export type AttendanceExceptionType = (typeof ATTENDANCE_EXCEPTION_TYPES)[number];

export const ATTENDANCE_STATUSES = ["OPEN", "RESOLVED", "EXCUSED"] as const;
export type AttendanceStatus = (typeof ATTENDANCE_STATUSES)[number];

export interface AttendanceSettings {
  lateGraceMinutes: number;
  earlyLeaveGraceMinutes: number;
  noShowAfterMinutes: number;
  /** Null: a forgotten shift stays open until someone closes it. */
  autoClockOutAfterMinutes: number | null;
}

export const DEFAULT_ATTENDANCE_SETTINGS: AttendanceSettings = {
  lateGraceMinutes: 5,
  earlyLeaveGraceMinutes: 5,
  noShowAfterMinutes: 30,
  autoClockOutAfterMinutes: 960,
};

/** How long before a published entry's start a clock-in still works that entry (an early arrival, not a shift of its own). */
export const EARLY_CLOCK_IN_WINDOW_MINUTES = 120;

/** A published entry lasts at most this long (domain/schedule-entry): entries that can hold an instant start within it before. */
export const LONGEST_ENTRY_MINUTES = 24 * 60;

/** The shortest `autoClockOutAfterMinutes` a setting may have. */
export const SHORTEST_AUTO_CLOCK_OUT_MINUTES = 60;

/** How far back the Cron looks for no-shows: a pass that runs late still finds the entries of the week before. */
export const NO_SHOW_LOOKBACK_DAYS = 7;

const MINUTE_MS = 60_000;

/** A published schedule entry of the staff member at the location, as the rules read it. */
export interface ScheduledSpan {
  id: string;
  start: Date;
  end: Date;
}

/** What a rule found: its type, the entry it is about (if any) and its minutes. */
export interface AttendanceFinding {
  type: AttendanceExceptionType;
  scheduleEntryId: string | null;
  minutes: number | null;
}

const wholeMinutes = (from: Date, to: Date) => Math.floor((to.getTime() - from.getTime()) / MINUTE_MS);

/**
 * The entry a shift starting at `at` works: of the entries whose [start − early window, end) holds `at`, the one whose
 * start is nearest to `at` (the earlier on a tie), so a clock-in 90 minutes before an evening entry is early for it,
 * not 7 hours late for a morning entry it never came to.
 */
export function entryWorkedAt(entries: readonly ScheduledSpan[], at: Date): ScheduledSpan | null {
  const time = at.getTime();
  let found: ScheduledSpan | null = null;
  let foundDistance = Infinity;
  for (const entry of entries) {
    const start = entry.start.getTime();
    if (time < start - EARLY_CLOCK_IN_WINDOW_MINUTES * MINUTE_MS || time >= entry.end.getTime()) continue;
    const distance = Math.abs(time - start);
    const foundStart = found?.start.getTime() ?? Infinity;
    const nearer =
      distance < foundDistance || (distance === foundDistance && (start < foundStart || (start === foundStart && entry.id < found!.id)));
    if (nearer) {
      found = entry;
      foundDistance = distance;
    }
  }
  return found;
}

/**
 * At clock-in: UNSCHEDULED_SHIFT when no published entry of the staff member at the location is worked by it;
 * LATE_CLOCK_IN (minutes after the entry's start) when it is later than the start plus the grace.
 */
export function clockInFindings(at: Date, entries: readonly ScheduledSpan[], settings: AttendanceSettings): AttendanceFinding[] {
  const entry = entryWorkedAt(entries, at);
  if (!entry) return [{ type: "UNSCHEDULED_SHIFT", scheduleEntryId: null, minutes: null }];
  if (at.getTime() <= entry.start.getTime() + settings.lateGraceMinutes * MINUTE_MS) return [];
  return [{ type: "LATE_CLOCK_IN", scheduleEntryId: entry.id, minutes: wholeMinutes(entry.start, at) }];
}

/** At clock-out: EARLY_CLOCK_OUT (minutes before the entry's end) when the shift's entry ends later than the clock-out plus the grace. */
export function clockOutFindings(
  shiftStart: Date,
  at: Date,
  entries: readonly ScheduledSpan[],
  settings: AttendanceSettings,
): AttendanceFinding[] {
  const entry = entryWorkedAt(entries, shiftStart);
  if (!entry || at.getTime() + settings.earlyLeaveGraceMinutes * MINUTE_MS >= entry.end.getTime()) return [];
  return [{ type: "EARLY_CLOCK_OUT", scheduleEntryId: entry.id, minutes: wholeMinutes(at, entry.end) }];
}

/**
 * At clock-out, for the employer's own policy: MISSED_MEAL_BREAK when a mandatory break type of the location was due
 * in the shift (it lasted longer than the type's frequencyMinutes) and not taken — `notTaken`, earliest due first
 * (shift-totals' mandatoryBreaksNotTaken). Minutes: the shift's minutes past the earliest one's frequencyMinutes.
 * Nothing is deducted for it; the pay rules' meal periods judge whether a premium is owed.
 */
export function mandatoryBreakFindings(shiftStart: Date, at: Date, notTaken: readonly { frequencyMinutes: number }[]): AttendanceFinding[] {
  const first = notTaken[0];
  if (!first) return [];
  return [{ type: "MISSED_MEAL_BREAK", scheduleEntryId: null, minutes: wholeMinutes(shiftStart, at) - first.frequencyMinutes }];
}

/**
 * When the attendance pass closes a shift still open at `now`: at its entry's end if it works one, else at its start
 * plus `autoClockOutAfterMinutes`, never before its last punch. Null while it is not due: auto clock-out is off, the
 * shift has been open less than that, or its entry has not ended yet (a long scheduled shift is not cut short).
 */
export function autoClockOutAt(input: {
  start: Date;
  lastPunch: Date;
  entryEnd: Date | null;
  afterMinutes: number | null;
  now: Date;
}): Date | null {
  if (input.afterMinutes === null) return null;
  const limit = input.start.getTime() + input.afterMinutes * MINUTE_MS;
  if (input.now.getTime() < limit) return null;
  if (input.entryEnd && input.entryEnd > input.now) return null;
  return new Date(Math.max(input.entryEnd?.getTime() ?? limit, input.lastPunch.getTime()));
}
