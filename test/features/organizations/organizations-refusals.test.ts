import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createOrganization, unique } from "../../helpers/fixtures";
import { expectInvalid } from "../../helpers/problems";
import { tenantDb } from "../../helpers/shards";
import { createStaffMember, staffToken } from "../../helpers/staff";
import { accessToken } from "../../helpers/tokens";

const orgPath = (id: string) => `/api/organizations/${id}`;
const orgEvents = async (org: { id: string; adminToken: string }) =>
  ((await api("GET", `${orgPath(org.id)}/events?limit=500`, { token: org.adminToken })).body as { type: string; data: unknown }[]).filter(
    (e) => e.type.startsWith("organization."),
  );

describe("organizations: refusals and side effects", () => {
  it("a PATCH records organization.updated with the organization as answered", async () => {
    const org = await createOrganization();
    const res = await api("PATCH", orgPath(org.id), { token: org.adminToken, body: { name: "Renamed" } });
    expect(res.status).toBe(200);
    expect((await orgEvents(org)).map((e) => [e.type, e.data])).toEqual([["organization.updated", res.body]]);
  });

  it("a refused PATCH (bad field 400, stale If-Match 412, Manager 403) changes nothing and records nothing", async () => {
    const org = await createOrganization();
    const before = await api("GET", orgPath(org.id), { token: org.adminToken });
    expectInvalid(await api("PATCH", orgPath(org.id), { token: org.adminToken, body: { timezone: "Nowhere" } }), ["timezone"]);
    expectInvalid(await api("PATCH", orgPath(org.id), { token: org.adminToken, body: { currencyCode: "ZZZ" } }), ["currencyCode"]);
    const stale = await api("PATCH", orgPath(org.id), { token: org.adminToken, body: { name: "Stale" }, headers: { "If-Match": '"0"' } });
    expect(stale.status).toBe(412);
    expect(stale.body.code).toBe("PRECONDITION_FAILED");
    const manager = await createStaffMember(org, { accessRoleName: "Manager" });
    expect((await api("PATCH", orgPath(org.id), { token: await staffToken(org, manager.id), body: { name: "Mine" } })).status).toBe(403);
    expect((await api("GET", orgPath(org.id), { token: org.adminToken })).body).toEqual(before.body);
    expect(await orgEvents(org)).toEqual([]);
  });

  it("an externalId another organization of the partner holds is 409 EXTERNAL_ID_TAKEN, on create and on PATCH", async () => {
    const partner = await accessToken();
    const taken = unique("org");
    const first = await api("POST", "/api/organizations", { token: partner, body: { name: "First", externalId: taken } });
    expect(first.status).toBe(201);
    const second = await api("POST", "/api/organizations", { token: partner, body: { name: "Second", externalId: unique("org") } });
    const patched = await api("PATCH", orgPath(second.body.id), { token: partner, body: { externalId: taken } });
    expect(patched.status).toBe(409);
    expect(patched.body.code).toBe("EXTERNAL_ID_TAKEN");
    expect((await api("GET", orgPath(second.body.id), { token: partner })).body.externalId).toBe(second.body.externalId);
  });

  it("with-defaults refused on a taken externalId writes nothing: no organization, no access roles, no policy types", async () => {
    const partner = await accessToken();
    const externalId = unique("org");
    expect((await api("POST", "/api/organizations/with-defaults", { token: partner, body: { name: "A", externalId } })).status).toBe(201);
    const count = async (table: string) => (await tenantDb().prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<{ n: number }>())!.n;
    const before = await Promise.all(["organizations", "access_roles", "roles"].map(count));
    const again = await api("POST", "/api/organizations/with-defaults", { token: partner, body: { name: "B", externalId } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("EXTERNAL_ID_TAKEN");
    expect(await Promise.all(["organizations", "access_roles", "roles"].map(count))).toEqual(before);
  });

  it("creating needs a partner-level token: an organization token is 403 PARTNER_SCOPE_REQUIRED", async () => {
    const org = await createOrganization();
    for (const path of ["/api/organizations", "/api/organizations/with-defaults"]) {
      const res = await api("POST", path, { token: org.adminToken, body: { name: "Nested" } });
      expect(res.status, path).toBe(403);
      expect(res.body.code, path).toBe("PARTNER_SCOPE_REQUIRED");
    }
  });

  it("a refused DELETE (Manager 403, stale If-Match 412) deletes nothing; an unknown externalId is 404 ORGANIZATION_NOT_FOUND", async () => {
    const org = await createOrganization();
    const manager = await createStaffMember(org, { accessRoleName: "Manager" });
    expect((await api("DELETE", orgPath(org.id), { token: await staffToken(org, manager.id) })).status).toBe(403);
    const stale = await api("DELETE", orgPath(org.id), { token: org.adminToken, headers: { "If-Match": '"0"' } });
    expect(stale.status).toBe(412);
    expect(stale.body.code).toBe("PRECONDITION_FAILED");
    expect((await api("GET", orgPath(org.id), { token: org.adminToken })).body).toMatchObject({ active: true, deletedAt: null });
    const unknown = await api("DELETE", `/api/organizations/external/${unique("none")}`, { token: await accessToken() });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("ORGANIZATION_NOT_FOUND");
  });

  it("a DELETE records organization.deleted in the outbox with the deleted organization", async () => {
    const org = await createOrganization();
    const res = await api("DELETE", orgPath(org.id), { token: org.adminToken });
    expect(res.status).toBe(200);
    const rows = await tenantDb()
      .prepare("SELECT type, data FROM events WHERE organization_id = ? AND type LIKE 'organization.%' ORDER BY sequence")
      .bind(org.id)
      .all<{ type: string; data: string }>();
    // The outbox keeps the row; the feed serializes it (and answers 404 once the organization is gone).
    expect(rows.results.map((r) => [r.type, JSON.parse(r.data).id, JSON.parse(r.data).deleted_at])).toEqual([
      ["organization.deleted", org.id, Date.parse(res.body.deletedAt)],
    ]);
  });
});
