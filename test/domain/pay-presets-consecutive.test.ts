import { describe, expect, it } from "vitest";
import { computePay, type PayShift } from "@/domain/pay-classification";
import type { PayPreset } from "@/domain/pay-rules";
import { payShift, ruleSet, unpaidBreak, WEEK } from "../helpers/pay-fixtures";

/*
 * US_CO: overtime past 12 consecutive hours "without regard to the starting and ending time of the workday
 * (excluding duty free meal periods)" (COMPS Order #39, 7 CCR 1103-1 Rule 4.1.1(C)), beside 12 hours a workday.
 * Workdays start at 00:00. Wage 20: an hour 20.00, an overtime hour 30.00.
 */

const [MON, TUE] = WEEK;

const pay = (shifts: PayShift[], preset: PayPreset = "US_CO") => {
  const employee = computePay({ startDate: MON, endDate: WEEK[6], shifts, timeOff: [], ruleSets: [ruleSet("prs_1", preset)] })
    .employees[0]!;
  return { gross: employee.grossPay, lines: employee.lines.map((l) => [l.date, l.kind, l.rule, l.minutes, l.amount]) };
};

describe("US_CO: 12 consecutive hours across the workday boundary (Rule 4.1.1(C))", () => {
  it.each([
    // Monday 20:00 to Tuesday 08:00: 4 h + 8 h, 12 consecutive hours: none. 12 × 20 = 240.00.
    ["exactly 12 h", 720, 240],
    // 11 h 59: 719 × 20 / 60 = 239.67 (80.00 Monday + 159.67 Tuesday).
    ["11 h 59", 719, 239.67],
    // 12 h 01: 240.00 + 1 minute at 30.00 an hour, 0.50 → 240.50.
    ["12 h 01", 721, 240.5],
    // 13 h (20:00–09:00): neither workday passes 12 (4 h, 9 h); 12 × 20 + 1 × 30 = 270.00.
    ["13 h", 780, 270],
  ])("%s from 20:00", (_name, minutes, gross) => {
    expect(pay([payShift(MON, "20:00", minutes)]).gross).toBe(gross);
  });

  it("names the minutes past 12 consecutive hours CONSECUTIVE_OVERTIME on the workday they fall in", () => {
    expect(pay([payShift(MON, "20:00", 780)]).lines).toEqual([
      [MON, "REGULAR", null, 240, 80],
      [TUE, "REGULAR", null, 480, 160],
      [TUE, "OVERTIME", "CONSECUTIVE_OVERTIME", 60, 30],
    ]);
  });

  it("a duty-free meal is not counted: 20:00–08:30 with 30 unpaid minutes is 12 h worked, none; 08:31 one minute", () => {
    // 720 × 20 / 60 = 240.00 (counting the meal would make 30 minutes overtime).
    expect(pay([payShift(MON, "20:00", 750, { breaks: [unpaidBreak(TUE, "01:00", 30)] })]).gross).toBe(240);
    // 721 worked: 240.00 + 0.50 = 240.50.
    expect(pay([payShift(MON, "20:00", 751, { breaks: [unpaidBreak(TUE, "01:00", 30)] })]).gross).toBe(240.5);
  });

  it("pays a minute once: inside one workday the 12-hour day and the 12 consecutive hours are the same minutes", () => {
    // 06:00–20:00: 12 × 20 + 2 × 30 = 300.00, all DAILY_OVERTIME.
    expect(pay([payShift(MON, "06:00", 840)]).lines).toEqual([
      [MON, "REGULAR", null, 720, 240],
      [MON, "OVERTIME", "DAILY_OVERTIME", 120, 60],
    ]);
  });

  it("is neutral for every other preset: FLSA pays the 13 hours from 20:00 straight, 13 × 20 = 260.00", () => {
    expect(pay([payShift(MON, "20:00", 780)], "FLSA").gross).toBe(260);
  });
});
