import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createManual } from "../../helpers/timesheets";
import { createWorkplace, type Workplace } from "../../helpers/workplace";

/*
 * Issue 47 item 5: public holidays are used by the working-time rules. Germany, ArbZG §9(1): no work on public
 * holidays; 25 December 2026 (Erster Weihnachtstag) is one in every German state (date-holidays, DE/BE).
 */

async function berlin(overrides?: Record<string, unknown>) {
  const w = await createWorkplace({ country: "DE", state: "BE", timezone: "UTC" });
  const res = await api("PUT", `/api/organizations/${w.org.id}/locations/${w.location.id}/working-time`, {
    token: w.org.adminToken,
    body: { rulePack: "DE", ...(overrides ? { overrides } : {}) },
  });
  expect(res.status, res.text).toBe(200);
  // 24 December 08:00–16:00 (not a public holiday) and 25 December 08:00–14:30.
  await createManual(w, { startTime: "2026-12-24T08:00:00Z", endTime: "2026-12-24T16:00:00Z" });
  await createManual(w, { startTime: "2026-12-25T08:00:00Z", endTime: "2026-12-25T14:30:00Z" });
  return w;
}

const holidayWork = async (w: Workplace) => {
  const res = await api("GET", `/api/organizations/${w.org.id}/working-time?startDate=2026-12-21&endDate=2026-12-27`, {
    token: w.org.adminToken,
  });
  expect(res.status, res.text).toBe(200);
  return (res.body as { violations: { rule: string; date: string; limit: number; actual: number; source: string }[] }[])
    .flatMap((row) => row.violations)
    .filter((v) => v.rule === "PUBLIC_HOLIDAY_WORK")
    .map(({ date, limit, actual, source }) => ({ date, limit, actual, source }));
};

describe("the working-time report reads the location's public holidays", () => {
  it("lists 6.5 hours worked on Christmas Day in Berlin (ArbZG §9(1)), not Christmas Eve", async () => {
    const w = await berlin();
    expect(await holidayWork(w)).toEqual([{ date: "2026-12-25", limit: 0, actual: 6.5, source: "ArbZG §9(1)" }]);
  });

  it("an organization's override removing the day removes the violation", async () => {
    const w = await berlin();
    const removed = await api("PUT", `/api/organizations/${w.org.id}/locations/${w.location.id}/holidays/overrides`, {
      token: w.org.adminToken,
      body: { added: [], removed: ["2026-12-25"] },
    });
    expect(removed.status, removed.text).toBe(200);
    expect(await holidayWork(w)).toEqual([]);
  });

  it("a location whose trade §10 exempts sets publicHolidayWorkAllowed", async () => {
    const w = await berlin({ publicHolidayWorkAllowed: true });
    expect(await holidayWork(w)).toEqual([]);
  });
});
