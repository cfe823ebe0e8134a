import { addDays, businessDate, localWallClock } from "@/domain/local-time";
import type { BreakTier, WorkingTimePack } from "./packs";

/** A stretch of work: a published schedule entry (planned) or a worked shift (timesheet). */
export type WorkSpan = {
  id: string;
  kind: "ENTRY" | "SHIFT";
  start: Date;
  end: Date;
  /** Minutes of unpaid or paid breaks taken inside it (each block at least the pack's minBlockMinutes counts). */
  breakBlocks: number[];
  /** Minutes east of UTC at the span's place: dates and times of day are local. */
  utcOffset: number;
};

export const WORKING_TIME_RULES = [
  "REST_BETWEEN_SHIFTS",
  "DAILY_REST",
  "DAILY_MAXIMUM",
  "WEEKLY_MAXIMUM",
  "WEEKLY_AVERAGE",
  "WEEKLY_REST",
  "BREAK",
  "MONTHLY_OVERTIME",
  "YEARLY_OVERTIME",
  "MONTHLY_OVERTIME_AND_HOLIDAY_WORK",
  "OVERTIME_AND_HOLIDAY_WORK_AVERAGE",
  "MINOR_DAILY_HOURS",
  "MINOR_WEEKLY_HOURS",
  "MINOR_TIME_OF_DAY",
  "MINOR_REST",
  "MINOR_WEEKLY_REST",
  "PUBLIC_HOLIDAY_WORK",
] as const;
export type WorkingTimeRule = (typeof WORKING_TIME_RULES)[number];

export type Violation = {
  rule: WorkingTimeRule;
  limit: number;
  actual: number;
  unit: "HOURS" | "MINUTES" | "TIME_OF_DAY";
  /** The local date the violation is about (a week's or period's first date). */
  date: string;
  spanIds: string[];
  source: string;
};

export type Worker = {
  birthDate: Date | null;
  /** An opt-out of the weekly average (UK reg. 5): in force from signedOn up to the day before withdrawnOn. */
  optOut: { signedOn: string; withdrawnOn: string | null } | null;
};

const MINUTE_MS = 60_000;
const round2 = (value: number) => Math.round(value * 100) / 100;
const hours = (minutes: number) => round2(minutes / 60);

export const spanDate = (span: WorkSpan) => businessDate(span.start, span.utcOffset);
const timeOfDay = (instant: Date, utcOffset: number) => localWallClock(instant, utcOffset).slice(11, 16);
const spanMinutes = (span: WorkSpan) => Math.round((span.end.getTime() - span.start.getTime()) / MINUTE_MS);

/** Minutes worked: the span less its breaks. */
export const workedMinutes = (span: WorkSpan) => spanMinutes(span) - span.breakBlocks.reduce((sum, b) => sum + b, 0);

/** The Monday of the ISO week holding `date` (YYYY-MM-DD). */
export function weekStart(date: string): string {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return addDays(date, -((day + 6) % 7));
}

/** Whole years of age on `date`: a birthday counts from its own day. */
export function ageOn(birthDate: Date, date: string): number {
  const born = birthDate.toISOString().slice(0, 10);
  const years = Number(date.slice(0, 4)) - Number(born.slice(0, 4));
  return date.slice(5) < born.slice(5) ? years - 1 : years;
}

/** The first Monday of September of `year` (US Labor Day). */
export function laborDay(year: number): string {
  const first = `${year}-09-01`;
  const day = new Date(`${first}T00:00:00Z`).getUTCDay();
  return addDays(first, (8 - day) % 7);
}

/** Whether the worker's opt-out of the weekly average is in force on `date`. */
export const optedOutOn = (worker: Worker, date: string) =>
  worker.optOut !== null && worker.optOut.signedOn <= date && (worker.optOut.withdrawnOn === null || date < worker.optOut.withdrawnOn);

const byStart = (spans: readonly WorkSpan[]) =>
  [...spans].sort((a, b) => a.start.getTime() - b.start.getTime() || a.id.localeCompare(b.id));

export const isMinorOn = (pack: WorkingTimePack, worker: Worker, date: string) =>
  pack.minors !== null && worker.birthDate !== null && ageOn(worker.birthDate, date) < pack.minors.underAge;

/** Rest between consecutive spans shorter than the pack's (a minor's where longer); exactly the figure is enough. */
export function restViolations(pack: WorkingTimePack, spans: readonly WorkSpan[], worker: Worker): Violation[] {
  const found: Violation[] = [];
  const sorted = byStart(spans);
  for (let i = 1; i < sorted.length; i++) {
    const previous = sorted[i - 1]!;
    const next = sorted[i]!;
    const date = spanDate(next);
    const minorRest = isMinorOn(pack, worker, date) ? (pack.minors?.restHours ?? null) : null;
    const adult = pack.restBetweenShifts;
    const useMinor = minorRest !== null && minorRest > (adult?.value ?? 0);
    const required = useMinor ? minorRest : adult?.value;
    if (required === undefined || required === null) continue;
    // Ontario: successive shifts of 13 hours' work or less together need no rest between them (a minor's rest stays).
    const waiver = pack.restBetweenShiftsWaivedUpTo;
    if (!useMinor && waiver && workedMinutes(previous) + workedMinutes(next) <= waiver.value * 60) continue;
    const gap = Math.round((next.start.getTime() - previous.end.getTime()) / MINUTE_MS);
    if (gap < 0 || gap >= Math.round(required * 60)) continue;
    found.push({
      rule: useMinor ? "MINOR_REST" : "REST_BETWEEN_SHIFTS",
      limit: required,
      actual: hours(gap),
      unit: "HOURS",
      date,
      spanIds: [previous.id, next.id],
      source: useMinor ? pack.minors!.source : adult!.source,
    });
  }
  return found;
}

const HOUR_MS = 3_600_000;

/** The longest stretch free of work inside [from, to) given spans sorted by start, in minutes. */
export function longestFreeMinutes(spans: readonly WorkSpan[], from: number, to: number): number {
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

/**
 * Days without the pack's consecutive daily rest: each day is the 24 hours from the worker's first start on a local
 * date, and its longest stretch free of work (work of the next day inside it counts) must reach the figure.
 */
export function dailyRestViolations(pack: WorkingTimePack, spans: readonly WorkSpan[]): Violation[] {
  const rest = pack.dailyRest;
  if (!rest) return [];
  const sorted = byStart(spans);
  return [...groupBy(sorted, spanDate)].flatMap(([date, day]) => {
    const from = day[0]!.start.getTime();
    const to = from + 24 * HOUR_MS;
    const free = longestFreeMinutes(sorted, from, to);
    if (free >= Math.round(rest.value * 60)) return [];
    const involved = sorted.filter((s) => s.end.getTime() > from && s.start.getTime() < to);
    return [
      {
        rule: "DAILY_REST" as const,
        limit: rest.value,
        actual: hours(free),
        unit: "HOURS" as const,
        date,
        spanIds: involved.map((s) => s.id),
        source: rest.source,
      },
    ];
  });
}

const groupBy = (spans: readonly WorkSpan[], key: (span: WorkSpan) => string) => {
  const groups = new Map<string, WorkSpan[]>();
  for (const span of spans) groups.set(key(span), [...(groups.get(key(span)) ?? []), span]);
  return groups;
};

const total = (spans: readonly WorkSpan[]) => spans.reduce((sum, s) => sum + workedMinutes(s), 0);

/** Work on a public holiday where the pack forbids it: each such date, its hours worked (the limit is 0). */
export function publicHolidayViolations(
  pack: WorkingTimePack,
  spans: readonly WorkSpan[],
  onHoliday: (span: WorkSpan, date: string) => boolean,
): Violation[] {
  const rule = pack.publicHolidayRest;
  if (!rule) return [];
  return [...groupBy(spans, spanDate)].flatMap(([date, day]) => {
    const worked = day.filter((s) => onHoliday(s, date));
    return worked.length
      ? [
          {
            rule: "PUBLIC_HOLIDAY_WORK" as const,
            limit: 0,
            actual: hours(total(worked)),
            unit: "HOURS" as const,
            date,
            spanIds: worked.map((s) => s.id),
            source: rule.source,
          },
        ]
      : [];
  });
}

/** Hours worked on one local date over the pack's daily maximum (exactly the cap is allowed). */
export function dailyViolations(pack: WorkingTimePack, spans: readonly WorkSpan[]): Violation[] {
  const cap = pack.dailyMaximum;
  if (!cap) return [];
  return [...groupBy(spans, spanDate)].flatMap(([date, day]) => {
    const minutes = total(day);
    return minutes > cap.value * 60
      ? [
          {
            rule: "DAILY_MAXIMUM" as const,
            limit: cap.value,
            actual: hours(minutes),
            unit: "HOURS" as const,
            date,
            spanIds: day.map((s) => s.id),
            source: cap.source,
          },
        ]
      : [];
  });
}

/** Hours worked in one Monday-to-Sunday week over the pack's weekly maximum. */
export function weeklyViolations(pack: WorkingTimePack, spans: readonly WorkSpan[]): Violation[] {
  const cap = pack.weeklyMaximum;
  if (!cap) return [];
  return [...groupBy(spans, (s) => weekStart(spanDate(s)))].flatMap(([date, week]) => {
    const minutes = total(week);
    return minutes > cap.value * 60
      ? [
          {
            rule: "WEEKLY_MAXIMUM" as const,
            limit: cap.value,
            actual: hours(minutes),
            unit: "HOURS" as const,
            date,
            spanIds: week.map((s) => s.id),
            source: cap.source,
          },
        ]
      : [];
  });
}

/** Each Monday-started week's overtime in minutes: the larger of the day-by-day minutes over the daily figure and the week's over the weekly. */
export function overtimeByWeek(pack: WorkingTimePack, byDate: ReadonlyMap<string, number>): Map<string, number> {
  const cap = pack.overtimeCap;
  const weeks = new Map<string, { daily: number; total: number }>();
  if (!cap) return new Map();
  for (const [date, minutes] of byDate) {
    const week = weeks.get(weekStart(date)) ?? { daily: 0, total: 0 };
    week.daily += Math.max(0, minutes - cap.ordinaryDailyHours * 60);
    week.total += minutes;
    weeks.set(weekStart(date), week);
  }
  return new Map([...weeks].map(([monday, w]) => [monday, Math.max(w.daily, w.total - cap.ordinaryWeeklyHours * 60)]));
}

/** Overtime minutes per calendar month (YYYY-MM), each week counted in the month it starts; only weeks `counts` keeps. */
export function overtimeByMonth(
  pack: WorkingTimePack,
  byDate: ReadonlyMap<string, number>,
  counts: (monday: string) => boolean = () => true,
): Map<string, number> {
  const months = new Map<string, number>();
  for (const [monday, minutes] of overtimeByWeek(pack, byDate))
    if (counts(monday)) months.set(monday.slice(0, 7), (months.get(monday.slice(0, 7)) ?? 0) + minutes);
  return months;
}

/** The break minutes `tiers` require for `worked` minutes: the largest tier whose overHours the work exceeds (or reaches, inclusive). */
export function requiredBreakMinutes(tiers: readonly BreakTier[], worked: number): number {
  let required = 0;
  for (const tier of tiers) {
    const reached = tier.inclusive ? worked >= tier.overHours * 60 : worked > tier.overHours * 60;
    if (reached && tier.minutes > required) required = tier.minutes;
  }
  return required;
}

/**
 * A span's breaks short of what its worked minutes require (the adult tiers, or a minor's where stricter): only
 * blocks of at least minBlockMinutes count (ArbZG §4's 15-minute blocks).
 */
export function breakViolation(pack: WorkingTimePack, span: WorkSpan, worker: Worker): Violation | null {
  const rule = pack.breaks;
  const date = spanDate(span);
  const minorTiers = isMinorOn(pack, worker, date) ? (pack.minors?.breakTiers ?? []) : [];
  const worked = workedMinutes(span);
  const adultRequired = rule ? requiredBreakMinutes(rule.tiers, rule.measure === "SPAN" ? spanMinutes(span) : worked) : 0;
  const minorRequired = requiredBreakMinutes(minorTiers, worked);
  const required = Math.max(adultRequired, minorRequired);
  if (required === 0) return null;
  const minBlock = rule?.minBlockMinutes ?? 0;
  const taken = span.breakBlocks.filter((b) => b >= minBlock).reduce((sum, b) => sum + b, 0);
  if (taken >= required) return null;
  const source = minorRequired > adultRequired ? pack.minors!.source : rule!.source;
  return { rule: "BREAK", limit: required, actual: taken, unit: "MINUTES", date, spanIds: [span.id], source };
}

/** Whether a local date is a school day: a weekday inside one of the location's school terms. */
export function isSchoolDay(date: string, terms: readonly { startDate: string; endDate: string }[]): boolean {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day !== 0 && day !== 6 && terms.some((t) => t.startDate <= date && date <= t.endDate);
}

const inSummer = (minors: NonNullable<WorkingTimePack["minors"]>, date: string) => {
  if (!minors.summerFrom) return false;
  const year = Number(date.slice(0, 4));
  const to = minors.summerTo === "LABOR_DAY" ? laborDay(year) : `${year}-12-31`;
  return `${year}-${minors.summerFrom}` <= date && date <= to;
};

/** A minor's hours: per day (a school day's cap or another day's), per week (a school week's or another's), time of day. */
export function minorViolations(
  pack: WorkingTimePack,
  spans: readonly WorkSpan[],
  worker: Worker,
  terms: readonly { startDate: string; endDate: string }[],
): Violation[] {
  const minors = pack.minors;
  if (!minors || !worker.birthDate) return [];
  const minorSpans = spans.filter((s) => isMinorOn(pack, worker, spanDate(s)));
  const found: Violation[] = [];
  for (const [date, day] of groupBy(minorSpans, spanDate)) {
    const cap = isSchoolDay(date, terms) ? minors.schoolDayHours : minors.dayHours;
    const minutes = total(day);
    if (cap !== null && minutes > cap * 60)
      found.push({
        rule: "MINOR_DAILY_HOURS",
        limit: cap,
        actual: hours(minutes),
        unit: "HOURS",
        date,
        spanIds: day.map((s) => s.id),
        source: minors.source,
      });
  }
  for (const [monday, week] of groupBy(minorSpans, (s) => weekStart(spanDate(s)))) {
    const schoolWeek = [0, 1, 2, 3, 4].some((d) => isSchoolDay(addDays(monday, d), terms));
    const cap = schoolWeek ? minors.schoolWeekHours : minors.weekHours;
    const minutes = total(week);
    if (cap !== null && minutes > cap * 60)
      found.push({
        rule: "MINOR_WEEKLY_HOURS",
        limit: cap,
        actual: hours(minutes),
        unit: "HOURS",
        date: monday,
        spanIds: week.map((s) => s.id),
        source: minors.source,
      });
  }
  for (const span of minorSpans) {
    const date = spanDate(span);
    const latest = inSummer(minors, date) && minors.summerLatest ? minors.summerLatest : minors.latest;
    const starts = timeOfDay(span.start, span.utcOffset);
    const endsNextDay = businessDate(span.end, span.utcOffset) > date;
    const ends = endsNextDay ? "24:00" : timeOfDay(span.end, span.utcOffset);
    if (minors.earliest && starts < minors.earliest)
      found.push({
        rule: "MINOR_TIME_OF_DAY",
        limit: toHours(minors.earliest),
        actual: toHours(starts),
        unit: "TIME_OF_DAY",
        date,
        spanIds: [span.id],
        source: minors.source,
      });
    else if (latest && ends > latest)
      found.push({
        rule: "MINOR_TIME_OF_DAY",
        limit: toHours(latest),
        actual: toHours(ends),
        unit: "TIME_OF_DAY",
        date,
        spanIds: [span.id],
        source: minors.source,
      });
  }
  return found;
}

/** "HH:MM" as hours after midnight (19:30 → 19.5). */
const toHours = (hhmm: string) => round2(Number(hhmm.slice(0, 2)) + Number(hhmm.slice(3, 5)) / 60);

/**
 * What a schedule write is refused for: the rules a planned span breaks among the worker's other spans (published
 * entries and worked shifts around it) — rest between shifts and in each day, daily and weekly maximums, a minor's hours. Only violations that
 * involve one of `candidateIds` are returned (an old violation of other spans does not block a new write).
 */
export function scheduleViolations(
  pack: WorkingTimePack,
  spans: readonly WorkSpan[],
  candidateIds: ReadonlySet<string>,
  worker: Worker,
  terms: readonly { startDate: string; endDate: string }[],
): Violation[] {
  const all = [
    ...restViolations(pack, spans, worker),
    ...dailyRestViolations(pack, spans),
    ...dailyViolations(pack, spans),
    ...weeklyViolations(pack, spans),
    ...minorViolations(pack, spans, worker, terms),
  ];
  return all.filter((v) => v.spanIds.some((id) => candidateIds.has(id)));
}
