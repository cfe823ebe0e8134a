import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createRuleSet, payLines, WEEK } from "../../helpers/pay";
import { createManual } from "../../helpers/timesheets";
import { createWorkplace } from "../../helpers/workplace";

/* Issue "Pay beyond the US" item 4: amounts in the organization's currency, rounded to its ISO 4217 minor units. */

const [MON, TUE, , , , , SUN] = WEEK;

describe("pay in the organization's currency", () => {
  it("an organization in JPY is paid whole yen per line, and every total is the sum of its lines", async () => {
    const w = await createWorkplace();
    const patched = await api("PATCH", `/api/organizations/${w.org.id}`, { token: w.org.adminToken, body: { currencyCode: "JPY" } });
    expect(patched.status).toBe(200);
    await createRuleSet(w.org, { preset: "FLSA" });
    // Two days of 7 h 59 min (479 minutes) at ¥1,000 an hour.
    for (const date of [MON, TUE]) {
      await createManual(w, { startTime: `${date}T09:00:00Z`, endTime: `${date}T16:59:00Z`, hourlyWage: 1000 });
    }

    const res = await payLines(w, { startDate: MON, endDate: SUN });
    expect(res.status).toBe(200);
    const [employee] = res.body.employees;
    // ¥1,000 × 479 ÷ 60 = ¥7,983.333… → ¥7,983 a line (JPY has no minor unit); 2 × 7,983 = ¥15,966, not 15,966.67.
    expect(employee.lines.map((l: { amount: number }) => l.amount)).toEqual([7983, 7983]);
    expect(employee.grossPay).toBe(15966);
    expect(res.body.totals.grossPay).toBe(15966);

    const cost = await api("GET", `/api/timesheets/labor-cost?${new URLSearchParams({ startDate: MON, endDate: SUN })}`, {
      token: w.org.adminToken,
    });
    expect(cost.status).toBe(200);
    expect(cost.body.totals.laborCost).toBe(15966);
  });

  it("the same shifts in USD at $16.67 an hour pay $133.08 a line (16.67 × 479 ÷ 60 = 133.0821…)", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "FLSA" });
    for (const date of [MON, TUE]) {
      await createManual(w, { startTime: `${date}T09:00:00Z`, endTime: `${date}T16:59:00Z`, hourlyWage: 16.67 });
    }
    const res = await payLines(w, { startDate: MON, endDate: SUN });
    expect(res.body.employees[0].lines.map((l: { amount: number }) => l.amount)).toEqual([133.08, 133.08]);
    expect(res.body.totals.grossPay).toBe(266.16);
  });

  it("an organization in BHD (3 decimals) is paid to the fils: 7 h 59 at BD 1.234 is BD 9.851 a line, everywhere", async () => {
    const w = await createWorkplace();
    const patched = await api("PATCH", `/api/organizations/${w.org.id}`, { token: w.org.adminToken, body: { currencyCode: "BHD" } });
    expect(patched.status).toBe(200);
    await createRuleSet(w.org, { preset: "FLSA" });
    for (const date of [MON, TUE]) {
      await createManual(w, { startTime: `${date}T09:00:00Z`, endTime: `${date}T16:59:00Z`, hourlyWage: 1.234 });
    }

    const res = await payLines(w, { startDate: MON, endDate: SUN });
    expect(res.status).toBe(200);
    const [employee] = res.body.employees;
    // 7 h 59 = 479 min = 7.98333 h; 479 × 1.234 = 591.086 ÷ 60 = 9.851433… → BD 9.851 a line (at 2 decimals: 9.85).
    expect(employee.lines.map((l: { amount: number }) => l.amount)).toEqual([9.851, 9.851]);
    // The totals are the lines' sum: 9.851 + 9.851 = BD 19.702.
    expect(employee.grossPay).toBe(19.702);
    expect(res.body.totals.grossPay).toBe(19.702);
    // The workweek's straight-time pay is its minutes × wage rounded once: 958 × 1.234 ÷ 60 = 19.702866… → 19.703.
    expect(employee.workweeks[0].straightTimePay).toBe(19.703);

    const query = new URLSearchParams({ startDate: MON, endDate: SUN, groupBy: "date" });
    const cost = await api("GET", `/api/timesheets/labor-cost?${query}`, { token: w.org.adminToken });
    expect(cost.status).toBe(200);
    expect(cost.body.rows.map((r: { laborCost: number }) => r.laborCost)).toEqual([9.851, 9.851]);
    expect(cost.body.totals.laborCost).toBe(19.702);

    const schedule = await api(
      "GET",
      `/api/organizations/${w.org.id}/locations/${w.location.id}/schedules/cost?${new URLSearchParams({ startDate: MON, endDate: SUN })}`,
      { token: w.org.adminToken },
    );
    expect(schedule.status, schedule.text).toBe(200);
    // Worked as it would be paid: the same BD 9.851 on each day, BD 19.702 in all.
    const days = schedule.body.dates.filter((d: { laborCost: number }) => d.laborCost !== 0);
    expect(days.map((d: { laborCost: number }) => d.laborCost)).toEqual([9.851, 9.851]);
    expect(schedule.body.totals.laborCost).toBe(19.702);
    expect(schedule.body.currencyCode).toBe("BHD");
  });
});
