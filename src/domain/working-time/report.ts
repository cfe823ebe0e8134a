import { addDays } from "@/domain/local-time";
import {
  breakViolation,
  dailyViolations,
  minorViolations,
  optedOutOn,
  overtimeByMonth,
  restViolations,
  spanDate,
  type Violation,
  type Worker,
  type WorkSpan,
  weeklyViolations,
  workedMinutes,
} from "./checks";
import type { WorkingTimePack } from "./packs";

export type PeriodSummary = {
  periodStart: string;
  periodEnd: string;
  averageWeeklyHours: number;
  longestDayHours: number;
  shortestRestHours: number | null;
  weeksWithoutWeeklyRest: number;
  violations: Violation[];
};

/** Without a weekly average the report's periods are four weeks long. */
export const DEFAULT_REFERENCE_WEEKS = 4;

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const round2 = (value: number) => Math.round(value * 100) / 100;
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/** The reference periods cutting [startDate, endDate]: blocks of the pack's reference weeks from startDate, the last clipped. */
export function referencePeriods(pack: WorkingTimePack, startDate: string, endDate: string): { start: string; end: string }[] {
  const days = (pack.weeklyAverage?.referenceWeeks ?? DEFAULT_REFERENCE_WEEKS) * 7;
  const periods: { start: string; end: string }[] = [];
  for (let start = startDate; start <= endDate; start = addDays(start, days)) {
    const end = addDays(start, days - 1);
    periods.push({ start, end: end < endDate ? end : endDate });
  }
  return periods;
}

const minutesByDate = (spans: readonly WorkSpan[]) => {
  const byDate = new Map<string, number>();
  for (const span of spans) byDate.set(spanDate(span), (byDate.get(spanDate(span)) ?? 0) + workedMinutes(span));
  return byDate;
};

const sumDates = (byDate: ReadonlyMap<string, number>, from: string, to: string) => {
  let sum = 0;
  for (const [date, minutes] of byDate) if (from <= date && date <= to) sum += minutes;
  return sum;
};

/**
 * The worst rolling average ending inside the period: every window of the reference length (or the whole range, if
 * shorter) that lies inside [rangeStart, rangeEnd] and ends in the period; a window ending on a date the worker's
 * opt-out is in force is not held to it. Exactly the limit is allowed.
 */
export function weeklyAverageViolation(
  pack: WorkingTimePack,
  byDate: ReadonlyMap<string, number>,
  period: { start: string; end: string },
  range: { start: string; end: string },
  worker: Worker,
): Violation | null {
  const rule = pack.weeklyAverage;
  if (!rule) return null;
  const windowDays = Math.min(rule.referenceWeeks * 7, daysBetween(range.start, range.end) + 1);
  let worst: { minutes: number; start: string } | null = null;
  for (let end = period.start; end <= period.end; end = addDays(end, 1)) {
    const start = addDays(end, -(windowDays - 1));
    if (start < range.start || (rule.optOutAllowed && optedOutOn(worker, end))) continue;
    const minutes = sumDates(byDate, start, end);
    if (!worst || minutes > worst.minutes) worst = { minutes, start };
  }
  if (!worst) return null;
  const average = (worst.minutes / windowDays) * 7;
  if (average <= rule.hours * 60) return null;
  return {
    rule: "WEEKLY_AVERAGE",
    limit: rule.hours,
    actual: round2(average / 60),
    unit: "HOURS",
    date: worst.start,
    spanIds: [],
    source: rule.source,
  };
}

/** Overtime over the pack's monthly cap in each calendar month whose first week starts in the period. */
function overtimeViolations(
  pack: WorkingTimePack,
  byDate: ReadonlyMap<string, number>,
  period: { start: string; end: string },
): Violation[] {
  const cap = pack.overtimeCap;
  if (!cap) return [];
  const months = overtimeByMonth(pack, byDate, (monday) => period.start <= monday && monday <= period.end);
  return [...months]
    .filter(([, minutes]) => minutes > cap.monthHours * 60)
    .map(([month, minutes]) => ({
      rule: "MONTHLY_OVERTIME" as const,
      limit: cap.monthHours,
      actual: round2(minutes / 60),
      unit: "HOURS" as const,
      date: `${month}-01`,
      spanIds: [],
      source: cap.source,
    }));
}

/** The longest stretch free of work inside [from, to) given the spans (sorted by start), in minutes. */
function longestFreeMinutes(spans: readonly WorkSpan[], from: number, to: number): number {
  let cursor = from;
  let longest = 0;
  for (const span of spans) {
    const start = span.start.getTime();
    const end = span.end.getTime();
    if (end <= from || start >= to) continue;
    longest = Math.max(longest, start - cursor);
    cursor = Math.max(cursor, end);
  }
  return Math.round(Math.max(longest, to - cursor) / MINUTE_MS);
}

/** Whole 7-day weeks from the period's start without an uninterrupted rest of the pack's weekly figure. */
function weeksWithoutRest(pack: WorkingTimePack, spans: readonly WorkSpan[], period: { start: string; end: string }): number {
  const rest = pack.weeklyRest;
  if (!rest) return 0;
  const offset = spans[0]?.utcOffset ?? 0;
  let count = 0;
  for (let monday = period.start; addDays(monday, 6) <= period.end; monday = addDays(monday, 7)) {
    const from = Date.parse(`${monday}T00:00:00Z`) - offset * MINUTE_MS;
    if (longestFreeMinutes(spans, from, from + 7 * DAY_MS) < rest.value * 60) count++;
  }
  return count;
}

/**
 * One worker's summary of one reference period under `pack`: `spans` are their worked shifts across the whole
 * report range (earlier ones too, for rolling averages), sorted or not.
 */
export function summarizePeriod(
  pack: WorkingTimePack,
  spans: readonly WorkSpan[],
  period: { start: string; end: string },
  range: { start: string; end: string },
  worker: Worker,
  terms: readonly { startDate: string; endDate: string }[] = [],
): PeriodSummary {
  const sorted = [...spans].sort((a, b) => a.start.getTime() - b.start.getTime());
  const inPeriod = sorted.filter((s) => period.start <= spanDate(s) && spanDate(s) <= period.end);
  const byDate = minutesByDate(sorted);
  const periodDays = daysBetween(period.start, period.end) + 1;
  const periodMinutes = sumDates(byDate, period.start, period.end);
  let shortestRest: number | null = null;
  for (let i = 1; i < sorted.length; i++) {
    if (spanDate(sorted[i]!) < period.start || spanDate(sorted[i]!) > period.end) continue;
    const gap = (sorted[i]!.start.getTime() - sorted[i - 1]!.end.getTime()) / MINUTE_MS;
    if (gap >= 0 && (shortestRest === null || gap < shortestRest)) shortestRest = gap;
  }
  const average = weeklyAverageViolation(pack, byDate, period, range, worker);
  const violations = [
    ...restViolations(pack, sorted, worker).filter((v) => period.start <= v.date && v.date <= period.end),
    ...dailyViolations(pack, inPeriod),
    ...weeklyViolations(pack, inPeriod),
    ...inPeriod.flatMap((s) => breakViolation(pack, s, worker) ?? []),
    ...minorViolations(pack, inPeriod, worker, terms),
    ...(average ? [average] : []),
    ...overtimeViolations(pack, byDate, period),
  ];
  let longestDay = 0;
  for (const [date, minutes] of byDate) if (period.start <= date && date <= period.end && minutes > longestDay) longestDay = minutes;
  return {
    periodStart: period.start,
    periodEnd: period.end,
    averageWeeklyHours: round2(((periodMinutes / periodDays) * 7) / 60),
    longestDayHours: round2(longestDay / 60),
    shortestRestHours: shortestRest === null ? null : round2(shortestRest / 60),
    weeksWithoutWeeklyRest: weeksWithoutRest(pack, inPeriod, period),
    violations,
  };
}
