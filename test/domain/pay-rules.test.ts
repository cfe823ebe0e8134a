import { describe, expect, it } from "vitest";
import {
  fillFromPreset,
  governingRuleSets,
  legacyMealBreak,
  mealBreakProblems,
  mealPeriodProblems,
  mealRequestProblems,
  mealRulesOf,
  PAY_PRESETS,
  PRESET_RULES,
  payRuleProblems,
  payWage,
  ruleSetsInForce,
} from "@/domain/pay-rules";
import { ruleSet } from "../helpers/pay-fixtures";

const valid = (preset: "NONE" | "FLSA" | "CALIFORNIA" | "CUSTOM" = "CALIFORNIA") => ({
  preset,
  effectiveFrom: "2026-06-01",
  rules: fillFromPreset(preset, {}),
});
const paths = (input: Parameters<typeof payRuleProblems>[0]) => payRuleProblems(input).map((p) => p.path);

describe("fillFromPreset", () => {
  it("fills what the request leaves out from its preset, as the contract lists them", () => {
    expect(fillFromPreset("FLSA", {})).toMatchObject({
      weeklyOvertimeAfterMinutes: 2400,
      dailyOvertimeAfterMinutes: null,
      seventhConsecutiveDay: false,
      mealBreaks: [],
    });
    expect(fillFromPreset("CALIFORNIA", {})).toEqual({
      workweekStartsOn: "Monday",
      workdayStartsAt: "00:00",
      dailyOvertimeAfterMinutes: 480,
      dailyDoubleTimeAfterMinutes: 720,
      weeklyOvertimeAfterMinutes: 2400,
      seventhConsecutiveDay: true,
      overtimeMultiplier: 1.5,
      doubleTimeMultiplier: 2,
      rounding: { incrementMinutes: 0, mode: "NEAREST" },
      // Cal. Labor Code 512(a): meals before the end of the 5th and the 10th hour, waivable at ≤ 6 h and ≤ 12 h.
      mealBreaks: [
        { afterMinutes: 300, minimumMinutes: 30, waivableUpToMinutes: 360 },
        { afterMinutes: 600, minimumMinutes: 30, waivableUpToMinutes: 720 },
      ],
      mealPenaltyHours: 1,
    });
    expect(fillFromPreset("NONE", {})).toEqual(PRESET_RULES.NONE);
    expect(PRESET_RULES.NONE).toMatchObject({ dailyOvertimeAfterMinutes: null, weeklyOvertimeAfterMinutes: null, mealBreaks: [] });
  });

  it("keeps what the request says, an explicit null included, and a partial rounding", () => {
    const rules = fillFromPreset("CALIFORNIA", { weeklyOvertimeAfterMinutes: null, mealBreak: null, rounding: { incrementMinutes: 15 } });
    expect(rules).toMatchObject({
      weeklyOvertimeAfterMinutes: null,
      mealBreaks: [],
      dailyOvertimeAfterMinutes: 480,
      rounding: { incrementMinutes: 15, mode: "NEAREST" },
    });
  });
});

describe("payRuleProblems", () => {
  it("accepts every preset as filled", () => {
    for (const preset of ["NONE", "FLSA", "CALIFORNIA", "CUSTOM"] as const) expect(payRuleProblems(valid(preset))).toEqual([]);
  });

  it.each([
    ["an unknown preset", { ...valid(), preset: "TEXAS" }, ["preset"]],
    ["an impossible effectiveFrom", { ...valid(), effectiveFrom: "2026-02-30" }, ["effectiveFrom"]],
    ["a negative threshold", { ...valid(), rules: { ...valid().rules, weeklyOvertimeAfterMinutes: -1 } }, ["weeklyOvertimeAfterMinutes"]],
    [
      "a fractional threshold",
      { ...valid(), rules: { ...valid().rules, dailyOvertimeAfterMinutes: 480.5 } },
      ["dailyOvertimeAfterMinutes"],
    ],
    [
      "double time below overtime",
      { ...valid(), rules: { ...valid().rules, dailyDoubleTimeAfterMinutes: 400 } },
      ["dailyDoubleTimeAfterMinutes"],
    ],
    [
      "a rounding increment of 7",
      { ...valid(), rules: { ...valid().rules, rounding: { incrementMinutes: 7, mode: "NEAREST" } } },
      ["rounding.incrementMinutes"],
    ],
    [
      "a rounding mode CEILING",
      { ...valid(), rules: { ...valid().rules, rounding: { incrementMinutes: 15, mode: "CEILING" } } },
      ["rounding.mode"],
    ],
    ["an unknown weekday", { ...valid(), rules: { ...valid().rules, workweekStartsOn: "Funday" } }, ["workweekStartsOn"]],
    ["a multiplier below 1", { ...valid(), rules: { ...valid().rules, overtimeMultiplier: 0.5 } }, ["overtimeMultiplier"]],
    [
      "double time paid less than overtime",
      { ...valid(), rules: { ...valid().rules, doubleTimeMultiplier: 1.25 } },
      ["doubleTimeMultiplier"],
    ],
    ["a meal rule without afterMinutes", { ...valid(), mealBreak: { minimumMinutes: 30, penaltyHours: 1 } }, ["mealBreak.afterMinutes"]],
    [
      "a negative penalty",
      { ...valid(), mealBreak: { afterMinutes: 300, minimumMinutes: 30, penaltyHours: -1 } },
      ["mealBreak.penaltyHours"],
    ],
    [
      "a meal break longer than the work before it",
      { ...valid(), mealBreak: { afterMinutes: 60, minimumMinutes: 1440, penaltyHours: 1 } },
      ["mealBreak.minimumMinutes"],
    ],
    [
      "a meal rule under one hour",
      { ...valid(), mealBreak: { afterMinutes: 10, minimumMinutes: 5, penaltyHours: 1 } },
      ["mealBreak.afterMinutes"],
    ],
    [
      "a meal rule past a day",
      { ...valid(), mealBreak: { afterMinutes: 1441, minimumMinutes: 30, penaltyHours: 1 } },
      ["mealBreak.afterMinutes"],
    ],
    [
      "a penalty over 8 hours",
      { ...valid(), mealBreak: { afterMinutes: 300, minimumMinutes: 30, penaltyHours: 8.5 } },
      ["mealBreak.penaltyHours"],
    ],
  ] as const)("refuses %s", (_, input, expected) => {
    expect(paths(input as Parameters<typeof payRuleProblems>[0])).toEqual(expected);
  });

  it("accepts a meal rule at its edges: due after exactly an hour, a break as long as that hour, penalties 0 and 8", () => {
    for (const mealBreak of [
      { afterMinutes: 60, minimumMinutes: 60, penaltyHours: 0 },
      { afterMinutes: 1440, minimumMinutes: 1, penaltyHours: 8 },
    ]) {
      expect(payRuleProblems({ preset: "CUSTOM", rules: valid().rules, mealBreak })).toEqual([]);
    }
  });

  it("accepts double time equal to overtime and every listed increment", () => {
    for (const incrementMinutes of [0, 1, 5, 6, 10, 15]) {
      const rules = { ...valid().rules, dailyDoubleTimeAfterMinutes: 480, rounding: { incrementMinutes, mode: "UP" } };
      expect(payRuleProblems({ preset: "CUSTOM", rules })).toEqual([]);
    }
  });
});

describe("governingRuleSets", () => {
  const org2026 = ruleSet("org_a", "FLSA", { effectiveFrom: "2026-01-01" });
  const org2026June = ruleSet("org_b", "CALIFORNIA", { effectiveFrom: "2026-06-10" });
  const location = ruleSet("loc_a", "NONE", { locationId: "loc_1", effectiveFrom: "2026-06-05" });
  // Built inside each test, not at collection: mutation testing maps the code each test runs.
  const governing = (locationId: string, date: string) => governingRuleSets([org2026June, location, org2026])(locationId, date);

  it.each([
    ["loc_1", "2025-12-31", null],
    ["loc_1", "2026-01-01", "org_a"],
    ["loc_1", "2026-06-04", "org_a"],
    ["loc_1", "2026-06-05", "loc_a"],
    ["loc_1", "2026-07-01", "loc_a"],
    ["loc_2", "2026-06-09", "org_a"],
    ["loc_2", "2026-06-10", "org_b"],
  ])("at %s on %s: %s", (locationId, date, expected) => {
    expect(governing(locationId, date).ruleSetId).toBe(expected);
  });

  it("with no set, the NONE rules apply", () => {
    expect(governingRuleSets([])("loc_1", "2026-06-01")).toEqual({ ruleSetId: null, rules: PRESET_RULES.NONE, preset: "NONE" });
  });
});

describe("ruleSetsInForce", () => {
  const set = (id: string, locationId: string | null, effectiveFrom: string) => ({
    ...PRESET_RULES.NONE,
    id,
    locationId,
    effectiveFrom,
    preset: "NONE" as const,
  });
  it("names each set governing a date of the range, per scope, and none that ended before or starts after", () => {
    const sets = [
      set("old", null, "2026-01-01"),
      set("mid", null, "2026-03-04"),
      set("late", null, "2026-04-01"),
      set("loc", "L1", "2026-03-10"),
      set("future", "L1", "2026-05-01"),
    ];
    expect(ruleSetsInForce(sets, "2026-03-02", "2026-03-15")).toEqual(["loc", "mid", "old"]);
    expect(ruleSetsInForce(sets, "2026-04-06", "2026-04-12")).toEqual(["late", "loc"]);
    expect(ruleSetsInForce(sets, "2025-01-01", "2025-01-07")).toEqual([]);
  });
});

describe("payWage", () => {
  it("is null for a salaried staff member, the wage (or 0) otherwise", () => {
    expect(payWage("salary", 30)).toBeNull();
    expect(payWage("hourly", 18.5)).toBe(18.5);
    expect(payWage(null, null)).toBe(0);
  });
});

// California's two meal periods (Cal. Labor Code 512(a)) as the CALIFORNIA preset stores them.
const CA_MEALS = {
  mealBreaks: [
    { afterMinutes: 300, minimumMinutes: 30, waivableUpToMinutes: 360 },
    { afterMinutes: 600, minimumMinutes: 30, waivableUpToMinutes: 720 },
  ],
  mealPenaltyHours: 1,
};
const NO_MEALS = { mealBreaks: [], mealPenaltyHours: 1 };

describe("legacyMealBreak", () => {
  it("is the first period with the penalty's hours, or null without a period", () => {
    expect(legacyMealBreak(CA_MEALS)).toEqual({ afterMinutes: 300, minimumMinutes: 30, penaltyHours: 1 });
    expect(legacyMealBreak({ ...CA_MEALS, mealPenaltyHours: 2 })).toEqual({ afterMinutes: 300, minimumMinutes: 30, penaltyHours: 2 });
    expect(legacyMealBreak(NO_MEALS)).toBeNull();
  });
});

describe("mealRulesOf", () => {
  it("without meal fields: the base's", () => {
    expect(mealRulesOf(CA_MEALS, {})).toEqual(CA_MEALS);
  });
  it("an old client's mealBreak sets the first period's minutes and the penalty, keeping its waiver and the later periods", () => {
    expect(mealRulesOf(CA_MEALS, { mealBreak: { afterMinutes: 240, minimumMinutes: 20, penaltyHours: 2 } })).toEqual({
      mealBreaks: [
        { afterMinutes: 240, minimumMinutes: 20, waivableUpToMinutes: 360 },
        { afterMinutes: 600, minimumMinutes: 30, waivableUpToMinutes: 720 },
      ],
      mealPenaltyHours: 2,
    });
    expect(mealRulesOf(NO_MEALS, { mealBreak: { afterMinutes: 240, minimumMinutes: 20, penaltyHours: 0 } })).toEqual({
      mealBreaks: [{ afterMinutes: 240, minimumMinutes: 20 }],
      mealPenaltyHours: 0,
    });
  });
  it("mealBreak null removes every period and keeps the penalty", () => {
    expect(mealRulesOf({ ...CA_MEALS, mealPenaltyHours: 2 }, { mealBreak: null })).toEqual({ mealBreaks: [], mealPenaltyHours: 2 });
  });
  it("mealBreaks and mealPenaltyHours as given win", () => {
    const mealBreaks = [{ afterMinutes: 360, minimumMinutes: 45 }];
    expect(mealRulesOf(CA_MEALS, { mealBreaks, mealPenaltyHours: 3, mealBreak: null })).toEqual({ mealBreaks, mealPenaltyHours: 3 });
  });
});

describe("mealRequestProblems", () => {
  const contradiction = [{ path: "mealBreak", message: "contradicts mealBreaks/mealPenaltyHours: send one or the other" }];
  it.each([
    ["mealBreaks alone", { mealBreaks: CA_MEALS.mealBreaks }, CA_MEALS, []],
    ["mealBreak alone", { mealBreak: { afterMinutes: 240, minimumMinutes: 20, penaltyHours: 2 } }, CA_MEALS, []],
    [
      "mealBreak agreeing with mealBreaks",
      { mealBreak: { afterMinutes: 300, minimumMinutes: 30, penaltyHours: 1 }, ...CA_MEALS },
      CA_MEALS,
      [],
    ],
    [
      "mealBreak agreeing with the penalty alone",
      { mealBreak: { afterMinutes: 300, minimumMinutes: 30, penaltyHours: 1 }, mealPenaltyHours: 1 },
      CA_MEALS,
      [],
    ],
    ["null beside no periods", { mealBreak: null, mealBreaks: [] }, NO_MEALS, []],
    ["null beside periods", { mealBreak: null, mealBreaks: CA_MEALS.mealBreaks }, CA_MEALS, contradiction],
    [
      "another afterMinutes",
      { mealBreak: { afterMinutes: 301, minimumMinutes: 30, penaltyHours: 1 }, ...CA_MEALS },
      CA_MEALS,
      contradiction,
    ],
    [
      "another penalty",
      { mealBreak: { afterMinutes: 300, minimumMinutes: 30, penaltyHours: 2 }, mealPenaltyHours: 1 },
      CA_MEALS,
      contradiction,
    ],
    [
      "a rule beside no periods",
      { mealBreak: { afterMinutes: 300, minimumMinutes: 30, penaltyHours: 1 }, mealBreaks: [] },
      NO_MEALS,
      contradiction,
    ],
  ] as const)("%s", (_, request, rules, expected) => {
    expect(mealRequestProblems(request, rules)).toEqual(expected);
  });
});

describe("payRuleProblems, every field", () => {
  const rules = fillFromPreset("CALIFORNIA", {});
  it.each([
    [
      "workdayStartsAt 24:00",
      { workdayStartsAt: "24:00" },
      [{ path: "workdayStartsAt", message: "must be a local time HH:MM from 00:00 to 23:59" }],
    ],
    ["seventhConsecutiveDay as text", { seventhConsecutiveDay: "yes" }, [{ path: "seventhConsecutiveDay", message: "must be a boolean" }]],
    ["a penalty of 8.5 h", { mealPenaltyHours: 8.5 }, [{ path: "mealPenaltyHours", message: "must be a number of hours from 0 to 8" }]],
    ["a negative penalty", { mealPenaltyHours: -0.5 }, [{ path: "mealPenaltyHours", message: "must be a number of hours from 0 to 8" }]],
    [
      "an infinite penalty",
      { mealPenaltyHours: Number.POSITIVE_INFINITY },
      [{ path: "mealPenaltyHours", message: "must be a number of hours from 0 to 8" }],
    ],
    ["a penalty as text", { mealPenaltyHours: "1" }, [{ path: "mealPenaltyHours", message: "must be a number of hours from 0 to 8" }]],
    ["a penalty of 0", { mealPenaltyHours: 0 }, []],
    ["a penalty of 8", { mealPenaltyHours: 8 }, []],
  ] as const)("%s", (_, change, expected) => {
    expect(payRuleProblems({ preset: "CALIFORNIA", rules: { ...rules, ...change } })).toEqual(expected);
  });

  it("reports a bad first period once, under mealBreak, when an old client's mealBreak made it", () => {
    const mealBreaks = [
      { afterMinutes: 10, minimumMinutes: 0, waivableUpToMinutes: 5 },
      { afterMinutes: 5, minimumMinutes: 5 },
    ];
    const mealBreak = { afterMinutes: 10, minimumMinutes: 0, penaltyHours: 1 };
    expect(paths({ preset: "CALIFORNIA", rules: { ...rules, mealBreaks }, mealBreak })).toEqual([
      "mealBreak.afterMinutes",
      "mealBreak.minimumMinutes",
      "mealBreaks.0.waivableUpToMinutes",
      "mealBreaks.1.afterMinutes",
    ]);
    expect(paths({ preset: "CALIFORNIA", rules: { ...rules, mealBreaks } })).toEqual([
      "mealBreaks.0.afterMinutes",
      "mealBreaks.0.minimumMinutes",
      "mealBreaks.0.waivableUpToMinutes",
      "mealBreaks.1.afterMinutes",
    ]);
  });
});

describe("mealPeriodProblems", () => {
  const period = (afterMinutes: unknown, minimumMinutes: unknown = 30, waivableUpToMinutes?: unknown) => ({
    afterMinutes,
    minimumMinutes,
    ...(waivableUpToMinutes !== undefined && { waivableUpToMinutes }),
  });
  it("accepts California's, none, and four periods", () => {
    expect(mealPeriodProblems(CA_MEALS.mealBreaks)).toEqual([]);
    expect(mealPeriodProblems([])).toEqual([]);
    expect(mealPeriodProblems([period(60, 60), period(300), period(600), period(1440, 1, null)])).toEqual([]);
  });
  it("refuses what is not an array, and a fifth period", () => {
    expect(mealPeriodProblems({ afterMinutes: 300 })).toEqual([{ path: "mealBreaks", message: "must be an array of meal periods" }]);
    expect(mealPeriodProblems(undefined)).toEqual([{ path: "mealBreaks", message: "must be an array of meal periods" }]);
    expect(mealPeriodProblems([period(60), period(120), period(180), period(240), period(300)])).toEqual([
      { path: "mealBreaks", message: "must hold at most 4 meal periods" },
    ]);
  });
  it.each([
    [
      "due after 59 minutes",
      [period(59)],
      [{ path: "mealBreaks.0.afterMinutes", message: "must be a whole number of minutes from 60 to 1440" }],
    ],
    [
      "due after 1441 minutes",
      [period(1441)],
      [{ path: "mealBreaks.0.afterMinutes", message: "must be a whole number of minutes from 60 to 1440" }],
    ],
    [
      "due after 300.5 minutes",
      [period(300.5)],
      [{ path: "mealBreaks.0.afterMinutes", message: "must be a whole number of minutes from 60 to 1440" }],
    ],
    [
      "a period no later than the one before",
      [period(300), period(300)],
      [{ path: "mealBreaks.1.afterMinutes", message: "must be later than the period before it" }],
    ],
    [
      "an earlier period after a bad one",
      [period(300), period(2000), period(299)],
      [
        { path: "mealBreaks.1.afterMinutes", message: "must be a whole number of minutes from 60 to 1440" },
        { path: "mealBreaks.2.afterMinutes", message: "must be later than the period before it" },
      ],
    ],
    [
      "a break of 0 minutes",
      [period(300, 0)],
      [{ path: "mealBreaks.0.minimumMinutes", message: "must be a whole number of minutes above 0" }],
    ],
    [
      "a break of no minutes",
      [period(300, null)],
      [{ path: "mealBreaks.0.minimumMinutes", message: "must be a whole number of minutes above 0" }],
    ],
    [
      "a break longer than the work before it",
      [period(60, 61)],
      [{ path: "mealBreaks.0.minimumMinutes", message: "must not be longer than afterMinutes, the work before the break" }],
    ],
    [
      "a waiver limit at afterMinutes",
      [period(300, 30, 300)],
      [{ path: "mealBreaks.0.waivableUpToMinutes", message: "must be null or whole minutes above afterMinutes, at most 1440" }],
    ],
    [
      "a waiver limit past a day",
      [period(300, 30, 1441)],
      [{ path: "mealBreaks.0.waivableUpToMinutes", message: "must be null or whole minutes above afterMinutes, at most 1440" }],
    ],
    [
      "a fractional waiver limit",
      [period(300, 30, 360.5)],
      [{ path: "mealBreaks.0.waivableUpToMinutes", message: "must be null or whole minutes above afterMinutes, at most 1440" }],
    ],
    [
      "a waiver limit on a bad afterMinutes",
      [period(10, 5, 360)],
      [
        { path: "mealBreaks.0.afterMinutes", message: "must be a whole number of minutes from 60 to 1440" },
        { path: "mealBreaks.0.waivableUpToMinutes", message: "must be null or whole minutes above afterMinutes, at most 1440" },
      ],
    ],
    ["a waiver limit one minute past afterMinutes, and 1440", [period(300, 30, 301), period(600, 30, 1440)], []],
    [
      "a missing period",
      [undefined],
      [
        { path: "mealBreaks.0.afterMinutes", message: "must be a whole number of minutes from 60 to 1440" },
        { path: "mealBreaks.0.minimumMinutes", message: "must be a whole number of minutes above 0" },
      ],
    ],
  ] as const)("%s", (_, periods, expected) => {
    expect(mealPeriodProblems(periods)).toEqual(expected);
  });
});

describe("mealBreakProblems", () => {
  it("accepts null: no meal rule", () => expect(mealBreakProblems(null)).toEqual([]));
  it("names every field of an empty rule", () => {
    expect(mealBreakProblems({})).toEqual([
      { path: "mealBreak.afterMinutes", message: "must be a whole number of minutes from 60 to 1440" },
      { path: "mealBreak.minimumMinutes", message: "must be a whole number of minutes above 0" },
      { path: "mealBreak.penaltyHours", message: "must be a number of hours from 0 to 8" },
    ]);
    expect(mealBreakProblems({ afterMinutes: 300, minimumMinutes: 0, penaltyHours: 1 })).toEqual([
      { path: "mealBreak.minimumMinutes", message: "must be a whole number of minutes above 0" },
    ]);
    expect(mealBreakProblems({ afterMinutes: 60, minimumMinutes: 61, penaltyHours: 1 })).toEqual([
      { path: "mealBreak.minimumMinutes", message: "must not be longer than afterMinutes, the work before the break" },
    ]);
  });
});

describe("payRuleProblems, messages and edges", () => {
  const rules = fillFromPreset("CALIFORNIA", {});
  const problems = (change: Record<string, unknown>, top: Record<string, unknown> = {}) =>
    payRuleProblems({ preset: "CALIFORNIA", ...top, rules: { ...rules, ...change } });

  it.each([
    ["an unknown preset", {}, { preset: "TEXAS" }, [{ path: "preset", message: `must be one of ${PAY_PRESETS.join(", ")}` }]],
    [
      "effectiveFrom as a number",
      {},
      { effectiveFrom: 20260601 },
      [{ path: "effectiveFrom", message: "must be a calendar date (YYYY-MM-DD)" }],
    ],
    [
      "an unknown weekday",
      { workweekStartsOn: "Funday" },
      {},
      [{ path: "workweekStartsOn", message: "must be one of Sunday, Monday, Tuesday, Wednesday, Thursday, Friday, Saturday" }],
    ],
    [
      "a threshold as text",
      { weeklyOvertimeAfterMinutes: "2400" },
      {},
      [{ path: "weeklyOvertimeAfterMinutes", message: "must be null or a whole number of minutes, 0 or more" }],
    ],
    [
      "double time a minute below overtime",
      { dailyDoubleTimeAfterMinutes: 479 },
      {},
      [{ path: "dailyDoubleTimeAfterMinutes", message: "must not be below dailyOvertimeAfterMinutes" }],
    ],
    [
      "a multiplier of 10.01",
      { doubleTimeMultiplier: 10.01 },
      {},
      [{ path: "doubleTimeMultiplier", message: "must be a number from 1 to 10" }],
    ],
    ["a multiplier of 0.99", { overtimeMultiplier: 0.99 }, {}, [{ path: "overtimeMultiplier", message: "must be a number from 1 to 10" }]],
    [
      "an infinite multiplier",
      { doubleTimeMultiplier: Number.POSITIVE_INFINITY },
      {},
      [{ path: "doubleTimeMultiplier", message: "must be a number from 1 to 10" }],
    ],
    [
      "a multiplier as text, not compared with the other",
      { overtimeMultiplier: "3" },
      {},
      [{ path: "overtimeMultiplier", message: "must be a number from 1 to 10" }],
    ],
    [
      "double time paid a hair less than overtime",
      { overtimeMultiplier: 2, doubleTimeMultiplier: 1.99 },
      {},
      [{ path: "doubleTimeMultiplier", message: "must not be below overtimeMultiplier" }],
    ],
    [
      "a rounding of 7 minutes",
      { rounding: { incrementMinutes: 7, mode: "UP" } },
      {},
      [{ path: "rounding.incrementMinutes", message: "must be one of 0, 1, 5, 6, 10, 15" }],
    ],
    [
      "a rounding mode CEILING",
      { rounding: { incrementMinutes: 15, mode: "CEILING" } },
      {},
      [{ path: "rounding.mode", message: "must be one of NEAREST, UP, DOWN" }],
    ],
    [
      "no rounding",
      { rounding: undefined },
      {},
      [
        { path: "rounding.incrementMinutes", message: "must be one of 0, 1, 5, 6, 10, 15" },
        { path: "rounding.mode", message: "must be one of NEAREST, UP, DOWN" },
      ],
    ],
    [
      "workday from 9:00 (one digit)",
      { workdayStartsAt: "9:00" },
      {},
      [{ path: "workdayStartsAt", message: "must be a local time HH:MM from 00:00 to 23:59" }],
    ],
    [
      "workday from 12:60",
      { workdayStartsAt: "12:60" },
      {},
      [{ path: "workdayStartsAt", message: "must be a local time HH:MM from 00:00 to 23:59" }],
    ],
    [
      "workday from 06:00 with a prefix",
      { workdayStartsAt: "x06:00" },
      {},
      [{ path: "workdayStartsAt", message: "must be a local time HH:MM from 00:00 to 23:59" }],
    ],
    [
      "workday from 06:00 with a suffix",
      { workdayStartsAt: "06:00x" },
      {},
      [{ path: "workdayStartsAt", message: "must be a local time HH:MM from 00:00 to 23:59" }],
    ],
    [
      "workday as a number",
      { workdayStartsAt: 600 },
      {},
      [{ path: "workdayStartsAt", message: "must be a local time HH:MM from 00:00 to 23:59" }],
    ],
  ] as const)("refuses %s, by name", (_, change, top, expected) => {
    expect(problems(change, top)).toEqual(expected);
  });

  it.each([
    ["thresholds of 0", { dailyOvertimeAfterMinutes: 0, dailyDoubleTimeAfterMinutes: 0, weeklyOvertimeAfterMinutes: 0 }],
    ["multipliers of 1 and 10", { overtimeMultiplier: 1, doubleTimeMultiplier: 10 }],
    ["double time paid as overtime", { overtimeMultiplier: 2, doubleTimeMultiplier: 2 }],
    ["a workday from 23:59", { workdayStartsAt: "23:59" }],
    ["a workday from 00:00", { workdayStartsAt: "00:00" }],
  ] as const)("accepts %s", (_, change) => {
    expect(problems(change)).toEqual([]);
  });
});

describe("ruleSetsInForce, edges", () => {
  it("a set from the range's last day is in force; one ended by a set from its first day is not, whatever the input order", () => {
    const sets = [
      ruleSet("prs_c", "FLSA", { effectiveFrom: "2026-06-30" }),
      ruleSet("prs_b", "FLSA", { effectiveFrom: "2026-06-01" }),
      ruleSet("prs_a", "FLSA", { effectiveFrom: "2026-01-01" }),
    ];
    expect(ruleSetsInForce(sets, "2026-06-01", "2026-06-30")).toEqual(["prs_b", "prs_c"]);
    expect(ruleSetsInForce(sets, "2026-05-31", "2026-06-29")).toEqual(["prs_a", "prs_b"]);
  });
});
