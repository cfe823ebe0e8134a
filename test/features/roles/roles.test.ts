import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createOrganization, type OrganizationFixture, unique } from "../../helpers/fixtures";
import { accessToken } from "../../helpers/tokens";

const rolesPath = (org: OrganizationFixture) => `/api/organizations/${org.id}/roles`;

async function createRole(org: OrganizationFixture, body: Record<string, unknown> = {}) {
  const res = await api("POST", rolesPath(org), { token: org.adminToken, body: { name: unique("Role"), ...body } });
  if (res.status !== 201) throw new Error(`role: ${res.status} ${res.text}`);
  return res.body as { id: string; name: string; updatedAt: string };
}

/** A staff member of the organization with the given access role, and a token exchanged for them. */
async function staffToken(org: OrganizationFixture, accessRole: { accessRoleName: string } | { accessRoleId: string }) {
  const res = await api("POST", `/api/organizations/${org.id}/staffmembers`, {
    token: org.adminToken,
    body: { name: unique("Staff"), ...accessRole },
  });
  if (res.status !== 201) throw new Error(`staff member: ${res.status} ${res.text}`);
  return accessToken({ organizationId: org.id, employeeId: res.body.id });
}

describe("roles", () => {
  it("POST /roles creates a role and GET reads it back, alone and in the list", async () => {
    const org = await createOrganization();
    const externalId = unique("role");
    const res = await api("POST", rolesPath(org), {
      token: org.adminToken,
      body: { name: "  Barista ", hourlyWage: 18.5, externalId },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      organizationId: org.id,
      name: "Barista",
      hourlyWage: 18.5,
      externalId,
      active: true,
      deletedAt: null,
    });
    expect(res.body.createdAt).toMatch(/Z$/);
    const one = await api("GET", `${rolesPath(org)}/${res.body.id}`, { token: org.adminToken });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(res.body);
    const list = await api("GET", rolesPath(org), { token: org.adminToken });
    expect(list.status).toBe(200);
    expect(list.body.map((r: { name: string }) => r.name)).toEqual(["Default", "Barista"]);
  });

  it("POST /roles defaults hourlyWage and externalId to null", async () => {
    const org = await createOrganization();
    const res = await api("POST", rolesPath(org), { token: org.adminToken, body: { name: "Cook" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: "Cook", hourlyWage: null, externalId: null });
  });

  it("POST /roles rejects invalid fields with a problem naming each, and creates nothing", async () => {
    const org = await createOrganization();
    const res = await api("POST", rolesPath(org), {
      token: org.adminToken,
      body: { name: " ", hourlyWage: -1, externalId: "" },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("VALIDATION_FAILED");
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["externalId", "hourlyWage", "name"]);
    const typed = await api("POST", rolesPath(org), { token: org.adminToken, body: { name: "Cook", hourlyWage: "18" } });
    expect(typed.status).toBe(400);
    expect(typed.body.errors[0].path).toBe("hourlyWage");
    const list = await api("GET", rolesPath(org), { token: org.adminToken });
    expect(list.body).toHaveLength(1);
  });

  it("POST /roles refuses an externalId another role of the organization has, even a deleted one", async () => {
    const org = await createOrganization();
    const externalId = unique("role");
    const first = await createRole(org, { externalId });
    const again = await api("POST", rolesPath(org), { token: org.adminToken, body: { name: "Other", externalId } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("EXTERNAL_ID_TAKEN");
    await api("DELETE", `${rolesPath(org)}/${first.id}`, { token: org.adminToken });
    const afterDelete = await api("POST", rolesPath(org), { token: org.adminToken, body: { name: "Other", externalId } });
    expect(afterDelete.status).toBe(409);
    const elsewhere = await createOrganization();
    const otherOrg = await api("POST", rolesPath(elsewhere), { token: elsewhere.adminToken, body: { name: "X", externalId } });
    expect(otherOrg.status).toBe(201);
  });

  it("GET /roles/{id} is 404 for an unknown id", async () => {
    const org = await createOrganization();
    const res = await api("GET", `${rolesPath(org)}/missing`, { token: org.adminToken });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ title: "Record Not Found", code: "ROLE_NOT_FOUND" });
  });

  it("GET /roles pages with a Link header and filters by updatedSince", async () => {
    const org = await createOrganization();
    const created = [await createRole(org), await createRole(org), await createRole(org)];
    const first = await api("GET", `${rolesPath(org)}?limit=2`, { token: org.adminToken });
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(2);
    const link = first.headers.get("Link");
    expect(link).toMatch(/rel="next"$/);
    const next = await api("GET", link!.slice(1, link!.indexOf(">")), { token: org.adminToken });
    expect(next.body.map((r: { id: string }) => r.id)).toEqual([created[1]!.id, created[2]!.id]);
    expect(next.headers.get("Link")).toBeNull();
    const since = await api("GET", `${rolesPath(org)}?updatedSince=${encodeURIComponent(created[2]!.updatedAt)}`, {
      token: org.adminToken,
    });
    expect(since.body.map((r: { id: string }) => r.id)).toEqual([created[2]!.id]);
    expect((await api("GET", `${rolesPath(org)}?limit=0`, { token: org.adminToken })).status).toBe(400);
    expect((await api("GET", `${rolesPath(org)}?updatedSince=yesterday`, { token: org.adminToken })).status).toBe(400);
  });

  it("PATCH /roles/{id} changes only the fields sent and clears with null", async () => {
    const org = await createOrganization();
    const role = await createRole(org, { hourlyWage: 15, externalId: unique("role") });
    await new Promise((r) => setTimeout(r, 5));
    const res = await api("PATCH", `${rolesPath(org)}/${role.id}`, {
      token: org.adminToken,
      body: { name: "Head Barista", externalId: null },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: role.id, name: "Head Barista", hourlyWage: 15, externalId: null });
    expect(res.body.updatedAt > role.updatedAt).toBe(true);
    const cleared = await api("PATCH", `${rolesPath(org)}/${role.id}`, { token: org.adminToken, body: { hourlyWage: null } });
    expect(cleared.body).toMatchObject({ name: "Head Barista", hourlyWage: null });
  });

  it("PATCH /roles/{id} rejects bad fields, unknown ids and a taken externalId", async () => {
    const org = await createOrganization();
    const externalId = unique("role");
    await createRole(org, { externalId });
    const role = await createRole(org, { hourlyWage: 12 });
    const bad = await api("PATCH", `${rolesPath(org)}/${role.id}`, { token: org.adminToken, body: { hourlyWage: -0.5, name: "" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["hourlyWage", "name"]);
    const unchanged = await api("GET", `${rolesPath(org)}/${role.id}`, { token: org.adminToken });
    expect(unchanged.body.hourlyWage).toBe(12);
    expect((await api("PATCH", `${rolesPath(org)}/missing`, { token: org.adminToken, body: { name: "X" } })).status).toBe(404);
    const taken = await api("PATCH", `${rolesPath(org)}/${role.id}`, { token: org.adminToken, body: { externalId } });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe("EXTERNAL_ID_TAKEN");
  });

  it("DELETE /roles/{id} soft-deletes: reads are 404, lists show it only with includeDeleted", async () => {
    const org = await createOrganization();
    const role = await createRole(org);
    const res = await api("DELETE", `${rolesPath(org)}/${role.id}`, { token: org.adminToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: role.id, active: false });
    expect(res.body.deletedAt).toMatch(/Z$/);
    expect((await api("GET", `${rolesPath(org)}/${role.id}`, { token: org.adminToken })).status).toBe(404);
    expect((await api("PATCH", `${rolesPath(org)}/${role.id}`, { token: org.adminToken, body: { name: "Back" } })).status).toBe(404);
    expect((await api("DELETE", `${rolesPath(org)}/${role.id}`, { token: org.adminToken })).status).toBe(404);
    const live = await api("GET", rolesPath(org), { token: org.adminToken });
    expect(live.body.map((r: { id: string }) => r.id)).toEqual([org.defaultRoleId]);
    const all = await api("GET", `${rolesPath(org)}?includeDeleted=true`, { token: org.adminToken });
    expect(all.body.map((r: { id: string }) => r.id)).toEqual([org.defaultRoleId, role.id]);
  });

  it("DELETE /roles/{id} is 404 for an unknown id", async () => {
    const org = await createOrganization();
    expect((await api("DELETE", `${rolesPath(org)}/missing`, { token: org.adminToken })).status).toBe(404);
  });

  it("every role route refuses a missing bearer token with 401", async () => {
    const org = await createOrganization();
    const role = await createRole(org);
    for (const [method, path] of [
      ["GET", rolesPath(org)],
      ["POST", rolesPath(org)],
      ["GET", `${rolesPath(org)}/${role.id}`],
      ["PATCH", `${rolesPath(org)}/${role.id}`],
      ["DELETE", `${rolesPath(org)}/${role.id}`],
    ] as const) {
      const res = await api(method, path, { body: method === "POST" || method === "PATCH" ? { name: "X" } : undefined });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body.code).toBe("MISSING_BEARER_TOKEN");
    }
  });

  it("every role route answers 404 for another organization, by path and by record id", async () => {
    const org = await createOrganization();
    const other = await createOrganization();
    const role = await createRole(org);
    for (const [method, path] of [
      ["GET", rolesPath(org)],
      ["POST", rolesPath(org)],
      ["GET", `${rolesPath(org)}/${role.id}`],
      ["PATCH", `${rolesPath(org)}/${role.id}`],
      ["DELETE", `${rolesPath(org)}/${role.id}`],
    ] as const) {
      const body = method === "POST" || method === "PATCH" ? { name: "X" } : undefined;
      const res = await api(method, path, { token: other.adminToken, body });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    for (const [method, body] of [["GET"], ["PATCH", { name: "X" }], ["DELETE"]] as const) {
      const res = await api(method, `${rolesPath(other)}/${role.id}`, { token: other.adminToken, body });
      expect(res.status, `${method} own path, foreign id`).toBe(404);
    }
    const unchanged = await api("GET", `${rolesPath(org)}/${role.id}`, { token: org.adminToken });
    expect(unchanged.body).toMatchObject({ name: role.name, active: true });
  });

  it("reading roles needs LOCATION_READ and writing them LOCATION_ADMIN", async () => {
    const org = await createOrganization();
    const role = await createRole(org);
    const employee = await staffToken(org, { accessRoleName: "Employee" });
    for (const [method, path, body] of [
      ["GET", rolesPath(org)],
      ["GET", `${rolesPath(org)}/${role.id}`],
      ["POST", rolesPath(org), { name: "X" }],
      ["PATCH", `${rolesPath(org)}/${role.id}`, { name: "X" }],
      ["DELETE", `${rolesPath(org)}/${role.id}`],
    ] as const) {
      const res = await api(method, path, { token: employee, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.code).toBe("FORBIDDEN");
    }
    const manager = await staffToken(org, { accessRoleName: "Manager" });
    expect((await api("GET", rolesPath(org), { token: manager })).status).toBe(200);
    const created = await api("POST", rolesPath(org), { token: manager, body: { name: "Dishwasher" } });
    expect(created.status).toBe(201);
    expect((await api("PATCH", `${rolesPath(org)}/${role.id}`, { token: manager, body: { hourlyWage: 20 } })).status).toBe(200);
    expect((await api("DELETE", `${rolesPath(org)}/${created.body.id}`, { token: manager })).status).toBe(200);
  });

  it("a custom access role with LOCATION_READ may read roles but not create them", async () => {
    const org = await createOrganization();
    const reader = await api("POST", `/api/organizations/${org.id}/access-roles`, {
      token: org.adminToken,
      body: { name: "Role reader", permissions: ["LOCATION_READ"] },
    });
    expect(reader.status).toBe(201);
    const token = await staffToken(org, { accessRoleId: reader.body.id });
    expect((await api("GET", rolesPath(org), { token })).status).toBe(200);
    expect((await api("GET", `${rolesPath(org)}/${org.defaultRoleId}`, { token })).status).toBe(200);
    const create = await api("POST", rolesPath(org), { token, body: { name: "Sneaky" } });
    expect(create.status).toBe(403);
    expect(create.body.detail).toContain("LOCATION_ADMIN");
  });
});
