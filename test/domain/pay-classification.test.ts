import { describe, expect, it } from "vitest";
import { computePay, type PayLine, type PayShift, payByEmployee, roundPunch } from "@/domain/pay-classification";
import { payReadWindow } from "@/domain/pay-workweek";
import { payShift, ruleSet, unpaidBreak, WEEK, wallClock } from "../helpers/pay-fixtures";

const [MON, TUE, WED, THU, FRI, SAT, SUN] = WEEK;
const CA = ruleSet("prs_ca", "CALIFORNIA");
const FLSA = ruleSet("prs_flsa", "FLSA");

const pay = (shifts: PayShift[], ruleSets = [CA], range: { startDate: string; endDate: string } = { startDate: MON, endDate: SUN }) =>
  computePay({ ...range, shifts, timeOff: [], ruleSets });

/** Lines as (date, kind, rule, minutes) for compact expectations. */
const brief = (lines: PayLine[]) => lines.map((l) => [l.date, l.kind, l.rule, l.minutes]);

describe("computePay: the contract's cases", () => {
  it("a California worker with Mon–Fri 10 h and Sat 4 h: 40 h regular, 14 h overtime (Saturday's 4 h weekly), 5 meal penalties", () => {
    const shifts = [...[MON, TUE, WED, THU, FRI].map((d) => payShift(d, "09:00", 600)), payShift(SAT, "09:00", 240)];
    const { employees, totals } = pay(shifts);
    expect(totals).toEqual({
      regularMinutes: 2400,
      overtimeMinutes: 840,
      doubleTimeMinutes: 0,
      penaltyHours: 5,
      timeOffHours: 0,
      grossPay: 1320,
    });
    const [employee] = employees;
    expect(brief(employee!.lines.filter((l) => l.date === MON))).toEqual([
      [MON, "REGULAR", null, 480],
      [MON, "OVERTIME", "DAILY_OVERTIME", 120],
      [MON, "MEAL_PENALTY", "MEAL_BREAK", 60],
    ]);
    expect(brief(employee!.lines.filter((l) => l.date === SAT))).toEqual([[SAT, "OVERTIME", "WEEKLY_OVERTIME", 240]]);
    const saturday = employee!.lines.find((l) => l.date === SAT)!;
    expect(saturday).toMatchObject({ shiftId: shifts[5]!.id, hours: 4, rate: 30, amount: 120, ruleSetId: "prs_ca" });
    const penalty = employee!.lines.find((l) => l.kind === "MEAL_PENALTY")!;
    expect(penalty).toMatchObject({ shiftId: null, hours: 1, rate: 20, amount: 20 });
  });

  it("FLSA 45 h week (Mon–Fri 9 h): 40 h regular and Friday's last 5 h weekly overtime, no daily overtime", () => {
    const { employees, totals } = pay(
      [MON, TUE, WED, THU, FRI].map((d) => payShift(d, "08:00", 540)),
      [FLSA],
    );
    expect(totals).toMatchObject({ regularMinutes: 2400, overtimeMinutes: 300, penaltyHours: 0, grossPay: 950 });
    expect(brief(employees[0]!.lines.filter((l) => l.date === FRI))).toEqual([
      [FRI, "REGULAR", null, 240],
      [FRI, "OVERTIME", "WEEKLY_OVERTIME", 300],
    ]);
  });

  it("no pyramiding: minutes already daily overtime do not count toward the weekly threshold", () => {
    // 5 × 10 h under CA: 40 h regular + 10 h daily overtime; weekly overtime would double count those 10 h.
    const { totals } = pay([MON, TUE, WED, THU, FRI].map((d) => payShift(d, "09:00", 600, { breaks: [unpaidBreak(d, "12:00", 30)] })));
    expect(totals).toMatchObject({ regularMinutes: 2400, overtimeMinutes: 5 * 90, penaltyHours: 0 });
  });

  it("the seventh consecutive workday: its first 480 minutes overtime, the rest double time", () => {
    const sixHours = (d: string) => payShift(d, "09:00", 390, { breaks: [unpaidBreak(d, "12:00", 30)] });
    const shifts = [
      ...[MON, TUE, WED, THU, FRI, SAT].map(sixHours),
      payShift(SUN, "09:00", 630, { breaks: [unpaidBreak(SUN, "12:00", 30)] }),
    ];
    const { employees, totals } = pay(shifts);
    expect(brief(employees[0]!.lines.filter((l) => l.date === SUN))).toEqual([
      [SUN, "OVERTIME", "SEVENTH_DAY_OVERTIME", 480],
      [SUN, "DOUBLE_TIME", "SEVENTH_DAY_DOUBLE_TIME", 120],
    ]);
    expect(totals).toMatchObject({ regularMinutes: 6 * 360, overtimeMinutes: 480, doubleTimeMinutes: 120, penaltyHours: 0 });
    expect(employees[0]!.lines.find((l) => l.kind === "DOUBLE_TIME")).toMatchObject({ rate: 40, amount: 80 });
  });

  it("a day off breaks the run: Sunday after a free Wednesday is a normal day", () => {
    const days = [MON, TUE, THU, FRI, SAT].map((d) => payShift(d, "09:00", 360));
    const { employees } = pay([...days, payShift(SUN, "09:00", 600, { breaks: [unpaidBreak(SUN, "12:00", 30)] })]);
    expect(brief(employees[0]!.lines.filter((l) => l.date === SUN))).toEqual([
      [SUN, "REGULAR", null, 480],
      [SUN, "OVERTIME", "DAILY_OVERTIME", 90],
    ]);
  });

  it("without seventhConsecutiveDay (FLSA) the seventh day is classified like any other", () => {
    const { employees } = pay(
      WEEK.map((d) => payShift(d, "09:00", 300)),
      [FLSA],
    );
    expect(employees[0]!.lines.every((l) => l.kind === "REGULAR")).toBe(true);
  });

  it("a week cut by the range is computed whole: Thursday–Friday answer the same lines as the whole week", () => {
    const shifts = [MON, TUE, WED, THU, FRI].map((d) => payShift(d, "08:00", 540));
    const whole = pay(shifts, [FLSA]);
    const cut = pay(shifts, [FLSA], { startDate: THU, endDate: FRI });
    expect(cut.employees[0]!.lines).toEqual(whole.employees[0]!.lines.filter((l) => l.date >= THU));
    expect(cut.totals).toMatchObject({ regularMinutes: 540 + 240, overtimeMinutes: 300 });
    expect(payReadWindow(THU, FRI).from <= MON).toBe(true);
  });

  it("the read window covers every workweek the range touches, both counts of a change of workweek included: 16 days before, 14 after", () => {
    expect(payReadWindow(THU, FRI)).toEqual({ from: "2026-05-19", to: "2026-06-19" });
  });

  it("a rule-set change mid-week: each day under its own set, the week's regular minutes carried across", () => {
    const daily = ruleSet("prs_daily", "CUSTOM", { dailyOvertimeAfterMinutes: 480 });
    const weekly = ruleSet("prs_weekly", "FLSA", { effectiveFrom: WED });
    const { employees } = pay(
      [MON, TUE, WED, THU, FRI].map((d) => payShift(d, "09:00", 600)),
      [daily, weekly],
    );
    const lines = employees[0]!.lines;
    expect(brief(lines.filter((l) => l.date === TUE))).toEqual([
      [TUE, "REGULAR", null, 480],
      [TUE, "OVERTIME", "DAILY_OVERTIME", 120],
    ]);
    expect(lines.filter((l) => l.date <= TUE).every((l) => l.ruleSetId === "prs_daily")).toBe(true);
    // 960 regular on Mon–Tue, 1200 on Wed–Thu: 240 left of the 2400 on Friday.
    expect(brief(lines.filter((l) => l.date === FRI))).toEqual([
      [FRI, "REGULAR", null, 240],
      [FRI, "OVERTIME", "WEEKLY_OVERTIME", 360],
    ]);
    expect(lines.filter((l) => l.date >= WED).every((l) => l.ruleSetId === "prs_weekly")).toBe(true);
  });

  it("an overnight shift splits at the workday's start (00:00 by default): its minutes count on the day worked", () => {
    const overnight = payShift(MON, "22:00", 600, { breaks: [unpaidBreak(TUE, "01:00", 30)] });
    const tuesday = payShift(TUE, "12:00", 480, { breaks: [unpaidBreak(TUE, "15:00", 30)] });
    const { employees } = pay([overnight, tuesday]);
    expect(employees[0]!.lines.map((l) => [l.date, l.shiftId, l.kind, l.minutes])).toEqual([
      [MON, overnight.id, "REGULAR", 120],
      [TUE, overnight.id, "REGULAR", 450],
      [TUE, tuesday.id, "REGULAR", 30],
      [TUE, tuesday.id, "OVERTIME", 240],
      [TUE, tuesday.id, "DOUBLE_TIME", 180],
    ]);
  });

  it("workdayStartsAt 10:00 keeps the same overnight shift whole on Monday's workday", () => {
    const overnight = payShift(MON, "22:00", 600, { breaks: [unpaidBreak(TUE, "01:00", 30)] });
    const tuesday = payShift(TUE, "12:00", 480, { breaks: [unpaidBreak(TUE, "15:00", 30)] });
    const { employees } = pay([overnight, tuesday], [ruleSet("prs_ca10", "CALIFORNIA", { workdayStartsAt: "10:00" })]);
    expect(brief(employees[0]!.lines)).toEqual([
      [MON, "REGULAR", null, 480],
      [MON, "OVERTIME", "DAILY_OVERTIME", 90],
      [TUE, "REGULAR", null, 450],
    ]);
    expect(employees[0]!.lines[1]!.shiftId).toBe(overnight.id);
  });

  it("several shifts in a day: the day's total meets the thresholds, attributed in start order", () => {
    const late = payShift(MON, "15:00", 420);
    const early = payShift(MON, "08:00", 300);
    // 12 h of work: the second meal (Labor Code 512(a)) is waived, so the lines show only the thresholds.
    const mealWaivers = [{ employeeId: "emp_a", effectiveFrom: "2026-01-01", firstMeal: false, secondMeal: true }];
    const { employees } = computePay({ startDate: MON, endDate: SUN, shifts: [late, early], timeOff: [], ruleSets: [CA], mealWaivers });
    expect(employees[0]!.lines.map((l) => [l.shiftId, l.kind, l.minutes])).toEqual([
      [early.id, "REGULAR", 300],
      [late.id, "REGULAR", 180],
      [late.id, "OVERTIME", 240],
    ]);
  });

  it("daily double time after dailyDoubleTimeAfterMinutes", () => {
    const { employees } = pay([payShift(MON, "06:00", 810, { breaks: [unpaidBreak(MON, "10:00", 30)] })]);
    expect(brief(employees[0]!.lines.filter((l) => l.kind !== "MEAL_PENALTY"))).toEqual([
      [MON, "REGULAR", null, 480],
      [MON, "OVERTIME", "DAILY_OVERTIME", 240],
      [MON, "DOUBLE_TIME", "DAILY_DOUBLE_TIME", 60],
    ]);
  });
});

describe("computePay: meal-break penalties", () => {
  const tenHours = (breaks: PayShift["breaks"]) => pay([payShift(MON, "08:00", 630, { breaks })]).totals.penaltyHours;

  it.each([
    ["no break", [], 1],
    ["30 min unpaid at 4 h", [unpaidBreak(MON, "12:00", 30)], 0],
    ["30 min unpaid starting exactly at 5 h of work", [unpaidBreak(MON, "13:00", 30)], 0],
    ["30 min unpaid after 5 h 30 of work", [unpaidBreak(MON, "13:30", 30)], 1],
    ["20 min unpaid (too short)", [unpaidBreak(MON, "12:00", 20)], 1],
    ["30 min paid", [unpaidBreak(MON, "12:00", 30, { paid: true })], 1],
    ["an automatic deduction (not taken)", [unpaidBreak(MON, "12:00", 30, { automatic: true })], 1],
  ])("%s → %d penalty hours", (_, breaks, penalty) => {
    expect(tenHours(breaks)).toBe(penalty);
  });

  it("a meal rule with penaltyHours 0 writes no penalty line", () => {
    const rules = ruleSet("prs_zero", "CALIFORNIA", { mealPenaltyHours: 0 });
    expect(pay([payShift(MON, "08:00", 600)], [rules]).employees[0]!.lines.some((l) => l.kind === "MEAL_PENALTY")).toBe(false);
  });

  it("a day no longer than afterMinutes earns none", () => {
    expect(pay([payShift(MON, "08:00", 300)]).totals.penaltyHours).toBe(0);
  });

  it("clocking out for 30 minutes between two shifts counts as the meal break", () => {
    const day = [payShift(MON, "08:00", 240), payShift(MON, "12:30", 300)];
    expect(pay(day).totals.penaltyHours).toBe(0);
    const tooLate = [payShift(MON, "08:00", 360), payShift(MON, "14:30", 240)];
    expect(pay(tooLate).totals.penaltyHours).toBe(1);
  });

  it("the penalty is paid at the workweek's regular rate (Cal. Labor Code 226.7(c); Ferra v. Loews, 2021)", () => {
    const day = [payShift(MON, "08:00", 120, { hourlyWage: 10 }), payShift(MON, "10:05", 400, { hourlyWage: 30 })];
    const penalty = pay(day).employees[0]!.lines.find((l) => l.kind === "MEAL_PENALTY")!;
    // (120 × 10 + 400 × 30) ÷ 520 minutes = 25.3846 an hour
    expect(penalty).toMatchObject({ rate: 25.3846, amount: 25.38, hours: 1, minutes: 60 });
  });
});

describe("computePay: rounding of punches", () => {
  const shift = () => payShift(MON, "09:07", 481); // 09:07 → 17:08
  it.each([
    [0, "NEAREST", 481],
    [15, "NEAREST", 495], // 09:00 → 17:15
    [15, "UP", 480], // 09:15 → 17:15
    [15, "DOWN", 480], // 09:00 → 17:00
    [6, "NEAREST", 480], // 09:06 → 17:06
    [10, "DOWN", 480], // 09:00 → 17:00
    [5, "UP", 480], // 09:10 → 17:10
    [1, "NEAREST", 481],
  ] as const)("increment %d %s → %d payable minutes", (incrementMinutes, mode, expected) => {
    const rules = ruleSet("prs_round", "NONE", { rounding: { incrementMinutes, mode } });
    expect(pay([shift()], [rules]).totals.regularMinutes).toBe(expected);
  });

  it("NEAREST rounds a tie up; a punch on the increment stays", () => {
    expect(roundPunch(wallClock(MON, "09:05"), { incrementMinutes: 10, mode: "NEAREST" })).toEqual(wallClock(MON, "09:10"));
    expect(roundPunch(wallClock(MON, "09:04"), { incrementMinutes: 10, mode: "NEAREST" })).toEqual(wallClock(MON, "09:00"));
    expect(roundPunch(wallClock(MON, "09:30"), { incrementMinutes: 15, mode: "UP" })).toEqual(wallClock(MON, "09:30"));
  });

  it("a punch with seconds rounds to the minute at increment 1", () => {
    const at = new Date(wallClock(MON, "09:00").getTime() + 40_000);
    expect(roundPunch(at, { incrementMinutes: 1, mode: "NEAREST" })).toEqual(wallClock(MON, "09:01"));
    expect(roundPunch(at, { incrementMinutes: 1, mode: "DOWN" })).toEqual(wallClock(MON, "09:00"));
  });
});

describe("computePay: rule sets, wages, time off", () => {
  it("a location's own set wins over the organization's; elsewhere the organization's applies", () => {
    const orgFlsa = ruleSet("prs_org", "FLSA");
    const locationCa = ruleSet("prs_loc", "CALIFORNIA", { locationId: "loc_ca" });
    const shifts = [
      payShift(MON, "08:00", 600, { locationId: "loc_ca", breaks: [unpaidBreak(MON, "11:00", 30)] }),
      payShift(TUE, "08:00", 600, { locationId: "loc_other" }),
    ];
    const lines = pay(shifts, [orgFlsa, locationCa]).employees[0]!.lines;
    expect(lines.map((l) => [l.date, l.kind, l.ruleSetId])).toEqual([
      [MON, "REGULAR", "prs_loc"],
      [MON, "OVERTIME", "prs_loc"],
      [TUE, "REGULAR", "prs_org"],
    ]);
  });

  it("no set at all: NONE, every minute regular and no rule set named", () => {
    const lines = pay([payShift(MON, "08:00", 900)], []).employees[0]!.lines;
    expect(lines).toEqual([expect.objectContaining({ kind: "REGULAR", minutes: 900, ruleSetId: null, rule: null })]);
  });

  it("an employee without an hourly wage gets minutes but no rate or amount, and adds nothing to grossPay", () => {
    const { employees, totals } = pay([payShift(MON, "08:00", 600, { hourlyWage: null })]);
    expect(employees[0]!.lines.every((l) => l.rate === null && l.amount === null)).toBe(true);
    expect(totals).toMatchObject({ regularMinutes: 480, overtimeMinutes: 120, grossPay: 0 });
  });

  it("paid time off adds TIME_OFF lines at the wage, in date order, and never counts toward overtime", () => {
    const shifts = [MON, TUE, WED, THU].map((d) => payShift(d, "08:00", 540));
    const timeOff = [{ employeeId: "emp_a", date: FRI, hours: 8, hourlyWage: 20 }];
    const { employees, totals } = computePay({ startDate: MON, endDate: SUN, shifts, timeOff, ruleSets: [FLSA] });
    expect(totals).toMatchObject({ regularMinutes: 2160, overtimeMinutes: 0, timeOffHours: 8 });
    expect(employees[0]!.lines.at(-1)).toEqual({
      date: FRI,
      shiftId: null,
      kind: "TIME_OFF",
      minutes: 480,
      hours: 8,
      rate: 20,
      amount: 160,
      rule: null,
      ruleSetId: null,
    });
  });

  it("open shifts are not paid; lines outside the range are not answered; employees without lines are left out", () => {
    const open = { ...payShift(MON, "08:00", 60), endTime: null };
    const outside = payShift("2026-06-08", "08:00", 60, { employeeId: "emp_b" });
    expect(pay([open, outside]).employees).toEqual([]);
  });

  it("payByEmployee yields computePay's employees one at a time, in id order, lazily", () => {
    const shifts = [MON, TUE].flatMap((d) => ["emp_c", "emp_a", "emp_b"].map((employeeId) => payShift(d, "08:00", 600, { employeeId })));
    const input = { startDate: MON, endDate: SUN, shifts, timeOff: [], ruleSets: [FLSA] };
    const each = payByEmployee(input);
    const first = each.next();
    expect(first.done).toBe(false);
    expect(first.value).toEqual(computePay(input).employees[0]);
    expect([first.value, ...each]).toEqual(computePay(input).employees);
    expect(computePay(input).employees.map((e) => e.employeeId)).toEqual(["emp_a", "emp_b", "emp_c"]);
  });

  it("amounts are rounded per line and grossPay is their sum", () => {
    // 7 minutes at 10.01: 1.16783… → 1.17; three such shifts pay 3.51, not round(3.5035) = 3.50.
    const shifts = [MON, TUE, WED].map((d) => payShift(d, "08:00", 7, { hourlyWage: 10.01 }));
    const { employees, totals } = pay(shifts, [FLSA]);
    expect(employees[0]!.lines.map((l) => l.amount)).toEqual([1.17, 1.17, 1.17]);
    expect(totals.grossPay).toBe(3.51);
  });
});
