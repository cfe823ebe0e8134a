import { describe, expect, it } from "vitest";
import { addDays } from "@/domain/local-time";
import { api } from "../../helpers/api";
import { createOrganization } from "../../helpers/fixtures";
import { closePeriod, createRuleSet, feed, payLines, workDay } from "../../helpers/pay";
import { expectInvalid } from "../../helpers/problems";
import { tenantDb } from "../../helpers/shards";
import { createStaffMember } from "../../helpers/staff";
import { createManual, createRole, staffWithPermissions } from "../../helpers/timesheets";
import { clockIn, createWorkplace, type Workplace } from "../../helpers/workplace";

const ratesPath = (w: Workplace, suffix = "") => `/api/organizations/${w.org.id}/wage-rates${suffix}`;

const postRate = (w: Workplace, body: Record<string, unknown>, token = w.org.adminToken) =>
  api("POST", ratesPath(w), { token, body: { employeeId: w.staff.id, hourlyRate: 21, effectiveFrom: "2026-01-01", ...body } });

async function createRate(w: Workplace, body: Record<string, unknown> = {}) {
  const res = await postRate(w, body);
  if (res.status !== 201) throw new Error(`wage rate: ${res.status} ${res.text}`);
  return res.body as { id: string; hourlyRate: number; effectiveFrom: string };
}

const rateCount = async (w: Workplace) =>
  ((await tenantDb().prepare("SELECT COUNT(*) AS n FROM wage_rates WHERE organization_id = ?").bind(w.org.id).first()) as { n: number }).n;

const today = () => new Date().toISOString().slice(0, 10);

describe("wage rates: CRUD", () => {
  it("POST creates (201), GET reads, list filters by employeeId, PATCH updates, DELETE soft-deletes; each records its event", async () => {
    const w = await createWorkplace();
    const role = await createRole(w, 18);
    const created = await postRate(w, { roleId: role.id, locationId: w.location.id, hourlyRate: 22.5, effectiveFrom: "2026-04-01" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      employeeId: w.staff.id,
      roleId: role.id,
      locationId: w.location.id,
      hourlyRate: 22.5,
      effectiveFrom: "2026-04-01",
      active: true,
      deletedAt: null,
    });
    const path = ratesPath(w, `/${created.body.id}`);
    const admin = { token: w.org.adminToken };
    expect((await api("GET", path, admin)).body).toEqual(created.body);
    const other = await createStaffMember(w.org);
    await createRate({ ...w, staff: other });
    const listed = await api("GET", ratesPath(w, `?employeeId=${w.staff.id}`), admin);
    expect(listed.body.map((r: { id: string }) => r.id)).toEqual([created.body.id]);

    const patched = await api("PATCH", path, { ...admin, body: { hourlyRate: 23 } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ hourlyRate: 23, effectiveFrom: "2026-04-01", roleId: role.id });
    const removed = await api("DELETE", path, admin);
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ active: false });
    expect((await api("GET", path, admin)).body.code).toBe("WAGE_RATE_NOT_FOUND");

    const events = (await feed(w.org)).filter((e) => e.type.startsWith("wage_rate.") && e.data.id === created.body.id);
    expect(events.map((e) => e.type)).toEqual(["wage_rate.created", "wage_rate.updated", "wage_rate.deleted"]);
    expect(events[1]!.data).toMatchObject({ hourlyRate: 23 });
  });

  it("(employee, role, location, effectiveFrom) is unique, a null role or location counting as a value: 409 WAGE_RATE_TAKEN", async () => {
    const w = await createWorkplace();
    await createRate(w);
    const again = await postRate(w, { hourlyRate: 30 });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("WAGE_RATE_TAKEN");
    expect(await rateCount(w)).toBe(1);
    // Another location, or another date, is another rate.
    expect((await postRate(w, { locationId: w.location.id })).status).toBe(201);
    expect((await postRate(w, { effectiveFrom: "2026-01-02" })).status).toBe(201);
  });

  it("bad input is a 400 naming each field and writes nothing", async () => {
    const w = await createWorkplace();
    const res = await api("POST", ratesPath(w), { token: w.org.adminToken, body: { hourlyRate: -1, effectiveFrom: "2026-02-30" } });
    expectInvalid(res, ["effectiveFrom", "employeeId", "hourlyRate"]);
    const rate = await createRate(w);
    expectInvalid(await api("PATCH", ratesPath(w, `/${rate.id}`), { token: w.org.adminToken, body: { effectiveFrom: "01/02/2026" } }), [
      "effectiveFrom",
    ]);
    expectInvalid(await api("GET", ratesPath(w, `/resolve?employeeId=${w.staff.id}&date=tomorrow`), { token: w.org.adminToken }), ["date"]);
    expect(await rateCount(w)).toBe(1);
  });

  it("404s: an unknown staff member, role or location; an unknown rate", async () => {
    const w = await createWorkplace();
    expect((await postRate(w, { employeeId: "nope" })).body.code).toBe("STAFF_MEMBER_NOT_FOUND");
    expect((await postRate(w, { roleId: "nope" })).body.code).toBe("ROLE_NOT_FOUND");
    expect((await postRate(w, { locationId: "nope" })).body.code).toBe("LOCATION_NOT_FOUND");
    for (const method of ["GET", "PATCH", "DELETE"]) {
      const res = await api(method, ratesPath(w, "/nope"), {
        token: w.org.adminToken,
        body: method === "PATCH" ? { hourlyRate: 1 } : undefined,
      });
      expect(res.status, method).toBe(404);
      expect(res.body.code, method).toBe("WAGE_RATE_NOT_FOUND");
    }
    expect(await rateCount(w)).toBe(0);
  });
});

describe("wage rates: who may", () => {
  it("a staff member reads and resolves only their own rates, and writes none (403)", async () => {
    const w = await createWorkplace();
    const mine = await createRate(w);
    const colleague = await createStaffMember(w.org, { locationIds: [w.location.id] });
    const theirs = await createRate({ ...w, staff: colleague });
    const me = { token: w.token };
    expect((await api("GET", ratesPath(w), me)).body.map((r: { id: string }) => r.id)).toEqual([mine.id]);
    expect((await api("GET", ratesPath(w, `?employeeId=${colleague.id}`), me)).body).toEqual([]);
    expect((await api("GET", ratesPath(w, `/${mine.id}`), me)).status).toBe(200);
    expect((await api("GET", ratesPath(w, `/${theirs.id}`), me)).status).toBe(404);
    expect((await api("GET", ratesPath(w, `/resolve?employeeId=${w.staff.id}&date=2026-02-01`), me)).body.hourlyRate).toBe(21);
    expect((await api("GET", ratesPath(w, `/resolve?employeeId=${colleague.id}&date=2026-02-01`), me)).status).toBe(403);
    expect((await postRate(w, { effectiveFrom: "2026-05-01" }, w.token)).status).toBe(403);
    expect((await api("PATCH", ratesPath(w, `/${mine.id}`), { ...me, body: { hourlyRate: 99 } })).status).toBe(403);
    expect((await api("DELETE", ratesPath(w, `/${mine.id}`), me)).status).toBe(403);
    // EMPLOYEE_WRITE writes others' rates.
    const manager = await staffWithPermissions(w, ["EMPLOYEE_WRITE"]);
    expect((await postRate(w, { effectiveFrom: "2026-05-01" }, manager.token)).status).toBe(201);
    expect(await rateCount(w)).toBe(3);
  });

  it("another organization's rate is 404 to this one's admin, and its staff member cannot be named", async () => {
    const w = await createWorkplace();
    const rate = await createRate(w);
    const other = await createOrganization();
    const path = `/api/organizations/${other.id}/wage-rates`;
    expect((await api("GET", `${path}/${rate.id}`, { token: other.adminToken })).status).toBe(404);
    expect((await api("DELETE", `${path}/${rate.id}`, { token: other.adminToken })).status).toBe(404);
    const res = await api("POST", path, {
      token: other.adminToken,
      body: { employeeId: w.staff.id, hourlyRate: 5, effectiveFrom: "2026-01-01" },
    });
    expect(res.body.code).toBe("STAFF_MEMBER_NOT_FOUND");
    expect((await api("GET", ratesPath(w, `/${rate.id}`), { token: other.adminToken })).status).toBe(404);
    expect((await api("GET", ratesPath(w, `/${rate.id}`), { token: w.org.adminToken })).body.hourlyRate).toBe(21);
  });
});

describe("wage rates: resolving a shift's rate", () => {
  it("resolve explains the choice: the most specific newest rate effective that day, else the role's, else the staff member's", async () => {
    const w = await createWorkplace();
    const role = await createRole(w, 18);
    const plain = await createRole(w, 0, "No wage");
    await api("PATCH", `/api/organizations/${w.org.id}/roles/${plain.id}`, { token: w.org.adminToken, body: { hourlyWage: null } });
    await api("PATCH", `/api/organizations/${w.org.id}/staffmembers/${w.staff.id}`, { token: w.org.adminToken, body: { hourlyWage: 15 } });
    const general = await createRate(w, { hourlyRate: 19, effectiveFrom: "2026-03-01" });
    const specific = await createRate(w, { roleId: role.id, locationId: w.location.id, hourlyRate: 25, effectiveFrom: "2026-03-01" });
    const resolve = async (query: string) =>
      (await api("GET", ratesPath(w, `/resolve?employeeId=${w.staff.id}&${query}`), { token: w.org.adminToken })).body;
    expect(await resolve(`roleId=${role.id}&locationId=${w.location.id}&date=2026-03-01`)).toEqual({
      hourlyRate: 25,
      wageRateId: specific.id,
      source: "WAGE_RATE",
    });
    expect(await resolve(`roleId=${role.id}&date=2026-03-02`)).toEqual({ hourlyRate: 19, wageRateId: general.id, source: "WAGE_RATE" });
    expect(await resolve(`roleId=${role.id}&locationId=${w.location.id}&date=2026-02-28`)).toEqual({
      hourlyRate: 18,
      wageRateId: null,
      source: "ROLE",
    });
    expect(await resolve(`roleId=${plain.id}&date=2026-02-28`)).toEqual({ hourlyRate: 15, wageRateId: null, source: "STAFF_MEMBER" });
  });

  it("clock-in records the rate effective on the shift's date; a future-dated raise waits for its date; a retroactive one re-rates it", async () => {
    const w = await createWorkplace();
    const current = await createRate(w, { roleId: w.roleId, hourlyRate: 24, effectiveFrom: addDays(today(), -2) });
    await createRate(w, { roleId: w.roleId, hourlyRate: 30, effectiveFrom: addDays(today(), 2) });
    const opened = await clockIn(w);
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ hourlyWage: 24, wageRateId: current.id });
    // A more specific rate effective by the shift's date re-rates it (issue 44: retroactive rates are paid).
    const specific = await createRate(w, {
      roleId: w.roleId,
      locationId: w.location.id,
      hourlyRate: 40,
      effectiveFrom: addDays(today(), -1),
    });
    const read = await api("GET", `/api/timesheets/${opened.body.id}`, { token: w.org.adminToken });
    expect(read.body).toMatchObject({ hourlyWage: 40, wageRateId: specific.id });
  });

  it("a manual shift records the rate of its start date; a set hourlyWage wins; a salaried member's shift carries none", async () => {
    const w = await createWorkplace();
    const role = await createRole(w, 18);
    const rate = await createRate(w, { roleId: role.id, hourlyRate: 26, effectiveFrom: "2026-06-02" });
    const day = (date: string) => ({ startTime: `${date}T09:00:00Z`, endTime: `${date}T17:00:00Z`, roleId: role.id });
    expect(await createManual(w, day("2026-06-02"))).toMatchObject({ hourlyWage: 26, wageRateId: rate.id });
    expect(await createManual(w, day("2026-06-01"))).toMatchObject({ hourlyWage: 18, wageRateId: null });
    expect(await createManual(w, { ...day("2026-06-03"), hourlyWage: 12 })).toMatchObject({ hourlyWage: 12, wageRateId: null });
    // A manager's change of role re-resolves the rate for the new role on the shift's date.
    const other = await createRole(w, 17, "Other");
    const otherRate = await createRate(w, { roleId: other.id, hourlyRate: 28, effectiveFrom: "2026-06-01" });
    const moved = await createManual(w, day("2026-06-05"));
    const patched = await api("PATCH", `/api/timesheets/${moved.id}`, { token: w.org.adminToken, body: { roleId: other.id } });
    expect(patched.body).toMatchObject({ roleId: other.id, hourlyWage: 28, wageRateId: otherRate.id });
    const salaried = await createStaffMember(w.org, { locationIds: [w.location.id], wageType: "salary", hourlyWage: 40 });
    await createRate({ ...w, staff: salaried }, { hourlyRate: 50, effectiveFrom: "2026-01-01" });
    expect(await createManual({ ...w, staff: salaried }, day("2026-06-04"))).toMatchObject({ hourlyWage: null, wageRateId: null });
  });
});

describe("wage rates: pay", () => {
  it("pay lines pay each shift at the rate it recorded: a raise from the second day pays that day more", async () => {
    const w = await createWorkplace();
    const role = await createRole(w, 18);
    await createRate(w, { roleId: role.id, hourlyRate: 20, effectiveFrom: "2026-06-01" });
    await createRate(w, { roleId: role.id, hourlyRate: 30, effectiveFrom: "2026-06-02" });
    await workDay(w, "2026-06-01", 4, { roleId: role.id, hourlyWage: undefined });
    await workDay(w, "2026-06-02", 4, { roleId: role.id, hourlyWage: undefined });
    const res = await payLines(w, { startDate: "2026-06-01", endDate: "2026-06-02" });
    expect(res.status).toBe(200);
    expect(res.body.totals).toMatchObject({ regularMinutes: 480, grossPay: 200 });
  });
});

describe("wage rates: closed pay periods", () => {
  it("a rate effective on a date a closed period froze is 409 PAY_PERIOD_CLOSED, and so is moving one there; nothing changes", async () => {
    const w = await createWorkplace();
    const PERIOD = "2026-09-14";
    await createRuleSet(w.org, { preset: "FLSA", workweekStartsOn: "Sunday" });
    await workDay(w, PERIOD, 8);
    const later = await createRate(w, { effectiveFrom: "2026-10-05" });
    const inside = await createRate(w, { effectiveFrom: "2026-09-16" });
    expect((await closePeriod(w, PERIOD, { approveAll: true })).status).toBe(200);

    const refused = {
      create: () => postRate(w, { effectiveFrom: "2026-09-15", hourlyRate: 99 }),
      moveInto: () => api("PATCH", ratesPath(w, `/${later.id}`), { token: w.org.adminToken, body: { effectiveFrom: "2026-09-20" } }),
      editFrozen: () => api("PATCH", ratesPath(w, `/${inside.id}`), { token: w.org.adminToken, body: { hourlyRate: 99 } }),
      deleteFrozen: () => api("DELETE", ratesPath(w, `/${inside.id}`), { token: w.org.adminToken }),
    };
    for (const [name, attempt] of Object.entries(refused)) {
      const res = await attempt();
      expect(res.status, name).toBe(409);
      expect(res.body, name).toMatchObject({ code: "PAY_PERIOD_CLOSED", periodId: PERIOD });
    }
    expect(await rateCount(w)).toBe(2);
    expect((await api("GET", ratesPath(w, `/${later.id}`), { token: w.org.adminToken })).body.effectiveFrom).toBe("2026-10-05");
    expect((await api("GET", ratesPath(w, `/${inside.id}`), { token: w.org.adminToken })).body.hourlyRate).toBe(21);
    expect((await feed(w.org)).filter((e) => e.type.startsWith("wage_rate."))).toHaveLength(2);
    // After the last frozen workweek is fine.
    expect((await postRate(w, { effectiveFrom: "2026-09-27" })).status).toBe(201);
  });
});
