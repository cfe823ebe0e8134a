import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays } from "@/domain/local-time";
import { computePay, type PayShift } from "@/domain/pay-classification";
import { allocateFlsaOvertime, QUALIFIED_OVERTIME, qualifiedPremiumCents } from "@/domain/pay-qualified-overtime";
import type { PayRuleSet } from "@/domain/pay-rules";
import { payShift, ruleSet, WEEK } from "../helpers/pay-fixtures";

/*
 * Qualified overtime compensation: One Big Beautiful Bill Act, Pub. L. 119-21, §70202, adding 26 U.S.C. (IRC) §225:
 * "overtime compensation paid to an individual required under section 7 of the Fair Labor Standards Act of 1938 that
 * is in excess of the regular rate" (§225(c)(1)). FLSA §7(a)(1), 29 U.S.C. 207(a)(1): one and one-half times the
 * regular rate for hours over 40 in a workweek. Only that half counts: not California daily overtime under 40 hours
 * (Cal. Labor Code 510 alone), not double time beyond the half. Every figure below is worked out by hand.
 */

const [MON, TUE, WED, THU, FRI, SAT, SUN] = WEEK;
const FLSA = ruleSet("prs_flsa", "FLSA");
// California without meal periods, so that only overtime shows (the meal rules are tested elsewhere).
const CA = ruleSet("prs_ca", "CALIFORNIA", { mealBreaks: [] });

const pay = (shifts: PayShift[], ruleSets: PayRuleSet[]) =>
  computePay({ startDate: MON, endDate: SUN, shifts, timeOff: [], ruleSets }).employees[0]!;

const overtimeLines = (shifts: PayShift[], ruleSets: PayRuleSet[]) =>
  pay(shifts, ruleSets).lines.filter((l) => l.kind === "OVERTIME" || l.kind === "DOUBLE_TIME");

const tenHourDays = (days: readonly string[], wage = 20) => days.map((d) => payShift(d, "08:00", 600, { hourlyWage: wage }));

describe("qualified overtime premium (Pub. L. 119-21 §70202; IRC §225(c)(1); FLSA §7, 29 U.S.C. 207(a)(1))", () => {
  it("FLSA: 10 h at $30 then 40 h at $20 → $110.00 qualified: 10 h × 0.5 × $22 regular rate ((300 + 800) ÷ 50)", () => {
    const employee = pay([payShift(MON, "08:00", 600, { hourlyWage: 30 }), ...tenHourDays([TUE, WED, THU, FRI])], [FLSA]);
    const [line] = employee.lines.filter((l) => l.kind === "OVERTIME");
    // The line pays 10 h × (20 + 11) = 310.00; straight time 10 h × 20 = 200.00; over it 110.00, all of it required.
    expect(line).toMatchObject({ date: FRI, minutes: 600, amount: 310, qualifiedOvertimePremium: 110, qualifiedOvertimeMinutes: 600 });
    expect(employee.qualifiedOvertimePremium).toBe(110);
    expect(employee.qualifiedOvertimeMinutes).toBe(600);
    expect(employee.workweeks).toEqual([
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
  });

  it("California, four 10-hour days at $20 (40 h: no FLSA overtime) → overtime premium $80.00, qualified $0.00", () => {
    const employee = pay(tenHourDays([MON, TUE, WED, THU]), [CA]);
    // 4 days × 2 h daily overtime × 0.5 × $20 = $80.00 over straight time, none of it over 40 hours in the week.
    expect(employee.workweeks[0]).toMatchObject({ overtimePremium: 80, qualifiedOvertimePremium: 0, qualifiedOvertimeMinutes: 0 });
    expect(employee.qualifiedOvertimePremium).toBe(0);
    expect(overtimeLines(tenHourDays([MON, TUE, WED, THU]), [CA]).map((l) => l.qualifiedOvertimePremium)).toEqual([0, 0, 0, 0]);
  });

  it("Ontario, 48 h at $20 (ESA s. 22: 4 h over 44 at $30) → overtime premium $40.00, qualified $0.00: no FLSA abroad", () => {
    const ontario = ruleSet("prs_on", "CA_ON");
    const shifts = [...tenHourDays([MON, TUE, WED, THU]), payShift(FRI, "08:00", 480, { hourlyWage: 20 })];
    const employee = pay(shifts, [ontario]);
    // 48 h: 44 regular, 4 h overtime × 0.5 × $20 = $40.00 over straight time; 8 h are over 40, none under the FLSA.
    expect(employee.workweeks[0]).toMatchObject({ overtimePremium: 40, qualifiedOvertimePremium: 0, qualifiedOvertimeMinutes: 0 });
    expect(employee.qualifiedOvertimePremium).toBe(0);
    // The same week under the FLSA: 8 h over 40 × 0.5 × $20 = $80.00 qualified.
    expect(pay(shifts, [FLSA]).qualifiedOvertimePremium).toBe(80);
  });

  it("California, five 10-hour days at $20 (50 h) → qualified $100.00: 10 h over 40 × 0.5 × $20", () => {
    const employee = pay(tenHourDays([MON, TUE, WED, THU, FRI]), [CA]);
    // Daily overtime 5 × 2 h = 10 h, every one of them also over 40 in the week (29 CFR 778.202(c) credits it).
    expect(employee.workweeks[0]).toMatchObject({ overtimePremium: 100, qualifiedOvertimePremium: 100, qualifiedOvertimeMinutes: 600 });
    expect(employee.qualifiedOvertimePremium).toBe(100);
  });

  it("California double time: only its half is required (13 h Monday, then four 10-hour days at $20)", () => {
    const shifts = [payShift(MON, "06:00", 780, { hourlyWage: 20 }), ...tenHourDays([TUE, WED, THU, FRI])];
    const employee = pay(shifts, [CA]);
    // 53 h: 13 h over 40. Paid over straight time: 12 h overtime × $10 + 1 h double time × $20 = $140.00.
    // Qualified: 13 h × 0.5 × $20 = $130.00 (the double-time hour's second half, $10, is California's alone).
    expect(employee.workweeks[0]).toMatchObject({ overtimePremium: 140, qualifiedOvertimePremium: 130, qualifiedOvertimeMinutes: 780 });
    expect(employee.lines.find((l) => l.kind === "DOUBLE_TIME")).toMatchObject({ minutes: 60, amount: 40, qualifiedOvertimePremium: 10 });
  });

  it("a state rule alone earns no qualified premium: California's seventh day under 40 hours", () => {
    const shifts = [MON, TUE, WED, THU, FRI, SAT, SUN].map((d) => payShift(d, "08:00", 300, { hourlyWage: 20 }));
    const employee = pay(shifts, [CA]);
    // 7 × 5 h = 35 h: Sunday's 5 h are seventh-day overtime (Cal. Labor Code 510(a)), $50.00 over straight time.
    expect(employee.workweeks[0]).toMatchObject({ overtimePremium: 50, qualifiedOvertimePremium: 0 });
  });
});

describe("the 40-hour edge (29 U.S.C. 207(a)(1)), FLSA at $20", () => {
  // Mon–Thu 10 h each, then Friday's minutes: 40 h exactly, one minute either side.
  it.each([
    [0, 0, 0],
    // 1 minute over: amount round(1/60 × 30) = 0.50, straight time round(1/60 × 20) = 0.33: 0.17 over it, all required.
    [1, 0.17, 1],
    // 60 minutes over: 1 h × 0.5 × 20 = 10.00.
    [60, 10, 60],
  ])("40 h + %i min → qualified %d over %i minutes", (extra, premium, minutes) => {
    const shifts = [...tenHourDays([MON, TUE, WED, THU]), ...(extra ? [payShift(FRI, "08:00", extra)] : [])];
    const employee = pay(shifts, [FLSA]);
    expect(employee.qualifiedOvertimePremium).toBe(premium);
    expect(employee.qualifiedOvertimeMinutes).toBe(minutes);
  });

  it("39 h 59 min: nothing over 40, nothing qualified", () => {
    const employee = pay([...tenHourDays([MON, TUE, WED]), payShift(THU, "08:00", 599)], [FLSA]);
    expect(employee.overtimeMinutes).toBe(0);
    expect(employee.qualifiedOvertimePremium).toBe(0);
  });

  it("California at 40 h + 1 min: the week's last overtime line carries the one FLSA minute (round(1/60 × 10) = 0.17)", () => {
    const lines = overtimeLines([...tenHourDays([MON, TUE, WED, THU]), payShift(FRI, "08:00", 1)], [CA]);
    expect(lines.map((l) => [l.date, l.qualifiedOvertimeMinutes, l.qualifiedOvertimePremium])).toEqual([
      [MON, 0, 0],
      [TUE, 0, 0],
      [WED, 0, 0],
      [THU, 1, 0.17],
    ]);
  });
});

describe("allocation and the line's figure", () => {
  it("lays the minutes over 40 on premium lines from the last backwards, each at most its own", () => {
    const lines = [
      { minutes: 120, premium: true },
      { minutes: 480, premium: false },
      { minutes: 120, premium: true },
      { minutes: 60, premium: true },
    ];
    // 2400 + 200 worked: 200 minutes over 40 → 60 on the last, 120 on the third, 20 on the first; none on regular time.
    expect(allocateFlsaOvertime(2600, lines)).toEqual([20, 0, 120, 60]);
    expect(allocateFlsaOvertime(2400, lines)).toEqual([0, 0, 0, 0]);
    expect(QUALIFIED_OVERTIME.weeklyThresholdMinutes).toBe(2400);
  });

  it.each([
    // A whole time-and-a-half line over 40: its premium over straight time (310.00 − 200.00).
    [{ minutes: 600, qualifiedMinutes: 600, wage: 20, premium: 0.5, regularRate: 22, amountCents: 31000 }, 11000],
    // Half of a double-time hour: 60 × 0.5 × 20 = 10.00 of its 20.00.
    [{ minutes: 60, qualifiedMinutes: 60, wage: 20, premium: 1, regularRate: 20, amountCents: 4000 }, 1000],
    // A contract's 1.25: never more than the 0.25 × 20 × 1 h = 5.00 it paid.
    [{ minutes: 60, qualifiedMinutes: 60, wage: 20, premium: 0.25, regularRate: 20, amountCents: 2500 }, 500],
    // Salaried: no figure.
    [{ minutes: 60, qualifiedMinutes: 60, wage: null, premium: 0.5, regularRate: null, amountCents: null }, null],
  ])("%o → %s cents", (input, cents) => {
    expect(qualifiedPremiumCents(input)).toBe(cents);
  });
});

describe("property: the qualified premium never exceeds the line's premium over straight time, and equals it on FLSA weeks", () => {
  const shiftsArb = fc.array(
    fc.record({
      day: fc.integer({ min: 0, max: 6 }),
      start: fc.integer({ min: 0, max: 12 * 60 }),
      minutes: fc.integer({ min: 1, max: 720 }),
      cents: fc.integer({ min: 725, max: 6000 }),
    }),
    { maxLength: 10 },
  );
  const toShifts = (specs: { day: number; start: number; minutes: number; cents: number }[]) =>
    specs.map((s, i) => {
      const time = `${String(Math.floor(s.start / 60)).padStart(2, "0")}:${String(s.start % 60).padStart(2, "0")}`;
      return payShift(addDays(MON, s.day), time, s.minutes, { id: `shf_p${i}`, hourlyWage: s.cents / 100 });
    });
  // Σ of lines' premiums over straight time, in cents, from the line's own amount and its shift's wage.
  const overStraightTime = (line: { minutes: number; amount: number | null }, wage: number) =>
    Math.round((line.amount ?? 0) * 100) - Math.round(Number(((line.minutes * wage * 100) / 60).toPrecision(12)));

  it.each([
    ["FLSA", FLSA],
    ["CALIFORNIA", CA],
  ] as const)("%s", (preset, rules) => {
    fc.assert(
      fc.property(shiftsArb, (specs) => {
        const shifts = toShifts(specs);
        const wages = new Map(shifts.map((s) => [s.id, s.hourlyWage!]));
        const employee = computePay({ startDate: MON, endDate: SUN, shifts, timeOff: [], ruleSets: [rules] }).employees[0];
        if (!employee) return;
        for (const line of employee.lines.filter((l) => l.kind === "OVERTIME" || l.kind === "DOUBLE_TIME")) {
          const paid = overStraightTime(line, wages.get(line.shiftId!)!);
          const qualified = Math.round(line.qualifiedOvertimePremium! * 100);
          expect(qualified).toBeGreaterThanOrEqual(0);
          expect(qualified).toBeLessThanOrEqual(paid);
          if (preset === "FLSA") expect(qualified).toBe(paid);
        }
      }),
    );
  });
});
