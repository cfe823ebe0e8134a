import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { unique } from "../../helpers/fixtures";
import { createLocation } from "../../helpers/locations";
import { createRuleSet, payLines, WEEK } from "../../helpers/pay";
import { addWorker, createEntry, createSchedulePlace } from "../../helpers/schedules";
import { createStaffMember, staffToken } from "../../helpers/staff";
import { createRequest, createTimeOffPlace, requestBody, setBalance } from "../../helpers/time-off";
import { createManual, createRole } from "../../helpers/timesheets";
import { accessToken } from "../../helpers/tokens";
import { createWorkplace, type Workplace } from "../../helpers/workplace";

type Row = Record<string, unknown> & { laborCost: number };

const laborCost = (w: Pick<Workplace, "org">, query: Record<string, string>, token = w.org.adminToken) =>
  api("GET", `/api/timesheets/labor-cost?${new URLSearchParams(query)}`, { token });

/** A cost code of the organization assigned to everyone. */
async function costCode(w: Workplace) {
  const path = `/api/organizations/${w.org.id}/cost-codes`;
  const created = await api("POST", path, { token: w.org.adminToken, body: { code: unique("C"), name: "Code" } });
  if (created.status !== 201) throw new Error(`cost code: ${created.status} ${created.text}`);
  const put = await api("PUT", `${path}/${created.body.id}/assignments`, { token: w.org.adminToken, body: { all: true } });
  if (put.status !== 200) throw new Error(`assignment: ${put.status} ${put.text}`);
  return created.body.id as string;
}

const shift = (w: Workplace, date: string, from: string, to: string, body: Record<string, unknown> = {}) =>
  createManual(w, { startTime: `${date}T${from}:00Z`, endTime: `${date}T${to}:00Z`, hourlyWage: 20, ...body });

/**
 * A California worker (daily overtime past 8 h, a meal penalty past 5 h without a meal): Monday 08:00–13:00 on code
 * A, switched to code B 13:00–18:00 (10 h: B's last 2 h are daily overtime, and the day passed 5 h during B's shift);
 * Tuesday 8 h on A (a meal penalty on A).
 */
async function switchedDay() {
  const w = await createWorkplace();
  await createRuleSet(w.org, { name: "California", preset: "CALIFORNIA" });
  const a = await costCode(w);
  const b = await costCode(w);
  await shift(w, WEEK[0], "08:00", "13:00", { costCodeId: a });
  await shift(w, WEEK[0], "13:00", "18:00", { costCodeId: b });
  await shift(w, WEEK[1], "08:00", "16:00", { costCodeId: a });
  return { w, a, b };
}

const week = { startDate: WEEK[0], endDate: WEEK[6] };
const cents = (rows: Row[]) => rows.reduce((sum, r) => sum + Math.round(r.laborCost * 100), 0);

describe("GET /api/timesheets/labor-cost", () => {
  it("charges the overtime of a day switched between two cost codes to the code whose minutes became overtime", async () => {
    const { w, a, b } = await switchedDay();
    const res = await laborCost(w, { ...week, groupBy: "costCode" });
    expect(res.status).toBe(200);
    expect(res.body.groupBy).toEqual(["costCode"]);
    const rows = [...(res.body.rows as Row[])].sort((x, y) => (x.costCodeId === a ? -1 : y.costCodeId === a ? 1 : 0));
    expect(rows).toEqual([
      // 300 + 480 regular at $20 = 260, Tuesday's meal penalty 1 h at the regular rate 20.
      {
        costCodeId: a,
        regularMinutes: 780,
        overtimeMinutes: 0,
        doubleTimeMinutes: 0,
        penaltyHours: 1,
        timeOffHours: 0,
        premiumAmount: 20,
        laborCost: 280,
      },
      // 180 regular (60) + 120 daily overtime at 30 (60) + Monday's meal penalty (20).
      {
        costCodeId: b,
        regularMinutes: 180,
        overtimeMinutes: 120,
        doubleTimeMinutes: 0,
        penaltyHours: 1,
        timeOffHours: 0,
        premiumAmount: 20,
        laborCost: 140,
      },
    ]);
    expect(res.body.totals).toEqual({
      regularMinutes: 960,
      overtimeMinutes: 120,
      doubleTimeMinutes: 0,
      penaltyHours: 2,
      timeOffHours: 0,
      premiumAmount: 40,
      laborCost: 420,
    });
    const pay = await payLines(w, week);
    expect(pay.body.totals.grossPay).toBe(420);
  });

  it("groups by date, location, role and employee, alone or together; no groupBy is one row", async () => {
    const { w, a, b } = await switchedDay();
    const byDate = await laborCost(w, { ...week, groupBy: "date" });
    expect(byDate.body.rows.map((r: Row) => [r.date, r.laborCost, Object.keys(r).length])).toEqual([
      [WEEK[0], 240, 8],
      [WEEK[1], 180, 8],
    ]);
    const byLocation = await laborCost(w, { ...week, groupBy: "location" });
    expect(byLocation.body.rows).toEqual([expect.objectContaining({ locationId: w.location.id, laborCost: 420 })]);
    const byRole = await laborCost(w, { ...week, groupBy: "role" });
    expect(byRole.body.rows).toEqual([expect.objectContaining({ roleId: w.roleId, laborCost: 420 })]);
    const byEmployee = await laborCost(w, { ...week, groupBy: "employee" });
    expect(byEmployee.body.rows).toEqual([expect.objectContaining({ employeeId: w.staff.id, laborCost: 420 })]);
    const together = await laborCost(w, { ...week, groupBy: "date,costCode,employee" });
    expect(together.body.rows.map((r: Row) => [r.date, r.costCodeId, r.employeeId, r.overtimeMinutes, r.laborCost])).toEqual(
      [
        [WEEK[0], a, w.staff.id, 0, 100],
        [WEEK[0], b, w.staff.id, 120, 140],
        [WEEK[1], a, w.staff.id, 0, 180],
      ].sort((x, y) => (x[0] === y[0] ? String(x[1]).localeCompare(String(y[1])) : String(x[0]).localeCompare(String(y[0])))),
    );
    const none = await laborCost(w, week);
    expect(none.body.rows).toEqual([none.body.totals]);
    expect(none.body.totals.laborCost).toBe(420);
  });

  it("a shift at another location or in another role is charged there; paid time off is a row with null keys", async () => {
    const place = await createTimeOffPlace({ requiresApproval: false });
    await setBalance(place, 40);
    const location = await createLocation(place.org, { timezone: "UTC" });
    const w: Workplace = {
      org: place.org,
      location,
      staff: place.worker,
      token: place.workerToken,
      roleId: place.org.defaultRoleId,
      punchPath: "",
    };
    const role = await createRole(w, 30);
    // Time off is requested ahead: a week to come (2027-06-07 is a Monday).
    const later = { startDate: "2027-06-07", endDate: "2027-06-13" };
    await shift(w, later.startDate, "08:00", "12:00");
    await shift(w, later.startDate, "12:30", "14:30", { roleId: role.id, hourlyWage: 30 });
    const away = await createRequest(place, requestBody(place, "2027-06-09", 8));
    expect(away.status, away.text).toBe(201);
    const res = await laborCost(w, { ...later, groupBy: "location,role" });
    expect(res.status).toBe(200);
    const rows = res.body.rows as Row[];
    expect(rows.at(-1)).toMatchObject({ locationId: null, roleId: null, timeOffHours: 8, regularMinutes: 0 });
    expect(rows.slice(0, -1).map((r) => [r.locationId, r.roleId, r.regularMinutes])).toEqual(
      [
        [location.id, w.roleId, 240],
        [location.id, role.id, 120],
      ].sort((x, y) => String(x[1]).localeCompare(String(y[1]))),
    );
    const pay = await payLines(w, later);
    expect(res.body.totals.laborCost).toBe(pay.body.totals.grossPay);
    expect(cents(rows)).toBe(Math.round(pay.body.totals.grossPay * 100));
  });

  it("employeeId and locationId filter as pay lines do; a staff member sees only their own (another is 403)", async () => {
    const { w } = await switchedDay();
    const colleague = await createStaffMember(w.org, { locationIds: [w.location.id] });
    const elsewhere = await createLocation(w.org);
    await shift({ ...w, staff: colleague, location: elsewhere }, WEEK[2], "09:00", "13:00");
    const all = await laborCost(w, { ...week, groupBy: "employee" });
    expect(all.body.rows.map((r: Row) => r.employeeId).sort()).toEqual([w.staff.id, colleague.id].sort());
    expect(all.body.totals.laborCost).toBe(500);
    const one = await laborCost(w, { ...week, employeeId: colleague.id });
    expect(one.body.totals.laborCost).toBe(80);
    const there = await laborCost(w, { ...week, locationId: elsewhere.id, groupBy: "location" });
    expect(there.body.rows).toEqual([expect.objectContaining({ locationId: elsewhere.id, laborCost: 80 })]);
    const own = await laborCost(w, week, w.token);
    expect(own.status).toBe(200);
    expect(own.body.totals.laborCost).toBe(420);
    const other = await laborCost(w, { ...week, employeeId: colleague.id }, w.token);
    expect(other.status).toBe(403);
    const manager = await createStaffMember(w.org, { accessRoleName: "Manager" });
    expect((await laborCost(w, week, await staffToken(w.org, manager.id))).body.totals.laborCost).toBe(500);
  });

  it("charges Fair Workweek premiums to the location of the entry that earned them, with and without locationId", async () => {
    const p = await createSchedulePlace("UTC");
    expect((await api("PUT", `${p.base}/fair-workweek`, { token: p.org.adminToken, body: { rulePack: "SEATTLE" } })).status).toBe(200);
    const worker = await addWorker(p);
    for (const id of [p.staff.id, worker.id]) {
      const wage = await api("PATCH", `/api/organizations/${p.org.id}/staffmembers/${id}`, {
        token: p.org.adminToken,
        body: { hourlyWage: 20 },
      });
      expect(wage.status, wage.text).toBe(200);
    }
    const day = (offset: number, time: string) => {
      const d = new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
      return `${d}T${time}:00Z`;
    };
    // Published with 3 days' notice (Seattle, SMC 14.22.050): ADDED, 1 h at the regular rate. Worked as scheduled.
    const times = { startTime: day(3, "09:00"), endTime: day(3, "17:00") };
    await createEntry(p, times);
    const worked = await api("POST", "/api/timesheets", {
      token: p.org.adminToken,
      body: { employeeId: p.staff.id, locationId: p.location.id, roleId: p.roleId, hourlyWage: 20, ...times },
    });
    expect(worked.status, worked.text).toBe(201);
    // The second worker's entry is added (1 h) then cancelled (half its 8 h: 4 h); nothing is worked that week, so
    // both are paid at the wage, $20.
    const cancelled = await createEntry(p, { employeeId: worker.id, startTime: day(4, "09:00"), endTime: day(4, "17:00") });
    expect((await api("DELETE", `${p.base}/schedules/${cancelled.id}`, { token: p.org.adminToken })).status).toBe(200);
    const range = { startDate: day(0, "00:00").slice(0, 10), endDate: day(6, "00:00").slice(0, 10) };
    // Worker one: 8 h × $20 = $160 + 1 h × $20 = $20 → $180; worker two: (1 + 4) h × $20 = $100; all at the location.
    const byLocation = await laborCost(p, { ...range, groupBy: "location" });
    expect(byLocation.status, byLocation.text).toBe(200);
    expect(byLocation.body.rows).toEqual([
      expect.objectContaining({ locationId: p.location.id, regularMinutes: 480, premiumAmount: 120, laborCost: 280 }),
    ]);
    const there = await laborCost(p, { ...range, locationId: p.location.id, groupBy: "location,employee" });
    expect(there.status, there.text).toBe(200);
    expect(there.body.totals).toMatchObject({ premiumAmount: 120, laborCost: 280 });
    expect(there.body.rows.find((r: Row) => r.employeeId === worker.id)).toMatchObject({
      locationId: p.location.id,
      premiumAmount: 100,
      laborCost: 100,
    });
  });

  it("an unknown groupBy key, a bad date, a reversed range or one over 93 days is 400 naming the field; nothing read", async () => {
    const { w } = await switchedDay();
    for (const [query, path] of [
      [{ ...week, groupBy: "date,shift" }, "groupBy"],
      [{ ...week, groupBy: "Date" }, "groupBy"],
      [{ startDate: "2026-02-30", endDate: WEEK[0] }, "startDate"],
      [{ startDate: WEEK[6], endDate: WEEK[0] }, "endDate"],
      [{ startDate: "2026-01-01", endDate: "2026-04-30" }, "endDate"],
      [{ startDate: WEEK[0] }, "endDate"],
    ] as const) {
      const res = await laborCost(w, query as Record<string, string>);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.headers.get("Content-Type")).toContain("application/problem+json");
      expect(res.body.code).toBe("VALIDATION_FAILED");
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    }
  });

  it("a partner token names its organization (unknown: 404); another organization's token is 404; none is 401", async () => {
    const { w } = await switchedDay();
    const partner = await accessToken({});
    expect((await laborCost(w, week, partner)).status).toBe(400);
    const named = await laborCost(w, { ...week, organizationId: w.org.id }, partner);
    expect(named.status).toBe(200);
    expect(named.body.totals.laborCost).toBe(420);
    const unknown = await laborCost(w, { ...week, organizationId: "nope" }, partner);
    expect(unknown.status).toBe(404);
    const other = await createWorkplace();
    expect((await laborCost(other, { ...week, organizationId: w.org.id })).status).toBe(404);
    const own = await laborCost(other, week);
    expect(own.body.totals.laborCost).toBe(0);
    expect((await api("GET", `/api/timesheets/labor-cost?startDate=${WEEK[0]}&endDate=${WEEK[6]}`)).status).toBe(401);
  });
});
