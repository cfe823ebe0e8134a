import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createOrganization, type OrganizationFixture, unique } from "../../helpers/fixtures";
import { createLocation } from "../../helpers/locations";
import { createStaffMember, staffPath, staffToken } from "../../helpers/staff";

describe("staff members: authorisation", () => {
  const routes = (org: OrganizationFixture, id: string): [string, string, unknown?][] => [
    ["GET", staffPath(org)],
    ["GET", staffPath(org, `/${id}`)],
    ["GET", staffPath(org, "/external/e")],
    ["GET", staffPath(org, `/${id}/locations`)],
    ["GET", `/api/organizations/${org.id}/locations/${id}/staffmembers`],
    ["POST", staffPath(org), { name: "X" }],
    ["POST", staffPath(org, "/sync"), { records: [{ name: "X", externalId: "x" }] }],
    ["PATCH", staffPath(org, `/${id}`), { name: "X" }],
    ["DELETE", staffPath(org, `/${id}`)],
  ];

  it("every staff member route refuses a missing bearer token with 401", async () => {
    const org = await createOrganization();
    for (const [method, path, body] of routes(org, "x")) {
      const res = await api(method, path, { body });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body.code).toBe("MISSING_BEARER_TOKEN");
    }
  });

  it("every staff member route answers 404 to another organization's token", async () => {
    const org = await createOrganization();
    const other = await createOrganization();
    const member = await createStaffMember(org);
    for (const [method, path, body] of routes(org, member.id)) {
      const res = await api(method, path, { token: other.adminToken, body });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await api("GET", staffPath(org, `/${member.id}`), { token: org.adminToken })).status).toBe(200);
  });

  it("an Employee reads themself but not others, and cannot list or write", async () => {
    const org = await createOrganization();
    const location = await createLocation(org);
    const self = await createStaffMember(org, { locationIds: [location.id] });
    const colleague = await createStaffMember(org);
    const token = await staffToken(org, self.id);
    const own = await api("GET", staffPath(org, `/${self.id}`), { token });
    expect(own.status).toBe(200);
    expect(own.body.id).toBe(self.id);
    expect((await api("GET", staffPath(org, `/${self.id}/locations`), { token })).body.map((l: { id: string }) => l.id)).toEqual([
      location.id,
    ]);
    const denied: [string, string, unknown?][] = [
      ["GET", staffPath(org, `/${colleague.id}`)],
      ["GET", staffPath(org, `/${colleague.id}/locations`)],
      ["GET", staffPath(org)],
      ["GET", staffPath(org, "/external/e")],
      ["GET", `/api/organizations/${org.id}/locations/${location.id}/staffmembers`],
      ["POST", staffPath(org), { name: "X" }],
      ["POST", staffPath(org, "/sync"), { records: [{ name: "X", externalId: "x" }] }],
      ["PATCH", staffPath(org, `/${self.id}`), { accessRoleName: "Admin" }],
      ["DELETE", staffPath(org, `/${colleague.id}`)],
    ];
    for (const [method, path, body] of denied) {
      const res = await api(method, path, { token, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.code).toBe("FORBIDDEN");
    }
    expect((await api("GET", staffPath(org, `/${self.id}`), { token: org.adminToken })).body.accessRoleId).toBe(org.accessRoles.Employee);
  });

  it("a Manager lists, reads, creates, syncs, updates and deletes staff", async () => {
    const org = await createOrganization();
    const manager = await createStaffMember(org, { accessRoleName: "Manager" });
    const token = await staffToken(org, manager.id);
    const created = await api("POST", staffPath(org), { token, body: { name: "Hired" } });
    expect(created.status).toBe(201);
    const listed = await api("GET", staffPath(org), { token });
    expect(listed.status).toBe(200);
    expect(listed.body.map((s: { id: string }) => s.id)).toEqual([manager.id, created.body.id]);
    expect((await api("GET", staffPath(org, `/${created.body.id}`), { token })).status).toBe(200);
    expect(
      (await api("POST", staffPath(org, "/sync"), { token, body: { records: [{ name: "S", externalId: unique("e") }] } })).status,
    ).toBe(200);
    expect((await api("PATCH", staffPath(org, `/${created.body.id}`), { token, body: { name: "Moved" } })).status).toBe(200);
    expect((await api("DELETE", staffPath(org, `/${created.body.id}`), { token })).status).toBe(200);
  });

  it("a Manager may hand out the Manager access role but not Admin, which needs ORGANIZATION_ADMIN", async () => {
    const org = await createOrganization();
    const manager = await createStaffMember(org, { accessRoleName: "Manager" });
    const token = await staffToken(org, manager.id);
    const peer = await api("POST", staffPath(org), { token, body: { name: "Peer", accessRoleId: org.accessRoles.Manager } });
    expect(peer.status).toBe(201);
    for (const [method, path, body] of [
      ["POST", staffPath(org), { name: "Boss", accessRoleName: "Admin" }],
      ["PATCH", staffPath(org, `/${manager.id}`), { accessRoleId: org.accessRoles.Admin }],
      ["POST", staffPath(org, "/sync"), { records: [{ name: "Boss", externalId: unique("e"), accessRoleName: "Admin" }] }],
    ] as const) {
      const res = await api(method, path, { token, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.detail).toContain("ORGANIZATION_ADMIN");
    }
    const staff = await api("GET", staffPath(org), { token });
    expect(staff.body.map((s: { accessRoleId: string }) => s.accessRoleId)).toEqual([org.accessRoles.Manager, org.accessRoles.Manager]);
    const promoted = await api("PATCH", staffPath(org, `/${manager.id}`), { token: org.adminToken, body: { accessRoleName: "Admin" } });
    expect(promoted.body.accessRoleId).toBe(org.accessRoles.Admin);
  });
});
