import { isCalendarDate } from "./local-time";
import type { FieldProblem } from "./shift-plan";

export const PAY_PRESETS = ["NONE", "FLSA", "CALIFORNIA", "CUSTOM"] as const;
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
  mealBreak: MealBreakRule | null;
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
  mealBreak: null,
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
    mealBreak: { afterMinutes: 300, minimumMinutes: 30, penaltyHours: 1 },
  },
};

/** Where no set governs a workday: no overtime, no rounding, no penalty; lines name no rule set. */
export const DEFAULT_RULES: PayRules = NO_RULES;

/**
 * The rules a request means: each field it leaves out (undefined) comes from its preset; an explicit null is
 * kept (e.g. CALIFORNIA without weekly overtime). `rounding` may be given in part.
 */
export function fillFromPreset(
  preset: PayPreset,
  request: Partial<Omit<PayRules, "rounding">> & { rounding?: Partial<PunchRounding> },
): PayRules {
  const base = PRESET_RULES[preset];
  const pick = <K extends keyof PayRules>(key: K): PayRules[K] => (request[key] === undefined ? base[key] : (request[key] as PayRules[K]));
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
    mealBreak: request.mealBreak === undefined ? base.mealBreak : request.mealBreak,
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
  problems.push(...mealBreakProblems(rules.mealBreak));
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
}

const NO_SET: GoverningSet = { ruleSetId: null, rules: DEFAULT_RULES };

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
      found = set ? { ruleSetId: set.id, rules: set } : NO_SET;
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
