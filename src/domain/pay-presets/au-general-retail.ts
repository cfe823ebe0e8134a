import { type Award, cutWallClock, dateOfWallClock, type Employment, minuteOfDay, type Penalty, weekdayOf } from "./award";

/**
 * General Retail Industry Award 2020 [MA000004] (Fair Work Commission determination PR722492, in operation from
 * 1 October 2020, as varied to the pay guide of 1 July 2024; fwc.gov.au, Fair Work Ombudsman pay guide). Every
 * percentage is of the employee's minimum hourly rate — the staff member's hourly wage here; a casual's includes the
 * 25 % casual loading (cl. 11.2). The preset also sets the thresholds classification applies (pay-rules.ts): overtime
 * after 9 ordinary hours a day (cl. 15.7: at most 9 h a day; the one 11-hour day a week an agreement may allow is
 * not modelled) and 38 a week (cl. 15.1), the first 3 hours at 150 % and then 200 % (cl. 21.3) — past 38 a week
 * every hour stays at 150 %, as the weekly threshold has no second band.
 */
export const AU_GENERAL_RETAIL_SOURCE =
  "General Retail Industry Award 2020 [MA000004] (PR722492; Fair Work Ombudsman pay guide, 1 July 2024): cl. 10.9 and " +
  "11.3 minimum engagement 3 h (1.5 h for a secondary school student engaged between 15:00 and 18:30 on a school " +
  "day), cl. 11.2 casual loading 25 %, cl. 15.7 and 21 overtime after 9 h a day or 38 h a week at 150 % for the " +
  "first 3 h and 200 % after (Sunday 200 %, public holiday 250 %), cl. 22.1 penalty rates Monday–Friday after 18:00 " +
  "125 % (casual 150 %), Saturday 125 % (casual 150 %), Sunday 150 % (casual 175 %), public holiday 225 % (casual " +
  "250 %), cl. 16.6 12 hours between work on one day and the next, or 200 % (225 % on a public holiday) until it is given.";

/** cl. 11.2: a casual's loading on every hour, ordinary or overtime. */
export const CASUAL_LOADING = 0.25;

/** cl. 22.1 Table 10: the rate of an ordinary hour in each band, as a multiple of the minimum hourly rate. */
export const ORDINARY_RATES: Readonly<Record<string, { permanent: number; casual: number }>> = {
  ORDINARY: { permanent: 1, casual: 1 + CASUAL_LOADING },
  EVENING: { permanent: 1.25, casual: 1.5 },
  SATURDAY: { permanent: 1.25, casual: 1.5 },
  SUNDAY: { permanent: 1.5, casual: 1.75 },
  PUBLIC_HOLIDAY: { permanent: 2.25, casual: 2.5 },
};

/** cl. 21.3: the least an overtime hour is paid in a band (before the casual loading), above the overtime bands. */
export const OVERTIME_FLOORS: Readonly<Record<string, number>> = { SUNDAY: 2, PUBLIC_HOLIDAY: 2.5 };

/** cl. 16.6: work begun inside the rest owed is paid at these rates (before the casual loading) until it is given. */
export const SHORT_REST_RATES: Readonly<Record<string, number>> = { PUBLIC_HOLIDAY: 2.25 };
export const SHORT_REST_RATE = 2;
export const REST_BETWEEN_WORKDAYS_MINUTES = 12 * 60;

/** cl. 22.1: evening work is Monday to Friday from 18:00. */
export const EVENING_FROM_MINUTE = 18 * 60;

/** cl. 10.9, 11.3: 3 hours; a secondary school student engaged between 15:00 and 18:30 on a school day 1.5 hours. */
export const MINIMUM_ENGAGEMENT_MINUTES = 180;
export const SCHOOL_STUDENT_ENGAGEMENT = { minutes: 90, fromMinute: 15 * 60, toMinute: 18 * 60 + 30 } as const;
/** Who the minimum engagement protects (cl. 10.9 part-time, 11.3 casual); a full-time employee has none. */
const ENGAGED_TYPES = new Set(["casual", "part_time"]);

const PRESET = "AU_GENERAL_RETAIL";
const rule = (name: string): Penalty["rule"] => `${PRESET}.${name}`;
const isCasual = (employment: Employment) => employment.type === "casual";

/** The band of a wall-clock reading: a public holiday first, then Sunday, Saturday, a weekday evening, ordinary. */
function bandAt(ms: number, isHoliday: (date: string) => boolean): string {
  if (isHoliday(dateOfWallClock(ms))) return "PUBLIC_HOLIDAY";
  const day = weekdayOf(ms);
  if (day === 0) return "SUNDAY";
  if (day === 6) return "SATURDAY";
  return minuteOfDay(ms) >= EVENING_FROM_MINUTE ? "EVENING" : "ORDINARY";
}

/** A penalty of `share` named by `name`, or none when there is nothing extra to pay. */
const penaltyOf = (name: string, share: number): Penalty | null =>
  share > 1e-9 ? { rule: rule(name), share: Number(share.toFixed(6)) } : null;

export const AU_GENERAL_RETAIL_AWARD: Award = {
  bands: (fromMs, toMs, isHoliday) => cutWallClock(fromMs, toMs, [EVENING_FROM_MINUTE], (ms) => bandAt(ms, isHoliday)),
  ordinaryPenalty(band, employment, shortRest) {
    const rates = ORDINARY_RATES[band] ?? ORDINARY_RATES.ORDINARY!;
    const casual = isCasual(employment) ? CASUAL_LOADING : 0;
    const rate = isCasual(employment) ? rates.casual : rates.permanent;
    const rest = (SHORT_REST_RATES[band] ?? SHORT_REST_RATE) + casual;
    if (shortRest && rest > rate) return penaltyOf("SHORT_REST_BETWEEN_SHIFTS", rest - 1);
    return penaltyOf(band === "ORDINARY" ? "CASUAL_LOADING" : band, rate - 1);
  },
  overtimePenalty(band, employment, multiplier) {
    const floor = OVERTIME_FLOORS[band] ?? 0;
    const casual = isCasual(employment) ? CASUAL_LOADING : 0;
    if (floor > multiplier) return penaltyOf(`${band}_OVERTIME`, floor + casual - multiplier);
    return penaltyOf("CASUAL_LOADING", casual);
  },
  minimumEngagementMinutes(employment, startMs, endMs) {
    if (!ENGAGED_TYPES.has(employment.type ?? "")) return 0;
    const day = weekdayOf(startMs);
    const { minutes, fromMinute, toMinute } = SCHOOL_STUDENT_ENGAGEMENT;
    const from = minuteOfDay(startMs);
    const to = from + Math.round((endMs - startMs) / 60_000);
    const schoolHours = day >= 1 && day <= 5 && from >= fromMinute && to <= toMinute;
    return employment.schoolStudent && schoolHours ? minutes : MINIMUM_ENGAGEMENT_MINUTES;
  },
  restBetweenWorkdaysMinutes: REST_BETWEEN_WORKDAYS_MINUTES,
  minimumEngagementRule: rule("MINIMUM_ENGAGEMENT"),
  monthlyOvertime: null,
};
