import { describe, expect, it } from "vitest";
import { addDays } from "@/domain/local-time";
import { computePay, type PayLine, type PayShift } from "@/domain/pay-classification";
import type { PayRuleSet } from "@/domain/pay-rules";
import { payShift, ruleSet, WEEK } from "../helpers/pay-fixtures";

/* Issue "Pay you can defend": each rule as a table, each example from the issue, each citing its source. */

const [MON, TUE, WED, THU, FRI, SAT, SUN] = WEEK;
const CA = ruleSet("prs_ca", "CALIFORNIA");
const FLSA = ruleSet("prs_flsa", "FLSA");

const pay = (shifts: PayShift[], ruleSets: PayRuleSet[], startDate: string = MON, endDate: string = SUN) =>
  computePay({ startDate, endDate, shifts, timeOff: [], ruleSets });

const brief = (lines: PayLine[]) => lines.map((l) => [l.date, l.kind, l.minutes, l.rate, l.amount]);

describe("the regular rate (29 CFR 778.115; Cal. Labor Code 510(a))", () => {
  it("FLSA: 10 h at $30 then 40 h at $20 → regular rate 22.00, overtime at 20 + 11 = 31, gross $1,210.00 (not $1,200.00)", () => {
    const shifts = [
      payShift(MON, "08:00", 600, { hourlyWage: 30 }),
      ...[TUE, WED, THU, FRI].map((d) => payShift(d, "08:00", 600, { hourlyWage: 20 })),
    ];
    const [employee] = pay(shifts, [FLSA]).employees;
    expect(employee!.grossPay).toBe(1210);
    // Overtime premium 310 − 10 × 20 = 110.00, all of it required by FLSA §7 (issue 46: qualified overtime).
    expect(employee!.workweeks).toEqual([
      {
        startDate: MON,
        endDate: SUN,
        regularRate: 22,
        minutes: 3000,
        straightTimePay: 1100,
        overtimePremium: 110,
        qualifiedOvertimePremium: 110,
        qualifiedOvertimeMinutes: 600,
      },
    ]);
    expect(brief(employee!.lines.filter((l) => l.kind === "OVERTIME"))).toEqual([[FRI, "OVERTIME", 600, 31, 310]]);
  });

  it("California: 5 h at $30 and 6 h at $20 in one day → $306.82 (not $300.00): 3 h overtime at 20 + ½ × 24.5454…", () => {
    const shifts = [payShift(MON, "08:00", 300, { hourlyWage: 30 }), payShift(MON, "13:30", 360, { hourlyWage: 20 })];
    // An 11-hour day owes a second meal unless waived (Labor Code 512(a)): waived here, so only the regular rate shows.
    const mealWaivers = [{ employeeId: "emp_a", effectiveFrom: "2026-01-01", firstMeal: false, secondMeal: true }];
    const [employee] = computePay({ startDate: MON, endDate: SUN, shifts, timeOff: [], ruleSets: [CA], mealWaivers }).employees;
    expect(employee!.grossPay).toBe(306.82);
    expect(employee!.workweeks[0]).toMatchObject({ regularRate: 24.5455, minutes: 660, straightTimePay: 270 });
    expect(brief(employee!.lines)).toEqual([
      [MON, "REGULAR", 300, 30, 150],
      [MON, "REGULAR", 180, 20, 60],
      // 270 ÷ 11 = 24.545454… exact: 20 + 12.272727… = 32.272727… shown 32.2727; 3 h × 32.272727… = 96.8181… → 96.82.
      [MON, "OVERTIME", 180, 32.2727, 96.82],
    ]);
  });

  it("double time: its own wage + 1.0 × the regular rate (Cal. Labor Code 510(a))", () => {
    const shifts = [payShift(MON, "06:00", 300, { hourlyWage: 30 }), payShift(MON, "11:30", 540, { hourlyWage: 20 })];
    const lines = pay(shifts, [ruleSet("prs_ca_nomeal", "CALIFORNIA", { mealBreaks: [] })]).employees[0]!.lines;
    // 300 × 30 + 540 × 20 = 19,800 cents·h over 840 minutes: 23.5714 an hour.
    expect(lines.find((l) => l.kind === "DOUBLE_TIME")).toMatchObject({ minutes: 120, rate: 43.5714, amount: 87.14 });
  });

  it("a meal penalty is paid at the regular rate (Cal. Labor Code 226.7(c); Ferra v. Loews Hollywood Hotel, 2021)", () => {
    const shifts = [payShift(MON, "08:00", 300, { hourlyWage: 30 }), payShift(MON, "13:05", 360, { hourlyWage: 20 })];
    const penalty = pay(shifts, [CA]).employees[0]!.lines.find((l) => l.kind === "MEAL_PENALTY");
    expect(penalty).toMatchObject({ minutes: 60, hours: 1, rate: 24.5455, amount: 24.55 });
  });

  it("one rate (29 CFR 778.110(a)): $12 an hour for 46 hours → $588 (40 × 12 + 6 × 18)", () => {
    const shifts = [
      ...[MON, TUE, WED, THU].map((d) => payShift(d, "08:00", 600, { hourlyWage: 12 })),
      payShift(FRI, "08:00", 360, { hourlyWage: 12 }),
    ];
    const [employee] = pay(shifts, [FLSA]).employees;
    // 46 h × 12 = 552 + 6 h × ½ × 12 = 36 → 588; i.e. 40 × 12 = 480 and 6 × 18 = 108.
    expect(employee!.workweeks[0]).toMatchObject({ regularRate: 12, minutes: 2760, straightTimePay: 552 });
    expect(brief(employee!.lines.filter((l) => l.kind === "OVERTIME"))).toEqual([[FRI, "OVERTIME", 360, 18, 108]]);
    expect(employee!.grossPay).toBe(588);
  });

  it("two rates (29 CFR 778.115): 24 h at $8 then 25 h at $19 → $728.26, the regular rate kept exact (not $728.25)", () => {
    const shifts = [
      ...[MON, TUE, WED].map((d) => payShift(d, "08:00", 480, { hourlyWage: 8 })),
      payShift(THU, "07:00", 720, { hourlyWage: 19 }),
      payShift(FRI, "07:00", 780, { hourlyWage: 19 }),
    ];
    const [employee] = pay(shifts, [FLSA]).employees;
    // Straight time 24 × 8 + 25 × 19 = 192 + 475 = $667.00 over 49 h: regular rate 667 ÷ 49 = 13.612244897…
    // Friday's last 9 h are overtime at 19 + ½ × 13.612244897… = 25.806122448… an hour: 9 × 25.806122448… =
    // 232.255102… → 232.26. Gross 192 + 12 × 19 + 4 × 19 + 232.26 = 192 + 228 + 76 + 232.26 = $728.26, the exact
    // figure 667 + 9 × ½ × 13.612244897… = 728.2551 → 728.26. A regular rate rounded first (13.6122 → 25.8061 an
    // hour) would pay 9 × 25.8061 = 232.2549 → 232.25 and $728.25. Rates are shown to 4 decimals.
    // Overtime premium 232.26 − 9 × 19 = 61.26, all 9 h over 40: qualified alike (issue 46).
    expect(employee!.workweeks).toEqual([
      {
        startDate: MON,
        endDate: SUN,
        regularRate: 13.6122,
        minutes: 2940,
        straightTimePay: 667,
        overtimePremium: 61.26,
        qualifiedOvertimePremium: 61.26,
        qualifiedOvertimeMinutes: 540,
      },
    ]);
    expect(brief(employee!.lines.filter((l) => l.kind === "OVERTIME"))).toEqual([[FRI, "OVERTIME", 540, 25.8061, 232.26]]);
    expect(employee!.grossPay).toBe(728.26);
  });

  it("a salaried staff member's workweeks carry minutes but no regular rate or pay", () => {
    const [employee] = pay([payShift(MON, "08:00", 600, { hourlyWage: null })], [FLSA]).employees;
    expect(employee!.workweeks).toEqual([
      {
        startDate: MON,
        endDate: SUN,
        regularRate: null,
        minutes: 600,
        straightTimePay: null,
        overtimePremium: null,
        qualifiedOvertimePremium: null,
        qualifiedOvertimeMinutes: 0,
      },
    ]);
  });
});

describe("workday and workweek boundaries (29 CFR 778.104, 778.105; Cal. Labor Code 500(a), (b))", () => {
  const SUNDAY_WEEKS = ruleSet("prs_flsa_sun", "FLSA", { workweekStartsOn: "Sunday" });
  const NEXT = (i: number) => addDays(SUN, i);

  it("Saturday 20:00 → Sunday 06:00, then Monday–Friday 8 h: 2,640 regular and 360 overtime minutes (not 3,000 regular)", () => {
    const shifts = [payShift(SAT, "20:00", 600), ...[1, 2, 3, 4, 5].map((i) => payShift(NEXT(i), "09:00", 480))];
    const { totals, employees } = pay(shifts, [SUNDAY_WEEKS], SAT, NEXT(6));
    expect(totals).toMatchObject({ regularMinutes: 2640, overtimeMinutes: 360 });
    const night = employees[0]!.lines.filter((l) => l.shiftId === shifts[0]!.id);
    expect(night.map((l) => [l.date, l.kind, l.minutes])).toEqual([
      [SAT, "REGULAR", 240],
      [SUN, "REGULAR", 360],
    ]);
    expect(employees[0]!.workweeks.map((w) => [w.startDate, w.endDate, w.minutes])).toEqual([
      ["2026-05-31", SAT, 240],
      [SUN, NEXT(6), 2760],
    ]);
  });

  it("a shift crossing midnight counts its minutes in each workday (California daily overtime is per workday)", () => {
    const { employees } = pay([payShift(MON, "20:00", 600)], [ruleSet("prs_ca_nomeal", "CALIFORNIA", { mealBreaks: [] })]);
    expect(employees[0]!.lines.map((l) => [l.date, l.kind, l.minutes])).toEqual([
      [MON, "REGULAR", 240],
      [TUE, "REGULAR", 360],
    ]);
  });

  it("workdayStartsAt 04:00 keeps a 20:00–04:00 shift on one workday, and starts the workweek then", () => {
    const rules = ruleSet("prs_ca4", "CALIFORNIA", { workdayStartsAt: "04:00", mealBreaks: [] });
    const shifts = [payShift(MON, "20:00", 480), payShift(TUE, "02:00", 240), payShift(MON, "02:00", 60)];
    const { employees } = pay(shifts, [rules], "2026-05-31", SUN);
    // 20:00–04:00 whole on Monday's workday; 02:00–06:00 Tuesday splits at 04:00; 02:00 Monday is Sunday's workday.
    expect(employees[0]!.lines.map((l) => [l.date, l.kind, l.minutes])).toEqual([
      ["2026-05-31", "REGULAR", 60],
      [MON, "REGULAR", 480],
      [MON, "OVERTIME", 120],
      [TUE, "REGULAR", 120],
    ]);
    expect(employees[0]!.workweeks.map((w) => [w.startDate, w.endDate, w.minutes])).toEqual([
      ["2026-05-25", "2026-05-31", 60],
      [MON, SUN, 720],
    ]);
  });
});

describe("meal periods on the actual punches (Cal. Labor Code 512(a); Donohue v. AMN Services, 11 Cal.5th 58 (2021))", () => {
  const ROUNDED = ruleSet("prs_ca15", "CALIFORNIA", { rounding: { incrementMinutes: 15, mode: "NEAREST" } });

  it("08:00–13:07 without a break earns a meal penalty though 13:07 rounds to 13:00 for pay", () => {
    const { employees } = pay([payShift(MON, "08:00", 307)], [ROUNDED]);
    expect(employees[0]!.lines.map((l) => [l.kind, l.minutes])).toEqual([
      ["REGULAR", 300],
      ["MEAL_PENALTY", 60],
    ]);
  });

  it("08:00–13:00 exactly (300 minutes) earns none", () => {
    const { employees } = pay([payShift(MON, "08:00", 300)], [ROUNDED]);
    expect(employees[0]!.lines.map((l) => l.kind)).toEqual(["REGULAR"]);
  });
});

describe("a change of workweek (29 CFR 778.105: a change intended to be permanent; no hour leaves its window)", () => {
  const SUNDAY = ruleSet("prs_sun", "FLSA", { workweekStartsOn: "Sunday" });
  const WEDNESDAY = ruleSet("prs_wed", "FLSA", { workweekStartsOn: "Wednesday", effectiveFrom: WED });
  const from = "2026-05-31"; // a Sunday
  const days = (first: string, count: number) => Array.from({ length: count }, (_, i) => payShift(addDays(first, i), "08:00", 540));

  it("Sunday to Wednesday mid-week: seven consecutive 9-hour days earn 23 h overtime under the old week (not 0)", () => {
    const { totals, employees } = pay(days(from, 7), [SUNDAY, WEDNESDAY], from, SAT);
    expect(totals).toMatchObject({ regularMinutes: 2400, overtimeMinutes: 1380 });
    expect(employees[0]!.workweeks.map((w) => [w.startDate, w.endDate, w.minutes])).toEqual([[from, SAT, 3780]]);
    // The next week, Sun 06-07 – Sat 06-13, holds the change: the old Sunday week 06-07..06-13 and the first
    // Wednesday week 06-10..06-16 overlap on Wed–Sat. Overlap in the new week: 06-07..06-09 (27 h) and 06-10..06-16
    // (36 h), no overtime; in the old week: 63 h, 23 h overtime. 29 CFR 778.302: the greater, the old week's.
    const next = pay(days(SUN, 7), [SUNDAY, WEDNESDAY], SUN, addDays(SUN, 6));
    expect(next.employees[0]!.workweeks.map((w) => [w.startDate, w.endDate, w.minutes])).toEqual([[SUN, "2026-06-13", 3780]]);
    expect(next.totals).toMatchObject({ regularMinutes: 2400, overtimeMinutes: 1380 });
  });

  it("with no hour worked in the overlap both counts are one: the short workweek until the first new week", () => {
    const next = pay(days(SUN, 3), [SUNDAY, WEDNESDAY], SUN, addDays(SUN, 6));
    expect(next.employees[0]!.workweeks.map((w) => [w.startDate, w.endDate, w.minutes])).toEqual([[SUN, "2026-06-09", 1620]]);
  });

  it("a change effective on the old workweek's first day takes effect at once", () => {
    const monday = ruleSet("prs_mon", "FLSA", { workweekStartsOn: "Monday", effectiveFrom: "2026-06-07" });
    const { employees } = pay(days(SUN, 2), [SUNDAY, monday], SUN, "2026-06-08");
    expect(employees[0]!.workweeks.map((w) => [w.startDate, w.endDate])).toEqual([
      [SUN, SUN],
      ["2026-06-08", "2026-06-14"],
    ]);
  });

  it("a new workdayStartsAt alone: the old week ends at its midnight, the 4 hours until 04:00 are a short workweek", () => {
    const later = ruleSet("prs_4", "FLSA", { workweekStartsOn: "Sunday", workdayStartsAt: "04:00", effectiveFrom: WED });
    const { employees } = pay([payShift(SUN, "00:00", 600)], [SUNDAY, later], SAT, SUN);
    expect(employees[0]!.workweeks.map((w) => [w.startDate, w.endDate, w.minutes])).toEqual([
      [SAT, SAT, 240],
      [SUN, addDays(SUN, 6), 360],
    ]);
    expect(employees[0]!.lines.map((l) => [l.date, l.minutes])).toEqual([
      [SAT, 240],
      [SUN, 360],
    ]);
  });
});

describe("amounts you can re-add: amount = minutes ÷ 60 × rate, to the cent", () => {
  it("a 301-minute line reads hours 5.02, rate 20, amount 100.33", () => {
    const line = pay([payShift(MON, "08:00", 301)], []).employees[0]!.lines[0];
    expect(line).toMatchObject({ minutes: 301, hours: 5.02, rate: 20, amount: 100.33 });
  });

  it("a line is rounded once, from its exact rate: 600 minutes at 15.07 × 1.123456 are 169.30 (rate shown 16.9305)", () => {
    const odd = ruleSet("prs_odd", "CUSTOM", { dailyOvertimeAfterMinutes: 0, overtimeMultiplier: 1.123456 });
    const line = pay([payShift(MON, "08:00", 600, { hourlyWage: 15.07 })], [odd]).employees[0]!.lines[0]!;
    // 15.07 + 0.123456 × 15.07 = 16.93048192 an hour; 10 h × 16.93048192 = 169.3048192 → 169.30 ("Pay at the edges":
    // each line rounded once). Through the rate as shown it would be 10 × 16.9305 = 169.305 → 169.31.
    expect(line).toMatchObject({ kind: "OVERTIME", minutes: 600, rate: 16.9305, amount: 169.3 });
  });

  it("a Fair Workweek premium carries exact hours: a 15-minute Los Angeles cut (½ × 0.25 h = 0.125 h) at $20 is $2.50", () => {
    const { employees } = computePay({
      startDate: MON,
      endDate: SUN,
      shifts: [payShift(TUE, "08:00", 480)],
      timeOff: [],
      ruleSets: [FLSA],
      premiums: [
        {
          employeeId: "emp_a",
          date: MON,
          kind: "PREDICTABILITY",
          hours: 0.125,
          amount: null,
          rule: "LOS_ANGELES.CHANGE_UNDER_14_DAYS_CUT",
          hourlyWage: 20,
        },
      ],
    });
    // 0.125 h × $20 (the workweek's regular rate) = $2.50 — not 8 whole minutes: 8 ÷ 60 × 20 = 2.666… → $2.67.
    expect(employees[0]!.lines.find((l) => l.kind === "PREDICTABILITY")).toMatchObject({ hours: 0.125, rate: 20, amount: 2.5 });
    expect(employees[0]!.grossPay).toBe(162.5); // 8 h × 20 = 160 + 2.50
  });

  it("time off too: 7.999 hours are 480 minutes, so 160.00 at 20 (hours are never the basis)", () => {
    const { employees } = computePay({
      startDate: MON,
      endDate: MON,
      shifts: [],
      timeOff: [{ employeeId: "emp_a", date: MON, hours: 7.999, hourlyWage: 20 }],
      ruleSets: [],
    });
    expect(employees[0]!.lines[0]).toMatchObject({ kind: "TIME_OFF", minutes: 480, hours: 7.999, rate: 20, amount: 160 });
    expect(employees[0]!.grossPay).toBe(160);
  });
});
