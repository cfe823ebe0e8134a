import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createRuleSet, payLines, WEEK } from "../../helpers/pay";
import { createManual } from "../../helpers/timesheets";
import { createWorkplace, type Workplace } from "../../helpers/workplace";

/* Issue "Pay beyond the US", through GET /api/timesheets/pay: each preset's figures written out by hand. */

type Line = { date: string; kind: string; minutes: number; rate: number | null; amount: number | null; rule: string | null };
type Employee = { grossPay: number; regularMinutes: number; overtimeMinutes: number; doubleTimeMinutes: number; lines: Line[] };

const [MON, TUE, WED, THU, FRI, SAT, SUN] = WEEK;

/** A closed manual shift from local `start` (YYYY-MM-DDTHH:MM) lasting `minutes`, at `wage` an hour. */
const shift = (w: Workplace, start: string, minutes: number, wage: number) => {
  const startTime = `${start}:00Z`;
  const endTime = new Date(Date.parse(startTime) + minutes * 60_000).toISOString().replace(".000Z", "Z");
  return createManual(w, { startTime, endTime, hourlyWage: wage });
};

const employ = async (w: Workplace, body: Record<string, unknown>) => {
  const res = await api("PATCH", `/api/organizations/${w.org.id}/staffmembers/${w.staff.id}`, { token: w.org.adminToken, body });
  expect(res.status).toBe(200);
  return res.body;
};

const onlyEmployee = async (w: Workplace, startDate: string, endDate: string): Promise<Employee> => {
  const res = await payLines(w, { startDate, endDate });
  expect(res.status).toBe(200);
  expect(res.body.employees).toHaveLength(1);
  return res.body.employees[0];
};

const brief = (lines: Line[]) => lines.map((l) => [l.kind, l.rule, l.minutes, l.amount]);

describe("AU_GENERAL_RETAIL: General Retail Industry Award 2020 [MA000004]", () => {
  it("a casual's 8-hour Sunday is 175 % of $25.00: $350.00 (cl. 22.1)", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "AU_GENERAL_RETAIL" });
    expect((await employ(w, { employmentType: "casual" })).employmentType).toBe("casual");
    await shift(w, `${SUN}T09:00`, 480, 25);
    const employee = await onlyEmployee(w, MON, SUN);
    // 8 h × $25.00 = $200.00 ordinary + 8 h × $25.00 × 0.75 = $150.00 Sunday penalty (casual 175 %) = $350.00.
    expect(employee.grossPay).toBe(350);
    expect(brief(employee.lines)).toEqual([
      ["REGULAR", null, 480, 200],
      ["PENALTY", "AU_GENERAL_RETAIL.SUNDAY", 480, 150],
    ]);
    expect(employee.regularMinutes).toBe(480);
  });

  it("a full-time employee's 8-hour Saturday is 125 % of $25.00: $250.00 (cl. 22.1)", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "AU_GENERAL_RETAIL" });
    await employ(w, { employmentType: "full_time" });
    await shift(w, `${SAT}T09:00`, 480, 25);
    const employee = await onlyEmployee(w, MON, SUN);
    // 8 × 25 = 200.00 + 8 × 25 × 0.25 = 50.00 = 250.00.
    expect(employee.grossPay).toBe(250);
    expect(brief(employee.lines)).toEqual([
      ["REGULAR", null, 480, 200],
      ["PENALTY", "AU_GENERAL_RETAIL.SATURDAY", 480, 50],
    ]);
  });

  it("a casual's weekday: loading before 18:00, evening rate from 18:00 (cl. 11.2, 22.1)", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "AU_GENERAL_RETAIL" });
    await employ(w, { employmentType: "casual" });
    await shift(w, `${TUE}T14:00`, 360, 25);
    const employee = await onlyEmployee(w, MON, SUN);
    // 14:00–20:00: 6 × 25 = 150.00; 4 h loading 4 × 25 × 0.25 = 25.00; 2 h evening 2 × 25 × 0.5 = 25.00 → 200.00.
    expect(employee.grossPay).toBe(200);
    expect(brief(employee.lines)).toEqual([
      ["REGULAR", null, 360, 150],
      ["PENALTY", "AU_GENERAL_RETAIL.CASUAL_LOADING", 240, 25],
      ["PENALTY", "AU_GENERAL_RETAIL.EVENING", 120, 25],
    ]);
  });

  it("overtime past 9 hours a day: 150 % for 3 hours then 200 % (cl. 21.3); a full-timer has no loading", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "AU_GENERAL_RETAIL" });
    await employ(w, { employmentType: "full_time" });
    await shift(w, `${WED}T06:00`, 780, 25);
    const employee = await onlyEmployee(w, MON, SUN);
    // 06:00–19:00, 13 h: 9 × 25 = 225.00; 3 × 37.50 = 112.50; 1 × 50 = 50.00. No evening penalty: 18:00–19:00 is
    // double time already. 225 + 112.50 + 50 = 387.50.
    expect(employee.grossPay).toBe(387.5);
    expect(brief(employee.lines)).toEqual([
      ["REGULAR", null, 540, 225],
      ["OVERTIME", "DAILY_OVERTIME", 180, 112.5],
      ["DOUBLE_TIME", "DAILY_DOUBLE_TIME", 60, 50],
    ]);
  });

  it("minimum engagement: a casual's 2-hour shift is paid 3 hours; a school student's 15:30–17:00 1.5 (cl. 11.3)", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "AU_GENERAL_RETAIL" });
    await employ(w, { employmentType: "casual" });
    await shift(w, `${MON}T10:00`, 120, 20);
    const employee = await onlyEmployee(w, MON, SUN);
    // 2 × 20 = 40.00 + loading 2 × 20 × 0.25 = 10.00 + 1 h unworked at 125 %: 25.00 → 75.00 (3 h × $25.00).
    expect(employee.grossPay).toBe(75);
    expect(brief(employee.lines)).toContainEqual(["MINIMUM_ENGAGEMENT", "AU_GENERAL_RETAIL.MINIMUM_ENGAGEMENT", 60, 25]);

    const student = await createWorkplace();
    await createRuleSet(student.org, { preset: "AU_GENERAL_RETAIL" });
    expect((await employ(student, { employmentType: "casual", schoolStudent: true })).schoolStudent).toBe(true);
    await shift(student, `${TUE}T15:30`, 90, 20);
    // 1.5 h × 20 × 1.25 = 37.50, nothing unworked.
    expect((await onlyEmployee(student, MON, SUN)).grossPay).toBe(37.5);
  });

  it("less than 12 hours between workdays: 200 % until the rest is given (cl. 16.6)", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "AU_GENERAL_RETAIL" });
    await employ(w, { employmentType: "part_time" });
    await shift(w, `${THU}T13:00`, 480, 25);
    await shift(w, `${FRI}T08:00`, 300, 25);
    const employee = await onlyEmployee(w, FRI, FRI);
    // Thursday ends 21:00, Friday starts 08:00: 11 h of rest. 5 × 25 = 125.00 + 5 × 25 × 1.0 = 125.00 → 250.00.
    expect(employee.grossPay).toBe(250);
    expect(brief(employee.lines)).toContainEqual(["PENALTY", "AU_GENERAL_RETAIL.SHORT_REST_BETWEEN_SHIFTS", 300, 125]);
  });
});

describe("Canada", () => {
  it("CA_ON: 48 h in a week at $20 is 44 h regular + 4 h at $30 = $1,000.00 (ESA 2000 s. 22)", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "CA_ON" });
    for (const date of [MON, TUE, WED, THU, FRI, SAT]) await shift(w, `${date}T08:00`, 480, 20);
    const employee = await onlyEmployee(w, MON, SUN);
    // 44 × 20 = 880.00 + 4 × 30 = 120.00 = 1,000.00.
    expect(employee.grossPay).toBe(1000);
    expect(employee).toMatchObject({ regularMinutes: 2640, overtimeMinutes: 240 });
  });

  it("CA_BC: one 13-hour day at $20 is 8 × 20 + 4 × 30 + 1 × 40 = $320.00 (ESA s. 40)", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "CA_BC" });
    await shift(w, `${MON}T07:00`, 780, 20);
    const employee = await onlyEmployee(w, MON, SUN);
    expect(employee.grossPay).toBe(320);
    expect(brief(employee.lines)).toEqual([
      ["REGULAR", null, 480, 160],
      ["OVERTIME", "DAILY_OVERTIME", 240, 120],
      ["DOUBLE_TIME", "DAILY_DOUBLE_TIME", 60, 40],
    ]);
  });
});

describe("US states with daily rules", () => {
  it("US_AK: 10 hours in a day and 30 in the week at $20 is 8 × 20 + 2 × 30 = $220.00 that day (AS 23.10.060)", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "US_AK" });
    for (const date of [MON, TUE, WED]) await shift(w, `${date}T08:00`, 600, 20);
    const monday = await onlyEmployee(w, MON, MON);
    expect(monday.grossPay).toBe(220);
    expect(monday).toMatchObject({ regularMinutes: 480, overtimeMinutes: 120 });
  });

  it("US_NV: daily overtime only below 1.5 × the $12.00 minimum wage (NRS 608.018)", async () => {
    const below = await createWorkplace();
    await createRuleSet(below.org, { preset: "US_NV" });
    await shift(below, `${MON}T08:00`, 600, 17.99);
    // 8 × 17.99 = 143.92 + 2 × 26.985 = 53.97 → 197.89.
    expect((await onlyEmployee(below, MON, SUN)).grossPay).toBe(197.89);
    const at = await createWorkplace();
    await createRuleSet(at.org, { preset: "US_NV" });
    await shift(at, `${MON}T08:00`, 600, 18);
    // At $18.00 (exactly 1.5 × 12) no daily overtime: 10 × 18 = 180.00.
    expect((await onlyEmployee(at, MON, SUN)).grossPay).toBe(180);
  });

  it("US_NV: the workday is the 24 hours from when work begins (NRS 608.0126): a Tuesday 06:00 start after Monday 08:00", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "US_NV" });
    await shift(w, `${MON}T08:00`, 480, 15);
    await shift(w, `${TUE}T06:00`, 480, 15);
    const employee = await onlyEmployee(w, MON, SUN);
    // Tuesday 06:00–08:00 falls in Monday's 24 hours (its 9th and 10th hours): 2 h at $22.50 = 45.00; a new 24 hours
    // opens at 08:00: 6 h regular. 8 × 15 = 120.00 + 45.00 + 6 × 15 = 90.00 → 255.00.
    expect(employee.grossPay).toBe(255);
    expect(brief(employee.lines)).toEqual([
      ["REGULAR", null, 480, 120],
      ["OVERTIME", "DAILY_OVERTIME", 120, 45],
      ["REGULAR", null, 360, 90],
    ]);
    // Asked for Tuesday alone, the same lines of Tuesday: Monday's shift is read to know the window.
    expect(brief((await onlyEmployee(w, TUE, TUE)).lines)).toEqual([
      ["OVERTIME", "DAILY_OVERTIME", 120, 45],
      ["REGULAR", null, 360, 90],
    ]);
  });

  it("US_CO: overtime past 12 hours in a workday, not past 8 (COMPS Order #39 Rule 4.1.1)", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "US_CO" });
    await shift(w, `${MON}T06:00`, 780, 20);
    // 12 × 20 = 240.00 + 1 × 30 = 30.00 → 270.00.
    expect((await onlyEmployee(w, MON, SUN)).grossPay).toBe(270);
  });
});

describe("France and Japan", () => {
  it("FR_STATUTORY: 48 h at $20 is 35 × 20 + 8 × 25 + 5 × 30 = 1,050.00 (Code du travail L3121-36)", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "FR_STATUTORY" });
    for (const date of [MON, TUE, WED, THU]) await shift(w, `${date}T08:00`, 480, 20);
    await shift(w, `${FRI}T06:00`, 960, 20);
    const employee = await onlyEmployee(w, MON, SUN);
    expect(employee.grossPay).toBe(1050);
    expect(employee).toMatchObject({ regularMinutes: 2100, overtimeMinutes: 480, doubleTimeMinutes: 300 });
  });

  it("JP_STATUTORY: 14:00–23:00 at $20 is 8 × 20 + 1 × 20 × 1.5 = 190.00 (late-night overtime, art. 37)", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "JP_STATUTORY" });
    await shift(w, `${TUE}T14:00`, 540, 20);
    const employee = await onlyEmployee(w, MON, SUN);
    expect(employee.grossPay).toBe(190);
    expect(brief(employee.lines)).toEqual([
      ["REGULAR", null, 480, 160],
      ["OVERTIME", "DAILY_OVERTIME", 60, 25],
      ["PENALTY", "JP_STATUTORY.LATE_NIGHT", 60, 5],
    ]);
  });
});

describe("Japan's rest day in yen", () => {
  it("JP_STATUTORY: Sunday 15:00–23:00 at ¥1,000 is 135 %, its late-night hour 160 % (art. 35, 37(4)): ¥11,050", async () => {
    const w = await createWorkplace();
    const patched = await api("PATCH", `/api/organizations/${w.org.id}`, { token: w.org.adminToken, body: { currencyCode: "JPY" } });
    expect(patched.status).toBe(200);
    await createRuleSet(w.org, { preset: "JP_STATUTORY" });
    await shift(w, `${SUN}T15:00`, 480, 1000);
    const employee = await onlyEmployee(w, MON, SUN);
    // 8 × ¥1,000 = ¥8,000; rest day + 35 % for 15:00–22:00: 7 × ¥350 = ¥2,450; 22:00–23:00 rest day and late night
    // + 60 %: ¥600. 8,000 + 2,450 + 600 = ¥11,050 (7 × 1,350 + 1 × 1,600). Rest-day work is not overtime: no OVERTIME.
    expect(employee.grossPay).toBe(11050);
    expect(brief(employee.lines)).toEqual([
      ["REGULAR", null, 480, 8000],
      ["PENALTY", "JP_STATUTORY.REST_DAY", 420, 2450],
      ["PENALTY", "JP_STATUTORY.REST_DAY_LATE_NIGHT", 60, 600],
    ]);
  });
});

describe("New York", () => {
  it("US_NY: a 12-hour spread pays one hour at the $17.00 minimum wage on top (12 NYCRR 142-2.4)", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "US_NY" });
    await shift(w, `${MON}T07:00`, 300, 20);
    await shift(w, `${MON}T14:00`, 300, 20);
    const employee = await onlyEmployee(w, MON, SUN);
    // 07:00–19:00 spread, 10 h worked: 10 × 20 = 200.00 + 1 × 17.00 = 217.00.
    expect(employee.grossPay).toBe(217);
    expect(brief(employee.lines)).toContainEqual(["SPREAD_OF_HOURS", "US_NY.SPREAD_OF_HOURS", 60, 17]);
  });
});

describe("California split shift", () => {
  it("CALIFORNIA: shifts 1 h 01 apart at the $16.90 minimum wage earn a SPLIT_SHIFT hour; exactly 1 h apart none (IWC Wage Orders §4(C))", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "CALIFORNIA" });
    // Monday 08:00–12:00 and 13:00–17:00: exactly an hour apart, not split.
    await shift(w, `${MON}T08:00`, 240, 16.9);
    await shift(w, `${MON}T13:00`, 240, 16.9);
    // Tuesday 08:00–12:00 and 13:01–17:01: 1 h 01 apart, split.
    await shift(w, `${TUE}T08:00`, 240, 16.9);
    await shift(w, `${TUE}T13:01`, 240, 16.9);
    const employee = await onlyEmployee(w, MON, SUN);
    // 16 h × 16.90 = 270.40; the day's wages are the minimum wage exactly, so nothing offsets the premium: + 1 × 16.90
    // = 287.30.
    expect(employee.grossPay).toBe(287.3);
    const split = employee.lines.filter((l) => l.kind === "SPLIT_SHIFT");
    expect(split).toEqual([expect.objectContaining({ date: TUE, rule: "CALIFORNIA.SPLIT_SHIFT", minutes: 60, rate: 16.9, amount: 16.9 })]);
    expect(employee.regularMinutes).toBe(960);
  });
});
