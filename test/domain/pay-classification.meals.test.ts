import { describe, expect, it } from "vitest";
import { computePay, missedMealBreak, type PayShift, payableMinutesForPay } from "@/domain/pay-classification";
import { type GoverningSet, PRESET_RULES } from "@/domain/pay-rules";
import { payShift, ruleSet, unpaidBreak } from "../helpers/pay-fixtures";

type Closed = PayShift & { endTime: Date };
const closed = (shift: PayShift) => shift as Closed;
const DAY = "2026-06-01";

describe("payableMinutesForPay", () => {
  // 08:00 to 16:53 is 533 minutes as punched; rounded to the nearest 15 or up: 08:00 to 17:00, 540; down: 16:45, 525.
  const QUARTER = ruleSet("prs_q", "CUSTOM", { rounding: { incrementMinutes: 15, mode: "NEAREST" } });
  const shift = closed(payShift(DAY, "08:00", 533));

  it("rounds the punches under the set governing the workday the shift starts in", () => {
    expect(payableMinutesForPay(shift, [QUARTER])).toBe(540);
    expect(payableMinutesForPay(shift, [{ ...QUARTER, rounding: { incrementMinutes: 15, mode: "UP" } }])).toBe(540);
    expect(payableMinutesForPay(shift, [{ ...QUARTER, rounding: { incrementMinutes: 15, mode: "DOWN" } }])).toBe(525);
  });
  it("less its unpaid breaks", () => {
    const withBreak = closed(payShift(DAY, "08:00", 533, { breaks: [unpaidBreak(DAY, "12:00", 30)] }));
    expect(payableMinutesForPay(withBreak, [QUARTER])).toBe(510);
  });
  it("as punched where no set governs that day or that location", () => {
    expect(payableMinutesForPay(shift, [])).toBe(533);
    expect(payableMinutesForPay(shift, [{ ...QUARTER, effectiveFrom: "2026-06-02" }])).toBe(533);
    expect(payableMinutesForPay(shift, [{ ...QUARTER, locationId: "loc_2" }])).toBe(533);
    expect(payableMinutesForPay(shift, [{ ...QUARTER, effectiveFrom: DAY }])).toBe(540);
  });
});

describe("missedMealBreak", () => {
  // Cal. Labor Code 512(a): a meal by the end of the 5th hour (waivable at ≤ 6 h), another by the end of the 10th.
  const CA: GoverningSet = { ruleSetId: "prs_ca", rules: PRESET_RULES.CALIFORNIA, preset: "CALIFORNIA" };
  const NONE: GoverningSet = { ruleSetId: null, rules: PRESET_RULES.NONE, preset: "NONE" };

  it("none without meal periods", () => {
    expect(missedMealBreak([closed(payShift(DAY, "08:00", 720))], NONE)).toBeNull();
  });
  it("6 h without a break: missed during the shift, 60 minutes past the 5th hour", () => {
    const shift = closed(payShift(DAY, "08:00", 360));
    expect(missedMealBreak([shift], CA)).toEqual({ shiftId: shift.id, minutesPast: 60 });
  });
  it("exactly 5 h without a break: none", () => {
    expect(missedMealBreak([closed(payShift(DAY, "08:00", 300))], CA)).toBeNull();
  });
  it("met by a 30-minute unpaid break begun before the 5th hour ends", () => {
    const shift = closed(payShift(DAY, "08:00", 390, { breaks: [unpaidBreak(DAY, "12:00", 30)] }));
    expect(missedMealBreak([shift], CA)).toBeNull();
  });
  it("excused by a waiver on a day of at most 6 h", () => {
    expect(missedMealBreak([closed(payShift(DAY, "08:00", 360))], CA, [true])).toBeNull();
  });
  it("names the shift during which the day passed the 5th hour, whatever order the shifts come in", () => {
    const morning = closed(payShift(DAY, "08:00", 180));
    const afternoon = closed(payShift(DAY, "11:00", 180));
    expect(missedMealBreak([afternoon, morning], CA)).toEqual({ shiftId: afternoon.id, minutesPast: 60 });
    expect(missedMealBreak([morning, afternoon], CA)).toEqual({ shiftId: afternoon.id, minutesPast: 60 });
  });
  it("judges the punches as they were, not rounded ones", () => {
    // 08:00 to 13:07 is 307 minutes; rounded to the nearest 15 it would be 300 and meet the rule.
    const rounding: GoverningSet = { ...CA, rules: { ...CA.rules, rounding: { incrementMinutes: 15, mode: "NEAREST" } } };
    const shift = closed(payShift(DAY, "08:00", 307));
    expect(missedMealBreak([shift], rounding)).toEqual({ shiftId: shift.id, minutesPast: 7 });
  });
});

describe("computePay: time off lines", () => {
  it("name the policy type, come per employee in date order, and leave out a day without hours or outside the range", () => {
    const timeOff = [
      { employeeId: "emp_b", date: "2026-06-03", hours: 4, hourlyWage: 30, policyType: "Sick" },
      { employeeId: "emp_a", date: "2026-06-05", hours: 8, hourlyWage: 20, policyType: "Vacation" },
      { employeeId: "emp_a", date: "2026-06-02", hours: 7.5, hourlyWage: 20 },
      { employeeId: "emp_a", date: "2026-06-04", hours: 0, hourlyWage: 20 },
      { employeeId: "emp_a", date: "2026-06-08", hours: 8, hourlyWage: 20 },
    ];
    const { employees } = computePay({ startDate: "2026-06-01", endDate: "2026-06-07", shifts: [], timeOff, ruleSets: [] });
    expect(employees.map((e) => [e.employeeId, e.lines.map((l) => [l.date, l.kind, l.minutes, l.policyType, l.amount])])).toEqual([
      [
        "emp_a",
        [
          ["2026-06-02", "TIME_OFF", 450, undefined, 150],
          ["2026-06-05", "TIME_OFF", 480, "Vacation", 160],
        ],
      ],
      ["emp_b", [["2026-06-03", "TIME_OFF", 240, "Sick", 120]]],
    ]);
    expect("policyType" in employees[0]!.lines[0]!).toBe(false);
  });
});
