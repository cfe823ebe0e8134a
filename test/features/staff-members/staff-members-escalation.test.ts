import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createOrganization, type OrganizationFixture, unique } from "../../helpers/fixtures";
import { createStaffMember, staffPath, staffToken } from "../../helpers/staff";
import { accessToken, partnerToken } from "../../helpers/tokens";

type Member = { id: string; name: string; externalId: string | null; accessRoleId: string; updatedAt: string; deletedAt: string | null };

/** Every staff member of the organization, deleted ones included, as its admin sees them. */
const allStaff = async (org: OrganizationFixture): Promise<Member[]> =>
  (await api("GET", staffPath(org, "?limit=500&includeDeleted=true"), { token: org.adminToken })).body;

/** An organization with a Manager (whose token acts), an Admin and an Employee, each with an externalId. */
async function workplace() {
  const org = await createOrganization();
  const manager = await createStaffMember(org, { accessRoleName: "Manager", externalId: unique("m") });
  const admin = await createStaffMember(org, { accessRoleName: "Admin", externalId: unique("a") });
  const employee = await createStaffMember(org, { externalId: unique("e") });
  return { org, manager, admin, employee, managerToken: await staffToken(org, manager.id) };
}

describe("staff members: nobody acts on a member holding more than they may grant", () => {
  it("a Manager cannot PATCH or DELETE an Admin (403 naming the permission), and nothing changes", async () => {
    const { org, admin, managerToken } = await workplace();
    const before = await allStaff(org);
    for (const [method, body] of [
      ["PATCH", { name: "Demoted" }],
      ["PATCH", { accessRoleName: "Employee" }],
      ["PATCH", { active: false }],
      ["DELETE", undefined],
    ] as const) {
      const res = await api(method, staffPath(org, `/${admin.id}`), { token: managerToken, body });
      expect(res.status, `${method} ${JSON.stringify(body)}`).toBe(403);
      expect(res.body.code).toBe("FORBIDDEN");
      expect(res.body.detail).toContain("ORGANIZATION_ADMIN");
    }
    expect(await allStaff(org)).toEqual(before);
  });

  it("a Manager still answers 404 for a member that does not exist, and may act on Managers and Employees", async () => {
    const { org, manager, employee, managerToken } = await workplace();
    const peer = await createStaffMember(org, { accessRoleName: "Manager" });
    expect((await api("PATCH", staffPath(org, "/ghost"), { token: managerToken, body: { name: "X" } })).status).toBe(404);
    expect((await api("DELETE", staffPath(org, "/ghost"), { token: managerToken })).status).toBe(404);
    for (const id of [manager.id, peer.id, employee.id]) {
      expect((await api("PATCH", staffPath(org, `/${id}`), { token: managerToken, body: { name: "Renamed" } })).status).toBe(200);
    }
    expect((await api("DELETE", staffPath(org, `/${peer.id}`), { token: managerToken })).status).toBe(200);
    expect((await api("DELETE", staffPath(org, `/${employee.id}`), { token: managerToken })).status).toBe(200);
  });

  it("the externalId swap from the review cannot hand a Manager's token exchange the Admin's record", async () => {
    const { org, manager, admin } = await workplace();
    const managerExternal = manager.externalId!;
    const managerToken = await accessToken({ organizationId: org.id, externalEmployeeId: managerExternal });
    // Step one of the attack: free the Manager's externalId (allowed: a Manager may change a Manager).
    const moved = await api("PATCH", staffPath(org, `/${manager.id}`), { token: managerToken, body: { externalId: unique("moved") } });
    expect(moved.status).toBe(200);
    // Step two: give the Admin's record the Manager's externalId, directly or by first freeing the Admin's.
    for (const externalId of [managerExternal, unique("tmp")]) {
      const res = await api("PATCH", staffPath(org, `/${admin.id}`), { token: managerToken, body: { externalId } });
      expect(res.status).toBe(403);
    }
    const stored = await api("GET", staffPath(org, `/${admin.id}`), { token: org.adminToken });
    expect(stored.body).toMatchObject({ externalId: admin.externalId, updatedAt: admin.updatedAt });
    // The partner's token for the Manager now matches nobody, rather than the Admin.
    const exchange = await api("POST", "/api/auth/exchangeToken", {
      body: { token: await partnerToken({ organizationId: org.id, externalEmployeeId: managerExternal }) },
    });
    expect(exchange.status).toBe(401);
    expect(exchange.body.code).toBe("UNKNOWN_EMPLOYEE");
  });

  it("a Manager cannot sync onto an Admin's externalId, live or deleted: 403 naming each record, nothing written", async () => {
    const { org, admin, employee, managerToken } = await workplace();
    const retired = await createStaffMember(org, { accessRoleName: "Admin", externalId: unique("r") });
    expect((await api("DELETE", staffPath(org, `/${retired.id}`), { token: org.adminToken })).status).toBe(200);
    const before = await allStaff(org);
    const res = await api("POST", staffPath(org, "/sync"), {
      token: managerToken,
      body: {
        records: [
          { externalId: unique("new"), name: "Hired" },
          { externalId: admin.externalId, name: "Taken over", accessRoleName: "Employee" },
          { externalId: employee.externalId, name: "Renamed" },
          { externalId: retired.externalId, name: "Back from the dead" },
        ],
        deactivateMissing: true,
      },
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("FORBIDDEN");
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(["records.1.externalId", "records.3.externalId"]);
    expect(res.body.detail).toContain("ORGANIZATION_ADMIN");
    expect(await allStaff(org)).toEqual(before);
  });

  it("deactivateMissing by a Manager soft-deletes the Managers and Employees it no longer names but leaves Admins alone", async () => {
    const { org, manager, admin, employee, managerToken } = await workplace();
    const peer = await createStaffMember(org, { accessRoleName: "Manager", externalId: unique("p") });
    const res = await api("POST", staffPath(org, "/sync"), {
      token: managerToken,
      body: { records: [{ externalId: manager.externalId, name: manager.name }], deactivateMissing: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 0, deactivated: 2 });
    const byId = new Map((await allStaff(org)).map((s) => [s.id, s]));
    expect(byId.get(admin.id)).toMatchObject({ deletedAt: null, updatedAt: admin.updatedAt });
    expect(byId.get(manager.id)!.deletedAt).toBeNull();
    expect(byId.get(employee.id)!.deletedAt).not.toBeNull();
    expect(byId.get(peer.id)!.deletedAt).not.toBeNull();
  });

  it("an Admin may do all of it: PATCH, sync onto, deactivate and DELETE other Admins", async () => {
    const { org, manager, admin } = await workplace();
    const other = await createStaffMember(org, { accessRoleName: "Admin", externalId: unique("o") });
    const token = await staffToken(org, admin.id);
    const patched = await api("PATCH", staffPath(org, `/${other.id}`), { token, body: { name: "Renamed", externalId: unique("x") } });
    expect(patched.status).toBe(200);
    const synced = await api("POST", staffPath(org, "/sync"), {
      token,
      body: { records: [{ externalId: admin.externalId, name: "Self" }], deactivateMissing: true },
    });
    expect(synced.status).toBe(200);
    expect(synced.body).toMatchObject({ updated: 1, deactivated: 3 });
    const byId = new Map((await allStaff(org)).map((s) => [s.id, s]));
    expect([other.id, manager.id].map((id) => byId.get(id)!.deletedAt !== null)).toEqual([true, true]);
    const third = await createStaffMember(org, { accessRoleName: "Admin" });
    expect((await api("DELETE", staffPath(org, `/${third.id}`), { token })).status).toBe(200);
    // The organization-level token (ORGANIZATION_ADMIN) too.
    expect((await api("PATCH", staffPath(org, `/${admin.id}`), { token: org.adminToken, body: { name: "Boss" } })).status).toBe(200);
  });

  it("a caller with custom permissions may act only on members whose access role it fully holds", async () => {
    const org = await createOrganization();
    const role = async (permissions: string[]) => {
      const res = await api("POST", `/api/organizations/${org.id}/access-roles`, {
        token: org.adminToken,
        body: { name: unique("Role"), permissions },
      });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    const hr = await role(["EMPLOYEE_READ", "EMPLOYEE_WRITE"]);
    const scheduler = await role(["EMPLOYEE_READ", "SCHEDULE_WRITE"]);
    const caller = await createStaffMember(org, { accessRoleId: hr });
    const colleague = await createStaffMember(org, { accessRoleId: hr });
    const planner = await createStaffMember(org, { accessRoleId: scheduler });
    const token = await staffToken(org, caller.id);
    expect((await api("PATCH", staffPath(org, `/${colleague.id}`), { token, body: { name: "Ok" } })).status).toBe(200);
    const refused = await api("PATCH", staffPath(org, `/${planner.id}`), { token, body: { name: "No" } });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain("SCHEDULE_WRITE");
    expect(refused.body.detail).not.toContain("EMPLOYEE_READ");
  });
});
