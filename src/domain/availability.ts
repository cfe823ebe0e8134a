import { Frequency, RRule } from "rrule";
import { MAX_OCCURRENCE_MS } from "./availability-limits";
import { instantInZone } from "./zoned-wall-clock";

export { MAX_OCCURRENCE_MS };

export const AVAILABILITY_TYPES = ["UNAVAILABLE", "PREFERRED"] as const;
export type AvailabilityType = (typeof AVAILABILITY_TYPES)[number];

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** How far a recurring rule is written out for the scheduling guards: two years from its first occurrence. */
export const MATERIALIZED_DAYS = 731;
/** The most occurrences one rule writes out (a daily rule over two years). */
export const MAX_MATERIALIZED = 800;

export interface AvailabilityRule {
  /** The first occurrence's local wall-clock start and end (written with Z). */
  startTime: Date;
  endTime: Date;
  timezone: string;
  /** An RFC 5545 RRULE (without DTSTART), or null for a one-off. */
  recurrence: string | null;
}

export interface Occurrence {
  /** Local wall-clock (with Z). */
  startTime: Date;
  endTime: Date;
  /** The instants, under the zone's rules at each occurrence (so 09:00 stays 09:00 local across DST). */
  utcStartTime: Date;
  utcEndTime: Date;
}

const ALLOWED = new Set([Frequency.DAILY, Frequency.WEEKLY, Frequency.MONTHLY, Frequency.YEARLY]);

/**
 * A recurrence as RFC 5545 reads it (rrule's grammar), or what is wrong with it. DTSTART comes from startTime;
 * sub-daily frequencies are refused (an availability repeats at most daily).
 */
export function parseRecurrence(
  text: string,
): { ok: true; options: Partial<ConstructorParameters<typeof RRule>[0]> } | { ok: false; message: string } {
  const rule = text.trim().replace(/^RRULE:/i, "");
  if (/DTSTART/i.test(rule)) return { ok: false, message: "must not carry DTSTART: startTime is the first occurrence" };
  // At most one occurrence a day: startTime sets the time of day, so no BYHOUR, BYMINUTE or BYSECOND.
  if (/(?:^|;)BY(?:HOUR|MINUTE|SECOND)=/i.test(rule))
    return { ok: false, message: "must not set BYHOUR, BYMINUTE or BYSECOND: startTime sets the time of day" };
  const byDay = /(?:^|;)BYDAY=([^;]*)/i.exec(rule)?.[1];
  if (byDay !== undefined && !byDay.split(",").every((day) => /^[+-]?(?:[1-9]|[1-4]\d|5[0-3])?(?:MO|TU|WE|TH|FR|SA|SU)$/i.test(day))) {
    return { ok: false, message: "BYDAY lists days as MO, TU, WE, TH, FR, SA, SU (optionally numbered, e.g. 1MO or -1FR)" };
  }
  let options: Partial<ConstructorParameters<typeof RRule>[0]>;
  try {
    options = RRule.parseString(rule);
  } catch (error) {
    return { ok: false, message: `is not an RFC 5545 RRULE (${error instanceof Error ? error.message : "unreadable"})` };
  }
  if (options.freq === undefined || !ALLOWED.has(options.freq)) {
    return { ok: false, message: "needs FREQ=DAILY, WEEKLY, MONTHLY or YEARLY" };
  }
  if (options.interval !== undefined && (!Number.isInteger(options.interval) || options.interval < 1 || options.interval > 365)) {
    return { ok: false, message: "INTERVAL must be from 1 to 365" };
  }
  if (options.count !== undefined && options.count !== null && (options.count < 1 || options.count > MAX_MATERIALIZED)) {
    return { ok: false, message: `COUNT must be from 1 to ${MAX_MATERIALIZED}` };
  }
  return { ok: true, options };
}

/** What is wrong with a rule (field problems, empty when acceptable). */
export function availabilityProblems(rule: AvailabilityRule): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  const length = rule.endTime.getTime() - rule.startTime.getTime();
  if (length <= 0) problems.push({ path: "endTime", message: "must be after startTime" });
  else if (length > MAX_OCCURRENCE_MS) problems.push({ path: "endTime", message: "an occurrence lasts at most 7 days" });
  if (rule.recurrence !== null) {
    const parsed = parseRecurrence(rule.recurrence);
    if (!parsed.ok) problems.push({ path: "recurrence", message: parsed.message });
  }
  return problems;
}

/** The wall-clock starts of a rule's occurrences in [from, to] (wall-clock), at most `limit`. */
function wallStarts(rule: AvailabilityRule, from: Date, to: Date, limit: number): Date[] {
  if (rule.recurrence === null) return rule.startTime >= from && rule.startTime <= to ? [rule.startTime] : [];
  const parsed = parseRecurrence(rule.recurrence);
  if (!parsed.ok) return [];
  // rrule iterates in UTC; our wall-clock readings are written as UTC, so BYHOUR and BYDAY read local time.
  const recurrence = new RRule({ ...parsed.options, dtstart: rule.startTime });
  const starts: Date[] = [];
  recurrence.between(from, to, true, (date) => {
    starts.push(date);
    return starts.length < limit;
  });
  return starts;
}

const occurrenceAt = (rule: AvailabilityRule, start: Date): Occurrence => {
  const end = new Date(start.getTime() + rule.endTime.getTime() - rule.startTime.getTime());
  return {
    startTime: start,
    endTime: end,
    utcStartTime: instantInZone(start, rule.timezone),
    utcEndTime: instantInZone(end, rule.timezone),
  };
};

/**
 * The occurrences overlapping the wall-clock range [from, to) of the rule's zone, in order: each keeps the first
 * occurrence's local times and length, its instants read under the zone's rules on its own date.
 */
export function expandAvailability(rule: AvailabilityRule, from: Date, to: Date, limit = 1000): Occurrence[] {
  const length = rule.endTime.getTime() - rule.startTime.getTime();
  return wallStarts(rule, new Date(from.getTime() - length + 1), new Date(to.getTime() - 1), limit).map((start) =>
    occurrenceAt(rule, start),
  );
}

/** The occurrences the scheduling guards check: two years of them from the first, at most MAX_MATERIALIZED. */
export const materializedOccurrences = (rule: AvailabilityRule): Occurrence[] =>
  expandAvailability(rule, rule.startTime, new Date(rule.startTime.getTime() + MATERIALIZED_DAYS * DAY_MS), MAX_MATERIALIZED);

export const minutesBetween = (start: Date, end: Date) => Math.round((end.getTime() - start.getTime()) / MINUTE_MS);
