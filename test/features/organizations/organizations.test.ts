import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createOrganization, unique } from "../../helpers/fixtures";
import { createStaffMember, staffToken } from "../../helpers/staff";
import { accessToken, partnerToken } from "../../helpers/tokens";

describe("organizations", () => {
  it("POST /organizations/with-defaults creates the access roles, role, policy types and settings", async () => {
    const partner = await accessToken();
    const res = await api("POST", "/api/organizations/with-defaults", {
      token: partner,
      body: { name: "Blue Bottle", externalId: unique("org"), timezone: "America/New_York", country: "US", currencyCode: "USD" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: "Blue Bottle", timezone: "America/New_York", active: true, deletedAt: null });
    expect(res.body.defaults.accessRoles.map((r: { name: string }) => r.name)).toEqual(["Admin", "Manager", "Employee"]);
    expect(res.body.defaults.accessRoles[0].permissions).toEqual(["ORGANIZATION_ADMIN"]);
    expect(res.body.defaults.roles.map((r: { name: string }) => r.name)).toEqual(["Default"]);
    expect(res.body.defaults.policyTypes.map((t: { type: string }) => t.type)).toEqual([
      "Vacation",
      "Sick",
      "Personal",
      "Bereavement",
      "Unpaid",
    ]);
    const admin = await accessToken({ organizationId: res.body.id });
    const accessRoles = await api("GET", `/api/organizations/${res.body.id}/access-roles`, { token: admin });
    expect(accessRoles.status).toBe(200);
    const listed = accessRoles.body.map((r: { id: string; name: string; permissions: string[] }) => ({
      id: r.id,
      name: r.name,
      permissions: r.permissions,
    }));
    expect(listed).toHaveLength(3);
    expect(listed).toEqual(expect.arrayContaining(res.body.defaults.accessRoles));
    expect(Object.fromEntries(listed.map((r: { name: string; permissions: string[] }) => [r.name, r.permissions]))).toEqual({
      Admin: ["ORGANIZATION_ADMIN"],
      Manager: ["LOCATION_ADMIN"],
      Employee: [],
    });
  });

  it("POST /organizations creates one and GET reads it back, by id and by external id", async () => {
    const partner = await accessToken();
    const externalId = unique("org");
    const created = await api("POST", "/api/organizations", { token: partner, body: { name: "Acme", externalId } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Acme", externalId, timezone: "UTC", active: true, deletedAt: null });
    expect(created.body.createdAt).toMatch(/Z$/);
    const byId = await api("GET", `/api/organizations/${created.body.id}`, { token: partner });
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(created.body);
    const byExternal = await api("GET", `/api/organizations/external/${externalId}`, { token: partner });
    expect(byExternal.body.id).toBe(created.body.id);
  });

  it("POST /organizations rejects invalid fields with a problem naming each", async () => {
    const partner = await accessToken();
    const res = await api("POST", "/api/organizations", {
      token: partner,
      body: { name: "", timezone: "Mars/Olympus", country: "XX", currencyCode: "ZZZ" },
    });
    expect(res.status).toBe(400);
    expect(res.headers.get("Content-Type")).toContain("application/problem+json");
    expect(res.body).toMatchObject({ status: 400, title: "Bad Request", code: "VALIDATION_FAILED" });
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["country", "currencyCode", "name", "timezone"]);
  });

  it("POST /organizations refuses a duplicate externalId with 409", async () => {
    const partner = await accessToken();
    const externalId = unique("org");
    expect((await api("POST", "/api/organizations", { token: partner, body: { name: "A", externalId } })).status).toBe(201);
    const again = await api("POST", "/api/organizations", { token: partner, body: { name: "B", externalId } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("EXTERNAL_ID_TAKEN");
  });

  it("POST /organizations needs a partner-level token", async () => {
    const org = await createOrganization();
    const res = await api("POST", "/api/organizations", { token: org.adminToken, body: { name: "Sibling" } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("PARTNER_SCOPE_REQUIRED");
  });

  it("GET /organizations lists the partner's organizations in pages with a Link header", async () => {
    const partner = await accessToken();
    for (let i = 0; i < 3; i++) await api("POST", "/api/organizations", { token: partner, body: { name: `Paged ${i}` } });
    const first = await api("GET", "/api/organizations?limit=2", { token: partner });
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(2);
    const link = first.headers.get("Link");
    expect(link).toMatch(/^<\/api\/organizations\?limit=2&cursor=[^>]+>; rel="next"$/);
    const next = await api("GET", link!.slice(1, link!.indexOf(">")), { token: partner });
    expect(next.status).toBe(200);
    expect(next.body[0].id > first.body[1].id).toBe(true);
  });

  it("GET /organizations with an organization token sees only its own organization", async () => {
    const org = await createOrganization();
    await createOrganization();
    const res = await api("GET", "/api/organizations", { token: org.adminToken });
    expect(res.body.map((o: { id: string }) => o.id)).toEqual([org.id]);
  });

  it("GET /organizations/{id} is 404 for an unknown id and for another organization", async () => {
    const org = await createOrganization();
    const other = await createOrganization();
    expect((await api("GET", "/api/organizations/nope", { token: org.adminToken })).status).toBe(404);
    const foreign = await api("GET", `/api/organizations/${other.id}`, { token: org.adminToken });
    expect(foreign.status).toBe(404);
    expect(foreign.body.title).toBe("Record Not Found");
  });

  it("PATCH /organizations/{id} updates and answers a new updatedAt", async () => {
    const org = await createOrganization();
    const before = await api("GET", `/api/organizations/${org.id}`, { token: org.adminToken });
    await new Promise((r) => setTimeout(r, 5));
    const res = await api("PATCH", `/api/organizations/${org.id}`, {
      token: org.adminToken,
      body: { name: "Renamed", timezone: "Asia/Kathmandu" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Renamed", timezone: "Asia/Kathmandu" });
    expect(res.body.updatedAt > before.body.updatedAt).toBe(true);
    expect((await api("PATCH", `/api/organizations/${org.id}`, { token: org.adminToken, body: { timezone: "Nowhere" } })).status).toBe(400);
    expect((await api("PATCH", "/api/organizations/missing", { token: await accessToken(), body: { name: "X" } })).status).toBe(404);
  });

  it("PATCH /organizations/{id} needs ORGANIZATION_ADMIN", async () => {
    const org = await createOrganization();
    const staff = await createStaffMember(org, { name: "Eve", accessRoleName: "Manager" });
    const manager = await staffToken(org, staff.id);
    const res = await api("PATCH", `/api/organizations/${org.id}`, { token: manager, body: { name: "X" } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("FORBIDDEN");
    expect((await api("GET", `/api/organizations/${org.id}`, { token: org.adminToken })).body.name).not.toBe("X");
  });

  it("DELETE /organizations/{id} soft-deletes: reads are 404 and the token can no longer be exchanged", async () => {
    const org = await createOrganization();
    const res = await api("DELETE", `/api/organizations/${org.id}`, { token: org.adminToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: org.id, active: false });
    expect(res.body.deletedAt).toMatch(/Z$/);
    const partner = await accessToken();
    expect((await api("GET", `/api/organizations/${org.id}`, { token: partner })).status).toBe(404);
    const exchange = await api("POST", "/api/auth/exchangeToken", { body: { token: await partnerToken({ organizationId: org.id }) } });
    expect(exchange.status).toBe(401);
    expect(exchange.body.code).toBe("UNKNOWN_ORGANIZATION");
    const listed = await api("GET", "/api/organizations?includeDeleted=true&limit=500", { token: partner });
    expect(listed.body.some((o: { id: string }) => o.id === org.id)).toBe(true);
  });

  it("DELETE /organizations/external/{externalId} deletes by the partner's id", async () => {
    const partner = await accessToken();
    const externalId = unique("org");
    await api("POST", "/api/organizations", { token: partner, body: { name: "Gone", externalId } });
    const res = await api("DELETE", `/api/organizations/external/${externalId}`, { token: partner });
    expect(res.status).toBe(200);
    expect((await api("DELETE", `/api/organizations/external/${externalId}`, { token: partner })).status).toBe(404);
  });

  it("every organization route refuses a missing bearer token with 401", async () => {
    for (const [method, path] of [
      ["GET", "/api/organizations"],
      ["POST", "/api/organizations"],
      ["GET", "/api/organizations/x"],
      ["PATCH", "/api/organizations/x"],
      ["DELETE", "/api/organizations/x"],
    ] as const) {
      const res = await api(method, path, { body: method === "GET" || method === "DELETE" ? undefined : {} });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body.code).toBe("MISSING_BEARER_TOKEN");
    }
  });
});
