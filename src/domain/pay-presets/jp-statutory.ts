import { type Award, cutWallClock, minuteOfDay, type Penalty, weekdayOf } from "./award";

/**
 * Japan, Labour Standards Act (労働基準法, Act No. 49 of 1947) art. 37 and the Cabinet Order on the minimum premium
 * rates (割増賃金令): overtime + 25 % (the thresholds of PRESET_RULES.JP_STATUTORY, art. 32), work on the statutory
 * weekly rest day (法定休日, art. 35; Sunday here) + 35 %, late-night work 22:00–05:00 + 25 % (art. 37(4)). The
 * premiums stack as the Ministry of Health, Labour and Welfare reads art. 37: late-night overtime 150 %, late-night
 * rest-day work 160 %; rest-day work is not also overtime (135 %, never 160 % by adding 25 %). Not modelled: + 50 %
 * past 60 overtime hours in a month (art. 37(1) proviso), and the rest day's hours still count toward the weekly 40.
 */
export const JP_STATUTORY_SOURCE =
  "Labour Standards Act arts. 32, 35, 37; Cabinet Order on the minimum premium rates (1994, No. 5): overtime + 25 %, " +
  "statutory rest day + 35 %, late night 22:00–05:00 + 25 %, stacking: late-night overtime 150 %, late-night rest day 160 %.";

export const LATE_NIGHT = { fromMinute: 22 * 60, toMinute: 5 * 60, premium: 0.25 } as const;
export const REST_DAY_PREMIUM = 0.35;
/** The statutory weekly rest day (art. 35): Sunday unless the rules of employment name another. */
export const REST_DAY_WEEKDAY = 0;

const PRESET = "JP_STATUTORY";
const rule = (name: string): Penalty["rule"] => `${PRESET}.${name}`;

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
};
