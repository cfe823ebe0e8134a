import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { closePeriod, createRuleSet, payLines, periodsPath, reopenPeriod, workDay } from "../../helpers/pay";
import { createPolicy, orgPath } from "../../helpers/time-off";
import { createWorkplace, type Workplace } from "../../helpers/workplace";

// Issue 44 item 8: a staff wage change after a close moved the closed week's time-off lines in pay lines and labor
// cost while the payroll stayed. A closed period reads as it was closed: its time off at the wage its close paid.

const PERIOD = "2026-09-14";
const WEEK = { startDate: PERIOD, endDate: "2026-09-20" };

const setWage = async (w: Workplace, hourlyWage: number) => {
  const res = await api("PATCH", `/api/organizations/${w.org.id}/staffmembers/${w.staff.id}`, {
    token: w.org.adminToken,
    body: { hourlyWage },
  });
  expect(res.status).toBe(200);
};

const figures = async (w: Workplace) => {
  const lines = await payLines(w, WEEK);
  const cost = await api("GET", `/api/timesheets/labor-cost?${new URLSearchParams(WEEK)}`, { token: w.org.adminToken });
  const payroll = await api("GET", `${periodsPath(w.org)}/${PERIOD}/payroll`, { token: w.org.adminToken });
  const timeOff = (lines.body.employees[0].lines as { kind: string; rate: number | null }[]).filter((l) => l.kind === "TIME_OFF");
  return {
    payLines: lines.body.totals.grossPay as number,
    laborCost: cost.body.totals.laborCost as number,
    payroll: payroll.status === 200 ? (payroll.body.totals.grossPay as number) : null,
    timeOffRates: timeOff.map((l) => l.rate),
  };
};

describe("a closed period's time off reads at the wage its close paid (issue 44 item 8)", () => {
  it("a wage raised from $20 to $30 after the close leaves the closed week at $320 in pay lines, labor cost and payroll; reopened, it reads $400", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "FLSA", workweekStartsOn: "Sunday" });
    await setWage(w, 20);
    await api("PATCH", orgPath(w.org, "/time-off-settings"), { token: w.org.adminToken, body: { allowPastRequests: true } });
    const policy = await createPolicy(w.org, { allowNegativeBalance: true, requiresApproval: false });
    const away = await api("POST", orgPath(w.org, "/time-off-requests"), {
      token: w.org.adminToken,
      body: { workerId: w.staff.id, policyId: policy.id, startTime: "2026-09-16T09:00:00Z", endTime: "2026-09-16T17:00:00Z" },
    });
    expect(away.status).toBe(201);
    await workDay(w, "2026-09-15", 8, { hourlyWage: 20 });
    // 8 h worked × $20 + 8 h time off × $20 = 160 + 160 = $320.00
    expect((await closePeriod(w, PERIOD, { approveAll: true })).status).toBe(200);
    expect(await figures(w)).toEqual({ payLines: 320, laborCost: 320, payroll: 320, timeOffRates: [20] });

    await setWage(w, 30);
    // Closed: still 8 h × $20 + 8 h × $20 = $320.00 everywhere, as the payroll says.
    expect(await figures(w)).toEqual({ payLines: 320, laborCost: 320, payroll: 320, timeOffRates: [20] });

    // Reopened, the period reads live again: 8 h × $20 worked + 8 h × $30 time off = 160 + 240 = $400.00.
    expect((await reopenPeriod(w, PERIOD)).status).toBe(200);
    expect(await figures(w)).toMatchObject({ payLines: 400, laborCost: 400, timeOffRates: [30] });
    // Closed again at $30: $400.00 in the payroll too.
    expect((await closePeriod(w, PERIOD, { approveAll: true })).status).toBe(200);
    expect(await figures(w)).toEqual({ payLines: 400, laborCost: 400, payroll: 400, timeOffRates: [30] });
  });
});
