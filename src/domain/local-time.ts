import { isoTimestamp } from "./iso-timestamp";

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

const formatters = new Map<string, Intl.DateTimeFormat>();

function wallClockFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Minutes east of UTC in an IANA zone at an instant (DST-correct). Throws RangeError for an unknown zone. */
export function offsetMinutesAt(timeZone: string, instant: Date): number {
  // Intl's formatToParts costs microseconds a call; UTC's offset is known.
  if (timeZone === "UTC") return 0;
  const parts: Record<string, number> = {};
  for (const part of wallClockFormatter(timeZone).formatToParts(instant)) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  const wallMs = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  const wholeSecondMs = Math.floor(instant.getTime() / 1000) * 1000;
  return Math.round((wallMs - wholeSecondMs) / MINUTE_MS);
}

/** The wire's local time: the wall-clock reading written with `Z`, so that utc = local - utcOffset minutes. */
export const localWallClock = (instant: Date, offsetMinutes: number): string => isoTimestamp(instant.getTime() + offsetMinutes * MINUTE_MS);

/** The inverse of localWallClock: the UTC instant of a wall-clock reading (given as a `Z` timestamp). */
export const instantFromWallClock = (wallClock: Date, offsetMinutes: number): Date =>
  new Date(wallClock.getTime() - offsetMinutes * MINUTE_MS);

/** The local date (YYYY-MM-DD) of an instant: a shift's business date is that of its start. */
export const businessDate = (instant: Date, offsetMinutes: number): string => localWallClock(instant, offsetMinutes).slice(0, 10);

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The years a date or timestamp the API accepts may name. Workforce records have no use beyond them, and every
 * date in range has a four-digit year, so it reads back as RFC 3339 and `Intl` can place it in a zone.
 */
export const FIRST_YEAR = 1970;
export const LAST_YEAR = 2200;

/** Midnight UTC of a YYYY-MM-DD that names a real calendar date from FIRST_YEAR to LAST_YEAR, else null. */
function parseCalendarDate(date: string): number | null {
  const match = DATE_PATTERN.exec(date);
  if (!match) return null;
  const year = Number(match[1]);
  if (year < FIRST_YEAR || year > LAST_YEAR) return null;
  const ms = Date.UTC(year, Number(match[2]) - 1, Number(match[3]));
  return new Date(ms).toISOString().slice(0, 10) === date ? ms : null;
}

const TIMESTAMP_PATTERN = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|([+-])(\d{2}):(\d{2}))$/i;

/**
 * The instant of an RFC 3339 timestamp whose date is a real calendar date in range (see parseCalendarDate), whose
 * time of day is real (no 24:00, no leap second) and whose offset, if any, is at most 14 h: else null. Without
 * `offsets`, only a `Z` suffix is taken (the wire's local wall-clock times).
 */
export function parseTimestamp(value: string, offsets = true): Date | null {
  const match = TIMESTAMP_PATTERN.exec(value);
  if (!match || parseCalendarDate(match[1]!) === null) return null;
  const [hour, minute, second] = [match[2], match[3], match[4] ?? "0"].map(Number) as [number, number, number];
  if (hour > 23 || minute > 59 || second > 59) return null;
  if (match[5]!.toUpperCase() !== "Z") {
    if (!offsets) return null;
    const offsetMinutes = Number(match[7]) * 60 + Number(match[8]);
    if (Number(match[8]) > 59 || offsetMinutes > 14 * 60) return null;
  }
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms);
}

export const isCalendarDate = (value: string) => parseCalendarDate(value) !== null;

/** A date parameter as written, placed in no zone: a calendar date or an instant; null when it is neither. */
export function dateOrInstant(value: string): { kind: "date"; date: string } | { kind: "instant"; at: Date } | null {
  if (isCalendarDate(value)) return { kind: "date", date: value };
  const at = parseTimestamp(value);
  return at === null ? null : { kind: "instant", at };
}

/** Whether parseDateParam takes the value, without placing it in a zone (Intl's work, which a check need not do). */
export const isDateOrInstant = (value: string) => dateOrInstant(value) !== null;

export const addDays = (date: string, days: number): string => {
  const ms = parseCalendarDate(date);
  if (ms === null) throw new RangeError(`Not a calendar date: ${date}`);
  return new Date(ms + days * DAY_MS).toISOString().slice(0, 10);
};

/**
 * The first instant whose local date is `date`. Offsets never exceed 14 h and zones change offset at most once
 * in 28 h, so the offsets 14 h either side are the only candidates. When local midnight is skipped (a DST gap
 * at 00:00), the day starts at the transition, which is midnight read with the earlier offset.
 */
function startOfLocalDay(midnightMs: number, timeZone: string): number {
  const before = offsetMinutesAt(timeZone, new Date(midnightMs - 14 * HOUR_MS));
  const after = offsetMinutesAt(timeZone, new Date(midnightMs + 14 * HOUR_MS));
  const candidates = [...new Set([before, after])]
    .map((offset) => midnightMs - offset * MINUTE_MS)
    .filter((ms) => ms + offsetMinutesAt(timeZone, new Date(ms)) * MINUTE_MS === midnightMs);
  return candidates.length > 0 ? Math.min(...candidates) : midnightMs - before * MINUTE_MS;
}

/** Day bounds already found, by zone and date: each takes up to eight of Intl's formatToParts (issue 36). */
const dayBounds = new Map<string, readonly [start: number, end: number]>();
const DAY_BOUNDS_KEPT = 4096;

/** The UTC instants [start, end) of a local day: 23 h or 25 h long on DST change days. */
export function localDayBounds(date: string, timeZone: string): { start: Date; end: Date } {
  const key = `${timeZone} ${date}`;
  let bounds = dayBounds.get(key);
  if (!bounds) {
    const midnightMs = parseCalendarDate(date);
    if (midnightMs === null) throw new RangeError(`Not a calendar date: ${date}`);
    bounds = [startOfLocalDay(midnightMs, timeZone), startOfLocalDay(midnightMs + DAY_MS, timeZone)];
    if (dayBounds.size >= DAY_BOUNDS_KEPT) dayBounds.clear();
    dayBounds.set(key, bounds);
  }
  return { start: new Date(bounds[0]), end: new Date(bounds[1]) };
}

/**
 * A date query parameter as a half-open bound: YYYY-MM-DD is a whole local business day (start edge: its first
 * instant; end edge: the first instant of the next day), a full ISO timestamp is that instant (end edge: 1 ms
 * later, so an end timestamp is inclusive too). Compare `start.at <= t < end.at`; `start.at >= end.at` means
 * the start is after the end (400). `date` is kept so business-date columns can be compared as text.
 * Null when the value is neither form.
 */
export function parseDateParam(
  value: string,
  timeZone: string,
  edge: "start" | "end",
): { kind: "date"; date: string; at: Date } | { kind: "instant"; at: Date } | null {
  const parsed = dateOrInstant(value);
  if (parsed?.kind === "date") {
    const bounds = localDayBounds(value, timeZone);
    return { ...parsed, at: edge === "start" ? bounds.start : bounds.end };
  }
  if (!parsed) return null;
  return { kind: "instant", at: new Date(edge === "start" ? parsed.at.getTime() : parsed.at.getTime() + 1) };
}
