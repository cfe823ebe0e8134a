import { addDays, localDayBounds } from "./local-time";
import { localDate } from "./accrual";

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

/** Why a given configuration is unacceptable, or null: dates must be distinct and inside the window. */
export function hourConfigurationProblem(config: readonly DayHours[], start: Date, end: Date, timeZone: string): string | null {
  if (config.length === 0) return "must name at least one date";
  const window = new Set(localDatesOf(start, end, timeZone));
  const seen = new Set<string>();
  for (const day of config) {
    if (!window.has(day.date)) return `${day.date} is outside the request's window`;
    if (seen.has(day.date)) return `${day.date} is named twice`;
    seen.add(day.date);
  }
  return null;
}

export const totalHours = (config: readonly DayHours[]) => round(config.reduce((sum, day) => sum + day.hours, 0));
