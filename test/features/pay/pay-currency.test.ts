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
});
