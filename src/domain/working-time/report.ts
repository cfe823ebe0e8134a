import { addDays } from "@/domain/local-time";
import {
  breakViolation,
  dailyRestViolations,
  dailyViolations,
  isMinorOn,
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
  weekStart,
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

const monthsBefore = (month: string, count: number) => {
  const [year, m] = month.split("-").map(Number) as [number, number];
  const index = year * 12 + (m - 1) - count;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`;
};

/**
 * Each calendar month whose first week starts in the period: overtime over the monthly cap (MONTHLY_OVERTIME; under
 * an applying special clause only from the year's seventh such month, the year's months counted inside the range),
 * overtime at or over `monthBelowHours` (MONTHLY_OVERTIME_AND_HOLIDAY_WORK), and the worst monthly average of the
 * windows of `averageHours` months ending in it that lie inside the range, when over the figure
 * (OVERTIME_AND_HOLIDAY_WORK_AVERAGE, dated the window's first month).
 */
export function overtimeViolations(
  pack: WorkingTimePack,
  byDate: ReadonlyMap<string, number>,
  period: { start: string; end: string },
  range: { start: string; end: string } = period,
): Violation[] {
  const cap = pack.overtimeCap;
  if (!cap) return [];
  const months = overtimeByMonth(pack, byDate, (monday) => range.start <= monday && monday <= range.end);
  const inPeriod = [...overtimeByMonth(pack, byDate, (monday) => period.start <= monday && monday <= period.end).keys()].sort();
  const firstMonday = weekStart(range.start) === range.start ? range.start : addDays(weekStart(range.start), 7);
  const firstMonth = firstMonday.slice(0, 7);
  const clause = cap.specialClause?.applies ? cap.specialClause : null;
  const found: Violation[] = [];
  for (const month of inPeriod) {
    const minutes = months.get(month) ?? 0;
    const hoursOf = (m: number) => round2(m / 60);
    const over = (m: string) => m.slice(0, 4) === month.slice(0, 4) && m <= month && (months.get(m) ?? 0) > cap.monthHours * 60;
    const rank = [...months.keys()].filter(over).length;
    if (minutes > cap.monthHours * 60 && (!clause || rank > clause.monthsOverMonthHours))
      found.push({
        rule: "MONTHLY_OVERTIME",
        limit: cap.monthHours,
        actual: hoursOf(minutes),
        unit: "HOURS",
        date: `${month}-01`,
        spanIds: [],
        source: clause ? clause.source : cap.source,
      });
    const below = cap.monthBelowHours;
    if (below && minutes >= below.value * 60)
      found.push({
        rule: "MONTHLY_OVERTIME_AND_HOLIDAY_WORK",
        limit: below.value,
        actual: hoursOf(minutes),
        unit: "HOURS",
        date: `${month}-01`,
        spanIds: [],
        source: below.source,
      });
    const average = cap.averageHours;
    if (!average) continue;
    let worst: { perMonth: number; first: string } | null = null;
    for (let count = average.fromMonths; count <= average.toMonths; count++) {
      const first = monthsBefore(month, count - 1);
      if (first < firstMonth) break;
      let sum = 0;
      for (let k = 0; k < count; k++) sum += months.get(monthsBefore(month, k)) ?? 0;
      if (!worst || sum / count > worst.perMonth) worst = { perMonth: sum / count, first };
    }
    if (worst && worst.perMonth > average.value * 60)
      found.push({
        rule: "OVERTIME_AND_HOLIDAY_WORK_AVERAGE",
        limit: average.value,
        actual: hoursOf(worst.perMonth),
        unit: "HOURS",
        date: `${worst.first}-01`,
        spanIds: [],
        source: average.source,
      });
  }
  return found;
}

const ADULT: Worker = { birthDate: null, optOut: null };

/**
 * Whole 7-day weeks from the period's start without an uninterrupted rest of the pack's weekly figure, each a
 * WEEKLY_REST violation (its date the week's first, its actual the week's longest rest, its spans the week's); a week
 * the worker starts as a minor is held to the minors' weekly rest where longer (MINOR_WEEKLY_REST: UK reg. 11(3)).
 */
export function weeklyRestViolations(
  pack: WorkingTimePack,
  spans: readonly WorkSpan[],
  period: { start: string; end: string },
  worker: Worker = ADULT,
): Violation[] {
  const offset = spans[0]?.utcOffset ?? 0;
  const found: Violation[] = [];
  for (let first = period.start; addDays(first, 6) <= period.end; first = addDays(first, 7)) {
    const minorRest = isMinorOn(pack, worker, first) ? (pack.minors?.weeklyRest ?? null) : null;
    const useMinor = minorRest !== null && minorRest.value > (pack.weeklyRest?.value ?? 0);
    const rest = useMinor ? minorRest : pack.weeklyRest;
    if (!rest) continue;
    const from = Date.parse(`${first}T00:00:00Z`) - offset * MINUTE_MS;
    const to = from + 7 * DAY_MS;
    const free = longestFreeMinutes(spans, from, to);
    if (free >= rest.value * 60) continue;
    const week = spans.filter((s) => s.end.getTime() > from && s.start.getTime() < to);
    found.push({
      rule: useMinor ? "MINOR_WEEKLY_REST" : "WEEKLY_REST",
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
  const clause = cap.specialClause?.applies ? cap.specialClause : null;
  const yearHours = clause ? clause.yearHours : cap.yearHours;
  const weeks = [...overtimeByWeek(pack, byDate)].filter(([monday]) => range.start <= monday && monday <= range.end).sort();
  const totals = new Map<string, number>();
  const found: Violation[] = [];
  for (const [monday, minutes] of weeks) {
    const year = monday.slice(0, 4);
    const before = totals.get(year) ?? 0;
    const after = before + minutes;
    totals.set(year, after);
    if (before <= yearHours * 60 && after > yearHours * 60 && period.start <= monday && monday <= period.end) {
      const yearTotal = weeks.filter(([m]) => m.startsWith(year)).reduce((sum, [, m]) => sum + m, 0);
      found.push({
        rule: "YEARLY_OVERTIME",
        limit: yearHours,
        actual: round2(yearTotal / 60),
        unit: "HOURS",
        date: monday,
        spanIds: [],
        source: clause ? clause.source : cap.source,
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
  const weeklyRest = weeklyRestViolations(pack, inPeriod, period, worker);
  const violations = [
    ...restViolations(pack, sorted, worker).filter((v) => period.start <= v.date && v.date <= period.end),
    ...dailyRestViolations(pack, sorted).filter((v) => period.start <= v.date && v.date <= period.end),
    ...dailyViolations(pack, inPeriod),
    ...weeklyViolations(pack, inPeriod),
    ...inPeriod.flatMap((s) => breakViolation(pack, s, worker) ?? []),
    ...minorViolations(pack, inPeriod, worker, terms),
    ...(average ? [average] : []),
    ...overtimeViolations(pack, byDate, period, range),
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
