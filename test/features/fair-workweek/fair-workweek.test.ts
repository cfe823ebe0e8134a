import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { readLocationPack } from "@/data/fair-workweek/fair-workweek.data";
import { api } from "../../helpers/api";
import { createOrganization } from "../../helpers/fixtures";
import { createLocation } from "../../helpers/locations";
import { feed } from "../../helpers/pay";
import { expectInvalid } from "../../helpers/problems";
import { tenantDb } from "../../helpers/shards";
import { createStaffMember } from "../../helpers/staff";
import { staffWithPermissions } from "../../helpers/timesheets";
import { accessToken } from "../../helpers/tokens";
import { createWorkplace, type Workplace } from "../../helpers/workplace";

const fwPath = (w: Workplace, locationId = w.location.id) => `/api/organizations/${w.org.id}/locations/${locationId}/fair-workweek`;
const gfePath = (w: Workplace, staffId = w.staff.id) => `/api/organizations/${w.org.id}/staffmembers/${staffId}/good-faith-estimate`;
const count = async (table: string, orgId: string) =>
  ((await tenantDb().prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE organization_id = ?`).bind(orgId).first()) as { n: number }).n;
const today = () => new Date().toISOString().slice(0, 10);

describe("GET /fair-workweek/rule-packs", () => {
  it("any token reads every pack's parameters and citation: an organization's admin, a staff member, a partner-level token", async () => {
    const w = await createWorkplace();
    for (const token of [w.org.adminToken, w.token, await accessToken()]) {
      const res = await api("GET", "/api/fair-workweek/rule-packs", { token });
      expect(res.status).toBe(200);
      const ids = new Set(res.body.map((p: { id: string }) => p.id));
      expect([...ids].sort()).toEqual(
        [
          "BERKELEY",
          "CHICAGO",
          "CUSTOM",
          "EMERYVILLE",
          "EVANSTON",
          "LOS_ANGELES",
          "NYC_FAST_FOOD",
          "OREGON",
          "PHILADELPHIA",
          "SAN_FRANCISCO",
          "SEATTLE",
        ].sort(),
      );
    }
    const res = await api("GET", "/api/fair-workweek/rule-packs", { token: w.org.adminToken });
    const nyc = res.body.find((p: { id: string }) => p.id === "NYC_FAST_FOOD");
    expect(nyc.description).toContain("§20-1222");
    expect(nyc.noticeDays).toBe(14);
    expect(nyc.rest).toMatchObject({ minHours: 11, premium: "FLAT", value: 100, consentRequired: true });
    expect(nyc.changePay.map((b: { premium: { amount: number } }) => b.premium.amount)).toEqual([10, 20, 15, 45, 75]);
    const seattle = res.body.find((p: { id: string }) => p.id === "SEATTLE");
    expect(seattle.rest).toMatchObject({ minHours: 10, premium: "MULTIPLIER", value: 1.5 });
    for (const id of ["EVANSTON", "BERKELEY", "EMERYVILLE"]) {
      const pack = res.body.find((p: { id: string }) => p.id === id);
      expect(pack.rest.published).toBe(false);
      expect(pack.description).toContain("not published");
    }
  });

  it("?date answers the version of each pack in effect that day (Oregon: 7 days before 2020-07-01, 14 after)", async () => {
    const w = await createWorkplace();
    const on = async (date: string) =>
      (await api("GET", `/api/fair-workweek/rule-packs?date=${date}`, { token: w.org.adminToken })).body as {
        id: string;
        noticeDays: number;
      }[];
    expect((await on("2019-01-01")).find((p) => p.id === "OREGON")?.noticeDays).toBe(7);
    expect((await on("2020-07-01")).find((p) => p.id === "OREGON")?.noticeDays).toBe(14);
    expect((await on("2016-01-01")).map((p) => p.id)).not.toContain("NYC_FAST_FOOD");
    const all = (await api("GET", "/api/fair-workweek/rule-packs", { token: w.org.adminToken })).body as { id: string }[];
    expect(all.filter((p) => p.id === "OREGON")).toHaveLength(2);
  });

  it("a date that is no calendar date is a 400 naming date; no token is a 401", async () => {
    const w = await createWorkplace();
    expectInvalid(await api("GET", "/api/fair-workweek/rule-packs?date=2026-02-30", { token: w.org.adminToken }), ["date"]);
    expect((await api("GET", "/api/fair-workweek/rule-packs")).status).toBe(401);
  });
});

describe("GET/PUT …/locations/{locationId}/fair-workweek", () => {
  it("no pack by default; PUT picks one with overrides, GET reads it back with the effective pack, the event is recorded", async () => {
    const w = await createWorkplace();
    const admin = { token: w.org.adminToken };
    const initial = await api("GET", fwPath(w), admin);
    expect(initial.status).toBe(200);
    expect(initial.body).toEqual({ locationId: w.location.id, rulePack: null, overrides: null, effective: null, updatedAt: null });

    const put = await api("PUT", fwPath(w), {
      ...admin,
      body: { rulePack: "SEATTLE", overrides: { noticeDays: 21, rest: { minHours: 12 } } },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      locationId: w.location.id,
      rulePack: "SEATTLE",
      overrides: { noticeDays: 21, rest: { minHours: 12 } },
    });
    expect(put.body.effective).toMatchObject({ id: "SEATTLE", noticeDays: 21, rest: { minHours: 12, value: 1.5, premium: "MULTIPLIER" } });
    expect((await api("GET", fwPath(w), admin)).body).toEqual(put.body);

    const pack = await readLocationPack(createDatabase(tenantDb()), w.org.id, w.location.id, today());
    expect(pack).toMatchObject({ id: "SEATTLE", noticeDays: 21, rest: { minHours: 12 } });
    expect(await readLocationPack(createDatabase(tenantDb()), w.org.id, w.location.id, "2016-01-01")).toBeNull();

    const events = (await feed(w.org)).filter((e) => e.type === "location.fair_workweek_updated");
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ locationId: w.location.id, rulePack: "SEATTLE", overrides: { noticeDays: 21 } });

    // The same setting again changes nothing and records nothing; null clears it.
    await api("PUT", fwPath(w), { ...admin, body: { rulePack: "SEATTLE", overrides: { noticeDays: 21, rest: { minHours: 12 } } } });
    expect((await feed(w.org)).filter((e) => e.type === "location.fair_workweek_updated")).toHaveLength(1);
    const cleared = await api("PUT", fwPath(w), { ...admin, body: { rulePack: null } });
    expect(cleared.body).toMatchObject({ rulePack: null, overrides: null, effective: null });
    expect((await feed(w.org)).filter((e) => e.type === "location.fair_workweek_updated")).toHaveLength(2);
    expect(await readLocationPack(createDatabase(tenantDb()), w.org.id, w.location.id, today())).toBeNull();
  });

  it("CUSTOM with overrides: bands and a rest rule of the location's own", async () => {
    const w = await createWorkplace();
    const overrides = {
      noticeDays: 10,
      changePay: [{ code: "ANY", kinds: ["ADDED"], minNoticeMinutes: 0, maxNoticeMinutes: 14400, premium: { type: "FLAT", amount: 12 } }],
      rest: { minHours: 8, premium: "FLAT", value: 25, consentRequired: true },
    };
    const put = await api("PUT", fwPath(w), { token: w.org.adminToken, body: { rulePack: "CUSTOM", overrides } });
    expect(put.status).toBe(200);
    expect(put.body.effective).toMatchObject({
      id: "CUSTOM",
      noticeDays: 10,
      changePay: overrides.changePay,
      rest: { minHours: 8, premium: "FLAT", value: 25, consentRequired: true },
    });
  });

  it("bad input is a 400 naming the field and writes nothing", async () => {
    const w = await createWorkplace();
    const admin = { token: w.org.adminToken };
    const bad: [unknown, string[]][] = [
      [{ rulePack: "ATLANTIS" }, ["rulePack"]],
      [{}, ["rulePack"]],
      [{ rulePack: "SEATTLE", overrides: { noticeDays: 0 } }, ["overrides.noticeDays"]],
      [{ rulePack: "SEATTLE", overrides: { noticDays: 3 } }, ["overrides"]],
      [{ rulePack: "SEATTLE", overrides: { rest: { minHours: -1 } } }, ["overrides.rest.minHours"]],
      [
        {
          rulePack: "CUSTOM",
          overrides: {
            changePay: [{ code: "X", kinds: ["ADDED"], minNoticeMinutes: 60, maxNoticeMinutes: 60, premium: { type: "HOURS", hours: 1 } }],
          },
        },
        ["overrides.changePay.0.maxNoticeMinutes"],
      ],
      [
        {
          rulePack: "CUSTOM",
          overrides: {
            changePay: [{ code: "X", kinds: [], minNoticeMinutes: 0, maxNoticeMinutes: 60, premium: { type: "HOURS", hours: 1 } }],
          },
        },
        ["overrides.changePay.0.kinds"],
      ],
    ];
    for (const [body, paths] of bad) expectInvalid(await api("PUT", fwPath(w), { ...admin, body }), paths);
    expect(await count("location_fair_workweek", w.org.id)).toBe(0);
    expect((await feed(w.org)).filter((e) => e.type === "location.fair_workweek_updated")).toHaveLength(0);
  });

  it("an unknown or deleted location is a 404 LOCATION_NOT_FOUND and writes nothing", async () => {
    const w = await createWorkplace();
    const admin = { token: w.org.adminToken };
    for (const method of ["GET", "PUT"] as const) {
      const res = await api(method, fwPath(w, "no-such-location"), {
        ...admin,
        body: method === "PUT" ? { rulePack: "SEATTLE" } : undefined,
      });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("LOCATION_NOT_FOUND");
    }
    const gone = await createLocation(w.org);
    expect((await api("DELETE", `/api/organizations/${w.org.id}/locations/${gone.id}`, admin)).status).toBe(200);
    const res = await api("PUT", fwPath(w, gone.id), { ...admin, body: { rulePack: "SEATTLE" } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("LOCATION_NOT_FOUND");
    expect(await count("location_fair_workweek", w.org.id)).toBe(0);
  });

  it("another organization's location is a 404; a staff member without LOCATION_ADMIN is a 403 on PUT and writes nothing", async () => {
    const w = await createWorkplace();
    const other = await createOrganization();
    const foreign = await createLocation(other);
    const res = await api("PUT", fwPath(w, foreign.id), { token: w.org.adminToken, body: { rulePack: "SEATTLE" } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("LOCATION_NOT_FOUND");
    const denied = await api("PUT", fwPath(w), { token: w.token, body: { rulePack: "SEATTLE" } });
    expect(denied.status).toBe(403);
    const reader = await staffWithPermissions(w, ["LOCATION_READ"]);
    expect((await api("GET", fwPath(w), { token: reader.token })).status).toBe(200);
    expect((await api("PUT", fwPath(w), { token: reader.token, body: { rulePack: "SEATTLE" } })).status).toBe(403);
    expect(await count("location_fair_workweek", w.org.id)).toBe(0);
    expect(await count("location_fair_workweek", other.id)).toBe(0);
  });
});

describe("GET/PUT …/staffmembers/{id}/good-faith-estimate", () => {
  it("PUT stores an estimate per effectiveFrom (history kept, same date replaced); GET answers the current one and the history", async () => {
    const w = await createWorkplace();
    const admin = { token: w.org.adminToken };
    const empty = await api("GET", gfePath(w), admin);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ employeeId: w.staff.id, current: null, history: [] });

    const first = await api("PUT", gfePath(w), { ...admin, body: { weeklyHoursMin: 20, weeklyHoursMax: 30, effectiveFrom: "2026-01-05" } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ employeeId: w.staff.id, weeklyHoursMin: 20, weeklyHoursMax: 30, effectiveFrom: "2026-01-05" });
    await api("PUT", gfePath(w), { ...admin, body: { weeklyHoursMin: 25, weeklyHoursMax: 25, effectiveFrom: "2026-06-01" } });
    const replaced = await api("PUT", gfePath(w), {
      ...admin,
      body: { weeklyHoursMin: 28, weeklyHoursMax: 32, effectiveFrom: "2026-06-01" },
    });
    expect(replaced.body).toMatchObject({ weeklyHoursMin: 28, weeklyHoursMax: 32 });

    const onMarch = await api("GET", `${gfePath(w)}?date=2026-03-01`, admin);
    expect(onMarch.body.current).toMatchObject({ weeklyHoursMin: 20, effectiveFrom: "2026-01-05" });
    expect(onMarch.body.history.map((e: { effectiveFrom: string }) => e.effectiveFrom)).toEqual(["2026-06-01", "2026-01-05"]);
    expect((await api("GET", `${gfePath(w)}?date=2026-06-01`, admin)).body.current).toMatchObject({ weeklyHoursMin: 28 });
    expect((await api("GET", `${gfePath(w)}?date=2025-12-31`, admin)).body.current).toBeNull();

    // The worker reads their own.
    expect((await api("GET", gfePath(w), { token: w.token })).status).toBe(200);

    const events = (await feed(w.org)).filter((e) => e.type === "staff_member.good_faith_estimate_updated");
    expect(events.map((e) => [e.data.effectiveFrom, e.data.weeklyHoursMin])).toEqual([
      ["2026-01-05", 20],
      ["2026-06-01", 25],
      ["2026-06-01", 28],
    ]);
    // The same estimate again records nothing.
    await api("PUT", gfePath(w), { ...admin, body: { weeklyHoursMin: 28, weeklyHoursMax: 32, effectiveFrom: "2026-06-01" } });
    expect((await feed(w.org)).filter((e) => e.type === "staff_member.good_faith_estimate_updated")).toHaveLength(3);
  });

  it("min > max, negative hours, a missing or impossible date, an unknown field: 400 naming it, nothing written", async () => {
    const w = await createWorkplace();
    const admin = { token: w.org.adminToken };
    const ok = { weeklyHoursMin: 20, weeklyHoursMax: 30, effectiveFrom: "2026-01-05" };
    const bad: [unknown, string[]][] = [
      [{ ...ok, weeklyHoursMin: 31 }, ["weeklyHoursMax"]],
      [{ ...ok, weeklyHoursMin: -1 }, ["weeklyHoursMin"]],
      [{ ...ok, weeklyHoursMax: 169 }, ["weeklyHoursMax"]],
      [{ weeklyHoursMin: 20, weeklyHoursMax: 30 }, ["effectiveFrom"]],
      [{ ...ok, effectiveFrom: "2026-02-30" }, ["effectiveFrom"]],
      [{ ...ok, extra: 1 }, ["(root)"]],
    ];
    for (const [body, paths] of bad) expectInvalid(await api("PUT", gfePath(w), { ...admin, body }), paths);
    expect(await count("good_faith_estimates", w.org.id)).toBe(0);
  });

  it("an unknown, deleted or foreign staff member is a 404; without EMPLOYEE_WRITE a PUT is a 403 (their own included)", async () => {
    const w = await createWorkplace();
    const admin = { token: w.org.adminToken };
    const body = { weeklyHoursMin: 20, weeklyHoursMax: 30, effectiveFrom: "2026-01-05" };
    for (const id of ["no-such-staff", (await createStaffMember(await createOrganization())).id]) {
      for (const method of ["GET", "PUT"] as const) {
        const res = await api(method, gfePath(w, id), { ...admin, body: method === "PUT" ? body : undefined });
        expect(res.status).toBe(404);
        expect(res.body.code).toBe("STAFF_MEMBER_NOT_FOUND");
      }
    }
    const gone = await createStaffMember(w.org);
    expect((await api("DELETE", `/api/organizations/${w.org.id}/staffmembers/${gone.id}`, admin)).status).toBe(200);
    expect((await api("PUT", gfePath(w, gone.id), { ...admin, body })).body.code).toBe("STAFF_MEMBER_NOT_FOUND");
    expect((await api("PUT", gfePath(w), { token: w.token, body })).status).toBe(403);
    const colleague = await createStaffMember(w.org);
    expect((await api("GET", gfePath(w, colleague.id), { token: w.token })).status).toBe(403);
    expect(await count("good_faith_estimates", w.org.id)).toBe(0);
  });
});
