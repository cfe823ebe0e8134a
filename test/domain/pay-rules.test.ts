import { describe, expect, it } from "vitest";
import { fillFromPreset, governingRuleSets, PRESET_RULES, payRuleProblems, payWage, ruleSetsInForce } from "@/domain/pay-rules";
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
  const governing = governingRuleSets([org2026June, location, org2026]);

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
