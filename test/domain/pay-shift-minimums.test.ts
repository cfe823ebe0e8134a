import { describe, expect, it } from "vitest";
import { computePay, type PayShift } from "@/domain/pay-classification";
import {
  type CallInRule,
  callInMinutes,
  isSplitShift,
  type ReportingTimeRule,
  reportingTimeMinutes,
  type SplitShiftRule,
  splitShiftPremium,
} from "@/domain/pay-presets/shift-minimums";
import type { PayPreset } from "@/domain/pay-rules";
import { payShift, ruleSet, WEEK, wallClock } from "../helpers/pay-fixtures";

/*
 * California's split-shift premium (IWC Wage Orders §4(C); DLSE Manual 45.2.1) and reporting-time pay (§5(A)), New
 * York's call-in pay (12 NYCRR 142-2.3), at their edges. Figures written by hand; the rules' data as the presets hold it.
 */

const [MON, , , , , , SUN] = WEEK;

const SPLIT: SplitShiftRule = { gapOverMinutes: 60, hours: 1, minimumWage: 16.9, rule: "CALIFORNIA.SPLIT_SHIFT" };
const REPORTING: ReportingTimeRule = { share: 0.5, minMinutes: 120, maxMinutes: 240, rule: "CALIFORNIA.REPORTING_TIME" };
const CALL_IN: CallInRule = { minimumMinutes: 240, rate: 17, rule: "US_NY.CALL_IN" };

const span = (time: string, minutes: number) => ({ start: wallClock(MON, time).getTime(), end: wallClock(MON, time, minutes).getTime() });

const pay = (preset: PayPreset, shifts: PayShift[]) => {
  const result = computePay({ startDate: MON, endDate: SUN, shifts, timeOff: [], ruleSets: [ruleSet("prs_1", preset)] });
  const employee = result.employees[0]!;
  return { gross: employee.grossPay, lines: employee.lines.map((l) => [l.kind, l.rule, l.minutes, l.amount]) };
};

describe("isSplitShift: more than an hour between shifts (8 CCR 11050 §4(C))", () => {
  it.each([
    ["08:00–12:00, 13:00–17:00: exactly 1 h apart", [span("08:00", 240), span("13:00", 240)], false],
    ["08:00–12:00, 13:01–17:01: 1 h 01 apart", [span("08:00", 240), span("13:01", 240)], true],
    ["in any order", [span("13:01", 240), span("08:00", 240)], true],
    ["one shift", [span("08:00", 480)], false],
    ["a long shift covering a short one leaves no gap", [span("08:00", 480), span("09:00", 60), span("16:30", 60)], false],
  ])("%s", (_name, spans, split) => {
    expect(isSplitShift(SPLIT, spans)).toBe(split);
  });
});

describe("splitShiftPremium: an hour at $16.90, less what the day's wages exceed the minimum wage (DLSE 45.2.1)", () => {
  const split = [span("08:00", 240), span("14:00", 240)];
  it.each([
    // 8 h at $16.90 = 135.20 is the minimum wage exactly: nothing offsets the premium → 16.90.
    ["paid the minimum wage", split, 480, 135.2, 16.9],
    // 8 h at $18 = 144.00; 144.00 − 135.20 = 8.80 over; 16.90 − 8.80 = 8.10.
    ["paid $18: 16.90 − (144.00 − 135.20) = 8.10", split, 480, 144, 8.1],
    // 8 h at $20 = 160.00; 24.80 over ≥ 16.90 → 0.
    ["paid $20: the excess covers it", split, 480, 160, 0],
    // Exactly 1 h apart: not split, nothing even at the minimum wage.
    ["not split", [span("08:00", 240), span("13:00", 240)], 480, 135.2, 0],
  ])("%s", (_name, spans, worked, wages, premium) => {
    expect(splitShiftPremium(SPLIT, spans, worked, wages)).toBeCloseTo(premium, 10);
  });
});

describe("reportingTimeMinutes: half the scheduled shift, 2 to 4 hours (IWC Wage Orders §5(A))", () => {
  it.each([
    ["8 h scheduled, exactly 4 h worked (half): none", 480, 240, 0],
    ["8 h scheduled, 3 h 59 worked: paid 4 h → 1 minute", 480, 239, 1],
    ["6 h scheduled, 1 h worked: half is 3 h → 120 minutes", 360, 60, 120],
    ["3 h scheduled, exactly 1 h 30 worked (half): none", 180, 90, 0],
    ["3 h scheduled, 1 h 29 worked: half is 1 h 30, at least 2 h → 31 minutes", 180, 89, 31],
    ["10 h scheduled, 4 h 59 worked: under half, but at most 4 h are owed → none", 600, 299, 0],
    ["10 h scheduled, 1 h worked: at most 4 h → 180 minutes", 600, 60, 180],
  ])("%s", (_name, scheduled, worked, minutes) => {
    expect(reportingTimeMinutes(REPORTING, scheduled, worked)).toBe(minutes);
  });
});

describe("callInMinutes: at least 4 h, or the scheduled shift if shorter (12 NYCRR 142-2.3)", () => {
  it.each([
    ["8 h scheduled, exactly 4 h worked: none", 480, 240, 0],
    ["8 h scheduled, 3 h 59 worked: 1 minute", 480, 239, 1],
    ["3 h scheduled, 3 h worked: none (the shift is shorter than 4 h)", 180, 180, 0],
    ["3 h scheduled, 2 h worked: 60 minutes", 180, 120, 60],
  ])("%s", (_name, scheduled, worked, minutes) => {
    expect(callInMinutes(CALL_IN, scheduled, worked)).toBe(minutes);
  });
});

describe("through computePay", () => {
  it("CALIFORNIA split shift: exactly 1 h apart none; 1 h 01 apart a SPLIT_SHIFT line of $16.90 at the minimum wage", () => {
    const wage = { hourlyWage: 16.9 };
    // 8 × 16.90 = 135.20.
    expect(pay("CALIFORNIA", [payShift(MON, "08:00", 240, wage), payShift(MON, "13:00", 240, wage)]).gross).toBe(135.2);
    const split = pay("CALIFORNIA", [payShift(MON, "08:00", 240, wage), payShift(MON, "13:01", 240, wage)]);
    // 135.20 + 16.90 = 152.10.
    expect(split.gross).toBe(152.1);
    expect(split.lines).toContainEqual(["SPLIT_SHIFT", "CALIFORNIA.SPLIT_SHIFT", 60, 16.9]);
  });

  it("CALIFORNIA split shift at $18: 144.00 + (16.90 − 8.80) = 152.10; at $20 no line", () => {
    const at18 = pay("CALIFORNIA", [payShift(MON, "08:00", 240, { hourlyWage: 18 }), payShift(MON, "14:00", 240, { hourlyWage: 18 })]);
    expect(at18.gross).toBe(152.1);
    expect(at18.lines).toContainEqual(["SPLIT_SHIFT", "CALIFORNIA.SPLIT_SHIFT", 60, 8.1]);
    const at20 = pay("CALIFORNIA", [payShift(MON, "08:00", 240), payShift(MON, "14:00", 240)]);
    expect(at20.gross).toBe(160);
    expect(at20.lines.map((l) => l[0])).not.toContain("SPLIT_SHIFT");
  });

  it("CALIFORNIA reporting time: 8 h scheduled, 2 h worked at $20 → 40.00 + 2 h at the regular rate 40.00 = 80.00", () => {
    const result = pay("CALIFORNIA", [payShift(MON, "08:00", 120, { scheduledMinutes: 480 })]);
    expect(result.gross).toBe(80);
    expect(result.lines).toContainEqual(["REPORTING_TIME", "CALIFORNIA.REPORTING_TIME", 120, 40]);
    // Exactly half worked: 4 × 20 = 80.00 and no line.
    const half = pay("CALIFORNIA", [payShift(MON, "08:00", 240, { scheduledMinutes: 480 })]);
    expect(half.gross).toBe(80);
    expect(half.lines.map((l) => l[0])).not.toContain("REPORTING_TIME");
    // The schedule unknown: nothing judged, 2 × 20 = 40.00.
    expect(pay("CALIFORNIA", [payShift(MON, "08:00", 120)]).gross).toBe(40);
  });

  it("CALIFORNIA reporting time counts every shift answering one entry, judged once on the first", () => {
    const entry = { scheduledMinutes: 480, scheduleEntryId: "sch_1" };
    // 08:00–09:30 and 10:00–11:30 of one 8-h entry: 3 h worked, half is 4 h → 1 h short at $20 = 20.00, once.
    const split = pay("CALIFORNIA", [payShift(MON, "08:00", 90, { ...entry }), payShift(MON, "10:00", 90, { ...entry })]);
    expect(split.lines.filter((l) => l[0] === "REPORTING_TIME")).toEqual([["REPORTING_TIME", "CALIFORNIA.REPORTING_TIME", 60, 20]]);
    expect(split.gross).toBe(80);
    // 08:00–10:00 and 10:30–12:30: 4 h worked of the same entry, exactly half → none (2 × 40.00).
    const half = pay("CALIFORNIA", [payShift(MON, "08:00", 120, { ...entry }), payShift(MON, "10:30", 120, { ...entry })]);
    expect(half.lines.map((l) => l[0])).not.toContain("REPORTING_TIME");
    expect(half.gross).toBe(80);
  });

  it("US_NY call-in: 4 h worked of 8 scheduled is 80.00; 3 h 59 is 79.67 + 1 minute at $17.00 (0.28) = 79.95", () => {
    expect(pay("US_NY", [payShift(MON, "08:00", 240, { scheduledMinutes: 480 })]).gross).toBe(80);
    const short = pay("US_NY", [payShift(MON, "08:00", 239, { scheduledMinutes: 480 })]);
    // 239 × 20 / 60 = 79.666… → 79.67; 1 × 17 / 60 = 0.283… → 0.28.
    expect(short.gross).toBe(79.95);
    expect(short.lines).toContainEqual(["CALL_IN", "US_NY.CALL_IN", 1, 0.28]);
  });
});
