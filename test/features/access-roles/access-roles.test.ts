import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createOrganization, type OrganizationFixture, unique } from "../../helpers/fixtures";
import { accessToken } from "../../helpers/tokens";

const accessRolesPath = (org: OrganizationFixture) => `/api/organizations/${org.id}/access-roles`;

async function createAccessRole(org: OrganizationFixture, body: Record<string, unknown> = {}) {
  const res = await api("POST", accessRolesPath(org), {
    token: org.adminToken,
    body: { name: unique("Access"), permissions: ["SHIFT_READ"], ...body },
  });
  if (res.status !== 201) throw new Error(`access role: ${res.status} ${res.text}`);
  return res.body as { id: string; name: string; permissions: string[]; updatedAt: string };
}

async function createStaffMember(org: OrganizationFixture, accessRole: { accessRoleName: string } | { accessRoleId: string }) {
  const res = await api("POST", `/api/organizations/${org.id}/staffmembers`, {
    token: org.adminToken,
    body: { name: unique("Staff"), ...accessRole },
  });
  if (res.status !== 201) throw new Error(`staff member: ${res.status} ${res.text}`);
  return res.body.id as string;
}

const tokenFor = (org: OrganizationFixture, staffMemberId: string) => accessToken({ organizationId: org.id, employeeId: staffMemberId });

describe("access roles", () => {
  it("GET /access-roles lists the defaults with their permissions", async () => {
    const org = await createOrganization();
    const res = await api("GET", accessRolesPath(org), { token: org.adminToken });
    expect(res.status).toBe(200);
    const byName = Object.fromEntries(res.body.map((r: { name: string; permissions: string[] }) => [r.name, r.permissions]));
    expect(byName).toEqual({ Admin: ["ORGANIZATION_ADMIN"], Manager: ["LOCATION_ADMIN"], Employee: [] });
    expect(res.body[0]).toMatchObject({ organizationId: org.id, active: true, deletedAt: null });
  });

  it("POST /access-roles creates one with duplicate permissions dropped, and GET reads it back", async () => {
    const org = await createOrganization();
    const res = await api("POST", accessRolesPath(org), {
      token: org.adminToken,
      body: { name: " Shift lead ", permissions: ["SHIFT_READ", "TIMEOFF_READ", "SHIFT_READ"] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      organizationId: org.id,
      name: "Shift lead",
      permissions: ["SHIFT_READ", "TIMEOFF_READ"],
      active: true,
      deletedAt: null,
    });
    const one = await api("GET", `${accessRolesPath(org)}/${res.body.id}`, { token: org.adminToken });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(res.body);
    const none = await api("POST", accessRolesPath(org), { token: org.adminToken, body: { name: "Nothing" } });
    expect(none.status).toBe(201);
    expect(none.body.permissions).toEqual([]);
  });

  it("POST /access-roles rejects an unknown permission and bad fields, and creates nothing", async () => {
    const org = await createOrganization();
    const res = await api("POST", accessRolesPath(org), {
      token: org.adminToken,
      body: { name: "Root", permissions: ["SHIFT_READ", "SUPERUSER"] },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("VALIDATION_FAILED");
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(["permissions.1"]);
    const shape = await api("POST", accessRolesPath(org), { token: org.adminToken, body: { name: "", permissions: "SHIFT_READ" } });
    expect(shape.status).toBe(400);
    expect(shape.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["name", "permissions"]);
    const list = await api("GET", accessRolesPath(org), { token: org.adminToken });
    expect(list.body).toHaveLength(3);
  });

  it("POST /access-roles refuses a name a live access role has, and frees it once that one is deleted", async () => {
    const org = await createOrganization();
    const taken = await api("POST", accessRolesPath(org), { token: org.adminToken, body: { name: "Manager" } });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe("ACCESS_ROLE_NAME_TAKEN");
    const role = await createAccessRole(org, { name: "Supervisor" });
    expect((await api("DELETE", `${accessRolesPath(org)}/${role.id}`, { token: org.adminToken })).status).toBe(200);
    const again = await api("POST", accessRolesPath(org), { token: org.adminToken, body: { name: "Supervisor" } });
    expect(again.status).toBe(201);
    const elsewhere = await createOrganization();
    const otherOrg = await api("POST", accessRolesPath(elsewhere), { token: elsewhere.adminToken, body: { name: "Supervisor" } });
    expect(otherOrg.status).toBe(201);
  });

  it("GET /access-roles/{id} is 404 for an unknown id", async () => {
    const org = await createOrganization();
    const res = await api("GET", `${accessRolesPath(org)}/missing`, { token: org.adminToken });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ title: "Record Not Found", code: "ACCESS_ROLE_NOT_FOUND" });
  });

  it("GET /access-roles pages with a Link header, filters by updatedSince and shows deleted ones on request", async () => {
    const org = await createOrganization();
    const first = await createAccessRole(org);
    const second = await createAccessRole(org);
    const page = await api("GET", `${accessRolesPath(org)}?limit=3`, { token: org.adminToken });
    expect(page.body).toHaveLength(3);
    const link = page.headers.get("Link");
    expect(link).toMatch(/rel="next"$/);
    const next = await api("GET", link!.slice(1, link!.indexOf(">")), { token: org.adminToken });
    expect(next.body.map((r: { id: string }) => r.id)).toEqual([first.id, second.id]);
    const since = await api("GET", `${accessRolesPath(org)}?updatedSince=${encodeURIComponent(second.updatedAt)}`, {
      token: org.adminToken,
    });
    expect(since.body.map((r: { id: string }) => r.id)).toEqual([second.id]);
    await api("DELETE", `${accessRolesPath(org)}/${first.id}`, { token: org.adminToken });
    const live = await api("GET", accessRolesPath(org), { token: org.adminToken });
    expect(live.body.map((r: { id: string }) => r.id)).not.toContain(first.id);
    const all = await api("GET", `${accessRolesPath(org)}?includeDeleted=true`, { token: org.adminToken });
    expect(all.body.find((r: { id: string }) => r.id === first.id)).toMatchObject({ active: false });
    expect((await api("GET", `${accessRolesPath(org)}?includeDeleted=maybe`, { token: org.adminToken })).status).toBe(400);
  });

  it("PATCH /access-roles/{id} renames and replaces the permission set", async () => {
    const org = await createOrganization();
    const role = await createAccessRole(org, { permissions: ["SHIFT_READ", "SHIFT_WRITE"] });
    await new Promise((r) => setTimeout(r, 5));
    const renamed = await api("PATCH", `${accessRolesPath(org)}/${role.id}`, { token: org.adminToken, body: { name: "Floor lead" } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Floor lead", permissions: ["SHIFT_READ", "SHIFT_WRITE"] });
    expect(renamed.body.updatedAt > role.updatedAt).toBe(true);
    const replaced = await api("PATCH", `${accessRolesPath(org)}/${role.id}`, {
      token: org.adminToken,
      body: { permissions: ["TIMEOFF_APPROVE", "TIMEOFF_APPROVE"] },
    });
    expect(replaced.body).toMatchObject({ name: "Floor lead", permissions: ["TIMEOFF_APPROVE"] });
  });

  it("PATCH /access-roles/{id} rejects bad fields, unknown ids and a taken name", async () => {
    const org = await createOrganization();
    const role = await createAccessRole(org);
    const bad = await api("PATCH", `${accessRolesPath(org)}/${role.id}`, { token: org.adminToken, body: { permissions: ["GOD_MODE"] } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe("permissions.0");
    const unchanged = await api("GET", `${accessRolesPath(org)}/${role.id}`, { token: org.adminToken });
    expect(unchanged.body.permissions).toEqual(["SHIFT_READ"]);
    const missing = await api("PATCH", `${accessRolesPath(org)}/missing`, { token: org.adminToken, body: { name: "X" } });
    expect(missing.status).toBe(404);
    const taken = await api("PATCH", `${accessRolesPath(org)}/${role.id}`, { token: org.adminToken, body: { name: "Admin" } });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe("ACCESS_ROLE_NAME_TAKEN");
  });

  it("DELETE /access-roles/{id} soft-deletes an unused access role; reads are 404 afterwards", async () => {
    const org = await createOrganization();
    const role = await createAccessRole(org);
    const res = await api("DELETE", `${accessRolesPath(org)}/${role.id}`, { token: org.adminToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: role.id, active: false });
    expect(res.body.deletedAt).toMatch(/Z$/);
    expect((await api("GET", `${accessRolesPath(org)}/${role.id}`, { token: org.adminToken })).status).toBe(404);
    expect((await api("PATCH", `${accessRolesPath(org)}/${role.id}`, { token: org.adminToken, body: { name: "Back" } })).status).toBe(404);
    expect((await api("DELETE", `${accessRolesPath(org)}/${role.id}`, { token: org.adminToken })).status).toBe(404);
    expect((await api("DELETE", `${accessRolesPath(org)}/missing`, { token: org.adminToken })).status).toBe(404);
  });

  it("DELETE /access-roles/{id} is 409 ACCESS_ROLE_IN_USE while a live staff member holds it", async () => {
    const org = await createOrganization();
    const role = await createAccessRole(org);
    const staffMemberId = await createStaffMember(org, { accessRoleId: role.id });
    const refused = await api("DELETE", `${accessRolesPath(org)}/${role.id}`, { token: org.adminToken });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("ACCESS_ROLE_IN_USE");
    const still = await api("GET", `${accessRolesPath(org)}/${role.id}`, { token: org.adminToken });
    expect(still.body).toMatchObject({ active: true, deletedAt: null });
    await createStaffMember(org, { accessRoleName: "Manager" });
    const manager = await api("DELETE", `${accessRolesPath(org)}/${org.accessRoles.Manager}`, { token: org.adminToken });
    expect(manager.status).toBe(409);
    const removedStaff = await api("DELETE", `/api/organizations/${org.id}/staffmembers/${staffMemberId}`, { token: org.adminToken });
    expect(removedStaff.status).toBe(200);
    expect((await api("DELETE", `${accessRolesPath(org)}/${role.id}`, { token: org.adminToken })).status).toBe(200);
  });

  it("a staff member with a custom access role gets its permissions, and a changed set applies to new tokens", async () => {
    const org = await createOrganization();
    const reader = await createAccessRole(org, { permissions: ["LOCATION_READ"] });
    const staffMemberId = await createStaffMember(org, { accessRoleId: reader.id });
    const before = await tokenFor(org, staffMemberId);
    expect((await api("GET", `/api/organizations/${org.id}/roles`, { token: before })).status).toBe(200);
    const create = await api("POST", `/api/organizations/${org.id}/roles`, { token: before, body: { name: "Sneaky" } });
    expect(create.status).toBe(403);
    const changed = await api("PATCH", `${accessRolesPath(org)}/${reader.id}`, {
      token: org.adminToken,
      body: { permissions: ["SHIFT_READ"] },
    });
    expect(changed.status).toBe(200);
    const after = await tokenFor(org, staffMemberId);
    expect((await api("GET", `/api/organizations/${org.id}/roles`, { token: after })).status).toBe(403);
    expect((await api("GET", `/api/organizations/${org.id}/roles`, { token: before })).status).toBe(200);
  });

  it("every access-role operation needs ORGANIZATION_ADMIN: a manager is refused with 403", async () => {
    const org = await createOrganization();
    const role = await createAccessRole(org);
    const manager = await tokenFor(org, await createStaffMember(org, { accessRoleName: "Manager" }));
    for (const [method, path, body] of [
      ["GET", accessRolesPath(org)],
      ["GET", `${accessRolesPath(org)}/${role.id}`],
      ["POST", accessRolesPath(org), { name: "Escalated", permissions: ["ORGANIZATION_ADMIN"] }],
      ["PATCH", `${accessRolesPath(org)}/${org.accessRoles.Manager}`, { permissions: ["ORGANIZATION_ADMIN"] }],
      ["DELETE", `${accessRolesPath(org)}/${role.id}`],
    ] as const) {
      const res = await api(method, path, { token: manager, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.code).toBe("FORBIDDEN");
    }
    const managerRole = await api("GET", `${accessRolesPath(org)}/${org.accessRoles.Manager}`, { token: org.adminToken });
    expect(managerRole.body.permissions).toEqual(["LOCATION_ADMIN"]);
  });

  it("every access-role route refuses a missing bearer token with 401", async () => {
    const org = await createOrganization();
    const role = await createAccessRole(org);
    for (const [method, path] of [
      ["GET", accessRolesPath(org)],
      ["POST", accessRolesPath(org)],
      ["GET", `${accessRolesPath(org)}/${role.id}`],
      ["PATCH", `${accessRolesPath(org)}/${role.id}`],
      ["DELETE", `${accessRolesPath(org)}/${role.id}`],
    ] as const) {
      const res = await api(method, path, { body: method === "POST" || method === "PATCH" ? { name: "X" } : undefined });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body.code).toBe("MISSING_BEARER_TOKEN");
    }
  });

  it("every access-role route answers 404 for another organization, by path and by record id", async () => {
    const org = await createOrganization();
    const other = await createOrganization();
    const role = await createAccessRole(org);
    for (const [method, path] of [
      ["GET", accessRolesPath(org)],
      ["POST", accessRolesPath(org)],
      ["GET", `${accessRolesPath(org)}/${role.id}`],
      ["PATCH", `${accessRolesPath(org)}/${role.id}`],
      ["DELETE", `${accessRolesPath(org)}/${role.id}`],
    ] as const) {
      const body = method === "POST" || method === "PATCH" ? { name: "X" } : undefined;
      const res = await api(method, path, { token: other.adminToken, body });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    for (const [method, body] of [["GET"], ["PATCH", { name: "X" }], ["DELETE"]] as const) {
      const res = await api(method, `${accessRolesPath(other)}/${role.id}`, { token: other.adminToken, body });
      expect(res.status, `${method} own path, foreign id`).toBe(404);
    }
    const unchanged = await api("GET", `${accessRolesPath(org)}/${role.id}`, { token: org.adminToken });
    expect(unchanged.body).toMatchObject({ name: role.name, active: true });
  });
});
