import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { unique } from "../../helpers/fixtures";
import { recordingRequest } from "../../helpers/recording-d1";
import { addWorker, createEntry, createSchedulePlace, type SchedulePlace, setPackSince } from "../../helpers/schedules";
import { staffPath } from "../../helpers/staff";
import { seedShifts } from "../../helpers/timesheets";

/* Issue 33 item 5: the report's premiums owed are the pay lines' PREDICTABILITY and REST premiums, to the cent. */

type Line = { date: string; kind: string; hours: number; amount: number | null };
type Week = {
  weekStart: string;
  premiumHours: number;
  restPremiumHours: number;
  restPremiumAmount: number;
  premiumsOwed: { predictability: number; rest: number; total: number };
};

async function placeWithPack(rulePack: string): Promise<SchedulePlace> {
  const p = await createSchedulePlace("UTC");
  // In effect since January: the worked weeks here are past dates, which keep the pack they had.
  await setPackSince(p.org, p.location.id, rulePack, "2026-01-01");
  return p;
}

/** A worked (timesheet) shift of the place's worker at `hourlyWage`. */
async function work(p: SchedulePlace, startTime: string, endTime: string, hourlyWage: number) {
  const res = await api("POST", "/api/timesheets", {
    token: p.org.adminToken,
    body: { employeeId: p.staff.id, locationId: p.location.id, roleId: p.roleId, startTime, endTime, hourlyWage },
  });
  expect(res.status, res.text).toBe(201);
}

/** The worker's one workweek of the report of [startDate, endDate]. */
async function reportWeek(p: SchedulePlace, employeeId: string, startDate: string, endDate: string, query = ""): Promise<Week> {
  const res = await api(
    "GET",
    `/api/organizations/${p.org.id}/fair-workweek/report?startDate=${startDate}&endDate=${endDate}&employeeId=${employeeId}${query}`,
    { token: p.org.adminToken },
  );
  expect(res.status, res.text).toBe(200);
  expect(res.body).toHaveLength(1);
  expect(res.body[0].weeks).toHaveLength(1);
  return res.body[0].weeks[0];
}

/** The worker's pay lines of [startDate, endDate] (GET /timesheets/pay). */
async function payLinesOf(p: SchedulePlace, startDate: string, endDate: string): Promise<Line[]> {
  const res = await api("GET", `/api/timesheets/pay?startDate=${startDate}&endDate=${endDate}&employeeId=${p.staff.id}`, {
    token: p.org.adminToken,
  });
  expect(res.status, res.text).toBe(200);
  expect(res.body.employees).toHaveLength(1);
  return res.body.employees[0].lines;
}

const cents = (lines: Line[], kind: string) =>
  lines.filter((l) => l.kind === kind).reduce((sum, l) => sum + Math.round((l.amount ?? 0) * 100), 0);

describe("GET …/fair-workweek/report: premiums owed, as pay computes them", () => {
  it("Seattle: a shift starting 8 h after the previous one ended owes the REST premium of its pay line, to the cent", async () => {
    const p = await placeWithPack("SEATTLE");
    const idle = await addWorker(p);
    // Two wages: the premium is paid at the workweek's regular rate, (8 × 21.37 + 8 × 18.91) ÷ 16 = 20.14.
    await work(p, "2026-10-06T14:00:00Z", "2026-10-06T22:00:00Z", 21.37);
    await work(p, "2026-10-07T06:00:00Z", "2026-10-07T14:00:00Z", 18.91);
    const lines = await payLinesOf(p, "2026-10-05", "2026-10-11");
    const rest = lines.filter((l) => l.kind === "REST");
    expect(rest).toMatchObject([{ date: "2026-10-07", hours: 1, amount: 20.14 }]);
    const week = await reportWeek(p, p.staff.id, "2026-10-05", "2026-10-11");
    expect(week).toMatchObject({
      weekStart: "2026-10-05",
      premiumHours: 0,
      restPremiumHours: rest[0]!.hours,
      restPremiumAmount: rest[0]!.amount,
      premiumsOwed: { predictability: 0, rest: rest[0]!.amount, total: rest[0]!.amount },
    });
    // Only part of the week asked for: the workweek is still reported whole, its premium with it.
    expect((await reportWeek(p, p.staff.id, "2026-10-11", "2026-10-11")).premiumsOwed.rest).toBe(20.14);
    // A worker with no worked shifts owes nothing.
    expect(await reportWeek(p, idle.id, "2026-10-05", "2026-10-11")).toMatchObject({
      restPremiumHours: 0,
      restPremiumAmount: 0,
      premiumsOwed: { predictability: 0, rest: 0, total: 0 },
    });
    // Owed at the location of the shift worked inside the rest: none at another location.
    const elsewhere = await api("POST", `/api/organizations/${p.org.id}/locations`, {
      token: p.org.adminToken,
      body: { name: "Elsewhere", timezone: "UTC" },
    });
    expect(elsewhere.status, elsewhere.text).toBe(201);
    await api("PATCH", `/api/organizations/${p.org.id}/staffmembers/${p.staff.id}`, {
      token: p.org.adminToken,
      body: { locationIds: [p.location.id, elsewhere.body.id] },
    });
    const there = await reportWeek(p, p.staff.id, "2026-10-05", "2026-10-11", `&locationId=${elsewhere.body.id}`);
    expect(there.premiumsOwed).toEqual({ predictability: 0, rest: 0, total: 0 });
    const here = await reportWeek(p, p.staff.id, "2026-10-05", "2026-10-11", `&locationId=${p.location.id}`);
    expect(here.premiumsOwed).toEqual({ predictability: 0, rest: 20.14, total: 20.14 });
  });

  it("New York City: closing then opening with the worker's consent owes $100 REST beside the changes' PREDICTABILITY premiums", async () => {
    const p = await placeWithPack("NYC_FAST_FOOD");
    const consent = await api("POST", `/api/organizations/${p.org.id}/staffmembers/${p.staff.id}/consents`, {
      token: p.token,
      body: { kind: "REST", note: "I can open" },
    });
    expect(consent.status, consent.text).toBe(201);
    // Published with no notice (added to a past week): each a PREDICTABILITY change; the opening 7 h after the close.
    await createEntry(p, { startTime: "2026-09-15T14:00:00Z", endTime: "2026-09-15T23:00:00Z" });
    await createEntry(p, { startTime: "2026-09-16T06:00:00Z", endTime: "2026-09-16T12:00:00Z", consentId: consent.body.id });
    await work(p, "2026-09-15T14:00:00Z", "2026-09-15T23:00:00Z", 17.25);
    await work(p, "2026-09-16T06:00:00Z", "2026-09-16T12:00:00Z", 17.25);
    const lines = await payLinesOf(p, "2026-09-14", "2026-09-20");
    expect(lines.filter((l) => l.kind === "REST")).toMatchObject([{ date: "2026-09-16", amount: 100 }]);
    const predictability = cents(lines, "PREDICTABILITY");
    expect(predictability).toBeGreaterThan(0);
    const week = await reportWeek(p, p.staff.id, "2026-09-14", "2026-09-20");
    expect(week).toMatchObject({
      restPremiumHours: 0,
      restPremiumAmount: 100,
      premiumsOwed: { predictability: predictability / 100, rest: 100, total: (predictability + 10_000) / 100 },
    });
    // Owed at the location of the changed entries and of the shift worked inside the rest.
    const here = await reportWeek(p, p.staff.id, "2026-09-14", "2026-09-20", `&locationId=${p.location.id}`);
    expect(here.premiumsOwed).toEqual(week.premiumsOwed);
  });

  it("Seattle: an hour of predictability pay owed in money at the workweek's regular rate, equal to its pay line", async () => {
    const p = await placeWithPack("SEATTLE");
    // Added to a past week (no notice): one hour at the regular rate, (8 × 23.47 + 6 × 19.01) ÷ 14 = 21.5586.
    await createEntry(p, { startTime: "2026-10-20T09:00:00Z", endTime: "2026-10-20T17:00:00Z" });
    await work(p, "2026-10-20T09:00:00Z", "2026-10-20T17:00:00Z", 23.47);
    await work(p, "2026-10-21T09:00:00Z", "2026-10-21T15:00:00Z", 19.01);
    const lines = await payLinesOf(p, "2026-10-19", "2026-10-25");
    expect(lines.filter((l) => l.kind === "PREDICTABILITY")).toMatchObject([{ date: "2026-10-20", hours: 1, amount: 21.56 }]);
    expect(lines.filter((l) => l.kind === "REST")).toEqual([]);
    const week = await reportWeek(p, p.staff.id, "2026-10-19", "2026-10-25");
    expect(week).toMatchObject({
      premiumHours: 1,
      restPremiumHours: 0,
      restPremiumAmount: 0,
      premiumsOwed: { predictability: cents(lines, "PREDICTABILITY") / 100, rest: 0, total: 21.56 },
    });
  });

  it("a page of 200 workers: each one's REST premium is its pay line's, read in one batch of statements within 100 bound parameters", async () => {
    const p = await placeWithPack("SEATTLE");
    const records = Array.from({ length: 200 }, (_, i) => ({ externalId: unique(`emp-${i}`), name: `Staff ${i}` }));
    const synced = await api("POST", staffPath(p.org, "/sync"), { token: p.org.adminToken, body: { records } });
    expect(synced.status, synced.text).toBe(200);
    const listed = await api("GET", staffPath(p.org, "?limit=500"), { token: p.org.adminToken });
    const staff = (listed.body as { id: string; externalId: string | null }[]).filter((s) => s.externalId?.startsWith("emp-"));
    expect(staff).toHaveLength(200);
    // Each closes at 22:00 and opens at 06:00 (8 h of rest), at a wage of its own.
    await seedShifts(
      p.org.id,
      staff.flatMap((s, i) =>
        ["2026-10-06T14:00:00Z", "2026-10-07T06:00:00Z"].map((start) => ({
          employeeId: s.id,
          locationId: p.location.id,
          roleId: p.roleId,
          start: new Date(start),
          minutes: 480,
          utcOffset: 0,
          hourlyWage: 15 + i / 100,
        })),
      ),
    );
    const pay = await api("GET", "/api/timesheets/pay?startDate=2026-10-05&endDate=2026-10-11&limit=500", {
      token: p.org.adminToken,
    });
    expect(pay.status).toBe(200);
    const restOf = new Map(
      (pay.body.employees as { employeeId: string; lines: Line[] }[]).map((e) => [e.employeeId, cents(e.lines, "REST")]),
    );
    const report = await recordingRequest(
      "GET",
      `/api/organizations/${p.org.id}/fair-workweek/report?startDate=2026-10-05&endDate=2026-10-11&limit=500`,
      { token: p.org.adminToken },
    );
    expect(report.status).toBe(200);
    const rows = report.body as unknown as { employeeId: string; weeks: Week[] }[];
    const owed = new Map(rows.map((r) => [r.employeeId, Math.round(r.weeks[0]!.premiumsOwed.rest * 100)]));
    for (const [i, s] of staff.entries()) {
      expect(owed.get(s.id), s.id).toBe(restOf.get(s.id));
      expect(owed.get(s.id)).toBe(Math.round((15 + i / 100) * 100));
    }
    // The page, the organization's workweeks, then the page's entries, changes, estimates and pay inputs together.
    expect(report.trips.length).toBe(3);
    for (const sql of report.trips.flat()) expect(sql.split("?").length - 1, sql.slice(0, 200)).toBeLessThanOrEqual(100);
  });
});
