/*
 * Working-time rule packs: one per jurisdiction, versioned by the date each version took effect, as the Fair Workweek
 * packs are. Every figure is data with its source; the checks (./checks.ts) read only these fields. A figure marked
 * `agreementMayChange` is a statutory default that a collective or workplace agreement may change: a location may
 * override it (applyWorkingTimeOverrides); the others are floors no override may loosen.
 */

export const WORKING_TIME_PACK_IDS = ["EU", "UK", "DE", "FR", "ES", "ON", "NZ", "JP", "AU_RETAIL", "US_MINORS"] as const;
export type WorkingTimePackId = (typeof WORKING_TIME_PACK_IDS)[number];

/** A figure, its source, and whether an agreement (hence a location's override) may change it. */
export type Limit = { value: number; source: string; agreementMayChange: boolean };

/**
 * A break tier: work of more than `overHours` needs at least `minutes` of breaks in total; with `inclusive`, work of
 * exactly `overHours` too (France's "atteint six heures", New Zealand's "2 hours or more").
 */
export type BreakTier = { overHours: number; minutes: number; inclusive?: boolean };
/**
 * `measure`: what the tiers' hours count — WORKED, the time worked (breaks excluded: most statutes' "working time"),
 * or SPAN, from start to finish with the breaks (New Zealand's "work period", which includes all authorised breaks).
 */
export type BreakRule = {
  tiers: BreakTier[];
  minBlockMinutes: number;
  measure: "WORKED" | "SPAN";
  source: string;
  agreementMayChange: boolean;
};

export type AverageRule = { hours: number; referenceWeeks: number; source: string; optOutAllowed: boolean; agreementMayChange: boolean };

/**
 * A special clause of an overtime agreement (Japan's art. 36(5)): when it `applies` (the agreement decides: a location
 * sets overtimeSpecialClause) the year's cap is `yearHours` and the month's cap may be exceeded in at most
 * `monthsOverMonthHours` months a year.
 */
export type OvertimeSpecialClause = {
  applies: boolean;
  yearHours: number;
  monthsOverMonthHours: number;
  source: string;
  agreementMayChange: boolean;
};

/**
 * A cap on overtime (hours over `ordinaryWeeklyHours` a week or `ordinaryDailyHours` a day) per calendar month and year.
 * `monthBelowHours`: each month's overtime must stay under it (exactly the figure breaks it); `averageHours`: the
 * monthly average over every window of `averageMonths` consecutive months must not exceed it. Both bind whatever the
 * agreement says (Japan's art. 36(6)(ii)-(iii)).
 */
export type OvertimeCapRule = {
  ordinaryDailyHours: number;
  ordinaryWeeklyHours: number;
  monthHours: number;
  yearHours: number;
  source: string;
  agreementMayChange: boolean;
  monthBelowHours: Limit | null;
  averageHours: (Limit & { fromMonths: number; toMonths: number }) | null;
  specialClause: OvertimeSpecialClause | null;
};

/** A young worker's weekly rest (UK reg. 11(3)): `value` hours in each 7 days, reducible by agreement to `reducibleTo`. */
export type MinorWeeklyRest = Limit & { reducibleTo: number };

/**
 * The rules for a worker younger than `underAge` on the date worked. A null figure: no such limit. `summer` is the
 * span (MM-DD from, and the first Monday of September as "LABOR_DAY" or an MM-DD to) when `summerLatest` applies.
 */
export type MinorRule = {
  underAge: number;
  schoolDayHours: number | null;
  schoolWeekHours: number | null;
  dayHours: number | null;
  weekHours: number | null;
  earliest: string | null;
  latest: string | null;
  summerLatest: string | null;
  summerFrom: string | null;
  summerTo: "LABOR_DAY" | null;
  restHours: number | null;
  breakTiers: BreakTier[];
  source: string;
  /** Uninterrupted hours off in each 7 days for a week the worker starts as a minor (the report's MINOR_WEEKLY_REST). */
  weeklyRest: MinorWeeklyRest | null;
};

export type WorkingTimePack = {
  id: WorkingTimePackId;
  version: number;
  effectiveFrom: string;
  name: string;
  description: string;
  /** Rest between the end of one shift and the start of the next (a gap of exactly the figure is enough). */
  restBetweenShifts: Limit | null;
  /** Two successive shifts whose hours worked total at most this figure need no rest between them (Ontario s. 18(3)). */
  restBetweenShiftsWaivedUpTo: Limit | null;
  /**
   * Consecutive hours free of work in each day, a day being the 24 hours from the worker's first start on a local
   * date (Ontario's "11 consecutive hours free from performing work in each day"); exactly the figure is enough.
   */
  dailyRest: Limit | null;
  /** Hours worked on one business date, breaks excluded. */
  dailyMaximum: Limit | null;
  /** Hours worked in one calendar week (Monday to Sunday), breaks excluded. */
  weeklyMaximum: Limit | null;
  weeklyAverage: AverageRule | null;
  /** Uninterrupted hours off each week (a week: seven days from the reference period's start). */
  weeklyRest: Limit | null;
  breaks: BreakRule | null;
  overtimeCap: OvertimeCapRule | null;
  minors: MinorRule | null;
  /** Years a worked shift's record is kept: a delete inside them is a soft delete. */
  retentionYears: Limit | null;
  /**
   * No work on the location's public holidays (the dataset's, with the organization's overrides): judged by the
   * report. `agreementMayChange`: a location whose trade the statute exempts turns it off (publicHolidayWorkAllowed).
   */
  publicHolidayRest: { source: string; agreementMayChange: boolean } | null;
};

const limit = (value: number, source: string, agreementMayChange = false): Limit => ({ value, source, agreementMayChange });

const NONE = {
  restBetweenShifts: null,
  restBetweenShiftsWaivedUpTo: null,
  dailyRest: null,
  dailyMaximum: null,
  weeklyMaximum: null,
  weeklyAverage: null,
  weeklyRest: null,
  breaks: null,
  overtimeCap: null,
  minors: null,
  retentionYears: null,
  publicHolidayRest: null,
} satisfies Partial<WorkingTimePack>;

/** Every built-in version, oldest first per pack. */
export const WORKING_TIME_PACKS: readonly WorkingTimePack[] = [
  {
    ...NONE,
    id: "EU",
    version: 1,
    effectiveFrom: "2004-08-02",
    name: "European Union — Working Time Directive baseline",
    description:
      "Directive 2003/88/EC. Art. 3: 11 consecutive hours of daily rest per 24 hours. Art. 4: a rest break where the " +
      "working day is longer than 6 hours, its length set by agreement or national law (no figure here: a location " +
      "sets it by override). Art. 5: 24 hours' weekly rest plus the 11 hours of art. 3 (35 hours). Art. 6: 48 hours a " +
      "week on average including overtime. Art. 16(b): reference period not exceeding 4 months (17 weeks used here). " +
      "Member states' law (a national pack) is stricter in places; this pack is the floor.",
    restBetweenShifts: limit(11, "Directive 2003/88/EC art. 3"),
    weeklyAverage: {
      hours: 48,
      referenceWeeks: 17,
      source: "Directive 2003/88/EC art. 6, art. 16(b)",
      optOutAllowed: false,
      agreementMayChange: true,
    },
    weeklyRest: limit(35, "Directive 2003/88/EC art. 5"),
    breaks: { tiers: [], minBlockMinutes: 0, measure: "WORKED", source: "Directive 2003/88/EC art. 4", agreementMayChange: true },
  },
  {
    ...NONE,
    id: "UK",
    version: 1,
    effectiveFrom: "1998-10-01",
    name: "United Kingdom — Working Time Regulations 1998",
    description:
      "SI 1998/1833. Reg. 4(1): no more than 48 hours a week on average, (3)(b) over 17 weeks; reg. 5: a worker may " +
      "agree in writing to exceed it (the individual opt-out, withdrawable): a worker whose opt-out is in force on the " +
      "dates is not held to the average. Reg. 10(1): 11 consecutive hours' rest in each 24. Reg. 11(1): 24 hours' " +
      "uninterrupted weekly rest in each 7 days. Reg. 12(1)-(3): a 20-minute rest break where the working day is longer " +
      "than 6 hours (a collective or workforce agreement may modify it, reg. 23). Young workers (over school age, under " +
      "18): reg. 5A 8 hours a day and 40 a week; reg. 10(2) 12 hours' rest; reg. 12(4) 30 minutes' break over 4.5 hours; " +
      "reg. 11(3) 48 hours' uninterrupted weekly rest in each 7 days, which reg. 11(8)(b) lets be reduced to no less than " +
      "36 for technical or organisational reasons (location override minorWeeklyRestHours).",
    restBetweenShifts: limit(11, "WTR 1998 reg. 10(1)"),
    weeklyAverage: {
      hours: 48,
      referenceWeeks: 17,
      source: "WTR 1998 reg. 4(1), 4(3)(b); opt-out reg. 5",
      optOutAllowed: true,
      agreementMayChange: true,
    },
    weeklyRest: limit(24, "WTR 1998 reg. 11(1)"),
    breaks: {
      tiers: [{ overHours: 6, minutes: 20 }],
      minBlockMinutes: 20,
      measure: "WORKED",
      source: "WTR 1998 reg. 12(1)-(3)",
      agreementMayChange: true,
    },
    minors: {
      underAge: 18,
      schoolDayHours: null,
      schoolWeekHours: null,
      dayHours: 8,
      weekHours: 40,
      earliest: null,
      latest: null,
      summerLatest: null,
      summerFrom: null,
      summerTo: null,
      restHours: 12,
      breakTiers: [{ overHours: 4.5, minutes: 30 }],
      source: "WTR 1998 reg. 5A, 10(2), 12(4)",
      weeklyRest: { value: 48, reducibleTo: 36, source: "WTR 1998 reg. 11(3), 11(8)(b)", agreementMayChange: true },
    },
  },
  {
    ...NONE,
    id: "DE",
    version: 1,
    effectiveFrom: "1994-07-01",
    name: "Germany — Arbeitszeitgesetz (ArbZG)",
    description:
      "ArbZG §3: 8 hours a working day, up to 10 if the average over 6 calendar months or 24 weeks stays at 8 a " +
      "working day (48 hours a six-day week): the daily cap here is 10, the 24-week average 48. §4: breaks of at least " +
      "30 minutes over 6 hours and 45 over 9, in blocks of at least 15 minutes. §5(1): 11 hours' uninterrupted rest " +
      "after the end of the working day. §7 lets a collective agreement change §3, §4 and §5 figures. §9: Sunday rest " +
      "(24 hours used here as weekly rest); §9(1) also forbids work on public holidays (the location's holidays with the " +
      "organization's overrides, judged by the report), which §10 allows in many trades (hospitality, care, " +
      "transport…): such a location sets publicHolidayWorkAllowed. §16(2): records of time over 8 hours kept at least " +
      "2 years.",
    restBetweenShifts: limit(11, "ArbZG §5(1)", true),
    dailyMaximum: limit(10, "ArbZG §3", true),
    weeklyAverage: { hours: 48, referenceWeeks: 24, source: "ArbZG §3 sentence 2", optOutAllowed: false, agreementMayChange: true },
    weeklyRest: limit(24, "ArbZG §9(1)"),
    breaks: {
      tiers: [
        { overHours: 6, minutes: 30 },
        { overHours: 9, minutes: 45 },
      ],
      minBlockMinutes: 15,
      measure: "WORKED",
      source: "ArbZG §4",
      agreementMayChange: true,
    },
    retentionYears: limit(2, "ArbZG §16(2)"),
    publicHolidayRest: { source: "ArbZG §9(1)", agreementMayChange: true },
  },
  {
    ...NONE,
    id: "FR",
    version: 1,
    effectiveFrom: "2016-08-10",
    name: "France — Code du travail",
    description:
      "Code du travail (loi 2016-1088). L3121-18: 10 hours of actual work a day (an agreement may raise it to 12). " +
      "L3121-20: 48 hours in one week. L3121-22: 44 hours a week on average over any 12 consecutive weeks (an " +
      "agreement may raise it to 46). L3121-16: a break of at least 20 consecutive minutes once work reaches 6 hours. " +
      "L3131-1: 11 consecutive hours of daily rest. L3132-2: weekly rest of 24 hours plus the 11 of daily rest (35).",
    restBetweenShifts: limit(11, "Code du travail L3131-1"),
    dailyMaximum: limit(10, "Code du travail L3121-18", true),
    weeklyMaximum: limit(48, "Code du travail L3121-20"),
    weeklyAverage: { hours: 44, referenceWeeks: 12, source: "Code du travail L3121-22", optOutAllowed: false, agreementMayChange: true },
    weeklyRest: limit(35, "Code du travail L3132-2"),
    breaks: {
      tiers: [{ overHours: 6, minutes: 20, inclusive: true }],
      minBlockMinutes: 20,
      measure: "WORKED",
      source: "Code du travail L3121-16",
      agreementMayChange: true,
    },
  },
  {
    ...NONE,
    id: "ES",
    version: 1,
    effectiveFrom: "2019-05-12",
    name: "Spain — Estatuto de los Trabajadores",
    description:
      "Estatuto de los Trabajadores (RDL 2/2015) art. 34.3: at least 12 hours between the end of one working day and " +
      "the start of the next; no more than 9 ordinary hours a day unless a collective agreement distributes them " +
      "otherwise. Art. 34.4: a break of at least 15 minutes when the continuous working day exceeds 6 hours. Art. 37.1: " +
      "a day and a half of weekly rest (36 hours). Art. 34.9 (RDL 8/2019): the daily time record is kept for 4 years.",
    restBetweenShifts: limit(12, "Estatuto de los Trabajadores art. 34.3"),
    dailyMaximum: limit(9, "Estatuto de los Trabajadores art. 34.3", true),
    weeklyRest: limit(36, "Estatuto de los Trabajadores art. 37.1"),
    breaks: {
      tiers: [{ overHours: 6, minutes: 15 }],
      minBlockMinutes: 15,
      measure: "WORKED",
      source: "Estatuto de los Trabajadores art. 34.4",
      agreementMayChange: true,
    },
    retentionYears: limit(4, "Estatuto de los Trabajadores art. 34.9"),
  },
  {
    ...NONE,
    id: "ON",
    version: 1,
    effectiveFrom: "2001-09-04",
    name: "Ontario — Employment Standards Act, 2000",
    description:
      "ESA 2000 s. 17(1): 8 hours a day (or the established longer work day) and 48 a week; s. 17(2)-(3) let the " +
      "employee agree in writing to more. S. 18(1): 11 consecutive hours free from work each day; s. 18(3): 8 hours " +
      "free between shifts (unless the two shifts total 13 hours or less, or the parties agree); s. 18(4): 24 " +
      "consecutive hours free each work week. S. 20(1): a 30-minute eating period so that no more than 5 consecutive " +
      "hours are worked without one (a second past 10 hours); s. 20(2) lets the parties split it in two. The day of " +
      "s. 18(1) is taken as the 24 hours from the worker's first start on a local date.",
    restBetweenShifts: limit(8, "ESA 2000 s. 18(3)", true),
    restBetweenShiftsWaivedUpTo: limit(13, "ESA 2000 s. 18(3)"),
    dailyRest: limit(11, "ESA 2000 s. 18(1)"),
    dailyMaximum: limit(8, "ESA 2000 s. 17(1)(a)", true),
    weeklyMaximum: limit(48, "ESA 2000 s. 17(1)(b)", true),
    weeklyRest: limit(24, "ESA 2000 s. 18(4)"),
    breaks: {
      tiers: [
        { overHours: 5, minutes: 30 },
        { overHours: 10, minutes: 60 },
      ],
      minBlockMinutes: 15,
      measure: "WORKED",
      source: "ESA 2000 s. 20",
      agreementMayChange: true,
    },
  },
  {
    ...NONE,
    id: "NZ",
    version: 1,
    effectiveFrom: "2019-05-06",
    name: "New Zealand — Employment Relations Act 2000",
    description:
      "ERA 2000 s 69ZD (replaced by the Employment Relations Amendment Act 2018 s 33, in force 6 May 2019), by the " +
      "work period (s 69ZC: start to finish, all authorised breaks included): 2 hours or more but not more than 4, one " +
      "paid 10-minute rest break (69ZD(2)); more than 4 to 6, one 10-minute rest and one 30-minute meal break (3); " +
      "more than 6 to 8, two 10-minute rest breaks and one 30-minute meal break (4); beyond 8 hours the subsequent " +
      "period earns the same again (5)-(7): 60 minutes from 10 hours, 90 over 12, 100 over 14, 110 from 18. Paid rest " +
      "breaks are rarely punched: the check counts breaks recorded (an agreement may fix their timing, s 69ZE).",
    breaks: {
      tiers: [
        { overHours: 2, minutes: 10, inclusive: true },
        { overHours: 4, minutes: 40 },
        { overHours: 6, minutes: 50 },
        { overHours: 10, minutes: 60, inclusive: true },
        { overHours: 12, minutes: 90 },
        { overHours: 14, minutes: 100 },
        { overHours: 18, minutes: 110, inclusive: true },
        { overHours: 20, minutes: 140 },
        { overHours: 22, minutes: 150 },
      ],
      minBlockMinutes: 10,
      measure: "SPAN",
      source: "ERA 2000 s 69ZD",
      agreementMayChange: true,
    },
  },
  {
    ...NONE,
    id: "JP",
    version: 1,
    effectiveFrom: "2019-04-01",
    name: "Japan — Labour Standards Act",
    description:
      "Labour Standards Act art. 32: 40 hours a week and 8 a day (ordinary hours). Art. 34: breaks of at least 45 " +
      "minutes over 6 hours and 60 over 8. Art. 36 (2018 reform, in force April 2019): with a 36-agreement, overtime " +
      "is capped at 45 hours a month and 360 a year (art. 36(4)). Art. 36(5): a special clause of the agreement allows up " +
      "to 720 hours a year, and the 45-hour month to be exceeded in at most 6 months a year — the agreement decides " +
      "whether it has one (location override overtimeSpecialClause; off by default). Art. 36(6)(ii)-(iii), binding " +
      "whatever the agreement: overtime and holiday work under 100 hours in every month, and at most 80 a month on " +
      "average over every 2 to 6 consecutive months. Overtime here is, each week, the larger of the day-by-day hours " +
      "over 8 and the week's hours over 40 (so a seventh day's work, art. 35 holiday work, counts in it), counted in the " +
      "month the week starts; years and month windows are calendar ones.",
    breaks: {
      tiers: [
        { overHours: 6, minutes: 45 },
        { overHours: 8, minutes: 60 },
      ],
      minBlockMinutes: 0,
      measure: "WORKED",
      source: "Labour Standards Act art. 34",
      agreementMayChange: false,
    },
    overtimeCap: {
      ordinaryDailyHours: 8,
      ordinaryWeeklyHours: 40,
      monthHours: 45,
      yearHours: 360,
      source: "Labour Standards Act art. 32, art. 36(4)",
      agreementMayChange: true,
      monthBelowHours: limit(100, "Labour Standards Act art. 36(6)(ii)"),
      averageHours: { ...limit(80, "Labour Standards Act art. 36(6)(iii)"), fromMonths: 2, toMonths: 6 },
      specialClause: {
        applies: false,
        yearHours: 720,
        monthsOverMonthHours: 6,
        source: "Labour Standards Act art. 36(5)",
        agreementMayChange: true,
      },
    },
  },
  {
    ...NONE,
    id: "AU_RETAIL",
    version: 1,
    effectiveFrom: "2020-10-01",
    name: "Australia — NES and General Retail Industry Award 2020",
    description:
      "Fair Work Act 2009 s 62 (NES): 38 hours a week plus reasonable additional hours (the weekly figure here is " +
      "reported, agreements may average it). General Retail Industry Award 2020 (MA000004) cl. 16: a meal break of 30 " +
      "to 60 minutes for work over 5 hours (with paid 10-minute rest breaks, rarely punched); a second meal break from " +
      '10 hours ("10 hours or more"); cl. 16.6: at least 12 hours between finishing one day and starting the next, reducible to 10 by ' +
      "agreement.",
    restBetweenShifts: limit(12, "General Retail Industry Award 2020 cl. 16.6", true),
    weeklyMaximum: limit(38, "Fair Work Act 2009 s 62", true),
    breaks: {
      tiers: [
        { overHours: 5, minutes: 30 },
        { overHours: 10, minutes: 60, inclusive: true },
      ],
      minBlockMinutes: 30,
      measure: "WORKED",
      source: "General Retail Industry Award 2020 cl. 16",
      agreementMayChange: true,
    },
  },
  {
    ...NONE,
    id: "US_MINORS",
    version: 1,
    effectiveFrom: "2010-07-19",
    name: "United States — FLSA child labor (14- and 15-year-olds)",
    description:
      "29 CFR 570.35(a): a worker aged 14 or 15 may work outside school hours only; no more than 3 hours on a school " +
      "day (including Friday), 18 hours in a school week, 8 hours on a non-school day, 40 hours in a non-school week; " +
      "between 7 a.m. and 7 p.m., except from June 1 through Labor Day, when until 9 p.m. Age is judged on the date " +
      "worked from the staff member's birthDate; school days are the weekdays of the location's school terms.",
    minors: {
      underAge: 16,
      schoolDayHours: 3,
      schoolWeekHours: 18,
      dayHours: 8,
      weekHours: 40,
      earliest: "07:00",
      latest: "19:00",
      summerLatest: "21:00",
      summerFrom: "06-01",
      summerTo: "LABOR_DAY",
      restHours: null,
      breakTiers: [],
      source: "29 CFR 570.35(a)",
      weeklyRest: null,
    },
  },
];

/** The longest reference period of any pack's weekly average, in days: what a clock-out reads back for it. */
export const LONGEST_REFERENCE_DAYS = Math.max(...WORKING_TIME_PACKS.map((p) => (p.weeklyAverage?.referenceWeeks ?? 0) * 7));

/** The version of `id` in effect on `onDate` (YYYY-MM-DD), or null before its first version. */
export function workingTimePack(id: WorkingTimePackId, onDate: string): WorkingTimePack | null {
  let found: WorkingTimePack | null = null;
  for (const pack of WORKING_TIME_PACKS) {
    if (pack.id === id && pack.effectiveFrom <= onDate && (!found || pack.effectiveFrom > found.effectiveFrom)) found = pack;
  }
  return found;
}

/** A location's overrides: only figures an agreement may change (by the pack's own `agreementMayChange`). */
export type WorkingTimeOverrides = {
  restBetweenShiftsHours?: number;
  dailyMaximumHours?: number;
  weeklyMaximumHours?: number;
  weeklyAverageHours?: number;
  breakTiers?: BreakTier[];
  overtimeMonthHours?: number;
  overtimeYearHours?: number;
  /** The location's overtime agreement has a special clause (Japan art. 36(5)): 720 hours a year, 6 months over 45. */
  overtimeSpecialClause?: boolean;
  /** A young worker's weekly rest reduced for technical or organisational reasons (UK reg. 11(8)(b): not under 36). */
  minorWeeklyRestHours?: number;
  /** The location's trade may work public holidays (ArbZG §10): the pack's public-holiday rest is not judged. */
  publicHolidayWorkAllowed?: boolean;
};

export const OVERRIDE_FIELDS = [
  "restBetweenShiftsHours",
  "dailyMaximumHours",
  "weeklyMaximumHours",
  "weeklyAverageHours",
  "breakTiers",
  "overtimeMonthHours",
  "overtimeYearHours",
  "overtimeSpecialClause",
  "minorWeeklyRestHours",
  "publicHolidayWorkAllowed",
] as const;

/**
 * The override fields `pack` refuses: those whose figure is absent or not changeable by agreement (or, for a young
 * worker's weekly rest, set under the figure the statute lets it be reduced to).
 */
export function refusedOverrides(pack: WorkingTimePack, overrides: WorkingTimeOverrides): string[] {
  const may: Record<(typeof OVERRIDE_FIELDS)[number], boolean> = {
    restBetweenShiftsHours: pack.restBetweenShifts?.agreementMayChange ?? false,
    dailyMaximumHours: pack.dailyMaximum?.agreementMayChange ?? false,
    weeklyMaximumHours: pack.weeklyMaximum?.agreementMayChange ?? false,
    weeklyAverageHours: pack.weeklyAverage?.agreementMayChange ?? false,
    breakTiers: pack.breaks?.agreementMayChange ?? false,
    overtimeMonthHours: pack.overtimeCap?.agreementMayChange ?? false,
    overtimeYearHours: pack.overtimeCap?.agreementMayChange ?? false,
    overtimeSpecialClause: pack.overtimeCap?.specialClause?.agreementMayChange ?? false,
    minorWeeklyRestHours:
      (pack.minors?.weeklyRest?.agreementMayChange ?? false) &&
      (overrides.minorWeeklyRestHours ?? 0) >= (pack.minors?.weeklyRest?.reducibleTo ?? Number.POSITIVE_INFINITY),
    publicHolidayWorkAllowed: pack.publicHolidayRest?.agreementMayChange ?? false,
  };
  return OVERRIDE_FIELDS.filter((field) => overrides[field] !== undefined && !may[field]);
}

const overridden = (rule: Limit | null, value: number | undefined, label: string): Limit | null =>
  rule && value !== undefined ? { ...rule, value, source: `${rule.source} (${label})` } : rule;

/** The pack with a location's overrides laid over it (each source then says the figure is the location's agreement). */
export function applyWorkingTimeOverrides(pack: WorkingTimePack, overrides: WorkingTimeOverrides | null | undefined): WorkingTimePack {
  if (!overrides) return pack;
  const label = "figure set by the location's agreement";
  const o = overrides;
  return {
    ...pack,
    restBetweenShifts: overridden(pack.restBetweenShifts, o.restBetweenShiftsHours, label),
    dailyMaximum: overridden(pack.dailyMaximum, o.dailyMaximumHours, label),
    weeklyMaximum: overridden(pack.weeklyMaximum, o.weeklyMaximumHours, label),
    weeklyAverage:
      pack.weeklyAverage && o.weeklyAverageHours !== undefined
        ? { ...pack.weeklyAverage, hours: o.weeklyAverageHours, source: `${pack.weeklyAverage.source} (${label})` }
        : pack.weeklyAverage,
    breaks: pack.breaks && o.breakTiers ? { ...pack.breaks, tiers: o.breakTiers, source: `${pack.breaks.source} (${label})` } : pack.breaks,
    overtimeCap: pack.overtimeCap
      ? {
          ...pack.overtimeCap,
          monthHours: o.overtimeMonthHours ?? pack.overtimeCap.monthHours,
          yearHours: o.overtimeYearHours ?? pack.overtimeCap.yearHours,
          specialClause:
            pack.overtimeCap.specialClause && o.overtimeSpecialClause !== undefined
              ? {
                  ...pack.overtimeCap.specialClause,
                  applies: o.overtimeSpecialClause,
                  source: `${pack.overtimeCap.specialClause.source} (${label})`,
                }
              : pack.overtimeCap.specialClause,
        }
      : null,
    minors:
      pack.minors?.weeklyRest && o.minorWeeklyRestHours !== undefined
        ? {
            ...pack.minors,
            weeklyRest: {
              ...pack.minors.weeklyRest,
              value: o.minorWeeklyRestHours,
              source: `${pack.minors.weeklyRest.source} (${label})`,
            },
          }
        : pack.minors,
    publicHolidayRest: o.publicHolidayWorkAllowed ? null : pack.publicHolidayRest,
  };
}

/**
 * The first date a worked shift of `businessDate` may be purged under `pack`: its retention years later (Spain 4,
 * Germany 2). Before it, a delete is a soft delete that keeps the record; null: the pack sets no retention.
 */
export function retainedUntil(pack: WorkingTimePack, businessDate: string): string | null {
  const years = pack.retentionYears?.value;
  if (years === undefined) return null;
  const year = Number(businessDate.slice(0, 4)) + years;
  const monthDay = businessDate.slice(5);
  // 29 February kept into a year without one runs to 1 March.
  const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return monthDay === "02-29" && !leap(year) ? `${year}-03-01` : `${year}-${monthDay}`;
}
