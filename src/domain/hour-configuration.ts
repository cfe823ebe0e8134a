import { localDate } from "./accrual";
import { addDays, localDayBounds } from "./local-time";

export interface DayHours {
  date: string;
  hours: number;
}

const HOUR_MS = 3_600_000;
/** The longest request window, in days of 24 hours: checked before any per-date loop. */
export const MAX_REQUEST_DAYS = 366;
export const MAX_REQUEST_MS = MAX_REQUEST_DAYS * 24 * HOUR_MS;
const round = (hours: number) => Math.round(hours * 10_000) / 10_000;

/** The local dates [start, end) touches in the zone, in order (an end at local midnight does not reach that day). */
export function localDatesOf(start: Date, end: Date, timeZone: string): string[] {
  const dates: string[] = [];
  const last = localDate(new Date(end.getTime() - 1), timeZone);
  for (let date = localDate(start, timeZone); date <= last; date = addDays(date, 1)) dates.push(date);
  return dates;
}

/**
 * A request's hours per local date when it names none: a full day (`fullDayHours`) for each date of an all-day
 * request, else the hours of the window inside each local day (a DST day is 23 or 25 h long).
 */
export function deriveHourConfiguration(start: Date, end: Date, isAllDay: boolean, timeZone: string, fullDayHours: number): DayHours[] {
  return localDatesOf(start, end, timeZone).map((date) => {
    if (isAllDay) return { date, hours: fullDayHours };
    const day = localDayBounds(date, timeZone);
    const overlap = Math.min(end.getTime(), day.end.getTime()) - Math.max(start.getTime(), day.start.getTime());
    return { date, hours: round(Math.max(0, overlap) / HOUR_MS) };
  });
}

/** What a request's dates may hold: an all-day date up to the policy's full day, a partial one what its window covers. */
export interface HourLimits {
  isAllDay: boolean;
  fullDayHours: number;
  /** A manager may give an all-day date more than the full day, up to the length of that local day. */
  mayExceedFullDay: boolean;
}

/** The hours each local date of [start, end) can hold under the limits, by date. */
export function hoursEachDateHolds(start: Date, end: Date, timeZone: string, limits: HourLimits): Map<string, number> {
  return new Map(
    localDatesOf(start, end, timeZone).map((date) => {
      const day = localDayBounds(date, timeZone);
      const dayHours = (day.end.getTime() - day.start.getTime()) / HOUR_MS;
      if (limits.isAllDay) return [date, limits.mayExceedFullDay ? dayHours : Math.min(limits.fullDayHours, dayHours)];
      const overlap = Math.min(end.getTime(), day.end.getTime()) - Math.max(start.getTime(), day.start.getTime());
      return [date, round(Math.max(0, overlap) / HOUR_MS)];
    }),
  );
}

/**
 * Why a given configuration does not add up, or null: it names every local date of the window exactly once, and
 * each date's hours are within what that date holds (see hoursEachDateHolds). A DST day holds 23 or 25 hours.
 */
export function hourConfigurationProblem(
  config: readonly DayHours[],
  start: Date,
  end: Date,
  timeZone: string,
  limits: HourLimits,
): string | null {
  const holds = hoursEachDateHolds(start, end, timeZone, limits);
  const seen = new Set<string>();
  for (const day of config) {
    const most = holds.get(day.date);
    if (most === undefined) return `${day.date} is outside the request's window`;
    if (seen.has(day.date)) return `${day.date} is named twice`;
    seen.add(day.date);
    if (day.hours > most + 1e-9) {
      const why = limits.isAllDay
        ? limits.mayExceedFullDay
          ? "the length of that local day"
          : "the policy's full day"
        : "the window's hours that day";
      return `${day.date} takes ${day.hours} hours, more than ${why} (${most})`;
    }
  }
  const missing = [...holds.keys()].filter((date) => !seen.has(date));
  if (missing.length > 0) return `must name every local date of the window; missing ${missing.join(", ")}`;
  return null;
}

export const totalHours = (config: readonly DayHours[]) => round(config.reduce((sum, day) => sum + day.hours, 0));
