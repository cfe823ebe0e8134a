import { RRule } from "rrule";
import { MAX_OCCURRENCE_MS } from "./availability-limits";
import { MAX_COUNT, parseRecurrenceRule, type Recurrence } from "./recurrence";
import { instantInZone } from "./zoned-wall-clock";

export { MAX_OCCURRENCE_MS };

export const AVAILABILITY_TYPES = ["UNAVAILABLE", "PREFERRED"] as const;
export type AvailabilityType = (typeof AVAILABILITY_TYPES)[number];

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/**
 * How far ahead of now a recurring rule's occurrences are written out for the scheduling guards and eligibility:
 * the Cron tops them up once fewer than MIN_AHEAD_DAYS remain, so two years ahead are always there.
 */
export const HORIZON_DAYS = 738;
export const MIN_AHEAD_DAYS = 731;
/** How far back of now a write starts writing occurrences out (a rule that began years ago). */
export const LOOKBACK_DAYS = 31;
/** The most occurrences one rule writes out at once (a daily rule over the lookback and the horizon). */
export const MAX_MATERIALIZED = MAX_COUNT;
/** The most dates a rule skips. */
export const MAX_EXDATES = 366;
/** A rule must have an occurrence within this many years of its startTime. */
const FIRST_OCCURRENCE_YEARS = 10;

export interface AvailabilityRule {
  /** The first occurrence's local wall-clock start and end (written with Z). */
  startTime: Date;
  endTime: Date;
  timezone: string;
  /** An RFC 5545 RRULE (without DTSTART), or null for a one-off. */
  recurrence: string | null;
  /** Local dates (YYYY-MM-DD) on which no occurrence starts. */
  exdates?: readonly string[];
}

export interface Occurrence {
  /** Local wall-clock (with Z). */
  startTime: Date;
  endTime: Date;
  /** The instants, under the zone's rules at each occurrence (so 09:00 stays 09:00 local across DST). */
  utcStartTime: Date;
  utcEndTime: Date;
}

/**
 * A recurrence read strictly (domain/recurrence): DTSTART comes from startTime; sub-daily frequencies are refused
 * (an availability repeats at most daily). `canonical` is what is stored.
 */
export function parseRecurrence(text: string): { ok: true; recurrence: Recurrence } | { ok: false; message: string } {
  return parseRecurrenceRule(text);
}

/** The dates a rule skips, as stored: unique and in order. */
export const normalizeExdates = (dates: readonly string[]): string[] => [...new Set(dates)].sort();

const PERIOD_DAYS = { DAILY: 1, WEEKLY: 7, MONTHLY: 28, YEARLY: 365 } as const;

class OutOfSteps extends Error {}

/**
 * The rule as rrule iterates it, allowed only the steps (one a period) that reach `to` and a few more: rrule walks
 * period after period until year 9999 while no date passes its filters (FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30 would
 * take seconds), so each step reads `interval` and a read past the allowance ends the walk with OutOfSteps.
 */
function steppedRule(recurrence: Recurrence, dtstart: Date, to: Date): RRule {
  const interval = recurrence.options.interval ?? 1;
  const steps = Math.ceil(Math.max(0, to.getTime() - dtstart.getTime()) / (PERIOD_DAYS[recurrence.freq] * interval * DAY_MS)) + 8;
  const rule = new RRule({ ...recurrence.options, dtstart });
  // rrule reads `interval` twice a step (its end-of-step check and the step itself).
  let reads = 2 * steps + 16;
  Object.defineProperty(rule.options, "interval", {
    get() {
      if (--reads < 0) throw new OutOfSteps();
      return interval;
    },
  });
  return rule;
}

const localDate = (wall: Date) => wall.toISOString().slice(0, 10);

/** The wall-clock starts of a rule's occurrences in [from, to] (wall-clock), skipping its exdates, at most `limit`. */
function wallStarts(rule: AvailabilityRule, from: Date, to: Date, limit: number, skipExdates = true): Date[] {
  const skipped = new Set(skipExdates ? rule.exdates : []);
  if (rule.recurrence === null) {
    return rule.startTime >= from && rule.startTime <= to && !skipped.has(localDate(rule.startTime)) ? [rule.startTime] : [];
  }
  const parsed = parseRecurrence(rule.recurrence);
  if (!parsed.ok || limit <= 0) return [];
  const starts: Date[] = [];
  try {
    // rrule iterates in UTC; our wall-clock readings are written as UTC, so BYDAY and UNTIL read local time.
    steppedRule(parsed.recurrence, rule.startTime, to).between(from, to, true, (date) => {
      if (!skipped.has(localDate(date))) starts.push(date);
      return starts.length < limit;
    });
  } catch (error) {
    // Out of steps: no occurrence is left in range. Anything else is a defect, and must not read as "no occurrence".
    if (!(error instanceof OutOfSteps)) throw error;
  }
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

/** What is wrong with a rule (field problems, empty when acceptable). */
export function availabilityProblems(rule: AvailabilityRule): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  const length = rule.endTime.getTime() - rule.startTime.getTime();
  if (length <= 0) problems.push({ path: "endTime", message: "must be after startTime" });
  else if (length > MAX_OCCURRENCE_MS) problems.push({ path: "endTime", message: "an occurrence lasts at most 7 days" });
  if (rule.recurrence !== null) {
    const parsed = parseRecurrence(rule.recurrence);
    if (!parsed.ok) problems.push({ path: "recurrence", message: parsed.message });
    else if (parsed.recurrence.until !== null && parsed.recurrence.until < rule.startTime) {
      problems.push({ path: "recurrence", message: "UNTIL is before the first occurrence (startTime)" });
    } else {
      const searchEnd = new Date(rule.startTime.getTime() + FIRST_OCCURRENCE_YEARS * 366 * DAY_MS);
      if (wallStarts(rule, rule.startTime, searchEnd, 1, false).length === 0) {
        problems.push({ path: "recurrence", message: `matches no date within ${FIRST_OCCURRENCE_YEARS} years of startTime` });
      }
    }
  }
  return problems;
}

/**
 * The occurrences overlapping the wall-clock range [from, to) of the rule's zone, in order: each keeps the first
 * occurrence's local times and length, its instants read under the zone's rules on its own date. An occurrence
 * whose local start date is one of the rule's exdates is skipped.
 */
export function expandAvailability(rule: AvailabilityRule, from: Date, to: Date, limit = 1000): Occurrence[] {
  const length = rule.endTime.getTime() - rule.startTime.getTime();
  return wallStarts(rule, new Date(from.getTime() - length + 1), new Date(to.getTime() - 1), limit).map((start) =>
    occurrenceAt(rule, start),
  );
}

export interface WrittenOut {
  occurrences: Occurrence[];
  /** The wall-clock time up to which occurrences are written, or null when none follows (a one-off, a rule ended). */
  through: Date | null;
}

/**
 * The occurrences the scheduling guards and eligibility read, written out from `from` (default: LOOKBACK_DAYS
 * before now, or the first occurrence if later) to HORIZON_DAYS ahead of now (or of the first occurrence, if later),
 * at most MAX_MATERIALIZED; `through` says where the next top-up (the Cron) starts.
 */
export function writtenOut(rule: AvailabilityRule, now: Date, from?: Date): WrittenOut {
  const start = from ?? new Date(Math.max(rule.startTime.getTime(), now.getTime() - LOOKBACK_DAYS * DAY_MS));
  const end = new Date(Math.max(rule.startTime.getTime(), now.getTime()) + HORIZON_DAYS * DAY_MS);
  const occurrences = expandAvailability(rule, start, end, MAX_MATERIALIZED);
  if (rule.recurrence === null) return { occurrences, through: null };
  if (occurrences.length === MAX_MATERIALIZED) return { occurrences, through: occurrences.at(-1)!.startTime };
  const later = wallStarts(rule, end, new Date(end.getTime() + FIRST_OCCURRENCE_YEARS * 366 * DAY_MS), 1, false);
  return { occurrences, through: later.length > 0 ? end : null };
}

export const minutesBetween = (start: Date, end: Date) => Math.round((end.getTime() - start.getTime()) / MINUTE_MS);
