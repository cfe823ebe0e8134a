import { type Award, cutWallClock, type MonthlyOvertimeBand, minuteOfDay, type Penalty, weekdayOf } from "./award";

/**
 * Japan, Labour Standards Act (労働基準法, Act No. 49 of 1947) art. 37 and the Cabinet Order on the minimum premium
 * rates (割増賃金令): overtime + 25 % (the thresholds of PRESET_RULES.JP_STATUTORY, art. 32), work on the statutory
 * weekly rest day (法定休日, art. 35; Sunday here) + 35 %, late-night work 22:00–05:00 + 25 % (art. 37(4)). The
 * premiums stack as the Ministry of Health, Labour and Welfare reads art. 37: late-night overtime 150 %, late-night
 * rest-day work 160 %; rest-day work is not also overtime (135 %, never 160 % by adding 25 %).
 * Overtime past 60 hours in a month is + 50 % (art. 37(1) proviso, in force for every employer from 1 April 2023): the
 * overtime beyond the statutory 8 h a day and 40 h a week (art. 32) counted from the month's first day in the order
 * worked, the 60th hour still + 25 %, every later minute + 50 % (an extra + 25 % PENALTY line); work on the statutory
 * rest day is not overtime and is not counted (MHLW circular 基発第0529001号 of 29 May 2009 on the 2008 amendment, Act
 * No. 89 of 2008: the month counted from its first day; the MHLW's leaflets on the 2023 extension to small employers);
 * late night past 60 hours: 50 + 25 = + 75 %. The month is the calendar month, by the workday an overtime minute was
 * worked in; the rules of employment may name another first day (the wage period's) — a CUSTOM need. Not modelled:
 * the rest day's hours still count toward the weekly 40, and paid leave in lieu of the extra 25 % (代替休暇, art. 37(3)).
 */
export const JP_STATUTORY_SOURCE =
  "Labour Standards Act arts. 32, 35, 37; Cabinet Order on the minimum premium rates (1994, No. 5): overtime + 25 %, " +
  "+ 50 % past 60 overtime hours in a month (art. 37(1) proviso), statutory rest day + 35 %, late night 22:00–05:00 " +
  "+ 25 %, stacking: late-night overtime 150 % (175 % past 60 hours), late-night rest day 160 %.";

export const LATE_NIGHT = { fromMinute: 22 * 60, toMinute: 5 * 60, premium: 0.25 } as const;
export const REST_DAY_PREMIUM = 0.35;
/** The statutory weekly rest day (art. 35): Sunday unless the rules of employment name another. */
export const REST_DAY_WEEKDAY = 0;

const PRESET = "JP_STATUTORY";
const rule = (name: string): Penalty["rule"] => `${PRESET}.${name}`;

/** Art. 37(1) proviso: past 60 overtime hours in the month, + 50 % instead of + 25 %; rest-day work not counted. */
export const MONTHLY_OVERTIME: MonthlyOvertimeBand = {
  afterMinutes: 60 * 60,
  premium: 0.25,
  rule: rule("OVERTIME_PAST_60_HOURS_A_MONTH"),
  uncountedBands: ["REST_DAY", "REST_DAY_LATE_NIGHT"],
};

function bandAt(ms: number): string {
  const minute = minuteOfDay(ms);
  const night = minute >= LATE_NIGHT.fromMinute || minute < LATE_NIGHT.toMinute;
  const restDay = weekdayOf(ms) === REST_DAY_WEEKDAY;
  return restDay ? (night ? "REST_DAY_LATE_NIGHT" : "REST_DAY") : night ? "LATE_NIGHT" : "ORDINARY";
}

/** The least rate of an hour in each band, as a multiple of the wage. */
const RATES: Readonly<Record<string, number>> = {
  ORDINARY: 1,
  LATE_NIGHT: 1 + LATE_NIGHT.premium,
  REST_DAY: 1 + REST_DAY_PREMIUM,
  REST_DAY_LATE_NIGHT: 1 + REST_DAY_PREMIUM + LATE_NIGHT.premium,
};

const penaltyOf = (band: string, share: number): Penalty | null =>
  share > 1e-9 ? { rule: rule(band), share: Number(share.toFixed(6)) } : null;

export const JP_STATUTORY_PREMIUMS: Award = {
  bands: (fromMs, toMs) => cutWallClock(fromMs, toMs, [LATE_NIGHT.toMinute, LATE_NIGHT.fromMinute], bandAt),
  ordinaryPenalty: (band) => penaltyOf(band, (RATES[band] ?? 1) - 1),
  overtimePenalty(band, _employment, multiplier) {
    // Late night stacks on overtime (1.25 + 0.25); on the rest day the rest-day rate replaces overtime's.
    if (band === "LATE_NIGHT") return penaltyOf(band, LATE_NIGHT.premium);
    return penaltyOf(band, (RATES[band] ?? 1) - multiplier);
  },
  minimumEngagementMinutes: () => 0,
  restBetweenWorkdaysMinutes: null,
  minimumEngagementRule: rule("MINIMUM_ENGAGEMENT"),
  monthlyOvertime: MONTHLY_OVERTIME,
};
