import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { closePeriod, createRuleSet, PERIOD, payLines, periodsPath, reopenPeriod, rulesPath, WEEK } from "../../helpers/pay";
import { createManual } from "../../helpers/timesheets";
import { createWorkplace, type Workplace } from "../../helpers/workplace";

/* Issue "Pay you can defend", through the API: each example of the issue end to end. */

type Line = {
  date: string;
  shiftId: string | null;
  kind: string;
  minutes: number;
  hours: number;
  rate: number | null;
  amount: number | null;
};
type Workweek = { startDate: string; endDate: string; regularRate: number | null; minutes: number; straightTimePay: number | null };
type Employee = { grossPay: number; regularMinutes: number; overtimeMinutes: number; workweeks: Workweek[]; lines: Line[] };

const [MON, TUE, WED, THU, FRI, SAT, SUN] = WEEK;

/** A closed manual shift from local `start` (YYYY-MM-DDTHH:MM) lasting `minutes`, at `wage` an hour. */
const shift = (w: Workplace, start: string, minutes: number, wage = 20) => {
  const startTime = `${start}:00Z`;
  const endTime = new Date(Date.parse(startTime) + minutes * 60_000).toISOString().replace(".000Z", "Z");
  return createManual(w, { startTime, endTime, hourlyWage: wage });
};

const onlyEmployee = async (w: Workplace, startDate: string, endDate: string): Promise<Employee> => {
  const res = await payLines(w, { startDate, endDate });
  expect(res.status).toBe(200);
  expect(res.body.employees).toHaveLength(1);
  return res.body.employees[0];
};

describe("pay as the law computes it, through GET /api/timesheets/pay", () => {
  it("regular rate: 10 h at $30 then 40 h at $20 under FLSA is $1,210.00, regular rate 22 in its workweek", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "FLSA" });
    await shift(w, `${MON}T08:00`, 600, 30);
    for (const date of [TUE, WED, THU, FRI]) await shift(w, `${date}T08:00`, 600, 20);
    const employee = await onlyEmployee(w, MON, SUN);
    expect(employee.grossPay).toBe(1210);
    expect(employee.workweeks).toEqual([
      // Issue 46: the week's overtime premium 10 h × 11 = 110.00, all of it over 40 h: qualified alike.
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
    expect(employee.lines.filter((l) => l.kind === "OVERTIME")).toEqual([
      expect.objectContaining({ date: FRI, minutes: 600, rate: 31, amount: 310 }),
    ]);
    // The week is whole even when the range cuts it: Monday alone reads the same regular rate.
    expect((await onlyEmployee(w, MON, MON)).workweeks).toEqual(employee.workweeks);
  });

  it("regular rate in California: 5 h at $30 and 6 h at $20 in one day is $306.82", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "CALIFORNIA" });
    await shift(w, `${MON}T08:00`, 300, 30);
    await shift(w, `${MON}T13:30`, 360, 20);
    // An 11-hour day owes a second meal unless waived (Labor Code 512(a)): waived, so the figure is the regular rate's.
    const waiver = { effectiveFrom: "2026-01-01", firstMeal: false, secondMeal: true };
    await api("PUT", `/api/organizations/${w.org.id}/staffmembers/${w.staff.id}/meal-waivers`, { token: w.org.adminToken, body: waiver });
    const employee = await onlyEmployee(w, MON, SUN);
    expect(employee.grossPay).toBe(306.82);
    // Regular rate 270 ÷ 11 = 24.5454… kept exact: 20 + 12.2727… = 32.2727… (shown 32.2727); 3 h → 96.818… → 96.82.
    expect(employee.lines.find((l) => l.kind === "OVERTIME")).toMatchObject({ minutes: 180, rate: 32.2727, amount: 96.82 });
  });

  it("boundaries: Saturday 20:00 → Sunday 06:00 counts where worked under Sunday workweeks: 2,640 regular, 360 overtime", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "FLSA", workweekStartsOn: "Sunday" });
    await shift(w, `${SAT}T20:00`, 600);
    for (let i = 1; i <= 5; i++) await shift(w, `${new Date(Date.parse(SUN) + i * 86_400_000).toISOString().slice(0, 10)}T09:00`, 480);
    const res = await payLines(w, { startDate: SAT, endDate: "2026-06-13" });
    expect(res.body.totals).toMatchObject({ regularMinutes: 2640, overtimeMinutes: 360 });
    expect((res.body.employees[0] as Employee).lines.slice(0, 2).map((l) => [l.date, l.minutes])).toEqual([
      [SAT, 240],
      [SUN, 360],
    ]);
  });

  it("workdayStartsAt: defaults to 00:00, is validated, and 08:00 keeps an overnight shift whole", async () => {
    const w = await createWorkplace();
    const bad = await api("POST", rulesPath(w.org), {
      token: w.org.adminToken,
      body: { name: "Night", effectiveFrom: "2026-01-01", preset: "CALIFORNIA", workdayStartsAt: "24:00" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("VALIDATION_FAILED");
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toContain("workdayStartsAt");
    expect((await api("GET", rulesPath(w.org), { token: w.org.adminToken })).body).toEqual([]);
    const plain = await createRuleSet(w.org, { preset: "CALIFORNIA", effectiveFrom: "2026-01-01" });
    expect(plain.workdayStartsAt).toBe("00:00");
    await shift(w, `${MON}T20:00`, 600);
    const split = await onlyEmployee(w, MON, SUN);
    expect(split.lines.filter((l) => l.kind !== "MEAL_PENALTY").map((l) => [l.date, l.kind, l.minutes])).toEqual([
      [MON, "REGULAR", 240],
      [TUE, "REGULAR", 360],
    ]);
    const patched = await api("PATCH", `${rulesPath(w.org)}/${plain.id}`, { token: w.org.adminToken, body: { workdayStartsAt: "08:00" } });
    expect(patched.status).toBe(200);
    expect(patched.body.workdayStartsAt).toBe("08:00");
    const whole = await onlyEmployee(w, MON, SUN);
    expect(whole.lines.filter((l) => l.kind !== "MEAL_PENALTY").map((l) => [l.date, l.kind, l.minutes])).toEqual([
      [MON, "REGULAR", 480],
      [MON, "OVERTIME", 120],
    ]);
  });

  it("meal periods on the actual punches: 08:00–13:07 with 15-minute NEAREST rounding earns a penalty", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "CALIFORNIA", rounding: { incrementMinutes: 15, mode: "NEAREST" } });
    await shift(w, `${MON}T08:00`, 307);
    const employee = await onlyEmployee(w, MON, MON);
    expect(employee.lines.map((l) => [l.kind, l.minutes, l.rate])).toEqual([
      ["REGULAR", 300, 20],
      ["MEAL_PENALTY", 60, 20],
    ]);
  });

  it("a change of workweek Sunday → Wednesday mid-week: seven 9-hour days keep their old week, 23 h overtime", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "FLSA", workweekStartsOn: "Sunday", effectiveFrom: "2026-01-01" });
    await createRuleSet(w.org, { preset: "FLSA", workweekStartsOn: "Wednesday", effectiveFrom: WED });
    const first = "2026-05-31";
    for (let i = 0; i < 7; i++) await shift(w, `${new Date(Date.parse(first) + i * 86_400_000).toISOString().slice(0, 10)}T08:00`, 540);
    const employee = await onlyEmployee(w, first, SAT);
    expect(employee).toMatchObject({ regularMinutes: 2400, overtimeMinutes: 1380 });
    expect(employee.workweeks.map((x) => [x.startDate, x.endDate, x.minutes])).toEqual([[first, SAT, 3780]]);
  });

  it("amounts: 301 minutes read 5.02 h at 20 for 100.33; an odd multiplier's line is rounded once from its exact rate", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "CUSTOM", dailyOvertimeAfterMinutes: 0, overtimeMultiplier: 1.123456, effectiveFrom: TUE });
    // A week apart: each line's week has one wage, so its regular rate is that wage.
    await shift(w, "2026-05-25T08:00", 301);
    await shift(w, `${TUE}T08:00`, 600, 15.07);
    const res = await payLines(w, { startDate: "2026-05-25", endDate: TUE });
    const employee = res.body.employees[0] as Employee;
    expect(employee.lines.map((l) => [l.kind, l.minutes, l.hours, l.rate, l.amount])).toEqual([
      ["REGULAR", 301, 5.02, 20, 100.33],
      // 10 h × 15.07 × 1.123456 = 10 × 16.93048192 = 169.3048… → 169.30, rounded once (the rate is shown 16.9305).
      ["OVERTIME", 600, 10, 16.9305, 169.3],
    ]);
    expect(employee.grossPay).toBe(269.63); // 100.33 + 169.30
    expect(res.body.totals.grossPay).toBe(269.63);
  });
});

describe("the payroll snapshot records regular rates and rule set versions", () => {
  it("a close stores workweeks and the sets it used; a re-close's adjustments carry the regular-rate difference", async () => {
    const w = await createWorkplace();
    const rules = await createRuleSet(w.org, { preset: "FLSA" });
    const monday = await shift(w, `${MON}T08:00`, 600, 30);
    for (const date of [TUE, WED, THU, FRI]) await shift(w, `${date}T08:00`, 600, 20);
    expect((await closePeriod(w, PERIOD, { approveAll: true })).status).toBe(200);
    const url = `${periodsPath(w.org)}/${PERIOD}/payroll`;
    const first = (await api("GET", url, { token: w.org.adminToken })).body;
    expect(first.employees[0].workweeks).toEqual([
      // Issue 46: the week's overtime premium 10 h × 11 = 110.00, all of it over 40 h: qualified alike.
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
    expect(first.ruleSets).toEqual([expect.objectContaining({ id: rules.id, updatedAt: rules.updatedAt, workdayStartsAt: "00:00" })]);
    expect((await reopenPeriod(w, PERIOD)).status).toBe(200);
    await api("DELETE", `${periodsPath(w.org)}/${PERIOD}/approvals/${w.staff.id}`, { token: w.org.adminToken });
    const edited = await api("PATCH", `/api/timesheets/${monday.id}`, { token: w.org.adminToken, body: { hourlyWage: 40 } });
    expect(edited.status).toBe(200);
    expect((await closePeriod(w, PERIOD, { approveAll: true })).status).toBe(200);
    const second = (await api("GET", url, { token: w.org.adminToken })).body;
    // (600 × 40 + 2400 × 20) ÷ 3000 = 24: Monday +100, Friday's overtime 20 + 12 = 32 (+10).
    expect(second.adjustments).toEqual([
      {
        employeeId: w.staff.id,
        regularMinutes: 0,
        overtimeMinutes: 0,
        doubleTimeMinutes: 0,
        penaltyHours: 0,
        timeOffHours: 0,
        grossPay: 110,
        workweeks: [{ startDate: MON, endDate: SUN, regularRate: 2, minutes: 0, straightTimePay: 100 }],
      },
    ]);
  });
});
