import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { shardBinding } from "@/data/shards";
import { addDays } from "@/domain/local-time";
import { api } from "../../helpers/api";
import { copyId, copyRows } from "../../helpers/copy-rows";
import { createOrganization } from "../../helpers/fixtures";
import { createLocation } from "../../helpers/locations";
import { createRuleSet, payLines } from "../../helpers/pay";
import { expectInvalid } from "../../helpers/problems";
import { recordingRequest } from "../../helpers/recording-d1";
import { shardOf } from "../../helpers/shards";
import { createStaffMember } from "../../helpers/staff";
import { createRole, staffWithPermissions } from "../../helpers/timesheets";
import { createBreakType, createWorkplace, punch, type Workplace } from "../../helpers/workplace";

/* GET …/schedules/cost: the pay engine over worked shifts plus the entries to come (issue "Labor cost", item 6). */

type Figures = {
  scheduledMinutes: number;
  regularMinutes: number;
  overtimeMinutes: number;
  doubleTimeMinutes: number;
  penaltyHours: number;
  laborCost: number;
  sales: number | null;
  laborPercent: number | null;
  salesPerLaborHour: number | null;
  overTarget: boolean | null;
};
type Cost = { dates: (Figures & { date: string })[]; totals: Figures; targets: Record<string, number | null>; includeDrafts: boolean };
type Line = { date: string; kind: string; rule: string | null; minutes: number; amount: number | null; shiftId: string | null };

/** A Monday at least three weeks ahead: every entry of its week is still to come. */
function futureMonday(): string {
  const day = new Date(Date.now() + 21 * 86_400_000);
  const back = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - back * 86_400_000).toISOString().slice(0, 10);
}

const base = (w: Workplace, locationId = w.location.id) => `/api/organizations/${w.org.id}/locations/${locationId}`;

const cost = (w: Workplace, query: Record<string, string>, token = w.org.adminToken, locationId = w.location.id) =>
  api("GET", `${base(w, locationId)}/schedules/cost?${new URLSearchParams(query)}`, { token });

async function costOf(w: Workplace, query: Record<string, string>, locationId = w.location.id): Promise<Cost> {
  const res = await cost(w, query, w.org.adminToken, locationId);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

const at = (date: string, time: string, plusMinutes = 0) =>
  new Date(Date.parse(`${date}T${time}:00Z`) + plusMinutes * 60_000).toISOString().replace(".000Z", "Z");

interface Planned {
  date: string;
  start: string;
  minutes: number;
  roleId: string;
  breaks?: string[];
  employeeId?: string;
  locationId?: string;
}

async function entry(w: Workplace, p: Planned, draft = false) {
  const body = {
    employeeId: p.employeeId ?? w.staff.id,
    roleId: p.roleId,
    startTime: at(p.date, p.start),
    endTime: at(p.date, p.start, p.minutes),
    breaks: p.breaks ?? [],
  };
  const res = await api("POST", `${base(w, p.locationId)}/schedules${draft ? "/drafts" : ""}`, { token: w.org.adminToken, body });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string };
}

/** A workplace in Los Angeles whose staff member holds two roles: $20 and $30 (paid $26 there by a wage rate). */
async function californiaWorkplace() {
  const w = await createWorkplace({ timezone: "America/Los_Angeles" });
  const cook = await createRole(w, 20, "Cook");
  const lead = await createRole(w, 30, "Lead");
  await api("PATCH", `/api/organizations/${w.org.id}/staffmembers/${w.staff.id}`, {
    token: w.org.adminToken,
    body: { roleIds: [cook.id, lead.id] },
  });
  const rate = await api("POST", `/api/organizations/${w.org.id}/wage-rates`, {
    token: w.org.adminToken,
    body: { employeeId: w.staff.id, roleId: lead.id, locationId: w.location.id, hourlyRate: 26, effectiveFrom: "2026-01-01" },
  });
  expect(rate.status, rate.text).toBe(201);
  await createRuleSet(w.org, { preset: "CALIFORNIA" });
  // Due 4 hours in: a 30-minute unpaid meal that meets California's 5-hour rule.
  const lunch = await createBreakType(w, { name: "Lunch", durationMinutes: 30, frequencyMinutes: 240, paid: false });
  // Due 5.5 hours in: too late for the 5-hour rule, so a day with it owes a penalty hour.
  const lateLunch = await createBreakType(w, { name: "Late lunch", durationMinutes: 30, frequencyMinutes: 330, paid: false });
  return { w, cook, lead, lunch, lateLunch };
}

/** Σ of the pay lines' amounts by date, in cents. */
const centsByDate = (lines: readonly Line[]) => {
  const sums = new Map<string, number>();
  for (const l of lines) sums.set(l.date, (sums.get(l.date) ?? 0) + Math.round((l.amount ?? 0) * 100));
  return sums;
};

describe("GET …/schedules/cost", () => {
  it("projects a California workweek (daily OT, double time, weekly OT, meal penalties) that the pay lines equal to the cent once worked", async () => {
    const { w, cook, lead, lunch, lateLunch } = await californiaWorkplace();
    const MON = futureMonday();
    const day = (i: number) => addDays(MON, i);
    const plan: Planned[] = [
      { date: day(0), start: "08:00", minutes: 630, roleId: cook.id, breaks: [lunch.id] }, // 600: 480 + 120 daily OT
      { date: day(1), start: "07:00", minutes: 810, roleId: cook.id, breaks: [lunch.id] }, // 780: 480 + 240 OT + 60 DT, no 2nd meal: a penalty
      { date: day(2), start: "09:00", minutes: 360, roleId: cook.id }, // 360, no meal: a penalty hour
      { date: day(3), start: "08:00", minutes: 510, roleId: lead.id, breaks: [lateLunch.id] }, // 480 at $26 (wage rate), a penalty
      { date: day(4), start: "08:00", minutes: 510, roleId: cook.id, breaks: [lunch.id] }, // 480: 2,280 regular so far
      { date: day(5), start: "08:00", minutes: 360, roleId: cook.id }, // 120 + 240 weekly OT, and a penalty hour
    ];
    for (const p of plan) await entry(w, p);
    const range = { startDate: MON, endDate: day(6) };

    const projected = await costOf(w, range);
    expect(projected.totals).toMatchObject({
      scheduledMinutes: 3060,
      regularMinutes: 2400,
      overtimeMinutes: 600,
      doubleTimeMinutes: 60,
      // Days 2, 3 and 5 miss the first meal; day 1 (780 minutes, one meal) the second (Labor Code 512(a)): 4.
      penaltyHours: 4,
      sales: null,
      laborPercent: null,
    });
    expect(projected.dates.map((d) => d.date)).toEqual([0, 1, 2, 3, 4, 5, 6].map(day));
    expect(projected.dates[6]).toMatchObject({ scheduledMinutes: 0, laborCost: 0 });

    // Worked exactly: manual shifts at the entries' times, each planned break where it was due (start + frequency).
    const dueAfter = new Map([
      [lunch.id, 240],
      [lateLunch.id, 330],
    ]);
    for (const p of plan) {
      const breaks = (p.breaks ?? []).map((typeId) => {
        const due = dueAfter.get(typeId)!;
        return { startTime: at(p.date, p.start, due), endTime: at(p.date, p.start, due + 30), typeId };
      });
      const res = await api("POST", "/api/timesheets", {
        token: w.org.adminToken,
        body: {
          employeeId: w.staff.id,
          locationId: w.location.id,
          roleId: p.roleId,
          startTime: at(p.date, p.start),
          endTime: at(p.date, p.start, p.minutes),
          breaks,
        },
      });
      expect(res.status, res.text).toBe(201);
    }
    const pay = await payLines(w, range);
    expect(pay.status, pay.text).toBe(200);
    const employee = pay.body.employees[0] as { grossPay: number; lines: Line[] };
    expect(new Set(employee.lines.map((l) => l.rule))).toEqual(
      new Set([null, "DAILY_OVERTIME", "DAILY_DOUBLE_TIME", "WEEKLY_OVERTIME", "MEAL_BREAK"]),
    );
    expect(projected.totals.laborCost).toBe(employee.grossPay);
    expect(projected.totals).toMatchObject({
      regularMinutes: pay.body.totals.regularMinutes,
      overtimeMinutes: pay.body.totals.overtimeMinutes,
      doubleTimeMinutes: pay.body.totals.doubleTimeMinutes,
      penaltyHours: pay.body.totals.penaltyHours,
    });
    const cents = centsByDate(employee.lines);
    for (const d of projected.dates) expect(Math.round(d.laborCost * 100), d.date).toBe(cents.get(d.date) ?? 0);

    // Once worked, the shifts stand for the entries: the same figures, nothing counted twice.
    expect((await costOf(w, range)).totals).toEqual(projected.totals);
  });

  it("counts drafts only with includeDrafts=true", async () => {
    const { w, cook } = await californiaWorkplace();
    const MON = futureMonday();
    await entry(w, { date: MON, start: "09:00", minutes: 240, roleId: cook.id });
    await entry(w, { date: addDays(MON, 1), start: "09:00", minutes: 120, roleId: cook.id }, true);
    const range = { startDate: MON, endDate: addDays(MON, 1) };
    const published = await costOf(w, range);
    expect(published.includeDrafts).toBe(false);
    expect(published.totals).toMatchObject({ scheduledMinutes: 240, laborCost: 80 });
    const all = await costOf(w, { ...range, includeDrafts: "true" });
    expect(all.includeDrafts).toBe(true);
    expect(all.totals).toMatchObject({ scheduledMinutes: 360, laborCost: 120 });
    expect(all.dates[1]).toMatchObject({ scheduledMinutes: 120, laborCost: 40 });
  });

  it("reads sales from FORECAST SALES intervals per local date: laborPercent, salesPerLaborHour and the targets", async () => {
    const { w, cook } = await californiaWorkplace();
    const MON = futureMonday();
    await entry(w, { date: MON, start: "09:00", minutes: 240, roleId: cook.id }); // $80, 4 h
    await entry(w, { date: addDays(MON, 1), start: "09:00", minutes: 240, roleId: cook.id });
    const demand = (kind: string, metric: string, start: string, values: number[]) =>
      api("PUT", `${base(w)}/demand`, {
        token: w.org.adminToken,
        body: {
          metric,
          kind,
          intervals: values.map((value, i) => ({ start: new Date(Date.parse(start) + i * 900_000).toISOString(), value })),
        },
      });
    // 23:45 local on Monday is 07:45Z on Tuesday (PST, -8): it is Monday's.
    expect((await demand("FORECAST", "SALES", `${addDays(MON, 1)}T07:15:00Z`, [100, 100, 200])).status).toBe(200);
    expect((await demand("FORECAST", "SALES", `${addDays(MON, 1)}T18:00:00Z`, [150, 250])).status).toBe(200);
    expect((await demand("ACTUAL", "SALES", `${addDays(MON, 1)}T18:00:00Z`, [9999])).status).toBe(200);
    expect((await demand("FORECAST", "TRANSACTIONS", `${addDays(MON, 1)}T18:00:00Z`, [9999])).status).toBe(200);
    const targets = await api("PUT", `${base(w)}/labor-targets`, {
      token: w.org.adminToken,
      body: { laborPercent: 25, salesPerLaborHour: 80 },
    });
    expect(targets.status).toBe(200);

    const res = await costOf(w, { startDate: MON, endDate: addDays(MON, 2) });
    expect(res.targets).toEqual({ laborPercent: 25, salesPerLaborHour: 80 });
    expect(res.dates[0]).toMatchObject({ sales: 400, laborCost: 80, laborPercent: 20, salesPerLaborHour: 100, overTarget: false });
    expect(res.dates[1]).toMatchObject({ sales: 400, laborCost: 80, laborPercent: 20, salesPerLaborHour: 100, overTarget: false });
    expect(res.dates[2]).toMatchObject({ sales: null, laborPercent: null, salesPerLaborHour: null, overTarget: null });
    expect(res.totals).toMatchObject({ sales: 800, laborCost: 160, laborPercent: 20, salesPerLaborHour: 100, overTarget: false });

    await api("PUT", `${base(w)}/labor-targets`, { token: w.org.adminToken, body: { laborPercent: 15, salesPerLaborHour: 80 } });
    expect((await costOf(w, { startDate: MON, endDate: MON })).dates[0]).toMatchObject({ overTarget: true });
  });

  it("counts hours at the staff member's other locations toward overtime, and reports only this location's lines", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const other = await createLocation(w.org, { timezone: "UTC" });
    await api("PATCH", `/api/organizations/${w.org.id}/staffmembers/${w.staff.id}`, {
      token: w.org.adminToken,
      body: { locationIds: [w.location.id, other.id] },
    });
    const role = await createRole(w, 30, "Server");
    await createRuleSet(w.org, { preset: "FLSA" });
    const MON = futureMonday();
    for (let i = 0; i < 5; i++)
      await entry(w, { date: addDays(MON, i), start: "09:00", minutes: 480, roleId: role.id, locationId: other.id });
    await entry(w, { date: addDays(MON, 5), start: "09:00", minutes: 480, roleId: role.id });
    const here = await costOf(w, { startDate: MON, endDate: addDays(MON, 6) });
    expect(here.totals).toMatchObject({ scheduledMinutes: 480, regularMinutes: 0, overtimeMinutes: 480, laborCost: 360 });
    expect(here.dates[5]).toMatchObject({ overtimeMinutes: 480, laborCost: 360 });
    const there = await costOf(w, { startDate: MON, endDate: addDays(MON, 6) }, other.id);
    expect(there.totals).toMatchObject({ scheduledMinutes: 2400, regularMinutes: 2400, overtimeMinutes: 0, laborCost: 1200 });
  });

  it("counts worked shifts as worked and entries that ended without a shift as nothing", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const role = await createRole(w, 20, "Porter");
    const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
    await entry(w, { date: ago(3), start: "09:00", minutes: 480, roleId: role.id }); // a no-show
    await entry(w, { date: ago(2), start: "09:00", minutes: 480, roleId: role.id });
    const worked = await api("POST", "/api/timesheets", {
      token: w.org.adminToken,
      body: {
        employeeId: w.staff.id,
        locationId: w.location.id,
        roleId: role.id,
        startTime: at(ago(2), "09:00"),
        endTime: at(ago(2), "15:00"),
      },
    });
    expect(worked.status, worked.text).toBe(201);
    const res = await costOf(w, { startDate: ago(3), endDate: ago(2) });
    expect(res.dates.map((d) => [d.scheduledMinutes, d.laborCost])).toEqual([
      [0, 0],
      [360, 120],
    ]);
  });

  it("an open shift stands for the entry it covers and is counted to the entry's planned end", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const role = await createRole(w, 20, "Host");
    await api("PATCH", `/api/organizations/${w.org.id}/staffmembers/${w.staff.id}`, {
      token: w.org.adminToken,
      body: { roleIds: [role.id] },
    });
    // Started 2 h ago, ends 2 h from now.
    const hour = 3_600_000;
    const start = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 2 * hour);
    const wire = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");
    const res = await api("POST", `${base(w)}/schedules`, {
      token: w.org.adminToken,
      body: { employeeId: w.staff.id, roleId: role.id, startTime: wire(start.getTime()), endTime: wire(start.getTime() + 4 * hour) },
    });
    expect(res.status, res.text).toBe(201);
    const date = wire(start.getTime()).slice(0, 10);
    const range = { startDate: date, endDate: addDays(date, 1) };
    // Under way without a clock-in: it still counts whole.
    expect((await costOf(w, range)).totals).toMatchObject({ scheduledMinutes: 240, laborCost: 80 });
    const clockIn = await punch(w, "clock-in", { roleId: role.id });
    expect(clockIn.status, clockIn.text).toBe(200);
    // Clocked in 2 h late: from the clock-in to the entry's planned end, about 120 minutes, the entry no longer counted.
    const now = (await costOf(w, range)).totals;
    expect(now.scheduledMinutes).toBeGreaterThanOrEqual(119);
    expect(now.scheduledMinutes).toBeLessThanOrEqual(120);
  });

  it("refuses bad ranges (400 naming the field), an unknown location (404), a token without SCHEDULE_READ (403)", async () => {
    const w = await createWorkplace();
    expectInvalid(await cost(w, { startDate: "2026-02-30", endDate: "2026-03-01" }), ["startDate"]);
    expectInvalid(await cost(w, { startDate: "2026-03-01" }), ["endDate"]);
    expectInvalid(await cost(w, { startDate: "2026-03-10", endDate: "2026-03-09" }), ["endDate"]);
    expectInvalid(await cost(w, { startDate: "2026-03-01", endDate: "2026-04-01" }), ["endDate"]);
    expectInvalid(await cost(w, { startDate: "2026-03-01", endDate: "2026-03-02", includeDrafts: "yes" }), ["includeDrafts"]);
    expect((await cost(w, { startDate: "2026-03-01", endDate: "2026-03-31" })).status).toBe(200);

    const missing = await cost(w, { startDate: "2026-03-01", endDate: "2026-03-02" }, w.org.adminToken, "no-such-location");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("LOCATION_NOT_FOUND");
    const stranger = await createOrganization();
    const elsewhere = await createLocation(stranger, {});
    const foreign = await cost(w, { startDate: "2026-03-01", endDate: "2026-03-02" }, w.org.adminToken, elsewhere.id);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe("LOCATION_NOT_FOUND");
    const otherOrg = await api(
      "GET",
      `/api/organizations/${stranger.id}/locations/${elsewhere.id}/schedules/cost?startDate=2026-03-01&endDate=2026-03-02`,
      {
        token: w.org.adminToken,
      },
    );
    expect(otherOrg.status).toBe(404);

    expect((await cost(w, { startDate: "2026-03-01", endDate: "2026-03-02" }, w.token)).status).toBe(403);
    const reader = await staffWithPermissions(w, ["SCHEDULE_READ"]);
    expect((await cost(w, { startDate: "2026-03-01", endDate: "2026-03-02" }, reader.token)).status).toBe(200);
    const unauthenticated = await api("GET", `${base(w)}/schedules/cost?startDate=2026-03-01&endDate=2026-03-02`, {});
    expect(unauthenticated.status).toBe(401);
    await createStaffMember(w.org, {});
  });

  it("reads a 200-staff location's week in two round trips, within D1's limits", async () => {
    const STAFF = 200;
    const w = await createWorkplace({ timezone: "UTC" });
    const role = await createRole(w, 20, "Crew");
    await createRuleSet(w.org, { preset: "CALIFORNIA" });
    const MON = futureMonday();
    const db = shardBinding(env, await shardOf(w.org.id));
    await copyRows(db, "staff_members", w.staff.id, STAFF - 1, { id: copyId(w.staff.id), external_id: "NULL" });
    for (let i = 0; i < 5; i++) {
      const planned = await entry(w, { date: addDays(MON, i), start: "09:00", minutes: 600, roleId: role.id });
      await copyRows(db, "schedule_entries", planned.id, STAFF - 1, { id: copyId(planned.id), employee_id: copyId(w.staff.id) });
    }
    const path = `${base(w)}/schedules/cost?startDate=${MON}&endDate=${addDays(MON, 6)}`;
    const res = await recordingRequest("GET", path, { token: w.org.adminToken });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The location, then every read of the projection in one batch.
    expect(res.trips).toHaveLength(2);
    expect(res.body.totals).toMatchObject({
      scheduledMinutes: STAFF * 5 * 600,
      regularMinutes: STAFF * 5 * 480,
      overtimeMinutes: STAFF * 5 * 120,
      penaltyHours: STAFF * 5, // 10 hours without a meal: a penalty hour a day
      laborCost: STAFF * 5 * (160 + 60 + 20),
    });
  });
});
