import { describe, expect, it } from "vitest";
import { minorUnitsOf } from "@/domain/currency-minor-units";
import { amountToCents, centsToAmount, lineAmountCents, roundCentsToMinorUnits } from "@/domain/pay-amounts";
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

  it.each([
    // [minutes, rate, minor units, cents] — a currency of 3 decimals keeps tenths of a cent (its thousandths).
    [479, 1.234, 3, 985.1], // BD 1.234 × 479/60 h = BD 9.851433… → BD 9.851
    [30, 1.001, 3, 50.1], // BD 1.001 × 0.5 h = BD 0.5005 → BD 0.501 (a half goes away from zero)
    [30, 0.999, 3, 50], // BD 0.999 × 0.5 h = BD 0.4995 → BD 0.500
    [30, 0.99898, 3, 49.9], // BD 0.99898 × 0.5 h = BD 0.49949 → BD 0.499 (just under the half)
    [1, 0.03, 3, 0.1], // BD 0.030 × 1/60 h = BD 0.0005 → BD 0.001
    [479, 1.234, 4, 985.1], // CLF's 4 decimals round to 3, the most pay keeps
  ])("%d minutes at %s with %d decimals is %s cents", (minutes, rate, decimals, cents) => {
    expect(lineAmountCents(minutes, rate, decimals)).toBe(cents);
  });

  it("a negative amount of 3 decimals rounds away from zero: −BD 0.0005 → −BD 0.001", () => {
    expect(roundCentsToMinorUnits(-0.05, 3)).toBe(-0.1);
  });
});

describe("cents to amounts and back", () => {
  it("a sum of tenths of a cent reads as its thousandths, the float noise dropped: 0.1 + 0.2 cents is BD 0.003", () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(centsToAmount(0.1 + 0.2)).toBe(0.003);
    expect(centsToAmount(985.1 * 3)).toBe(29.553);
  });

  it("whole cents read as before: 13,308 cents is 133.08; ¥7,983 is 798,300 cents", () => {
    expect(centsToAmount(13_308)).toBe(133.08);
    expect(centsToAmount(798_300)).toBe(7983);
  });

  it("an amount of up to 3 decimals is its cents, tenths kept: BD 9.851 is 985.1; $133.08 is 13,308", () => {
    expect(amountToCents(9.851)).toBe(985.1);
    expect(amountToCents(133.08)).toBe(13_308);
    expect(amountToCents(-0.001)).toBe(-0.1);
  });
});

describe("computePay in Bahraini dinars (3 decimals)", () => {
  it("pays BD 9.851 for 7 h 59 at BD 1.234, and totals the lines in thousandths", () => {
    const shifts = [payShift(MON, "09:00", 479, { hourlyWage: 1.234 }), payShift(TUE, "09:00", 479, { hourlyWage: 1.234 })];
    const { employees, totals } = computePay({ startDate: MON, endDate: TUE, shifts, timeOff: [], ruleSets: [FLSA], minorUnits: 3 });
    // 479 ÷ 60 = 7.98333 h × 1.234 = 9.851433 → 9.851 a line (not 9.85); 2 × 9.851 = 19.702.
    expect(employees[0]!.lines.map((l) => l.amount)).toEqual([9.851, 9.851]);
    expect(employees[0]!.grossPay).toBe(19.702);
    expect(totals.grossPay).toBe(19.702);
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
