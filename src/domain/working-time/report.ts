import { addDays } from "@/domain/local-time";
import {
  breakViolation,
  dailyRestViolations,
  dailyViolations,
  longestFreeMinutes,
  minorViolations,
  optedOutOn,
  overtimeByMonth,
  overtimeByWeek,
  publicHolidayViolations,
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

/**
 * Whole 7-day weeks from the period's start without an uninterrupted rest of the pack's weekly figure, each a
 * WEEKLY_REST violation (its date the week's first, its actual the week's longest rest, its spans the week's).
 */
export function weeklyRestViolations(
  pack: WorkingTimePack,
  spans: readonly WorkSpan[],
  period: { start: string; end: string },
): Violation[] {
  const rest = pack.weeklyRest;
  if (!rest) return [];
  const offset = spans[0]?.utcOffset ?? 0;
  const found: Violation[] = [];
  for (let first = period.start; addDays(first, 6) <= period.end; first = addDays(first, 7)) {
    const from = Date.parse(`${first}T00:00:00Z`) - offset * MINUTE_MS;
    const to = from + 7 * DAY_MS;
    const free = longestFreeMinutes(spans, from, to);
    if (free >= rest.value * 60) continue;
    const week = spans.filter((s) => s.end.getTime() > from && s.start.getTime() < to);
    found.push({
      rule: "WEEKLY_REST",
      limit: rest.value,
      actual: round2(free / 60),
      unit: "HOURS",
      date: first,
      spanIds: week.map((s) => s.id),
      source: rest.source,
    });
  }
  return found;
}

/**
 * Overtime over the pack's yearly cap, per calendar year, counted over the part of the year inside the report's range
 * (each week in the year it starts): reported in the period holding the week that crosses the cap. A range that
 * starts after 1 January counts only from its start, as the rolling averages do.
 */
function yearlyOvertimeViolations(
  pack: WorkingTimePack,
  byDate: ReadonlyMap<string, number>,
  period: { start: string; end: string },
  range: { start: string; end: string },
): Violation[] {
  const cap = pack.overtimeCap;
  if (!cap) return [];
  const weeks = [...overtimeByWeek(pack, byDate)].filter(([monday]) => range.start <= monday && monday <= range.end).sort();
  const totals = new Map<string, number>();
  const found: Violation[] = [];
  for (const [monday, minutes] of weeks) {
    const year = monday.slice(0, 4);
    const before = totals.get(year) ?? 0;
    const after = before + minutes;
    totals.set(year, after);
    if (before <= cap.yearHours * 60 && after > cap.yearHours * 60 && period.start <= monday && monday <= period.end) {
      const yearTotal = weeks.filter(([m]) => m.startsWith(year)).reduce((sum, [, m]) => sum + m, 0);
      found.push({
        rule: "YEARLY_OVERTIME",
        limit: cap.yearHours,
        actual: round2(yearTotal / 60),
        unit: "HOURS",
        date: monday,
        spanIds: [],
        source: cap.source,
      });
    }
  }
  return found;
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
  onHoliday: (span: WorkSpan, date: string) => boolean = () => false,
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
  const weeklyRest = weeklyRestViolations(pack, inPeriod, period);
  const violations = [
    ...restViolations(pack, sorted, worker).filter((v) => period.start <= v.date && v.date <= period.end),
    ...dailyRestViolations(pack, sorted).filter((v) => period.start <= v.date && v.date <= period.end),
    ...dailyViolations(pack, inPeriod),
    ...weeklyViolations(pack, inPeriod),
    ...inPeriod.flatMap((s) => breakViolation(pack, s, worker) ?? []),
    ...minorViolations(pack, inPeriod, worker, terms),
    ...(average ? [average] : []),
    ...overtimeViolations(pack, byDate, period),
    ...yearlyOvertimeViolations(pack, byDate, period, range),
    ...weeklyRest,
    ...publicHolidayViolations(pack, inPeriod, onHoliday),
  ];
  let longestDay = 0;
  for (const [date, minutes] of byDate) if (period.start <= date && date <= period.end && minutes > longestDay) longestDay = minutes;
  return {
    periodStart: period.start,
    periodEnd: period.end,
    averageWeeklyHours: round2(((periodMinutes / periodDays) * 7) / 60),
    longestDayHours: round2(longestDay / 60),
    shortestRestHours: shortestRest === null ? null : round2(shortestRest / 60),
    weeksWithoutWeeklyRest: weeklyRest.length,
    violations,
  };
}
