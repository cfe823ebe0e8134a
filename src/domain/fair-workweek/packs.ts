/*
 * Fair Workweek rule packs: one per jurisdiction, versioned by the date each version took effect. Figures are the
 * ordinances' own; `description` cites the section each comes from. Amounts are dollars, hours are paid at the
 * workweek's regular rate by the pay engine.
 */

export const RULE_PACK_IDS = [
  "NYC_FAST_FOOD",
  "SEATTLE",
  "SAN_FRANCISCO",
  "OREGON",
  "LOS_ANGELES",
  "CHICAGO",
  "PHILADELPHIA",
  "EVANSTON",
  "BERKELEY",
  "EMERYVILLE",
  "CUSTOM",
] as const;
export type RulePackId = (typeof RULE_PACK_IDS)[number];

export const CHANGE_KINDS = ["ADDED", "EXTENDED", "SHORTENED", "MOVED", "CANCELLED", "REASSIGNED"] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** The kinds that cost the worker no scheduled time (a MOVED that loses minutes is matched as SHORTENED). */
export const NO_LOSS_KINDS: ChangeKind[] = ["ADDED", "EXTENDED", "MOVED"];
/** The kinds that cut scheduled time (REASSIGNED: the shift given to another worker is lost to this one). */
export const LOSS_KINDS: ChangeKind[] = ["SHORTENED", "CANCELLED", "REASSIGNED"];

export const PREMIUM_TYPES = ["FLAT", "HOURS", "FRACTION_OF_LOST_HOURS", "HOURS_BY_SHIFT_LENGTH"] as const;
export type ChangePremiumRule =
  | { type: "FLAT"; amount: number }
  | { type: "HOURS"; hours: number }
  | { type: "FRACTION_OF_LOST_HOURS"; fraction: number }
  /** `hoursUpTo` when the shift is at most `maxShiftMinutes` long, else `hoursOver` (San Francisco). */
  | { type: "HOURS_BY_SHIFT_LENGTH"; maxShiftMinutes: number; hoursUpTo: number; hoursOver: number };

/** Notice in [minNoticeMinutes, maxNoticeMinutes) for a change of one of `kinds` earns `premium`. */
export type ChangeBand = {
  code: string;
  kinds: ChangeKind[];
  minNoticeMinutes: number;
  maxNoticeMinutes: number;
  /** An EXTENDED shift earns nothing unless more than this is added (Oregon: "more than 30 minutes"). */
  minMinutesAdded?: number;
  premium: ChangePremiumRule;
};

export const REST_PREMIUM_TYPES = ["FLAT", "MULTIPLIER"] as const;
export const REST_APPLIES_TO = ["GAP_HOURS", "NEXT_SHIFT"] as const;
export const REST_SCOPES = ["ANY", "CONSECUTIVE_DAYS"] as const;
export type RestRule = {
  minHours: number;
  /** FLAT: `value` dollars for the next shift; MULTIPLIER: the hours inside the window at `value` × the rate. */
  premium: (typeof REST_PREMIUM_TYPES)[number];
  /** null where the ordinance publishes no figure: the violation is flagged with no amount. */
  value: number | null;
  appliesTo: (typeof REST_APPLIES_TO)[number];
  consentRequired: boolean;
  published: boolean;
  /**
   * CONSECUTIVE_DAYS: only a shift starting on a later calendar day than the previous shift started (a shift that
   * ends the previous day or spans two days: NYC's clopening, "the previous day's shift" in Seattle, Oregon, Chicago).
   */
  scope: (typeof REST_SCOPES)[number];
};

export type RulePack = {
  id: RulePackId;
  version: number;
  effectiveFrom: string;
  name: string;
  description: string;
  noticeDays: number;
  changePay: ChangeBand[];
  rest: RestRule | null;
  /**
   * An extension of at most this many minutes, or a cut of less, earns nothing (Los Angeles: added time that
   * "exceeds 15 minutes", a reduction "by at least 15 minutes"); 0 where the law has no such grace.
   */
  graceMinutes: number;
  /**
   * A change that only moves the same shift's start and end times, each by at most this many minutes, earns nothing
   * (Oregon: ORS 653.455(3)(a), "changes the start or end time ... by 30 minutes or less"); 0 where the law has none.
   */
  timeChangeGraceMinutes: number;
};

export type RulePackOverrides = Partial<Pick<RulePack, "noticeDays" | "changePay" | "graceMinutes" | "timeChangeGraceMinutes">> & {
  rest?: Partial<RestRule> | null;
};

/** The longest notice window an override may set, in days (the built-in packs' is 14). */
export const MAX_NOTICE_DAYS = 90;

export const MINUTES_PER_HOUR = 60;
export const MINUTES_PER_DAY = 24 * 60;
const DAY = MINUTES_PER_DAY;
const H24 = MINUTES_PER_DAY;

const ALL_KINDS: ChangeKind[] = [...CHANGE_KINDS];

/** 1 h for every change inside the window, whatever its kind. */
const oneHourPerChange = (days: number): ChangeBand[] => [
  {
    code: `CHANGE_UNDER_${days}_DAYS`,
    kinds: ALL_KINDS,
    minNoticeMinutes: 0,
    maxNoticeMinutes: days * DAY,
    premium: { type: "HOURS", hours: 1 },
  },
];

/** 1 h for added or moved time, half the hours cut (Seattle, Oregon, Los Angeles, Philadelphia). */
const hourOrHalfCut = (days: number, minMinutesAdded = 0): ChangeBand[] => [
  {
    code: `CHANGE_UNDER_${days}_DAYS_ADDED`,
    kinds: NO_LOSS_KINDS,
    minNoticeMinutes: 0,
    maxNoticeMinutes: days * DAY,
    ...(minMinutesAdded > 0 ? { minMinutesAdded } : {}),
    premium: { type: "HOURS", hours: 1 },
  },
  {
    code: `CHANGE_UNDER_${days}_DAYS_CUT`,
    kinds: LOSS_KINDS,
    minNoticeMinutes: 0,
    maxNoticeMinutes: days * DAY,
    premium: { type: "FRACTION_OF_LOST_HOURS", fraction: 0.5 },
  },
];

const multiplierRest = (minHours: number, value: number, scope: RestRule["scope"]): RestRule => ({
  minHours,
  premium: "MULTIPLIER",
  value,
  appliesTo: "GAP_HOURS",
  consentRequired: false,
  published: true,
  scope,
});

const unpublishedRest = (minHours: number): RestRule => ({
  minHours,
  premium: "MULTIPLIER",
  value: null,
  appliesTo: "GAP_HOURS",
  consentRequired: false,
  published: false,
  scope: "ANY",
});

const nycChangePay: ChangeBand[] = [
  {
    code: "CHANGE_7_TO_13_DAYS_ADDED",
    kinds: NO_LOSS_KINDS,
    minNoticeMinutes: 7 * DAY,
    maxNoticeMinutes: 14 * DAY,
    premium: { type: "FLAT", amount: 10 },
  },
  {
    code: "CHANGE_7_TO_13_DAYS_CUT",
    kinds: LOSS_KINDS,
    minNoticeMinutes: 7 * DAY,
    maxNoticeMinutes: 14 * DAY,
    premium: { type: "FLAT", amount: 20 },
  },
  {
    code: "CHANGE_UNDER_7_DAYS_ADDED",
    kinds: NO_LOSS_KINDS,
    minNoticeMinutes: 0,
    maxNoticeMinutes: 7 * DAY,
    premium: { type: "FLAT", amount: 15 },
  },
  {
    code: "CHANGE_UNDER_7_DAYS_CUT",
    kinds: LOSS_KINDS,
    minNoticeMinutes: H24,
    maxNoticeMinutes: 7 * DAY,
    premium: { type: "FLAT", amount: 45 },
  },
  {
    code: "CHANGE_UNDER_7_DAYS_CUT_24H",
    kinds: LOSS_KINDS,
    minNoticeMinutes: 0,
    maxNoticeMinutes: H24,
    premium: { type: "FLAT", amount: 75 },
  },
];

const chicagoChangePay = (days: number): ChangeBand[] => [
  {
    code: `CHANGE_UNDER_${days}_DAYS`,
    kinds: NO_LOSS_KINDS,
    minNoticeMinutes: 0,
    maxNoticeMinutes: days * DAY,
    premium: { type: "HOURS", hours: 1 },
  },
  {
    code: `CHANGE_UNDER_${days}_DAYS_CUT`,
    kinds: LOSS_KINDS,
    minNoticeMinutes: H24,
    maxNoticeMinutes: days * DAY,
    premium: { type: "HOURS", hours: 1 },
  },
  {
    code: "CUT_UNDER_24H",
    kinds: LOSS_KINDS,
    minNoticeMinutes: 0,
    maxNoticeMinutes: H24,
    premium: { type: "FRACTION_OF_LOST_HOURS", fraction: 0.5 },
  },
];

const sanFranciscoChangePay: ChangeBand[] = [
  { code: "CHANGE_UNDER_7_DAYS", kinds: ALL_KINDS, minNoticeMinutes: H24, maxNoticeMinutes: 7 * DAY, premium: { type: "HOURS", hours: 1 } },
  {
    code: "CHANGE_UNDER_24H",
    kinds: ALL_KINDS,
    minNoticeMinutes: 0,
    maxNoticeMinutes: H24,
    premium: { type: "HOURS_BY_SHIFT_LENGTH", maxShiftMinutes: 4 * 60, hoursUpTo: 2, hoursOver: 4 },
  },
];

/** Every built-in version, oldest first per pack. */
export const RULE_PACKS: readonly RulePack[] = [
  {
    id: "NYC_FAST_FOOD",
    version: 1,
    effectiveFrom: "2017-11-26",
    name: "New York City — Fair Workweek (fast food)",
    description:
      "NYC Admin. Code Title 20, Ch. 12, Subch. 3. §20-1221: schedule and good-faith estimate 14 days ahead. " +
      "§20-1222: premium per change — 7 to 13 days' notice: $10 (hours added or date/time changed with no loss " +
      "of hours), $20 (loss of hours); under 7 days: $15 (added/no loss), $45 (loss of hours, at least 24 " +
      "hours' notice), $75 (loss of hours, under 24 hours' notice); no premium for changes the employee " +
      "requested, mutually agreed swaps, or force majeure. §20-1231: a clopening (two shifts on consecutive " +
      "days, the first closing, less than 11 hours between) needs the employee's written consent and earns $100.",
    noticeDays: 14,
    changePay: nycChangePay,
    rest: {
      minHours: 11,
      premium: "FLAT",
      value: 100,
      appliesTo: "NEXT_SHIFT",
      consentRequired: true,
      published: true,
      scope: "CONSECUTIVE_DAYS",
    },
    graceMinutes: 0,
    timeChangeGraceMinutes: 0,
  },
  {
    id: "SEATTLE",
    version: 1,
    effectiveFrom: "2017-07-01",
    name: "Seattle — Secure Scheduling",
    description:
      "Seattle Municipal Code ch. 14.22. Schedule 14 days ahead. SMC 14.22.050: an employer " +
      "change after the schedule is posted earns one hour at the regular rate where hours are added or the " +
      "date/time changes with no loss, and half the regular rate for the hours not worked where hours are cut; " +
      "none for employee-requested changes, mutually agreed swaps or force majeure. SMC 14.22.035: hours " +
      "worked less than 10 hours after the previous shift's end are paid at 1.5 times the regular rate (this " +
      "premium carries the extra half for the hours inside the 10 hours).",
    noticeDays: 14,
    changePay: hourOrHalfCut(14),
    rest: multiplierRest(10, 1.5, "CONSECUTIVE_DAYS"),
    graceMinutes: 0,
    timeChangeGraceMinutes: 0,
  },
  {
    id: "SAN_FRANCISCO",
    version: 1,
    effectiveFrom: "2015-07-03",
    name: "San Francisco — Formula Retail Employee Rights",
    description:
      "San Francisco Police Code Art. 33G (Formula Retail Employee Rights Ordinances; cited at the article " +
      "level). Schedule two weeks ahead. Predictability pay per change: under 7 days' but at least 24 hours' notice, 1 hour at the " +
      "regular rate; under 24 hours' notice, 2 hours for a shift of 4 hours or less, 4 hours for a longer " +
      "shift. No rest-between-shifts rule.",
    noticeDays: 14,
    changePay: sanFranciscoChangePay,
    rest: null,
    graceMinutes: 0,
    timeChangeGraceMinutes: 0,
  },
  {
    id: "OREGON",
    version: 1,
    effectiveFrom: "2018-07-01",
    name: "Oregon — Predictive Scheduling (7 days)",
    description:
      "ORS 653.412–653.485. ORS 653.436: schedule 7 days ahead (14 days from 2020-07-01). ORS 653.455: one hour " +
      "at the regular rate where the employer adds more than 30 minutes or changes the date/time with no loss " +
      "of hours; half the regular rate for each scheduled hour not worked where hours are cut. ORS 653.442: " +
      "hours worked less than 10 hours after the previous shift are paid at 1.5 times the regular rate. " +
      "ORS 653.455(3)(a): no additional pay where the employer changes the start or end time of a shift by 30 " +
      "minutes or less.",
    noticeDays: 7,
    changePay: hourOrHalfCut(7, 30),
    rest: multiplierRest(10, 1.5, "CONSECUTIVE_DAYS"),
    graceMinutes: 0,
    timeChangeGraceMinutes: 30,
  },
  {
    id: "OREGON",
    version: 2,
    effectiveFrom: "2020-07-01",
    name: "Oregon — Predictive Scheduling",
    description:
      "ORS 653.412–653.485. ORS 653.436: schedule 14 days ahead (from 2020-07-01; 7 days before). ORS 653.455: " +
      "one hour at the regular rate where the employer adds more than 30 minutes or changes the date/time with " +
      "no loss of hours; half the regular rate for each scheduled hour not worked where hours are cut. " +
      "ORS 653.442: hours worked less than 10 hours after the previous shift are paid at 1.5 times the regular " +
      "rate. ORS 653.455(3)(a): no additional pay where the employer changes the start or end time of a shift by " +
      "30 minutes or less.",
    noticeDays: 14,
    changePay: hourOrHalfCut(14, 30),
    rest: multiplierRest(10, 1.5, "CONSECUTIVE_DAYS"),
    graceMinutes: 0,
    timeChangeGraceMinutes: 30,
  },
  {
    id: "LOS_ANGELES",
    version: 1,
    effectiveFrom: "2023-04-01",
    name: "Los Angeles — Fair Work Week (retail)",
    description:
      "Los Angeles Municipal Code ch. XVIII art. 5.7, Fair Work Week (§185.00 ff.; cited at the article level). " +
      "Schedule 14 days ahead. Predictability pay: one additional hour at the regular rate for each change to a " +
      "scheduled date, time or location that does not result in a loss of time, or that results in additional " +
      "work time that exceeds 15 minutes; one-half the regular rate for the time not worked where the work time " +
      "is reduced by at least 15 minutes (the 15-minute grace); none where the employee initiated the change or " +
      "force majeure. Rest: hours worked less than 10 hours after the previous shift are paid at 1.5 times the " +
      "regular rate, with or without the employee's written consent.",
    noticeDays: 14,
    changePay: hourOrHalfCut(14),
    rest: multiplierRest(10, 1.5, "ANY"),
    graceMinutes: 15,
    timeChangeGraceMinutes: 0,
  },
  {
    id: "CHICAGO",
    version: 1,
    effectiveFrom: "2020-07-01",
    name: "Chicago — Fair Workweek (10 days)",
    description:
      "Chicago Municipal Code ch. 6-110, Fair Workweek (cited at the chapter level). Schedule 10 days ahead (14 " +
      "days from 2022-07-01). Predictability pay: one hour at the regular rate for each change adding hours, changing the date/time, or cutting " +
      "hours with at least 24 hours' notice; at least 50% of the regular rate for the hours not worked where " +
      "hours are cut with less than 24 hours' notice. Right to rest: hours worked less than 10 hours after the " +
      "previous shift are paid at 1.25 times the regular rate.",
    noticeDays: 10,
    changePay: chicagoChangePay(10),
    rest: multiplierRest(10, 1.25, "CONSECUTIVE_DAYS"),
    graceMinutes: 0,
    timeChangeGraceMinutes: 0,
  },
  {
    id: "CHICAGO",
    version: 2,
    effectiveFrom: "2022-07-01",
    name: "Chicago — Fair Workweek",
    description:
      "Chicago Municipal Code ch. 6-110, Fair Workweek (cited at the chapter level). Schedule 14 days ahead " +
      "(from 2022-07-01; 10 days before). Predictability pay: one hour at the regular rate for each change adding hours, changing the date/time, or cutting " +
      "hours with at least 24 hours' notice; at least 50% of the regular rate for the hours not worked where " +
      "hours are cut with less than 24 hours' notice. Right to rest: hours worked less than 10 hours after the " +
      "previous shift are paid at 1.25 times the regular rate.",
    noticeDays: 14,
    changePay: chicagoChangePay(14),
    rest: multiplierRest(10, 1.25, "CONSECUTIVE_DAYS"),
    graceMinutes: 0,
    timeChangeGraceMinutes: 0,
  },
  {
    id: "PHILADELPHIA",
    version: 1,
    effectiveFrom: "2020-04-01",
    name: "Philadelphia — Fair Workweek",
    description:
      "The Philadelphia Code ch. 9-4600 (Fair Workweek Employment Standards; cited at the chapter level). " +
      "Schedule 14 days ahead. Predictability pay: one hour at the regular rate for each change adding time or changing the date/time with no loss " +
      "of hours; half the regular rate for the hours not worked where hours are cut. Right to rest: a shift starting " +
      "less than 9 hours after the previous one ended needs the employee's written consent and earns $40.",
    noticeDays: 14,
    changePay: hourOrHalfCut(14),
    rest: {
      minHours: 9,
      premium: "FLAT",
      value: 40,
      appliesTo: "NEXT_SHIFT",
      consentRequired: true,
      published: true,
      scope: "ANY",
    },
    graceMinutes: 0,
    timeChangeGraceMinutes: 0,
  },
  {
    id: "EVANSTON",
    version: 1,
    effectiveFrom: "2024-07-01",
    name: "Evanston — Fair Workweek",
    description:
      "Evanston City Code, Fair Workweek ordinance (cited at the chapter level). Schedule 14 days ahead; one " +
      "hour at the regular rate for each change inside the 14 days. Its rest-between-shifts premium is not " +
      "published: a short rest is flagged with no amount.",
    noticeDays: 14,
    changePay: oneHourPerChange(14),
    rest: unpublishedRest(10),
    graceMinutes: 0,
    timeChangeGraceMinutes: 0,
  },
  {
    id: "BERKELEY",
    version: 1,
    effectiveFrom: "2023-07-01",
    name: "Berkeley — Fair Workweek",
    description:
      "Berkeley Municipal Code ch. 13.102 (Fair Workweek). Schedule 14 days ahead; one hour at the regular rate " +
      "for each change inside the 14 days. Its rest-between-shifts premium is not published: a short rest is " +
      "flagged with no amount.",
    noticeDays: 14,
    changePay: oneHourPerChange(14),
    rest: unpublishedRest(11),
    graceMinutes: 0,
    timeChangeGraceMinutes: 0,
  },
  {
    id: "EMERYVILLE",
    version: 1,
    effectiveFrom: "2017-07-01",
    name: "Emeryville — Fair Workweek",
    description:
      "Emeryville Municipal Code ch. 5-39 (Fair Workweek Employment Standards). Schedule 14 days ahead; one " +
      "hour at the regular rate for each change inside the 14 days. Its rest-between-shifts premium is not " +
      "published: a short rest is flagged with no amount.",
    noticeDays: 14,
    changePay: oneHourPerChange(14),
    rest: unpublishedRest(11),
    graceMinutes: 0,
    timeChangeGraceMinutes: 0,
  },
  {
    id: "CUSTOM",
    version: 1,
    effectiveFrom: "1970-01-01",
    name: "Custom",
    description: "No ordinance: no premiums until the location's overrides set a notice window, change bands, a rest rule " + "or a grace.",
    noticeDays: 14,
    changePay: [],
    rest: null,
    graceMinutes: 0,
    timeChangeGraceMinutes: 0,
  },
];

/** The version of `id` in effect on `onDate` (YYYY-MM-DD), or null before the law's first version. */
export function rulePack(id: RulePackId, onDate: string): RulePack | null {
  let found: RulePack | null = null;
  for (const pack of RULE_PACKS) {
    if (pack.id === id && pack.effectiveFrom <= onDate && (!found || pack.effectiveFrom > found.effectiveFrom)) found = pack;
  }
  return found;
}

/** Every version of every pack, as listed by GET /fair-workweek/rule-packs. */
export const allRulePacks = (): readonly RulePack[] => RULE_PACKS;

/**
 * A pack with a location's overrides laid over it: each given field replaces the pack's; `rest` merges field by
 * field over the pack's rule (null removes it; a CUSTOM pack without one needs `minHours` and `premium`).
 */
export function applyOverrides(pack: RulePack, overrides: RulePackOverrides | null | undefined): RulePack {
  if (!overrides) return pack;
  const merged: RulePack = { ...pack };
  if (overrides.noticeDays !== undefined) merged.noticeDays = overrides.noticeDays;
  if (overrides.changePay !== undefined) merged.changePay = overrides.changePay;
  if (overrides.graceMinutes !== undefined) merged.graceMinutes = overrides.graceMinutes;
  if (overrides.timeChangeGraceMinutes !== undefined) merged.timeChangeGraceMinutes = overrides.timeChangeGraceMinutes;
  if (overrides.rest === null) merged.rest = null;
  else if (overrides.rest !== undefined) {
    const base: RestRule = pack.rest ?? {
      minHours: 0,
      premium: "FLAT",
      value: null,
      appliesTo: "NEXT_SHIFT",
      consentRequired: false,
      published: true,
      scope: "ANY",
    };
    const rest: RestRule = { ...base, ...stripUndefined(overrides.rest) };
    merged.rest = rest.minHours > 0 ? rest : null;
  }
  return merged;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
