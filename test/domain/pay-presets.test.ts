import { describe, expect, it } from "vitest";
import { computePay, type PayShift } from "@/domain/pay-classification";
import type { PayPreset } from "@/domain/pay-rules";
import { payShift, ruleSet, WEEK } from "../helpers/pay-fixtures";

/* Issue "Pay beyond the US": each preset at its edges — exactly the limit, one minute either side — citing its source. */

const [MON, TUE, WED, THU, FRI, SAT, SUN] = WEEK;

const pay = (preset: PayPreset, shifts: PayShift[], options: { isHoliday?: (locationId: string, date: string) => boolean } = {}) => {
  const result = computePay({ startDate: MON, endDate: SUN, shifts, timeOff: [], ruleSets: [ruleSet("prs_1", preset)], ...options });
  const employee = result.employees[0]!;
  return { gross: employee.grossPay, lines: employee.lines.map((l) => [l.kind, l.rule, l.minutes, l.amount]) };
};

const casual = { employment: { type: "casual", schoolStudent: false } };
const fullTime = { employment: { type: "full_time", schoolStudent: false } };
const partTime = { employment: { type: "part_time", schoolStudent: false } };
const student = { employment: { type: "casual", schoolStudent: true } };

describe("AU_GENERAL_RETAIL (General Retail Industry Award 2020 [MA000004]) at its edges", () => {
  it.each([
    // cl. 22.1: Monday–Friday from 18:00 — a full-timer's 17:59 is ordinary, 18:00 evening.
    ["weekday ending 18:00, full time", TUE, "10:00", 480, fullTime, 25, 200],
    ["weekday ending 18:01, full time: 1 minute at +25 %", TUE, "10:01", 480, fullTime, 25, 200.1],
    ["weekday 18:00–21:00, casual: 150 %", TUE, "18:00", 180, casual, 20, 90],
    // Saturday and Sunday start at midnight: 23:59 Friday is evening, 00:00 Saturday Saturday.
    ["Friday 23:00–00:00, full time evening", FRI, "23:00", 60, fullTime, 20, 25],
    ["Saturday 00:00–01:00, full time", SAT, "00:00", 60, fullTime, 20, 25],
    ["Sunday, full time: 150 %", SUN, "09:00", 480, fullTime, 25, 300],
    ["Sunday, casual: 175 %", SUN, "09:00", 480, casual, 25, 350],
    ["Saturday, casual: 150 %", SAT, "09:00", 480, casual, 25, 300],
  ])("%s", (_name, date, time, minutes, who, wage, gross) => {
    expect(pay("AU_GENERAL_RETAIL", [payShift(date, time, minutes, { ...who, hourlyWage: wage })]).gross).toBe(gross);
  });

  it("overtime at 9 h a day (cl. 15.7, 21.3): exactly 9 h none; 9 h 01 one minute at 150 %; 12 h 01 one minute at 200 %", () => {
    // 9 × 20 = 180.00.
    expect(pay("AU_GENERAL_RETAIL", [payShift(MON, "07:00", 540, fullTime)]).gross).toBe(180);
    // 180.00 + 1/60 × 30 = 0.50 → 180.50.
    expect(pay("AU_GENERAL_RETAIL", [payShift(MON, "07:00", 541, fullTime)]).gross).toBe(180.5);
    // 12 h: 180 + 3 × 30 = 270.00 exactly; one more minute at 40/h: 0.67 → 270.67 (07:00–19:01: the evening minutes are
    // overtime already, no penalty on top).
    expect(pay("AU_GENERAL_RETAIL", [payShift(MON, "07:00", 720, fullTime)]).gross).toBe(270);
    expect(pay("AU_GENERAL_RETAIL", [payShift(MON, "07:00", 721, fullTime)]).gross).toBe(270.67);
  });

  it("overtime past 38 h a week (cl. 15.1, 21.3): five days of 7 h 36 exactly none; one minute more at 150 %", () => {
    const week = (last: number) =>
      [MON, TUE, WED, THU].map((d) => payShift(d, "08:00", 456, fullTime)).concat(payShift(FRI, "08:00", last, fullTime));
    // 38 × 20 = 760.00.
    expect(pay("AU_GENERAL_RETAIL", week(456)).gross).toBe(760);
    // + 1 minute at 30/h = 0.50 → 760.50, a WEEKLY_OVERTIME line.
    const over = pay("AU_GENERAL_RETAIL", week(457));
    expect(over.gross).toBe(760.5);
    expect(over.lines).toContainEqual(["OVERTIME", "WEEKLY_OVERTIME", 1, 0.5]);
  });

  it("a casual's overtime carries the loading: 175 % then 225 %; Sunday overtime is 200 % (+ loading 225 %) (cl. 21.3)", () => {
    const weekday = pay("AU_GENERAL_RETAIL", [payShift(MON, "06:00", 600, { ...casual, hourlyWage: 20 })]);
    // 06:00–16:00: 9 h × 20 = 180 + 9 × 5 loading = 45; 1 h OT 30 + loading 5 → 260.00.
    expect(weekday.gross).toBe(260);
    const sunday = pay("AU_GENERAL_RETAIL", [payShift(SUN, "06:00", 600, { ...fullTime, hourlyWage: 20 })]);
    // 9 × 20 × 1.5 = 270; 1 h OT at 30 + Sunday overtime 0.5 × 20 = 10 → 40 (200 %) → 310.00.
    expect(sunday.gross).toBe(310);
    expect(sunday.lines).toContainEqual(["PENALTY", "AU_GENERAL_RETAIL.SUNDAY_OVERTIME", 60, 10]);
  });

  it("public holidays: 225 % (casual 250 %) as a HOLIDAY line; overtime 250 % (cl. 22.1, 21.3)", () => {
    const isHoliday = (_loc: string, date: string) => date === WED;
    const permanent = pay("AU_GENERAL_RETAIL", [payShift(WED, "09:00", 480, { ...fullTime, hourlyWage: 20 })], { isHoliday });
    // 8 × 20 = 160 + 8 × 20 × 1.25 = 200 → 360.00.
    expect(permanent.gross).toBe(360);
    expect(permanent.lines).toContainEqual(["HOLIDAY", "AU_GENERAL_RETAIL.PUBLIC_HOLIDAY", 480, 200]);
    // Casual: 8 × 20 × 2.5 = 400.00.
    expect(pay("AU_GENERAL_RETAIL", [payShift(WED, "09:00", 480, { ...casual, hourlyWage: 20 })], { isHoliday }).gross).toBe(400);
    // The day before ends at midnight: Tuesday 23:00–Wednesday 01:00 is 1 h evening, 1 h holiday.
    const across = pay("AU_GENERAL_RETAIL", [payShift(TUE, "23:00", 120, { ...fullTime, hourlyWage: 20 })], { isHoliday });
    // Tuesday's workday 23:00–00:00: 20 + 5 evening; Wednesday's 00:00–01:00: 20 + 25 holiday → 70.00.
    expect(across.gross).toBe(70);
  });

  it("minimum engagement (cl. 10.9, 11.3): 3 h for casual and part-time, none for full-time; 1.5 h for a school student 15:00–18:30", () => {
    // Exactly 3 h: nothing added. 2 h 59 casual: 1 minute at 125 % × 20 = 0.42.
    expect(pay("AU_GENERAL_RETAIL", [payShift(MON, "09:00", 180, casual)]).gross).toBe(75);
    expect(pay("AU_GENERAL_RETAIL", [payShift(MON, "09:00", 179, casual)]).lines).toContainEqual([
      "MINIMUM_ENGAGEMENT",
      "AU_GENERAL_RETAIL.MINIMUM_ENGAGEMENT",
      1,
      0.42,
    ]);
    // Part-time 2 h: 1 h unworked at 100 % → 60.00 in all. Full-time 2 h: 40.00.
    expect(pay("AU_GENERAL_RETAIL", [payShift(MON, "09:00", 120, partTime)]).gross).toBe(60);
    expect(pay("AU_GENERAL_RETAIL", [payShift(MON, "09:00", 120, fullTime)]).gross).toBe(40);
    // School student 15:00–16:30 (inside the hours): 1.5 h × 20 × 1.25 = 37.50, nothing added; 14:59–16:29 is outside:
    // 3 h × 25.00 = 75.00.
    expect(pay("AU_GENERAL_RETAIL", [payShift(MON, "15:00", 90, student)]).gross).toBe(37.5);
    expect(pay("AU_GENERAL_RETAIL", [payShift(MON, "14:59", 90, student)]).gross).toBe(75);
    // Ending 18:31 is outside too: 17:01–18:31 is 90 × 20 / 60 = 30.00, loading 59 min × 5 / 60 = 4.92, evening 31 min ×
    // 10 / 60 = 5.17, then 90 unworked minutes at the evening rate the shift ended in (150 %): 45.00 → 85.09.
    expect(pay("AU_GENERAL_RETAIL", [payShift(MON, "17:01", 90, student)]).gross).toBe(85.09);
  });

  it("12 hours between workdays (cl. 16.6): exactly 12 h none; 11 h 59 pays 200 % for the next day's ordinary hours", () => {
    const day1 = () => payShift(MON, "12:00", 480, partTime);
    // Monday 12:00–20:00 (2 h evening: 2 × 20 × 0.25 = 10); Tuesday 08:00 is exactly 12 h: 8 × 20 = 160.
    expect(pay("AU_GENERAL_RETAIL", [day1(), payShift(TUE, "08:00", 240, partTime)]).gross).toBe(160 + 10 + 80);
    // Tuesday 07:59: 4 h at 200 %: 160 → Monday 170 + Tuesday 160 = 330.00.
    const short = pay("AU_GENERAL_RETAIL", [day1(), payShift(TUE, "07:59", 240, partTime)]);
    expect(short.gross).toBe(330);
    expect(short.lines).toContainEqual(["PENALTY", "AU_GENERAL_RETAIL.SHORT_REST_BETWEEN_SHIFTS", 240, 80]);
  });
});

describe("Canada", () => {
  it("CA_ON (ESA 2000 s. 22(1)): exactly 44 h a week none; 44 h 01 one minute at 150 %", () => {
    const week = (last: number) => [MON, TUE, WED, THU].map((d) => payShift(d, "08:00", 600)).concat(payShift(FRI, "08:00", last));
    // 44 × 20 = 880.00.
    expect(pay("CA_ON", week(240)).gross).toBe(880);
    // + 1 minute at 30/h = 0.50.
    expect(pay("CA_ON", week(241)).gross).toBe(880.5);
    // No daily overtime: a 13-hour day is straight time. 13 × 20 = 260.00.
    expect(pay("CA_ON", [payShift(MON, "07:00", 780)]).gross).toBe(260);
  });

  it("CA_BC (ESA s. 40): 8 h / 12 h a day at the minute, 40 h a week not counting daily overtime", () => {
    expect(pay("CA_BC", [payShift(MON, "07:00", 480)]).gross).toBe(160);
    expect(pay("CA_BC", [payShift(MON, "07:00", 481)]).gross).toBe(160.5);
    // 12 h: 160 + 4 × 30 = 280; 12 h 01: + 1 minute at 40/h = 0.67.
    expect(pay("CA_BC", [payShift(MON, "07:00", 720)]).gross).toBe(280);
    expect(pay("CA_BC", [payShift(MON, "07:00", 721)]).gross).toBe(280.67);
    // Five 8-hour days: 40 h exactly, 800.00; a Saturday minute is the 41st hour's: + 30 / 60 = 0.50 → 800.50.
    const fortyHours = [MON, TUE, WED, THU, FRI].map((d) => payShift(d, "08:00", 480));
    expect(pay("CA_BC", fortyHours).gross).toBe(800);
    expect(pay("CA_BC", [...fortyHours, payShift(SAT, "08:00", 1)]).lines).toContainEqual(["OVERTIME", "WEEKLY_OVERTIME", 1, 0.5]);
    // Five 9-hour days: 5 daily overtime hours; regular 40 h exactly, no weekly overtime: 800 + 5 × 30 = 950.00.
    expect(
      pay(
        "CA_BC",
        [MON, TUE, WED, THU, FRI].map((d) => payShift(d, "08:00", 540)),
      ).gross,
    ).toBe(950);
  });
});

describe("US states", () => {
  it("US_AK (AS 23.10.060(b)): 8 h a day at the minute; 40 h a week", () => {
    expect(pay("US_AK", [payShift(MON, "08:00", 480)]).gross).toBe(160);
    expect(pay("US_AK", [payShift(MON, "08:00", 481)]).gross).toBe(160.5);
    // Five 8-hour days and a Saturday hour: 40 regular + 1 weekly overtime at 30 → 830.00.
    const week = [MON, TUE, WED, THU, FRI].map((d) => payShift(d, "08:00", 480)).concat(payShift(SAT, "08:00", 60));
    expect(pay("US_AK", week).gross).toBe(830);
  });

  it("US_NV (NRS 608.018): daily overtime below $18.00 (1.5 × $12.00), none at or above it", () => {
    // 8 × 17.99 = 143.92 + 1 minute at 17.99 × 1.5 = 26.985/h: 0.45 → 144.37.
    expect(pay("US_NV", [payShift(MON, "08:00", 481, { hourlyWage: 17.99 })]).gross).toBe(144.37);
    // At $18.00: 481 minutes straight, 481 × 18 / 60 = 144.30.
    expect(pay("US_NV", [payShift(MON, "08:00", 481, { hourlyWage: 18 })]).gross).toBe(144.3);
  });

  it("US_NV (NRS 608.0126): the workday is the 24 hours from when work begins — at the window's end exactly none; a minute inside it one", () => {
    const lines = (shifts: PayShift[]) => pay("US_NV", shifts).lines;
    const monday = () => payShift(MON, "08:00", 480, { hourlyWage: 15 });
    // Monday 08:00–16:00, Tuesday 08:00–16:00: Tuesday starts as Monday's 24 hours end. 16 × 15 = 240.00, no overtime.
    expect(pay("US_NV", [monday(), payShift(TUE, "08:00", 480, { hourlyWage: 15 })]).gross).toBe(240);
    // Tuesday 07:59–15:59: its first minute is Monday's 24 hours' 481st: 1 minute at 22.50/h = 0.375 → 0.38;
    // 959 × 15 / 60 = 239.75 → 240.13.
    const early = lines([monday(), payShift(TUE, "07:59", 480, { hourlyWage: 15 })]);
    expect(early).toContainEqual(["OVERTIME", "DAILY_OVERTIME", 1, 0.38]);
    expect(pay("US_NV", [monday(), payShift(TUE, "07:59", 480, { hourlyWage: 15 })]).gross).toBe(240.13);
    // Tuesday 06:00–14:00 (the Labor Commissioner's reading): 06:00–08:00 is Monday's 9th and 10th hours, overtime; a
    // new 24 hours opens at 08:00, 6 h regular. 8 × 15 + 6 × 15 = 210.00 + 2 × 22.50 = 45.00 → 255.00.
    const straddle = pay("US_NV", [monday(), payShift(TUE, "06:00", 480, { hourlyWage: 15 })]);
    expect(straddle.gross).toBe(255);
    expect(straddle.lines).toEqual([
      ["REGULAR", null, 480, 120],
      ["OVERTIME", "DAILY_OVERTIME", 120, 45],
      ["REGULAR", null, 360, 90],
    ]);
    // Across midnight: Monday 20:00–Tuesday 04:00 and Tuesday 12:00–20:00 are 16 h in the 24 hours from Monday 20:00:
    // 8 × 15 = 120.00 + 8 × 22.50 = 180.00 → 300.00 (calendar days would have made only 4 h overtime).
    expect(pay("US_NV", [payShift(MON, "20:00", 480, { hourlyWage: 15 }), payShift(TUE, "12:00", 480, { hourlyWage: 15 })]).gross).toBe(
      300,
    );
    // At $18.00 the daily rule does not apply: 06:00–14:00 after Monday is straight time, 16 × 18 = 288.00.
    expect(pay("US_NV", [payShift(MON, "08:00", 480, { hourlyWage: 18 }), payShift(TUE, "06:00", 480, { hourlyWage: 18 })]).gross).toBe(
      288,
    );
  });

  it("US_NV: a week of starts moving earlier (Mon 08:00, Tue 07:30, Wed 07:00, Thu and Fri 08:00, 8 h each) at $15", () => {
    const week = [
      payShift(MON, "08:00", 480, { hourlyWage: 15 }),
      payShift(TUE, "07:30", 480, { hourlyWage: 15 }),
      payShift(WED, "07:00", 480, { hourlyWage: 15 }),
      payShift(THU, "08:00", 480, { hourlyWage: 15 }),
      payShift(FRI, "08:00", 480, { hourlyWage: 15 }),
    ];
    // Tuesday 07:30–08:00 is in Monday's 24 hours (8.5 h): 0.5 h overtime; a window opens Tuesday 08:00 (7.5 h to
    // 15:30), so Wednesday 07:00–08:00 brings it to 8.5 h: 0.5 h overtime; Thursday 08:00 opens a fresh one.
    // Regular 39 h × 15 = 585.00 + 1 h × 22.50 = 607.50; 39 h regular, under the weekly 40.
    const result = pay("US_NV", week);
    expect(result.gross).toBe(607.5);
    expect(result.lines.filter((l) => l[0] === "OVERTIME")).toEqual([
      ["OVERTIME", "DAILY_OVERTIME", 30, 11.25],
      ["OVERTIME", "DAILY_OVERTIME", 30, 11.25],
    ]);
  });

  it("US_CO (7 CCR 1103-1 Rule 4.1.1): 12 h a workday at the minute", () => {
    expect(pay("US_CO", [payShift(MON, "06:00", 720)]).gross).toBe(240);
    expect(pay("US_CO", [payShift(MON, "06:00", 721)]).gross).toBe(240.5);
  });
});

describe("FR_STATUTORY (Code du travail L3121-27, L3121-36)", () => {
  const week = (lastMinutes: number) =>
    [MON, TUE, WED, THU].map((d) => payShift(d, "08:00", 480)).concat(payShift(FRI, "08:00", lastMinutes));
  it.each([
    // 35 h exactly: 35 × 20 = 700.00; one minute more at 125 %: 25 / 60 = 0.42.
    ["35 h", 180, 700],
    ["35 h 01", 181, 700.42],
    // 43 h: 700 + 8 × 25 = 900.00; the 44th hour's first minute at 150 %: 30 / 60 = 0.50.
    ["43 h", 660, 900],
    ["43 h 01", 661, 900.5],
    // 48 h: 900 + 5 × 30 = 1,050.00.
    ["48 h", 960, 1050],
  ])("%s in the week", (_name, last, gross) => {
    expect(pay("FR_STATUTORY", week(last)).gross).toBe(gross);
  });

  it("names the second band WEEKLY_DOUBLE_TIME", () => {
    expect(pay("FR_STATUTORY", week(960)).lines).toContainEqual(["DOUBLE_TIME", "WEEKLY_DOUBLE_TIME", 300, 150]);
  });
});

describe("JP_STATUTORY (Labour Standards Act arts. 32, 35, 37)", () => {
  it.each([
    // Ending at 22:00 exactly: no late night. 8 × 20 = 160.00.
    ["14:00–22:00", MON, "14:00", 480, 160],
    // One late-night minute: + 20 × 0.25 / 60 = 0.08.
    ["14:01–22:01", MON, "14:01", 480, 160.08],
    // Late-night overtime, 150 %: 8 × 20 + 1 × 20 × 1.5 = 190.00.
    ["14:00–23:00", MON, "14:00", 540, 190],
    // 04:00–06:00: late night until 05:00: 25 + 20 = 45.00.
    ["04:00–06:00", MON, "04:00", 120, 45],
    // The statutory rest day, 135 %: 8 × 20 × 1.35 = 216.00.
    ["Sunday 09:00–17:00", SUN, "09:00", 480, 216],
    // Rest day then late night, 160 %: 7 × 27 + 1 × 32 = 221.00.
    ["Sunday 15:00–23:00", SUN, "15:00", 480, 221],
    // Rest-day overtime is 135 %, not 160 %: 8 × 27 + 1 × 27 = 243.00.
    ["Sunday 08:00–17:00", SUN, "08:00", 540, 243],
  ])("%s", (_name, date, time, minutes, gross) => {
    expect(pay("JP_STATUTORY", [payShift(date, time, minutes)]).gross).toBe(gross);
  });
});

describe("US_NY spread of hours (12 NYCRR 142-2.4)", () => {
  it("a workday spanning exactly 10 h earns nothing; 10 h 01 one hour at the $17.00 minimum wage", () => {
    // 08:00–12:00 and 14:00–18:00: 10 h spread, 8 h worked: 8 × 20 = 160.00.
    expect(pay("US_NY", [payShift(MON, "08:00", 240), payShift(MON, "14:00", 240)]).gross).toBe(160);
    // Ending 18:01: 481 × 20 / 60 = 160.33 + 1 × 17.00 = 177.33.
    const longer = pay("US_NY", [payShift(MON, "08:00", 240), payShift(MON, "14:00", 241)]);
    expect(longer.gross).toBe(177.33);
    expect(longer.lines).toContainEqual(["SPREAD_OF_HOURS", "US_NY.SPREAD_OF_HOURS", 60, 17]);
  });

  it("keeps FLSA's weekly overtime: 41 h at $20 is 40 × 20 + 1 × 30 = 830.00", () => {
    const week = [MON, TUE, WED, THU, FRI].map((d) => payShift(d, "08:00", 480)).concat(payShift(SAT, "08:00", 60));
    expect(pay("US_NY", week).gross).toBe(830);
  });
});
