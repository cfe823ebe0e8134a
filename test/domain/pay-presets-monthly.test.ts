import { describe, expect, it } from "vitest";
import { computePay, type PayShift } from "@/domain/pay-classification";
import { payShift, ruleSet } from "../helpers/pay-fixtures";

/*
 * JP_STATUTORY's monthly band (Labour Standards Act art. 37(1) proviso): overtime past 60 hours in a calendar month
 * is + 50 %, paid as OVERTIME at 125 % plus a PENALTY line of + 25 %; rest-day work neither counts nor earns it.
 * June 2026: the 1st is a Monday; its weekdays 1–5, 8–12, 15–19 are fifteen, each 08:00–20:00 a 12-hour day of 4
 * overtime hours (over 8 a day; 5 × 8 = 40 a week, so no weekly overtime): 15 × 4 = 60 overtime hours exactly.
 * Wage 20: an ordinary hour 20.00, an overtime hour 25.00, past 60 hours 30.00, late night past 60 hours 35.00.
 */

const PAST_60 = "JP_STATUTORY.OVERTIME_PAST_60_HOURS_A_MONTH";
const FIFTEEN = ["01", "02", "03", "04", "05", "08", "09", "10", "11", "12", "15", "16", "17", "18", "19"].map((d) => `2026-06-${d}`);

/** The fifteen 12-hour weekdays, the last one `lastMinutes` long (720: 60 overtime hours exactly). */
const june = (lastMinutes = 720) => FIFTEEN.map((date, i) => payShift(date, "08:00", i === 14 ? lastMinutes : 720));

const pay = (shifts: PayShift[], startDate = "2026-06-01", endDate = "2026-07-31") => {
  const employee = computePay({ startDate, endDate, shifts, timeOff: [], ruleSets: [ruleSet("prs_jp", "JP_STATUTORY")] }).employees[0]!;
  return {
    gross: employee.grossPay,
    past: employee.lines.filter((l) => l.rule === PAST_60).map((l) => [l.date, l.minutes, l.amount]),
    day: (date: string) => employee.lines.filter((l) => l.date === date).map((l) => [l.kind, l.rule, l.minutes, l.amount]),
  };
};

describe("JP_STATUTORY: + 50 % past 60 overtime hours in a month (art. 37(1) proviso)", () => {
  it.each([
    // 59 h 59: 14 × (8 × 20 + 4 × 25) = 3,640.00 + 160.00 + 239 min × 25 / 60 = 99.58 → 3,899.58; nothing past 60 h.
    ["59 h 59 of overtime", 719, 3899.58, []],
    // 60 h exactly: 15 × 260 = 3,900.00; the 60th hour is still + 25 %.
    ["60 h of overtime", 720, 3900, []],
    // 60 h 01: 3,900 + 1 min at 25 / 60 = 0.42 (the OVERTIME line: 241 × 25 / 60 = 100.42) + 1 min × 20 × 0.25 / 60 =
    // 0.08 → 3,900.50 (one minute at 30.00 an hour is 0.50).
    ["60 h 01 of overtime", 721, 3900.5, [["2026-06-19", 1, 0.08]]],
  ])("%s", (_name, last, gross, past) => {
    const result = pay(june(last));
    expect(result.gross).toBe(gross);
    expect(result.past).toEqual(past);
  });

  it("the 61st overtime hour is 150 %: 8 × 20 + 1 × 25 + 1 × 5 = 190.00 on the 16th day", () => {
    const result = pay([...june(), payShift("2026-06-22", "08:00", 540)]);
    expect(result.day("2026-06-22")).toEqual([
      ["REGULAR", null, 480, 160],
      ["OVERTIME", "DAILY_OVERTIME", 60, 25],
      ["PENALTY", PAST_60, 60, 5],
    ]);
  });

  it("late-night overtime past 60 hours is 175 %: 22:00–23:00 is 25 + 5 late night + 5 past 60 = 35.00 (20 × 1.75)", () => {
    const result = pay([...june(), payShift("2026-06-22", "14:00", 540)]);
    expect(result.day("2026-06-22")).toEqual([
      ["REGULAR", null, 480, 160],
      ["OVERTIME", "DAILY_OVERTIME", 60, 25],
      ["PENALTY", "JP_STATUTORY.LATE_NIGHT", 60, 5],
      ["PENALTY", PAST_60, 60, 5],
    ]);
  });

  it("work on the statutory rest day neither counts toward the 60 hours nor earns the + 50 %", () => {
    // 59 h by Friday the 19th (its day 11 h); Sunday the 21st 9 h, all overtime of the week (40 h by Friday) on the
    // rest day: 9 × 27 = 243.00 at 135 %, nothing past 60. Monday the 22nd's overtime hour is the 60th: + 25 % only.
    const result = pay([...june(660), payShift("2026-06-21", "08:00", 540), payShift("2026-06-22", "08:00", 540)]);
    expect(result.day("2026-06-21").reduce((sum, l) => sum + (l[3] as number), 0)).toBe(243);
    expect(result.day("2026-06-22")).toEqual([
      ["REGULAR", null, 480, 160],
      ["OVERTIME", "DAILY_OVERTIME", 60, 25],
    ]);
    expect(result.past).toEqual([]);
  });

  it("the month ends the count: the last day of June past 60 hours earns it, the first of July starts again", () => {
    const shifts = [...june(), payShift("2026-06-30", "08:00", 540), payShift("2026-07-01", "08:00", 540)];
    const result = pay(shifts);
    // 30 June: 8 × 20 + 1 × 25 + 1 × 5 = 190.00; 1 July: the month's first overtime hour, 8 × 20 + 1 × 25 = 185.00.
    expect(result.past).toEqual([["2026-06-30", 60, 5]]);
    expect(result.day("2026-07-01")).toEqual([
      ["REGULAR", null, 480, 160],
      ["OVERTIME", "DAILY_OVERTIME", 60, 25],
    ]);
    // Asked for 30 June alone (the month's shifts given): the same line, counted from the 1st.
    expect(pay(shifts, "2026-06-30", "2026-06-30").past).toEqual([["2026-06-30", 60, 5]]);
  });
});
