import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createOrganization } from "../../helpers/fixtures";
import { tenantDb } from "../../helpers/shards";
import { createStaffMember, staffToken } from "../../helpers/staff";
import { createBreakType, createWorkplace } from "../../helpers/workplace";

const breaksPath = (orgId: string, locationId: string) => `/api/organizations/${orgId}/locations/${locationId}/breaks`;

describe("break types", () => {
  it("POST …/locations/{id}/breaks creates a break type with the brief's fields (201)", async () => {
    const w = await createWorkplace();
    const res = await api("POST", breaksPath(w.org.id, w.location.id), {
      token: w.org.adminToken,
      body: { name: "Lunch", durationMinutes: 30, frequencyMinutes: 360, paid: false, mandatory: true, enabled: true },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "Lunch",
      locationId: w.location.id,
      durationMinutes: 30,
      frequencyMinutes: 360,
      paid: false,
      mandatory: true,
      enabled: true,
      active: true,
      deletedAt: null,
    });
    expect(res.body.createdAt).toMatch(/Z$/);
  });

  it("GET lists the location's break types in pages", async () => {
    const w = await createWorkplace();
    const a = await createBreakType(w, { name: "A" });
    const b = await createBreakType(w, { name: "B" });
    const first = await api("GET", `${breaksPath(w.org.id, w.location.id)}?limit=1`, { token: w.org.adminToken });
    expect(first.status).toBe(200);
    expect(first.body.map((t: { id: string }) => t.id)).toEqual([a.id]);
    const link = first.headers.get("Link")!;
    const next = await api("GET", link.slice(1, link.indexOf(">")), { token: w.org.adminToken });
    expect(next.body.map((t: { id: string }) => t.id)).toEqual([b.id]);
  });

  it("PATCH updates and DELETE soft-deletes (then hidden from the list)", async () => {
    const w = await createWorkplace();
    const type = await createBreakType(w);
    const path = `${breaksPath(w.org.id, w.location.id)}/${type.id}`;
    const patched = await api("PATCH", path, { token: w.org.adminToken, body: { enabled: false, durationMinutes: 45 } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ enabled: false, durationMinutes: 45, name: "Lunch" });
    const removed = await api("DELETE", path, { token: w.org.adminToken });
    expect(removed.status).toBe(200);
    expect(removed.body.active).toBe(false);
    const listed = await api("GET", breaksPath(w.org.id, w.location.id), { token: w.org.adminToken });
    expect(listed.body).toEqual([]);
    expect((await api("PATCH", path, { token: w.org.adminToken, body: { name: "X" } })).status).toBe(404);
  });

  it("PATCH changes only the fields it names (no create defaults sneak in)", async () => {
    const w = await createWorkplace();
    const type = await createBreakType(w, { mandatory: true, enabled: false });
    const res = await api("PATCH", `${breaksPath(w.org.id, w.location.id)}/${type.id}`, {
      token: w.org.adminToken,
      body: { name: "Meal" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Meal", mandatory: true, enabled: false });
  });

  it("rejects invalid bodies with 400 and writes nothing", async () => {
    const w = await createWorkplace();
    const res = await api("POST", breaksPath(w.org.id, w.location.id), {
      token: w.org.adminToken,
      body: { name: "", durationMinutes: -5, frequencyMinutes: 1.5, paid: "no" },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["durationMinutes", "frequencyMinutes", "name", "paid"]);
    const rows = await tenantDb()
      .prepare("SELECT COUNT(*) AS n FROM break_types WHERE location_id = ?")
      .bind(w.location.id)
      .first<{ n: number }>();
    expect(rows!.n).toBe(0);
  });

  it("is 404 for an unknown location or break type, and for another organization's location", async () => {
    const w = await createWorkplace();
    const body = { name: "Lunch", durationMinutes: 30, frequencyMinutes: 360, paid: false };
    expect((await api("POST", breaksPath(w.org.id, "nope"), { token: w.org.adminToken, body })).status).toBe(404);
    expect((await api("GET", breaksPath(w.org.id, "nope"), { token: w.org.adminToken })).status).toBe(404);
    expect((await api("DELETE", `${breaksPath(w.org.id, w.location.id)}/nope`, { token: w.org.adminToken })).status).toBe(404);
    const other = await createOrganization();
    expect((await api("GET", breaksPath(w.org.id, w.location.id), { token: other.adminToken })).status).toBe(404);
    expect((await api("GET", breaksPath(other.id, w.location.id), { token: other.adminToken })).status).toBe(404);
  });

  it("needs LOCATION_ADMIN to write and a token at all", async () => {
    const w = await createWorkplace();
    const body = { name: "Lunch", durationMinutes: 30, frequencyMinutes: 360, paid: false };
    const employee = await createStaffMember(w.org);
    const res = await api("POST", breaksPath(w.org.id, w.location.id), { token: await staffToken(w.org, employee.id), body });
    expect(res.status).toBe(403);
    expect((await api("POST", breaksPath(w.org.id, w.location.id), { body })).status).toBe(401);
    const manager = await createStaffMember(w.org, { accessRoleName: "Manager" });
    expect((await api("POST", breaksPath(w.org.id, w.location.id), { token: await staffToken(w.org, manager.id), body })).status).toBe(201);
  });
});
