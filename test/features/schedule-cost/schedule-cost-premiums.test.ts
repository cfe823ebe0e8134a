import { describe, expect, it } from "vitest";
import { addDays } from "@/domain/local-time";
import { api } from "../../helpers/api";
import { payLines } from "../../helpers/pay";
import { createRole } from "../../helpers/timesheets";
import { createWorkplace } from "../../helpers/workplace";

/* GET …/schedules/cost with Fair Workweek premiums: recorded PREDICTABILITY, projected REST, equal to pay once worked. */

type Line = { date: string; kind: string; rule: string | null; amount: number | null };

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const at = (date: string, time: string) => `${date}T${time}:00Z`;

describe("GET …/schedules/cost: Fair Workweek premiums", () => {
  it("counts the change log's premiums and projected REST premiums in premiumAmount and laborCost, equal to the pay lines once worked", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const cook = await createRole(w, 20, "Cook");
    await api("PATCH", `/api/organizations/${w.org.id}/staffmembers/${w.staff.id}`, {
      token: w.org.adminToken,
      body: { roleIds: [cook.id] },
    });
    const base = `/api/organizations/${w.org.id}/locations/${w.location.id}`;
    const costOf = async (query: Record<string, string>) => {
      const res = await api("GET", `${base}/schedules/cost?${new URLSearchParams(query)}`, { token: w.org.adminToken });
      expect(res.status, res.text).toBe(200);
      return res.body;
    };
    const first = day(3);
    const second = addDays(first, 1);
    const range = { startDate: first, endDate: second };
    const plan = [
      { startTime: at(first, "14:00"), endTime: at(first, "22:00") },
      // 8 h after the close: inside Seattle's 10 h rest (SMC 14.22.035).
      { startTime: at(second, "06:00"), endTime: at(second, "12:00") },
    ];
    const without = await costOf(range);
    expect(without.totals.laborCost).toBe(0);
    const pack = await api("PUT", `${base}/fair-workweek`, { token: w.org.adminToken, body: { rulePack: "SEATTLE" } });
    expect(pack.status, pack.text).toBe(200);
    for (const times of plan) {
      const res = await api("POST", `${base}/schedules`, {
        token: w.org.adminToken,
        body: { employeeId: w.staff.id, roleId: cook.id, ...times },
      });
      expect(res.status, res.text).toBe(201);
    }
    // Both published with 3–4 days' notice: ADDED, 1 h at the regular rate ($20) each.
    const projected = await costOf(range);
    expect(projected.dates.map((d: { premiumAmount: number }) => d.premiumAmount)[0]).toBe(20);
    expect(projected.dates[1].premiumAmount).toBeGreaterThan(20);
    expect(projected.totals.premiumAmount).toBe(projected.dates[0].premiumAmount + projected.dates[1].premiumAmount);
    expect(projected.totals.laborCost).toBe(14 * 20 + projected.totals.premiumAmount);

    // Worked exactly as planned: the pay lines hold the same premiums and the same cost, to the cent.
    for (const times of plan) {
      const res = await api("POST", "/api/timesheets", {
        token: w.org.adminToken,
        body: { employeeId: w.staff.id, locationId: w.location.id, roleId: cook.id, ...times },
      });
      expect(res.status, res.text).toBe(201);
    }
    const pay = await payLines(w, range);
    expect(pay.status, pay.text).toBe(200);
    const employee = pay.body.employees[0] as { grossPay: number; lines: Line[] };
    expect(new Set(employee.lines.map((l) => l.kind))).toEqual(new Set(["REGULAR", "PREDICTABILITY", "REST"]));
    const premiumCents = employee.lines
      .filter((l) => l.kind === "PREDICTABILITY" || l.kind === "REST")
      .reduce((sum, l) => sum + Math.round((l.amount ?? 0) * 100), 0);
    expect(Math.round(projected.totals.premiumAmount * 100)).toBe(premiumCents);
    expect(projected.totals.laborCost).toBe(employee.grossPay);
    const worked = await costOf(range);
    expect(worked.totals).toEqual(projected.totals);
  });
});
