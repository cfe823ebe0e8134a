import { describe, expect, it } from "vitest";
import { minorUnitsOf } from "@/domain/currency-minor-units";
import { lineAmountCents, roundCentsToMinorUnits } from "@/domain/pay-amounts";
import { computePay } from "@/domain/pay-classification";
import { payShift, ruleSet, WEEK } from "../helpers/pay-fixtures";

const [MON, TUE] = WEEK;
const FLSA = ruleSet("prs_flsa", "FLSA");

describe("minorUnitsOf: ISO 4217 list one's minor unit", () => {
  it.each([
    ["JPY", 0],
    ["KRW", 0],
    ["jpy", 0],
    ["USD", 2],
    ["EUR", 2],
    ["AUD", 2],
    ["CAD", 2],
    ["GBP", 2],
    ["BHD", 3],
    ["KWD", 3],
    ["XYZ", 2],
    [null, 2],
  ])("%s has %d decimals", (code, decimals) => {
    expect(minorUnitsOf(code)).toBe(decimals);
  });
});

describe("amounts rounded half away from zero to the currency's minor units", () => {
  it.each([
    // [minutes, rate, minor units, cents]
    [479, 1000, 0, 798_300], // ¥1,000 × 479/60 h = ¥7,983.333… → ¥7,983
    [479, 16.67, 2, 13_308], // $16.67 × 479/60 h = $133.0821… → $133.08
    [30, 1001, 0, 50_100], // ¥1,001 × 0.5 h = ¥500.5 → ¥501 (a half goes away from zero)
    [30, 999, 0, 50_000], // ¥999 × 0.5 h = ¥499.5 → ¥500
    [30, 998.98, 0, 49_900], // ¥998.98 × 0.5 h = ¥499.49 → ¥499 (just under the half)
    [1, 1000, 0, 1_700], // ¥1,000 × 1/60 h = ¥16.666… → ¥17
    [1, 0.3, 2, 1], // $0.30 × 1/60 h = 0.5 cents → 1 cent
  ])("%d minutes at %s with %d decimals is %d cents", (minutes, rate, decimals, cents) => {
    expect(lineAmountCents(minutes, rate, decimals)).toBe(cents);
  });

  it("a negative amount rounds away from zero too: −¥0.5 → −¥1", () => {
    expect(roundCentsToMinorUnits(-50, 0)).toBe(-100);
  });

  it("a currency of 3 decimals is still rounded to the cent (pay's integer is the cent)", () => {
    expect(roundCentsToMinorUnits(12.345, 3)).toBe(12);
  });
});

describe("computePay in yen", () => {
  const shifts = [payShift(MON, "09:00", 479, { hourlyWage: 1000 }), payShift(TUE, "09:00", 479, { hourlyWage: 1000 })];

  it("pays whole yen per line and totals the lines: 2 × ¥7,983 = ¥15,966 (not 2 × 7,983.33 = 15,966.67)", () => {
    const { employees, totals } = computePay({ startDate: MON, endDate: TUE, shifts, timeOff: [], ruleSets: [FLSA], minorUnits: 0 });
    expect(employees[0]!.lines.map((l) => l.amount)).toEqual([7983, 7983]);
    expect(employees[0]!.grossPay).toBe(15966);
    expect(totals.grossPay).toBe(15966);
  });

  it("the same shifts in dollars at $16.67 pay $133.08 a line, $266.16 in all; absent minor units are 2", () => {
    const dollars = shifts.map((s) => ({ ...s, hourlyWage: 16.67 }));
    const { employees, totals } = computePay({ startDate: MON, endDate: TUE, shifts: dollars, timeOff: [], ruleSets: [FLSA] });
    expect(employees[0]!.lines.map((l) => l.amount)).toEqual([133.08, 133.08]);
    expect(totals.grossPay).toBe(266.16);
  });
});
