import { addDays, dateOrInstant } from "./local-time";

/** A timesheet query covers at most this many days. */
export const MAX_RANGE_DAYS = 366;

const DAY_MS = 86_400_000;

/**
 * One end of a range: a business date (YYYY-MM-DD, compared with the shifts' business_date) or an instant
 * (compared with their start). `date` is always set: for an instant it is the date as the client wrote it.
 */
export type RangeEdge = { kind: "date"; date: string } | { kind: "instant"; at: Date; date: string };

export interface TimesheetRange {
  start: RangeEdge;
  /** Inclusive: the whole end date, or up to and including the end instant. */
  end: RangeEdge;
}

export type RangeResult = { ok: true; range: TimesheetRange } | { ok: false; path: string; message: string };

function edge(value: string): RangeEdge | null {
  const parsed = dateOrInstant(value);
  return parsed?.kind === "instant" ? { ...parsed, date: value.slice(0, 10) } : parsed;
}

const startMs = (e: RangeEdge) => (e.kind === "date" ? Date.parse(e.date) : e.at.getTime());
const endMs = (e: RangeEdge) => (e.kind === "date" ? Date.parse(e.date) + DAY_MS : e.at.getTime() + 1);

/** Parses startDate/endDate; a start after the end or a span over MAX_RANGE_DAYS is refused naming endDate. */
export function parseTimesheetRange(startDate: string, endDate: string): RangeResult {
  const start = edge(startDate);
  if (!start) return { ok: false, path: "startDate", message: "must be YYYY-MM-DD or an ISO 8601 timestamp" };
  const end = edge(endDate);
  if (!end) return { ok: false, path: "endDate", message: "must be YYYY-MM-DD or an ISO 8601 timestamp" };
  const span = endMs(end) - startMs(start);
  if (span <= 0) return { ok: false, path: "endDate", message: "must not be before startDate" };
  if (span > MAX_RANGE_DAYS * DAY_MS) return { ok: false, path: "endDate", message: `a range covers at most ${MAX_RANGE_DAYS} days` };
  return { ok: true, range: { start, end } };
}

const utcDate = (instant: Date) => instant.toISOString().slice(0, 10);

/**
 * Inclusive business-date bounds that contain every shift of the range, so the business_date indexes serve
 * instant ranges too: a shift's business date is within a day of its start's UTC date (offsets are -12 h to
 * +14 h). `slackDays` widens date edges for a report day read at another utcOffset than the shift's.
 */
export function businessDateBounds(range: TimesheetRange, slackDays = 0): { first: string; last: string } {
  const { start, end } = range;
  return {
    first: start.kind === "date" ? addDays(start.date, -slackDays) : addDays(utcDate(start.at), -1),
    last: end.kind === "date" ? addDays(end.date, slackDays) : addDays(utcDate(end.at), 1),
  };
}

/** The dates whose locks the listing reports: the range's dates as the client wrote them. */
export const lockedDateBounds = (range: TimesheetRange) => ({ first: range.start.date, last: range.end.date });
