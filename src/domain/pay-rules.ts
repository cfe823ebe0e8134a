import { isCalendarDate } from "./local-time";
import type { FieldProblem } from "./shift-plan";

export const PAY_PRESETS = [
  "NONE",
  "FLSA",
  "CALIFORNIA",
  "CUSTOM",
  "AU_GENERAL_RETAIL",
  "CA_ON",
  "CA_BC",
  "US_AK",
  "US_NV",
  "US_CO",
  "FR_STATUTORY",
  "JP_STATUTORY",
  "US_NY",
] as const;
export type PayPreset = (typeof PAY_PRESETS)[number];

export const WORKWEEK_DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;
export type Weekday = (typeof WORKWEEK_DAYS)[number];

export const ROUNDING_INCREMENTS = [0, 1, 5, 6, 10, 15] as const;
export const ROUNDING_MODES = ["NEAREST", "UP", "DOWN"] as const;
export type RoundingMode = (typeof ROUNDING_MODES)[number];

export interface PunchRounding {
  incrementMinutes: number;
  mode: RoundingMode;
}

/**
 * One meal period: due when a workday's work passes `afterMinutes`, met by an unpaid break of at least
 * `minimumMinutes` begun by then. With `waivableUpToMinutes`, an employee who waived it (a dated waiver on the staff
 * member) is excused on workdays of at most that much work — only while no earlier period was waived that day.
 */
export interface MealPeriod {
  afterMinutes: number;
  minimumMinutes: number;
  waivableUpToMinutes?: number | null;
}

/** The single meal rule old clients read and write as `mealBreak`: the first meal period and the penalty's hours. */
export interface MealBreakRule {
  afterMinutes: number;
  minimumMinutes: number;
  penaltyHours: number;
}

/** The rules of a set, every field present: what classification reads. */
export interface PayRules {
  workweekStartsOn: Weekday;
  /** "HH:MM" on the local wall clock: the workday is the 24 hours from then, the workweek seven of them. */
  workdayStartsAt: string;
  dailyOvertimeAfterMinutes: number | null;
  dailyDoubleTimeAfterMinutes: number | null;
  weeklyOvertimeAfterMinutes: number | null;
  seventhConsecutiveDay: boolean;
  overtimeMultiplier: number;
  doubleTimeMultiplier: number;
  rounding: PunchRounding;
  /** The meal periods in order of afterMinutes; empty: no meal rule. */
  mealBreaks: readonly MealPeriod[];
  /** Hours of the one premium a workday earns when a meal period is missed (Cal. Labor Code 226.7(c)); 0: none. */
  mealPenaltyHours: number;
}

/** A stored set: its rules plus where and from when it governs. */
export interface PayRuleSet extends PayRules {
  id: string;
  locationId: string | null;
  effectiveFrom: string;
  preset: PayPreset;
}

const NO_RULES: PayRules = {
  workweekStartsOn: "Monday",
  workdayStartsAt: "00:00",
  dailyOvertimeAfterMinutes: null,
  dailyDoubleTimeAfterMinutes: null,
  weeklyOvertimeAfterMinutes: null,
  seventhConsecutiveDay: false,
  overtimeMultiplier: 1.5,
  doubleTimeMultiplier: 2,
  rounding: { incrementMinutes: 0, mode: "NEAREST" },
  mealBreaks: [],
  mealPenaltyHours: 1,
};

/** What each preset fills in; CUSTOM starts from nothing, like NONE, and takes what the request says. */
export const PRESET_RULES: Readonly<Record<PayPreset, PayRules>> = {
  NONE: NO_RULES,
  CUSTOM: NO_RULES,
  FLSA: { ...NO_RULES, weeklyOvertimeAfterMinutes: 2400 },
  CALIFORNIA: {
    ...NO_RULES,
    dailyOvertimeAfterMinutes: 480,
    dailyDoubleTimeAfterMinutes: 720,
    weeklyOvertimeAfterMinutes: 2400,
    seventhConsecutiveDay: true,
    // Cal. Labor Code 512(a): a first meal before the end of the 5th hour (waivable when the workday is at most 6 h), a
    // second before the end of the 10th (waivable when it is at most 12 h and the first was not waived); 226.7(c).
    mealBreaks: [
      { afterMinutes: 300, minimumMinutes: 30, waivableUpToMinutes: 360 },
      { afterMinutes: 600, minimumMinutes: 30, waivableUpToMinutes: 720 },
    ],
    mealPenaltyHours: 1,
  },
  // General Retail Industry Award 2020 [MA000004] cl. 15.1, 15.7, 21.3: overtime past 9 ordinary hours a day, the first
  // 3 at 150 % then 200 %, and past 38 a week; its penalty rates and loadings: pay-presets/au-general-retail.ts.
  AU_GENERAL_RETAIL: { ...NO_RULES, dailyOvertimeAfterMinutes: 540, dailyDoubleTimeAfterMinutes: 720, weeklyOvertimeAfterMinutes: 2280 },
  // Ontario Employment Standards Act, 2000, s. 22(1): 1½ times past 44 hours a week.
  CA_ON: { ...NO_RULES, weeklyOvertimeAfterMinutes: 2640 },
  // British Columbia Employment Standards Act s. 40: 1½ past 8 hours a day, double past 12; 1½ past 40 a week, the
  // daily overtime hours not counted toward it (s. 40(2)).
  CA_BC: { ...NO_RULES, dailyOvertimeAfterMinutes: 480, dailyDoubleTimeAfterMinutes: 720, weeklyOvertimeAfterMinutes: 2400 },
  // Alaska Stat. 23.10.060(b): 1½ past 8 hours a day and 40 a week (no pyramiding: 8 AAC 15.100).
  US_AK: { ...NO_RULES, dailyOvertimeAfterMinutes: 480, weeklyOvertimeAfterMinutes: 2400 },
  // Nev. Rev. Stat. 608.018: 1½ past 40 a week, and past 8 in a workday for an employee paid under 1½ × the minimum
  // wage; the workday is the 24 hours from when the employee begins work (608.0126). Pay-presets: the daily rule
  // applies only below that wage (dailyOvertimeBelowWage), counted from work's start (dailyFromWorkStart).
  US_NV: { ...NO_RULES, dailyOvertimeAfterMinutes: 480, weeklyOvertimeAfterMinutes: 2400 },
  // Colorado COMPS Order #39, 7 CCR 1103-1 Rule 4.1.1: 1½ past 40 a week or 12 a workday, or 12 consecutive hours
  // across workdays (pay-presets: consecutiveOvertimeAfterMinutes).
  US_CO: { ...NO_RULES, dailyOvertimeAfterMinutes: 720, weeklyOvertimeAfterMinutes: 2400 },
  // Code du travail L3121-27 (35 hours), L3121-36: + 25 % for the first 8 overtime hours (36th to 43rd), + 50 % from
  // the 44th (the second band: pay-presets), where no collective agreement sets other rates (L3121-33).
  FR_STATUTORY: { ...NO_RULES, weeklyOvertimeAfterMinutes: 2100, overtimeMultiplier: 1.25, doubleTimeMultiplier: 1.5 },
  // Labour Standards Act (労働基準法) art. 32 (8 h a day, 40 a week) and art. 37 with the Cabinet Order on premium rates:
  // + 25 % overtime; its late-night and rest-day premiums: pay-presets/jp-statutory.ts.
  JP_STATUTORY: { ...NO_RULES, dailyOvertimeAfterMinutes: 480, weeklyOvertimeAfterMinutes: 2400, overtimeMultiplier: 1.25 },
  // New York: FLSA's weekly overtime (12 NYCRR 142-2.2) plus spread of hours (pay-presets).
  US_NY: { ...NO_RULES, weeklyOvertimeAfterMinutes: 2400 },
};

/** Where no set governs a workday: no overtime, no rounding, no penalty; lines name no rule set. */
export const DEFAULT_RULES: PayRules = NO_RULES;

/** What a request may say of meals: the periods and the penalty, or the single `mealBreak` of old clients. */
export interface MealRequest {
  mealBreaks?: readonly MealPeriod[];
  mealPenaltyHours?: number;
  mealBreak?: MealBreakRule | null;
}

/** The single `mealBreak` old clients read: the first meal period with the penalty's hours, or null without one. */
export const legacyMealBreak = (rules: Pick<PayRules, "mealBreaks" | "mealPenaltyHours">): MealBreakRule | null => {
  const first = rules.mealBreaks[0];
  return first ? { afterMinutes: first.afterMinutes, minimumMinutes: first.minimumMinutes, penaltyHours: rules.mealPenaltyHours } : null;
};

/**
 * The meal rules a request means over `base` (the preset's on create, the set's own on PATCH): `mealBreaks` and
 * `mealPenaltyHours` as given; else an old client's `mealBreak` sets the first period's afterMinutes and
 * minimumMinutes (keeping its waiver limit and the later periods) and the penalty's hours, and null removes every
 * period. Given beside `mealBreaks`, `mealBreak` must say what they say (mealRequestProblems).
 */
export function mealRulesOf(base: Pick<PayRules, "mealBreaks" | "mealPenaltyHours">, request: MealRequest) {
  const legacy = request.mealBreak;
  let { mealBreaks, mealPenaltyHours } = base;
  if (legacy === null) mealBreaks = [];
  else if (legacy !== undefined) {
    const [first, ...later] = base.mealBreaks;
    mealBreaks = [{ ...first, afterMinutes: legacy.afterMinutes, minimumMinutes: legacy.minimumMinutes }, ...later];
    mealPenaltyHours = legacy.penaltyHours;
  }
  return { mealBreaks: request.mealBreaks ?? mealBreaks, mealPenaltyHours: request.mealPenaltyHours ?? mealPenaltyHours };
}

/** `mealBreak` sent beside `mealBreaks` saying something else: 400 naming it, rather than one silently winning. */
export function mealRequestProblems(request: MealRequest, rules: Pick<PayRules, "mealBreaks" | "mealPenaltyHours">): FieldProblem[] {
  if (request.mealBreak === undefined || (request.mealBreaks === undefined && request.mealPenaltyHours === undefined)) return [];
  const said = legacyMealBreak(rules);
  const same = JSON.stringify(said) === JSON.stringify(request.mealBreak && { ...request.mealBreak });
  return same ? [] : [{ path: "mealBreak", message: "contradicts mealBreaks/mealPenaltyHours: send one or the other" }];
}

/**
 * The rules a request means: each field it leaves out (undefined) comes from its preset; an explicit null is
 * kept (e.g. CALIFORNIA without weekly overtime). `rounding` may be given in part; meals as mealRulesOf says.
 */
export function fillFromPreset(
  preset: PayPreset,
  request: Partial<Omit<PayRules, "rounding" | "mealBreaks" | "mealPenaltyHours">> & { rounding?: Partial<PunchRounding> } & MealRequest,
): PayRules {
  const base = PRESET_RULES[preset];
  const pick = <K extends Exclude<keyof PayRules, "mealBreaks" | "mealPenaltyHours">>(key: K): PayRules[K] =>
    request[key] === undefined ? base[key] : (request[key] as PayRules[K]);
  return {
    workweekStartsOn: pick("workweekStartsOn"),
    workdayStartsAt: pick("workdayStartsAt"),
    dailyOvertimeAfterMinutes: pick("dailyOvertimeAfterMinutes"),
    dailyDoubleTimeAfterMinutes: pick("dailyDoubleTimeAfterMinutes"),
    weeklyOvertimeAfterMinutes: pick("weeklyOvertimeAfterMinutes"),
    seventhConsecutiveDay: pick("seventhConsecutiveDay"),
    overtimeMultiplier: pick("overtimeMultiplier"),
    doubleTimeMultiplier: pick("doubleTimeMultiplier"),
    rounding: { ...base.rounding, ...stripUndefined(request.rounding ?? {}) },
    ...mealRulesOf(base, request),
  };
}

const stripUndefined = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;

/** "HH:MM", 00:00 to 23:59. */
export const isClockTime = (value: unknown): value is string => typeof value === "string" && /^([01]\d|2[0-3]):[0-5]\d$/.test(value);

const isWholeMinutes = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;

/**
 * What is wrong with a set as it would be stored (after fillFromPreset), as field problems: empty when it is
 * acceptable. Values arrive unchecked (a request's JSON), so every field's type is checked too.
 */
export function payRuleProblems(input: {
  preset: unknown;
  effectiveFrom?: unknown;
  rules: { [K in keyof PayRules]?: unknown };
  /** An old client's `mealBreak` as sent, checked under its own name. */
  mealBreak?: unknown;
}): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const { rules } = input;
  const problem = (path: string, message: string) => problems.push({ path, message });
  if (!PAY_PRESETS.includes(input.preset as PayPreset)) problem("preset", `must be one of ${PAY_PRESETS.join(", ")}`);
  if (input.effectiveFrom !== undefined && !(typeof input.effectiveFrom === "string" && isCalendarDate(input.effectiveFrom))) {
    problem("effectiveFrom", "must be a calendar date (YYYY-MM-DD)");
  }
  if (!WORKWEEK_DAYS.includes(rules.workweekStartsOn as Weekday)) problem("workweekStartsOn", `must be one of ${WORKWEEK_DAYS.join(", ")}`);
  if (!isClockTime(rules.workdayStartsAt)) problem("workdayStartsAt", "must be a local time HH:MM from 00:00 to 23:59");
  for (const key of ["dailyOvertimeAfterMinutes", "dailyDoubleTimeAfterMinutes", "weeklyOvertimeAfterMinutes"] as const) {
    if (rules[key] !== null && !isWholeMinutes(rules[key])) problem(key, "must be null or a whole number of minutes, 0 or more");
  }
  const overtime = rules.dailyOvertimeAfterMinutes;
  const doubleTime = rules.dailyDoubleTimeAfterMinutes;
  if (isWholeMinutes(overtime) && isWholeMinutes(doubleTime) && doubleTime < overtime) {
    problem("dailyDoubleTimeAfterMinutes", "must not be below dailyOvertimeAfterMinutes");
  }
  if (typeof rules.seventhConsecutiveDay !== "boolean") problem("seventhConsecutiveDay", "must be a boolean");
  for (const key of ["overtimeMultiplier", "doubleTimeMultiplier"] as const) {
    const value = rules[key];
    if (typeof value !== "number" || !Number.isFinite(value) || value < 1 || value > 10) problem(key, "must be a number from 1 to 10");
  }
  const { overtimeMultiplier: ot, doubleTimeMultiplier: dt } = rules;
  if (typeof ot === "number" && typeof dt === "number" && dt < ot) problem("doubleTimeMultiplier", "must not be below overtimeMultiplier");
  const rounding = rules.rounding as Partial<PunchRounding> | undefined;
  if (!ROUNDING_INCREMENTS.includes(rounding?.incrementMinutes as (typeof ROUNDING_INCREMENTS)[number])) {
    problem("rounding.incrementMinutes", `must be one of ${ROUNDING_INCREMENTS.join(", ")}`);
  }
  if (!ROUNDING_MODES.includes(rounding?.mode as RoundingMode)) problem("rounding.mode", `must be one of ${ROUNDING_MODES.join(", ")}`);
  if (input.mealBreak !== undefined) problems.push(...mealBreakProblems(input.mealBreak));
  // The first period's own fields came from an old client's mealBreak: reported once, under its name.
  const fromLegacy = (p: FieldProblem) => input.mealBreak !== undefined && /^mealBreaks\.0\.(afterMinutes|minimumMinutes)$/.test(p.path);
  problems.push(...mealPeriodProblems(rules.mealBreaks).filter((p) => !fromLegacy(p)));
  const hours = rules.mealPenaltyHours;
  if (typeof hours !== "number" || !Number.isFinite(hours) || hours < 0 || hours > MEAL_PENALTY_HOURS_MAX) {
    problems.push({ path: "mealPenaltyHours", message: `must be a number of hours from 0 to ${MEAL_PENALTY_HOURS_MAX}` });
  }
  return problems;
}

/** The most meal periods a set may hold: California's two, with room for a stricter agreement's. */
export const MEAL_PERIODS_MAX = 4;

/**
 * What is wrong with meal periods: at most MEAL_PERIODS_MAX, each due after MEAL_AFTER_MINUTES_MIN to 1440 minutes of
 * work (each later than the one before), a break of at least a minute and no longer than the work before it, and a
 * waiver limit (null or absent: not waivable) above afterMinutes and at most 1440.
 */
export function mealPeriodProblems(value: unknown): FieldProblem[] {
  if (!Array.isArray(value)) return [{ path: "mealBreaks", message: "must be an array of meal periods" }];
  if (value.length > MEAL_PERIODS_MAX) return [{ path: "mealBreaks", message: `must hold at most ${MEAL_PERIODS_MAX} meal periods` }];
  const problems: FieldProblem[] = [];
  let previous = 0;
  value.forEach((period: Partial<MealPeriod> | undefined, i) => {
    const at = (field: string) => `mealBreaks.${i}.${field}`;
    const after = period?.afterMinutes;
    const afterOk = isWholeMinutes(after) && after >= MEAL_AFTER_MINUTES_MIN && after <= 1440;
    if (!afterOk)
      problems.push({ path: at("afterMinutes"), message: `must be a whole number of minutes from ${MEAL_AFTER_MINUTES_MIN} to 1440` });
    else if (after <= previous) problems.push({ path: at("afterMinutes"), message: "must be later than the period before it" });
    const minimum = period?.minimumMinutes;
    if (!isWholeMinutes(minimum) || minimum === 0)
      problems.push({ path: at("minimumMinutes"), message: "must be a whole number of minutes above 0" });
    else if (afterOk && minimum > after) {
      problems.push({ path: at("minimumMinutes"), message: "must not be longer than afterMinutes, the work before the break" });
    }
    const limit = period?.waivableUpToMinutes;
    if (limit !== undefined && limit !== null && !(isWholeMinutes(limit) && afterOk && limit > after && limit <= 1440)) {
      problems.push({ path: at("waivableUpToMinutes"), message: "must be null or whole minutes above afterMinutes, at most 1440" });
    }
    if (afterOk) previous = after;
  });
  return problems;
}

/** The shortest work a meal rule may count before its break is due: a rule under an hour is no meal rule. */
export const MEAL_AFTER_MINUTES_MIN = 60;
/** The longest penalty a missed meal break may earn: a workday's worth of hours at most. */
export const MEAL_PENALTY_HOURS_MAX = 8;

/**
 * What is wrong with a meal rule (null: none): due after MEAL_AFTER_MINUTES_MIN to 1440 minutes of work, a break
 * of at least a minute and no longer than the work before it, and a penalty from 0 to MEAL_PENALTY_HOURS_MAX hours.
 */
export function mealBreakProblems(value: unknown): FieldProblem[] {
  if (value === null) return [];
  const meal = value as Partial<MealBreakRule> | undefined;
  const problems: FieldProblem[] = [];
  const after = meal?.afterMinutes;
  const afterOk = isWholeMinutes(after) && after >= MEAL_AFTER_MINUTES_MIN && after <= 1440;
  if (!afterOk) {
    problems.push({ path: "mealBreak.afterMinutes", message: `must be a whole number of minutes from ${MEAL_AFTER_MINUTES_MIN} to 1440` });
  }
  const minimum = meal?.minimumMinutes;
  if (!isWholeMinutes(minimum) || minimum === 0) {
    problems.push({ path: "mealBreak.minimumMinutes", message: "must be a whole number of minutes above 0" });
  } else if (afterOk && minimum > after) {
    problems.push({ path: "mealBreak.minimumMinutes", message: "must not be longer than afterMinutes, the work before the break" });
  }
  const hours = meal?.penaltyHours;
  if (typeof hours !== "number" || !Number.isFinite(hours) || hours < 0 || hours > MEAL_PENALTY_HOURS_MAX) {
    problems.push({ path: "mealBreak.penaltyHours", message: `must be a number of hours from 0 to ${MEAL_PENALTY_HOURS_MAX}` });
  }
  return problems;
}

export interface GoverningSet {
  /** Null when no set governs (DEFAULT_RULES apply). */
  ruleSetId: string | null;
  rules: PayRules;
  /** The set's preset: what names its award and conditions beyond the thresholds (pay-presets); NONE without a set. */
  preset: PayPreset;
}

const NO_SET: GoverningSet = { ruleSetId: null, rules: DEFAULT_RULES, preset: "NONE" };

/** The last version (by effectiveFrom) on or before the date, from versions sorted by effectiveFrom. */
function versionOn<T extends { effectiveFrom: string }>(versions: readonly T[], date: string): T | undefined {
  let low = 0;
  let high = versions.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (versions[middle]!.effectiveFrom <= date) low = middle + 1;
    else high = middle;
  }
  return low === 0 ? undefined : versions[low - 1];
}

/**
 * Which set governs a workday at a location: the location's own set in force on that date, else the
 * organization's (locationId null), else none. A set is in force from its effectiveFrom until the next set's of
 * the same scope. Built once per computation; each lookup is a binary search, memoised per (location, date).
 */
export function governingRuleSets(sets: readonly PayRuleSet[]): (locationId: string, date: string) => GoverningSet {
  const byScope = new Map<string | null, PayRuleSet[]>();
  for (const set of sets) {
    const versions = byScope.get(set.locationId) ?? [];
    versions.push(set);
    byScope.set(set.locationId, versions);
  }
  for (const versions of byScope.values())
    versions.sort((a, b) => compareText(a.effectiveFrom, b.effectiveFrom) || compareText(a.id, b.id));
  const memo = new Map<string, GoverningSet>();
  return (locationId, date) => {
    const key = `${locationId}\u0000${date}`;
    let found = memo.get(key);
    if (!found) {
      const set = versionOn(byScope.get(locationId) ?? [], date) ?? versionOn(byScope.get(null) ?? [], date);
      found = set ? { ruleSetId: set.id, rules: set, preset: set.preset } : NO_SET;
      memo.set(key, found);
    }
    return found;
  };
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The sets in force on some date of [startDate, endDate]: each set governs from its effectiveFrom until the next
 * set's of the same scope. What a close of that period reads, and so what must not change after it.
 */
export function ruleSetsInForce(sets: readonly PayRuleSet[], startDate: string, endDate: string): string[] {
  const byScope = new Map<string | null, PayRuleSet[]>();
  for (const set of sets) byScope.set(set.locationId, [...(byScope.get(set.locationId) ?? []), set]);
  const used: string[] = [];
  for (const versions of byScope.values()) {
    versions.sort((a, b) => compareText(a.effectiveFrom, b.effectiveFrom) || compareText(a.id, b.id));
    versions.forEach((set, index) => {
      const next = versions[index + 1];
      if (set.effectiveFrom <= endDate && (!next || next.effectiveFrom > startDate)) used.push(set.id);
    });
  }
  return used.sort(compareText);
}

/** The hourly wage pay uses: none for a salaried staff member (lines carry minutes, no amounts), else the given one. */
export const payWage = (wageType: string | null, hourlyWage: number | null): number | null =>
  wageType === "salary" ? null : (hourlyWage ?? 0);
