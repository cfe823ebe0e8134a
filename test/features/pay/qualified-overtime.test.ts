import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { closePeriod, createRuleSet, PERIOD, payLines, periodsPath, WEEK } from "../../helpers/pay";
import { createManual } from "../../helpers/timesheets";
import { createWorkplace, type Workplace } from "../../helpers/workplace";

/*
 * Issue 46, qualified overtime (One Big Beautiful Bill Act, Pub. L. 119-21 §70202; IRC §225(c)(1); FLSA §7,
 * 29 U.S.C. 207(a)(1)), through the API: the pay lines, the payroll and the year's report. Figures by hand.
 */

const [MON, TUE, WED, THU, FRI] = WEEK;

const shift = (w: Workplace, date: string, minutes: number, wage = 20) => {
  const startTime = `${date}T08:00:00Z`;
  const endTime = new Date(Date.parse(startTime) + minutes * 60_000).toISOString().replace(".000Z", "Z");
  return createManual(w, { startTime, endTime, hourlyWage: wage });
};

const report = (w: Workplace, query: string) =>
  api("GET", `/api/organizations/${w.org.id}/reports/qualified-overtime?${query}`, { token: w.org.adminToken });

type Line = { kind: string; amount: number; qualifiedOvertimePremium?: number };

describe("qualified overtime through the API", () => {
  it("FLSA: 10 h at $30 then 40 h at $20 → $110.00 on the line, the staff member, the payroll and the 2026 report", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "FLSA" });
    await shift(w, MON, 600, 30);
    for (const date of [TUE, WED, THU, FRI]) await shift(w, date, 600);
    const pay = (await payLines(w, { startDate: MON, endDate: WEEK[6] })).body;
    // Regular rate (300 + 800) ÷ 50 = 22: 10 h × 0.5 × 22 = 110.00.
    expect(pay.employees[0].qualifiedOvertimePremium).toBe(110);
    expect(pay.employees[0].lines.filter((l: Line) => l.kind === "OVERTIME")).toEqual([
      expect.objectContaining({ amount: 310, qualifiedOvertimePremium: 110, qualifiedOvertimeMinutes: 600 }),
    ]);
    expect(pay.employees[0].lines.find((l: Line) => l.kind === "REGULAR")).not.toHaveProperty("qualifiedOvertimePremium");

    expect((await closePeriod(w, PERIOD, { approveAll: true })).status).toBe(200);
    const payroll = (await api("GET", `${periodsPath(w.org)}/${PERIOD}/payroll`, { token: w.org.adminToken })).body;
    expect(payroll.employees[0]).toMatchObject({ qualifiedOvertimePremium: 110, qualifiedOvertimeMinutes: 600 });
    expect(payroll.employees[0].workweeks[0]).toMatchObject({ regularRate: 22, straightTimePay: 1100, overtimePremium: 110 });

    const res = await report(w, "year=2026");
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { employeeId: w.staff.id, qualifiedOvertimePremium: 110, qualifiedOvertimeHours: 10, periods: [{ periodId: PERIOD, amount: 110 }] },
    ]);
    expect((await report(w, "year=2025")).body).toEqual([]);
    expect((await report(w, "year=26")).status).toBe(400);
  });

  it("California: four 10-hour days at $20 → overtime premium $80.00, qualified $0.00; a fifth day → qualified $100.00", async () => {
    const w = await createWorkplace();
    // The preset as it comes: each 10-hour day without a meal also earns a meal premium, which is no overtime.
    await createRuleSet(w.org, { preset: "CALIFORNIA" });
    for (const date of [MON, TUE, WED, THU]) await shift(w, date, 600);
    const four = (await payLines(w, { startDate: MON, endDate: WEEK[6] })).body.employees[0];
    // 4 × 2 h daily overtime × 0.5 × 20 = 80.00, none of it over 40 hours in the week.
    expect(four.workweeks[0]).toMatchObject({ overtimePremium: 80, qualifiedOvertimePremium: 0 });
    expect(four.qualifiedOvertimePremium).toBe(0);
    await shift(w, FRI, 600);
    const five = (await payLines(w, { startDate: MON, endDate: WEEK[6] })).body.employees[0];
    // 50 h: 10 h over 40 × 0.5 × 20 = 100.00.
    expect(five.workweeks[0]).toMatchObject({ overtimePremium: 100, qualifiedOvertimePremium: 100 });
    expect(five.qualifiedOvertimePremium).toBe(100);
  });

  it("outside the US (CA_ON, no FLSA): 50 h at $20 → 6 h over 44 at $30, qualified $0.00 on the lines, payroll and report", async () => {
    const w = await createWorkplace({ country: "CA", state: "ON", timezone: "America/Toronto" });
    await createRuleSet(w.org, { preset: "CA_ON" });
    for (const date of [MON, TUE, WED, THU, FRI]) await shift(w, date, 600);
    const employee = (await payLines(w, { startDate: MON, endDate: WEEK[6] })).body.employees[0];
    // ESA 2000 s. 22(1): 44 × 20 = 880.00 + 6 × 30 = 180.00 = 1,060.00; the premium 6 × 10 = 60.00 is Ontario's
    // overtime, not section 7 overtime: nothing qualifies under IRC §225.
    expect(employee).toMatchObject({ grossPay: 1060, overtimeMinutes: 360, qualifiedOvertimePremium: 0 });
    expect(employee.workweeks[0]).toMatchObject({ overtimePremium: 60, qualifiedOvertimePremium: 0 });
    const overtime = employee.lines.filter((l: Line) => l.kind === "OVERTIME");
    expect(overtime.map((l: Line) => l.amount)).toEqual([180]);
    expect(overtime[0]).toMatchObject({ qualifiedOvertimePremium: 0 });

    expect((await closePeriod(w, PERIOD, { approveAll: true })).status).toBe(200);
    const payroll = (await api("GET", `${periodsPath(w.org)}/${PERIOD}/payroll`, { token: w.org.adminToken })).body;
    expect(payroll.employees[0]).toMatchObject({ grossPay: 1060, qualifiedOvertimePremium: 0, qualifiedOvertimeMinutes: 0 });
    expect((await report(w, "year=2026")).body).toEqual([]);
  });

  it("pages the report by staff member id with a Link", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "FLSA" });
    const other = await api("POST", `/api/organizations/${w.org.id}/staffmembers`, {
      token: w.org.adminToken,
      body: { name: "Second", locationIds: [w.location.id] },
    });
    for (const date of [MON, TUE, WED, THU, FRI]) {
      await shift(w, date, 540);
      await createManual(
        { ...w, staff: { id: other.body.id } },
        {
          startTime: `${date}T08:00:00Z`,
          endTime: `${date}T17:00:00Z`,
          hourlyWage: 20,
        },
      );
    }
    expect((await closePeriod(w, PERIOD, { approveAll: true })).status).toBe(200);
    const first = await report(w, "year=2026&limit=1");
    // 45 h each: 5 h × 0.5 × 20 = 50.00.
    expect(first.body).toEqual([expect.objectContaining({ qualifiedOvertimePremium: 50, qualifiedOvertimeHours: 5 })]);
    const next = first.headers.get("link")?.match(/<([^>]+)>/)?.[1];
    expect(next).toBeDefined();
    const second = await api("GET", next!, { token: w.org.adminToken });
    expect(second.body).toEqual([expect.objectContaining({ qualifiedOvertimePremium: 50 })]);
    expect(new Set([first.body[0].employeeId, second.body[0].employeeId])).toEqual(new Set([w.staff.id, other.body.id]));
    expect(second.headers.get("link")).toBeNull();
  });
});
