import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createLocation } from "../../helpers/locations";
import { createRuleSet, payLines, rulesPath } from "../../helpers/pay";
import { createManual } from "../../helpers/timesheets";
import { createWorkplace, type Workplace } from "../../helpers/workplace";

/*
 * Issue 44 items 1 and 5 (API.md "Pay at the edges"): one workweek and one workday per employee, the organization's,
 * at every location (29 CFR 778.103–778.105; Cal. Labor Code 500(a)); at a change of workweek the greater of the two
 * computations of the overlap (29 CFR 778.302).
 */

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** A closed manual shift at `locationId` from local `start` (YYYY-MM-DDTHH:MM) lasting `hours`, at $20 an hour. */
const work = (w: Workplace, locationId: string, start: string, hours: number) => {
  const startTime = `${start}:00Z`;
  const endTime = new Date(Date.parse(startTime) + hours * 3_600_000).toISOString().replace(".000Z", "Z");
  return createManual(w, { locationId, startTime, endTime, hourlyWage: 20 });
};

/** The workplace's staff member at a second location of the organization (same zone). */
async function twoLocations() {
  const w = await createWorkplace();
  const second = await createLocation(w.org, { timezone: "America/New_York" });
  const assigned = await api("PATCH", `/api/organizations/${w.org.id}/staffmembers/${w.staff.id}`, {
    token: w.org.adminToken,
    body: { locationIds: [w.location.id, second.id] },
  });
  expect(assigned.status).toBe(200);
  return { w, second };
}

const postRuleSet = (w: Workplace, body: Record<string, unknown>) =>
  api("POST", rulesPath(w.org), { token: w.org.adminToken, body: { name: "Rules", effectiveFrom: "2026-01-01", ...body } });

const laborCostTotal = async (w: Workplace, startDate: string, endDate: string) => {
  const res = await api("GET", `/api/timesheets/labor-cost?${new URLSearchParams({ startDate, endDate })}`, { token: w.org.adminToken });
  expect(res.status).toBe(200);
  return res.body.totals.laborCost as number;
};

describe("one workweek per employee at every location (FLSA)", () => {
  // 2026-06-07 is a Sunday: two Sunday workweeks, 06-07..06-13 and 06-14..06-20.
  const SUNDAY = "2026-06-07";

  it("30 h a week at each of two locations pays $2,800 for two weeks, not $2,400", async () => {
    const { w, second } = await twoLocations();
    await createRuleSet(w.org, { preset: "FLSA", workweekStartsOn: "Sunday" });
    // The second location's own set differs in its rounding, and leaves the boundaries out: it takes Sunday weeks
    // from the organization. (Before, it took the preset's Monday weeks: two calendars, no hour ever past 40.)
    const own = await createRuleSet(w.org, { preset: "FLSA", locationId: second.id, rounding: { incrementMinutes: 15, mode: "NEAREST" } });
    expect(own).toMatchObject({ workweekStartsOn: "Sunday", workdayStartsAt: "00:00" });
    // Monday to Friday of each week: 6 h at the first location (07:00–13:00), 6 h at the second (14:00–20:00).
    for (const week of [0, 7]) {
      for (let day = 1; day <= 5; day++) {
        const date = addDays(SUNDAY, week + day);
        await work(w, w.location.id, `${date}T07:00`, 6);
        await work(w, second.id, `${date}T14:00`, 6);
      }
    }
    const res = await payLines(w, { startDate: SUNDAY, endDate: "2026-06-20" });
    expect(res.status).toBe(200);
    // Each week 60 h together: 40 × $20 = $800 + 20 × $30 = $600 → $1,400; two weeks $2,800.
    expect(res.body.totals).toMatchObject({ regularMinutes: 2 * 2400, overtimeMinutes: 2 * 1200, grossPay: 2800 });
    expect(res.body.employees[0].workweeks.map((x: { startDate: string; minutes: number }) => [x.startDate, x.minutes])).toEqual([
      [SUNDAY, 3600],
      ["2026-06-14", 3600],
    ]);
    // Labor cost classifies the same hours the same way.
    expect(await laborCostTotal(w, SUNDAY, "2026-06-20")).toBe(2800);
  });

  it("a location's set naming another workweekStartsOn or workdayStartsAt is 422 naming the field, and writes nothing", async () => {
    const { w, second } = await twoLocations();
    await createRuleSet(w.org, { preset: "FLSA", workweekStartsOn: "Sunday" });
    const wednesday = await postRuleSet(w, { preset: "FLSA", locationId: second.id, workweekStartsOn: "Wednesday" });
    expect(wednesday.status).toBe(422);
    expect(wednesday.body.code).toBe("PAY_RULES_NOT_ORGANIZATIONS_WORKWEEK");
    expect(wednesday.body.errors.map((e: { path: string }) => e.path)).toEqual(["workweekStartsOn"]);
    const noon = await postRuleSet(w, { preset: "FLSA", locationId: second.id, workdayStartsAt: "12:00" });
    expect(noon.status).toBe(422);
    expect(noon.body.errors.map((e: { path: string }) => e.path)).toEqual(["workdayStartsAt"]);
    const listed = await api("GET", `${rulesPath(w.org)}?locationId=${second.id}`, { token: w.org.adminToken });
    expect(listed.body).toEqual([]);
    // Naming the organization's own boundaries is accepted; a PATCH to others is refused the same way.
    const same = await postRuleSet(w, { preset: "FLSA", locationId: second.id, workweekStartsOn: "Sunday", workdayStartsAt: "00:00" });
    expect(same.status).toBe(201);
    const patched = await api("PATCH", `${rulesPath(w.org)}/${same.body.id}`, {
      token: w.org.adminToken,
      body: { workweekStartsOn: "Wednesday" },
    });
    expect(patched.status).toBe(422);
    expect(patched.body.errors.map((e: { path: string }) => e.path)).toEqual(["workweekStartsOn"]);
    const read = await api("GET", `${rulesPath(w.org)}/${same.body.id}`, { token: w.org.adminToken });
    expect(read.body).toMatchObject({ workweekStartsOn: "Sunday", updatedAt: same.body.updatedAt });
    // An organization's own set may name any boundaries.
    expect((await postRuleSet(w, { preset: "FLSA", effectiveFrom: "2026-09-01", workweekStartsOn: "Wednesday" })).status).toBe(201);
  });
});

describe("one workday per employee at every location (California)", () => {
  it("5 h at one location and 5 h at the other on one workday: 2 h daily overtime, $220 (not $200)", async () => {
    const { w, second } = await twoLocations();
    // The organization's workday starts at 06:00; the second location's own set (rounding to 15 minutes) takes it.
    // (Before, the second location's set took the preset's 00:00 workday: the day's hours fell in two workdays.)
    await createRuleSet(w.org, { preset: "CALIFORNIA", workweekStartsOn: "Sunday", workdayStartsAt: "06:00" });
    await createRuleSet(w.org, { preset: "CALIFORNIA", locationId: second.id, rounding: { incrementMinutes: 15, mode: "NEAREST" } });
    // Monday 2026-06-08: 07:00–12:00 at the first location, 13:00–18:00 at the second (the hour between is the meal).
    await work(w, w.location.id, "2026-06-08T07:00", 5);
    await work(w, second.id, "2026-06-08T13:00", 5);
    const res = await payLines(w, { startDate: "2026-06-08", endDate: "2026-06-08" });
    // One workday of 10 h: 8 × $20 = $160 + 2 h daily overtime × $30 = $60 → $220.
    expect(res.body.totals).toMatchObject({ regularMinutes: 480, overtimeMinutes: 120, penaltyHours: 0, grossPay: 220 });
    expect(
      res.body.employees[0].lines.map((l: { kind: string; rule: string | null; minutes: number }) => [l.kind, l.rule, l.minutes]),
    ).toEqual([
      ["REGULAR", null, 300],
      ["REGULAR", null, 180],
      ["OVERTIME", "DAILY_OVERTIME", 120],
    ]);
    expect(await laborCostTotal(w, "2026-06-08", "2026-06-08")).toBe(220);
  });
});

describe("a change of workweek: the greater of the two computations of the overlap (29 CFR 778.302)", () => {
  it("Monday weeks, then Sunday weeks from 2025-06-11: 36 h, a 10-hour Sunday, then 30 h pays $1,580 (not $1,520)", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "FLSA", workweekStartsOn: "Monday", effectiveFrom: "2025-01-01" });
    await createRuleSet(w.org, { preset: "FLSA", workweekStartsOn: "Sunday", effectiveFrom: "2025-06-11" });
    // The change takes effect when the old week holding Wed 06-11 ends (Mon 06-16); the first Sunday week starts
    // Sun 06-22. The old week Mon 06-16 – Sun 06-22 and the new Sun 06-22 – Sat 06-28 overlap on Sunday 06-22.
    // 36 h: 6 h a day Mon 06-16 – Sat 06-21; 10 h Sun 06-22; 30 h: 6 h a day Mon 06-23 – Fri 06-27; at $20.
    for (let day = 0; day < 6; day++) await work(w, w.location.id, `${addDays("2025-06-16", day)}T08:00`, 6);
    await work(w, w.location.id, "2025-06-22T08:00", 10);
    for (let day = 0; day < 5; day++) await work(w, w.location.id, `${addDays("2025-06-23", day)}T08:00`, 6);
    const res = await payLines(w, { startDate: "2025-06-16", endDate: "2025-06-28" });
    // Overlap in the new week: 36 h → $720, then 40 h → $800: $1,520.
    // Overlap in the old week: 46 h → 40 × $20 + 6 × $30 = $980, then 30 h → $600: $1,580. The greater: $1,580.
    expect(res.body.totals).toMatchObject({ regularMinutes: 70 * 60, overtimeMinutes: 360, grossPay: 1580 });
    expect(res.body.employees[0].workweeks.map((x: { startDate: string; endDate: string }) => [x.startDate, x.endDate])).toEqual([
      ["2025-06-16", "2025-06-22"],
      ["2025-06-23", "2025-06-28"],
    ]);
    // The Sunday alone reads the same count: 4 h regular, the 6 h past 40 at $30.
    const sunday = await payLines(w, { startDate: "2025-06-22", endDate: "2025-06-22" });
    expect(sunday.body.totals).toMatchObject({ regularMinutes: 240, overtimeMinutes: 360, grossPay: 260 });
    expect(await laborCostTotal(w, "2025-06-16", "2025-06-28")).toBe(1580);
  });
});
