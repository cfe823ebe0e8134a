/*
 * What an award (or a statute's time-of-day and day-of-week premiums) adds to the lines the thresholds make: penalty
 * rates by the hour worked, loadings by employment type, minimum engagements and pay for a short rest between
 * working days. A preset names its award (pay-presets/index.ts); classification asks it, never a country code.
 */

/** The staff facts an award reads: the employment type as stored, and whether a school student (minimum engagement). */
export interface Employment {
  type: string | null;
  schoolStudent: boolean;
}

export const NO_EMPLOYMENT: Employment = { type: null, schoolStudent: false };

/** A stretch of wall clock [fromMs, toMs) (local readings written as UTC) in one band of the award. */
export interface BandSpan {
  fromMs: number;
  toMs: number;
  band: string;
}

/** The extra part of an hour's pay a penalty adds: `share` × the hourly wage, named by `rule` (`<PRESET>.<RULE>`). */
export interface Penalty {
  rule: `${string}.${string}`;
  share: number;
}

export interface Award {
  /** The wall clock [fromMs, toMs) cut into the award's bands (a band per stretch, in order). */
  bands(fromMs: number, toMs: number, isHoliday: (date: string) => boolean): BandSpan[];
  /** The penalty of ordinary minutes worked in a band (null: none); `shortRest` when worked inside the rest owed. */
  ordinaryPenalty(band: string, employment: Employment, shortRest: boolean): Penalty | null;
  /** The penalty on top of overtime paid at `multiplier` in a band (null: none). */
  overtimePenalty(band: string, employment: Employment, multiplier: number): Penalty | null;
  /** The shortest engagement paid for a shift starting and ending at these wall-clock readings (0: none). */
  minimumEngagementMinutes(employment: Employment, startMs: number, endMs: number): number;
  /** The rest owed between the end of one workday's work and the start of the next (null: none). */
  restBetweenWorkdaysMinutes: number | null;
  /** The rule of the line that pays an engagement's unworked minutes, and the rule named for a short rest. */
  minimumEngagementRule: `${string}.${string}`;
  /** A higher overtime premium past so many overtime minutes in a calendar month (null: none). */
  monthlyOvertime: MonthlyOvertimeBand | null;
}

/**
 * Overtime minutes past `afterMinutes` in a calendar month (counted from its first day, in the order worked, by the
 * month of the workday they were worked in) earn `premium` × the wage more, as a PENALTY line named `rule`. Overtime
 * worked in `uncountedBands` neither counts toward the limit nor earns the premium (Japan: the statutory rest day).
 */
export interface MonthlyOvertimeBand {
  afterMinutes: number;
  premium: number;
  rule: `${string}.${string}`;
  uncountedBands: readonly string[];
}

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** The local date (YYYY-MM-DD) of a wall-clock reading written as UTC. */
export const dateOfWallClock = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Minutes past local midnight of a wall-clock reading written as UTC. */
export const minuteOfDay = (ms: number) => Math.floor((((ms % DAY_MS) + DAY_MS) % DAY_MS) / MINUTE_MS);

/** 0 Sunday … 6 Saturday, of a wall-clock reading written as UTC. */
export const weekdayOf = (ms: number) => new Date(ms).getUTCDay();

/**
 * [fromMs, toMs) cut at every local midnight and at each of `cutsAt` (minutes of the day), each stretch named by
 * `bandAt` at its start: what an award's bands are made of.
 */
export function cutWallClock(fromMs: number, toMs: number, cutsAt: readonly number[], bandAt: (ms: number) => string): BandSpan[] {
  const spans: BandSpan[] = [];
  let at = fromMs;
  while (at < toMs) {
    const dayStart = Math.floor(at / DAY_MS) * DAY_MS;
    const midnight = dayStart + DAY_MS;
    const nextCut = cutsAt.map((c) => dayStart + c * MINUTE_MS).find((cut) => cut > at) ?? midnight;
    const to = Math.min(toMs, nextCut, midnight);
    const band = bandAt(at);
    const last = spans[spans.length - 1];
    if (last && last.band === band && last.toMs === at) last.toMs = to;
    else spans.push({ fromMs: at, toMs: to, band });
    at = to;
  }
  return spans;
}
