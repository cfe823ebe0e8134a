import { describe, expect, it } from "vitest";
import { missedMealPeriod, waivedMealsOn } from "@/domain/meal-periods";
import { computePay, type PayShift } from "@/domain/pay-classification";
import { PRESET_RULES } from "@/domain/pay-rules";
import { payShift, ruleSet, unpaidBreak, WEEK } from "../helpers/pay-fixtures";

const [MON] = WEEK;
const CA = ruleSet("prs_ca", "CALIFORNIA");
const periods = PRESET_RULES.CALIFORNIA.mealBreaks;
const FIRST = periods[0]!;
const SECOND = periods[1]!;

/** A 30-minute meal begun when `at` minutes had been worked. */
const meal = (at: number, minutes = 30) => ({ workedBefore: at, minutes });

describe("missedMealPeriod: California's two meal periods (Labor Code 512(a))", () => {
  it.each([
    ["exactly 600 minutes of work, one meal: the second is not due", 600, [meal(240)], null],
    ["601 minutes, one meal: the second is missed", 601, [meal(240)], SECOND],
    ["second meal begun after exactly 600 minutes: in time", 750, [meal(240), meal(600)], null],
    ["second meal begun after 599 minutes: in time", 750, [meal(240), meal(599)], null],
    ["second meal begun after 601 minutes: too late", 750, [meal(240), meal(601)], SECOND],
    ["one meal cannot meet both periods", 750, [meal(290)], SECOND],
    ["a meal begun after 301 minutes misses the first", 750, [meal(301), meal(500)], FIRST],
    ["a second break shorter than 30 minutes does not meet the second", 750, [meal(240), meal(500, 29)], SECOND],
    ["300 minutes, no meal: nothing due", 300, [], null],
    ["301 minutes, no meal: the first is missed", 301, [], FIRST],
  ] as const)("%s", (_, day, opportunities, missed) => {
    expect(missedMealPeriod(periods, day, opportunities)).toEqual(missed);
  });

  it.each([
    ["a workday of exactly 720 minutes with the second meal waived: excused", 720, [false, true], null],
    ["721 minutes with the second meal waived: the waiver no longer applies", 721, [false, true], SECOND],
    ["720 minutes, no waiver: the second is missed", 720, [false, false], SECOND],
  ] as const)("%s", (_, day, waived, missed) => {
    expect(missedMealPeriod(periods, day, [meal(240)], waived)).toEqual(missed);
  });

  it("the second meal cannot be waived when the first was (a 6-hour day under both waivers needs neither)", () => {
    // 360 minutes, both waived: the first is excused (≤ 360), the second is not due (≤ 600).
    expect(missedMealPeriod(periods, 360, [], [true, true])).toBeNull();
    // A period waived while an earlier one was waived that day stays due: a stricter set with both due before 360.
    const tight = [
      { afterMinutes: 120, minimumMinutes: 30, waivableUpToMinutes: 360 },
      { afterMinutes: 240, minimumMinutes: 30, waivableUpToMinutes: 360 },
    ];
    expect(missedMealPeriod(tight, 300, [], [true, true])).toEqual(tight[1]);
    expect(missedMealPeriod(tight, 300, [], [false, true])).toEqual(tight[0]);
  });

  it("a first-meal waiver excuses a day of at most 360 minutes, not 361", () => {
    expect(missedMealPeriod(periods, 360, [], [true, false])).toBeNull();
    expect(missedMealPeriod(periods, 361, [], [true, false])).toEqual(FIRST);
  });
});

describe("waivedMealsOn: the newest waiver on or before the date", () => {
  const waivers = [
    { employeeId: "emp_a", effectiveFrom: "2026-06-01", firstMeal: false, secondMeal: true },
    { employeeId: "emp_a", effectiveFrom: "2026-07-01", firstMeal: false, secondMeal: false },
    { employeeId: "emp_b", effectiveFrom: "2026-01-01", firstMeal: true, secondMeal: true },
  ];
  it.each([
    ["2026-05-31", []],
    ["2026-06-01", [false, true]],
    ["2026-06-30", [false, true]],
    ["2026-07-01", [false, false]],
  ] as const)("%s → %j", (date, expected) => {
    expect(waivedMealsOn(waivers, "emp_a", date)).toEqual(expected);
  });
});

describe("computePay: the second meal period at $20", () => {
  /** 06:00–19:00 with one 30-minute meal at 10:00: 750 minutes worked (12.5 h). */
  const longDay = (): PayShift[] => [payShift(MON, "06:00", 780, { breaks: [unpaidBreak(MON, "10:00", 30)] })];

  it("06:00–19:00 with one meal pays $320: 8 h × 20 + 4 h × 30 + 0.5 h × 40 + one premium hour × 20", () => {
    const { totals, employees } = computePay({ startDate: MON, endDate: MON, shifts: longDay(), timeOff: [], ruleSets: [CA] });
    // 160 + 120 + 20 = 300 for the work, + 20 for the second meal missed (Labor Code 226.7(c)) = 320.
    expect(totals.grossPay).toBe(320);
    expect(employees[0]!.lines.filter((l) => l.kind === "MEAL_PENALTY")).toHaveLength(1);
  });

  it("one meal premium per workday however many periods it misses: 12.5 h with no meal at all is $320 too", () => {
    const shifts = [payShift(MON, "06:00", 750)];
    const { totals } = computePay({ startDate: MON, endDate: MON, shifts, timeOff: [], ruleSets: [CA] });
    // 8 h × 20 + 4 h × 30 + 0.5 h × 40 = 300, one premium hour 20: 320 (not 340).
    expect(totals.grossPay).toBe(320);
    expect(totals.penaltyHours).toBe(1);
  });

  it("a waived second meal on an 11.5-hour day owes no premium; the same day without the waiver does", () => {
    // 06:00–18:00 with one meal at 10:00: 690 minutes. 8 h × 20 + 3.5 h × 30 = 160 + 105 = 265.
    const shifts = [payShift(MON, "06:00", 720, { breaks: [unpaidBreak(MON, "10:00", 30)] })];
    const mealWaivers = [{ employeeId: "emp_a", effectiveFrom: "2026-05-01", firstMeal: false, secondMeal: true }];
    const waived = computePay({ startDate: MON, endDate: MON, shifts, timeOff: [], ruleSets: [CA], mealWaivers });
    expect(waived.totals.grossPay).toBe(265);
    const notWaived = computePay({ startDate: MON, endDate: MON, shifts, timeOff: [], ruleSets: [CA] });
    // 265 + one premium hour at the regular rate 20 = 285.
    expect(notWaived.totals.grossPay).toBe(285);
  });
});
