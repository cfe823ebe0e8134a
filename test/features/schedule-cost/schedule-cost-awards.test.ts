import { describe, expect, it } from "vitest";
import { addDays } from "@/domain/local-time";
import { api } from "../../helpers/api";
import { createRuleSet } from "../../helpers/pay";
import { createRole } from "../../helpers/timesheets";
import { createWorkplace, type Workplace } from "../../helpers/workplace";

/* Issue "Pay beyond the US" item 5: schedule cost prices an award's penalty and holiday rates as pay will. */

/** A Monday at least three weeks ahead: every entry of its week is still to come. */
function futureMonday(): string {
  const day = new Date(Date.now() + 21 * 86_400_000);
  const back = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - back * 86_400_000).toISOString().slice(0, 10);
}

const base = (w: Workplace) => `/api/organizations/${w.org.id}/locations/${w.location.id}`;

async function retailWorkplace(employmentType: string) {
  const w = await createWorkplace({ country: "AU", state: "VIC", timezone: "Australia/Melbourne" });
  const role = await createRole(w, 25, "Retail employee");
  const patched = await api("PATCH", `/api/organizations/${w.org.id}/staffmembers/${w.staff.id}`, {
    token: w.org.adminToken,
    body: { roleIds: [role.id], employmentType, hourlyWage: 25 },
  });
  expect(patched.status, patched.text).toBe(200);
  await createRuleSet(w.org, { preset: "AU_GENERAL_RETAIL" });
  return { w, roleId: role.id };
}

async function schedule(w: Workplace, roleId: string, date: string) {
  const body = { employeeId: w.staff.id, roleId, startTime: `${date}T09:00:00Z`, endTime: `${date}T17:00:00Z`, breaks: [] };
  const res = await api("POST", `${base(w)}/schedules`, { token: w.org.adminToken, body });
  expect(res.status, res.text).toBe(201);
}

async function laborCost(w: Workplace, date: string) {
  const res = await api("GET", `${base(w)}/schedules/cost?startDate=${date}&endDate=${date}`, { token: w.org.adminToken });
  expect(res.status, res.text).toBe(200);
  return (res.body as { totals: { laborCost: number } }).totals.laborCost;
}

describe("schedule cost under AU_GENERAL_RETAIL", () => {
  it("a casual's 8-hour Sunday entry at $25.00 costs 175 %: $350.00", async () => {
    const { w, roleId } = await retailWorkplace("casual");
    const sunday = addDays(futureMonday(), 6);
    // Whatever the calendar says of that Sunday (Easter Sunday is a holiday in Victoria), it is an ordinary Sunday here.
    await api("PUT", `${base(w)}/holidays/overrides`, { token: w.org.adminToken, body: { removed: [sunday] } });
    await schedule(w, roleId, sunday);
    // 8 × 25 = 200.00 + 8 × 25 × 0.75 = 150.00.
    expect(await laborCost(w, sunday)).toBe(350);
  });

  it("a full-timer's entry on a public holiday the organization added costs 225 %: $450.00", async () => {
    const { w, roleId } = await retailWorkplace("full_time");
    const monday = futureMonday();
    const put = await api("PUT", `${base(w)}/holidays/overrides`, {
      token: w.org.adminToken,
      body: { added: [{ date: monday, name: "Agreed holiday" }] },
    });
    expect(put.status, put.text).toBe(200);
    await schedule(w, roleId, monday);
    // 8 × 25 = 200.00 + 8 × 25 × 1.25 = 250.00.
    expect(await laborCost(w, monday)).toBe(450);
  });
});
