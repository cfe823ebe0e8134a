import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createOrganization, type OrganizationFixture, unique } from "../../helpers/fixtures";
import { deleteAccessRoleInD1, requestWithInterference, STAFF_WRITE, setAccessRoleInD1 } from "../../helpers/interfering-d1";
import { createStaffMember, staffPath, staffToken } from "../../helpers/staff";

type Member = { id: string; name: string; accessRoleId: string; updatedAt: string; deletedAt: string | null };

const allStaff = async (org: OrganizationFixture): Promise<Member[]> =>
  (await api("GET", staffPath(org, "?limit=500&includeDeleted=true"), { token: org.adminToken })).body;

/** A custom access role nobody holds yet, so a concurrent DELETE of it is allowed. */
async function unheldAccessRole(org: OrganizationFixture) {
  const res = await api("POST", `/api/organizations/${org.id}/access-roles`, {
    token: org.adminToken,
    body: { name: unique("Lead"), permissions: ["SHIFT_READ"] },
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

describe("staff members: an access role deleted between the check and the write", () => {
  it("create, patch and sync answer 409 ACCESS_ROLE_DELETED and write nothing", async () => {
    const org = await createOrganization();
    const member = await createStaffMember(org, { externalId: unique("e") });
    const cases = [
      ["POST", staffPath(org), (role: string) => ({ name: "Hired", accessRoleId: role })],
      ["PATCH", staffPath(org, `/${member.id}`), (role: string) => ({ name: "Promoted", accessRoleId: role })],
      ["POST", staffPath(org, "/sync"), (role: string) => ({ records: [{ externalId: unique("n"), name: "New", accessRoleId: role }] })],
      [
        "POST",
        staffPath(org, "/sync"),
        (role: string) => ({ records: [{ externalId: member.externalId, name: "Synced", accessRoleId: role }] }),
      ],
    ] as const;
    for (const [method, path, body] of cases) {
      const before = await allStaff(org);
      const role = await unheldAccessRole(org);
      const res = await requestWithInterference(
        method,
        path,
        { token: org.adminToken, body: body(role) },
        {
          before: STAFF_WRITE,
          meanwhile: () => deleteAccessRoleInD1(role),
        },
      );
      expect(res.status, `${method} ${path}`).toBe(409);
      expect(res.body.code).toBe("ACCESS_ROLE_DELETED");
      expect(await allStaff(org)).toEqual(before);
    }
  });

  it("the same writes succeed when the access role stays live", async () => {
    const org = await createOrganization();
    const member = await createStaffMember(org);
    const role = await unheldAccessRole(org);
    const res = await requestWithInterference(
      "PATCH",
      staffPath(org, `/${member.id}`),
      { token: org.adminToken, body: { accessRoleId: role } },
      {
        before: STAFF_WRITE,
        meanwhile: async () => undefined,
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.accessRoleId).toBe(role);
  });

  it("sync refuses to restore a deleted member onto their deleted access role unless the record names another", async () => {
    const org = await createOrganization();
    const role = await unheldAccessRole(org);
    const member = await createStaffMember(org, { externalId: unique("e"), accessRoleId: role });
    expect((await api("DELETE", staffPath(org, `/${member.id}`), { token: org.adminToken })).status).toBe(200);
    expect((await api("DELETE", `/api/organizations/${org.id}/access-roles/${role}`, { token: org.adminToken })).status).toBe(200);
    const sync = (record: Record<string, unknown>) =>
      api("POST", staffPath(org, "/sync"), {
        token: org.adminToken,
        body: { records: [{ externalId: member.externalId, name: "Back", ...record }] },
      });
    const refused = await sync({});
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((e: { path: string }) => e.path)).toEqual(["records.0.accessRoleId"]);
    const restored = await sync({ accessRoleName: "Employee" });
    expect(restored.status).toBe(200);
    expect(restored.body.records[0]).toMatchObject({ id: member.id, deletedAt: null, accessRoleId: org.accessRoles.Employee });
  });
});

describe("staff members: a member promoted to Admin between a Manager's check and write", () => {
  async function setup() {
    const org = await createOrganization();
    const manager = await createStaffMember(org, { accessRoleName: "Manager", externalId: unique("m") });
    const target = await createStaffMember(org, { externalId: unique("t") });
    const promote = () => setAccessRoleInD1(target.id, org.accessRoles.Admin!);
    return { org, manager, target, promote, token: await staffToken(org, manager.id) };
  }

  it("PATCH and DELETE answer 403 and leave the Admin as the promotion left them", async () => {
    for (const [method, body] of [
      ["PATCH", { name: "Renamed" }],
      ["DELETE", undefined],
    ] as const) {
      const { org, target, promote, token } = await setup();
      const res = await requestWithInterference(
        method,
        staffPath(org, `/${target.id}`),
        { token, body },
        { before: STAFF_WRITE, meanwhile: promote },
      );
      expect(res.status, method).toBe(403);
      const stored = (await allStaff(org)).find((s) => s.id === target.id)!;
      expect(stored).toMatchObject({ name: target.name, accessRoleId: org.accessRoles.Admin, deletedAt: null });
    }
  });

  it("a sync naming them answers 403 and writes nothing", async () => {
    const { org, target, promote, token } = await setup();
    const body = {
      records: [
        { externalId: unique("n"), name: "Hired" },
        { externalId: target.externalId, name: "Renamed" },
      ],
    };
    const res = await requestWithInterference(
      "POST",
      staffPath(org, "/sync"),
      { token, body },
      { before: STAFF_WRITE, meanwhile: promote },
    );
    expect(res.status).toBe(403);
    const staff = await allStaff(org);
    expect(staff).toHaveLength(2);
    expect(staff.find((s) => s.id === target.id)).toMatchObject({ name: target.name, accessRoleId: org.accessRoles.Admin });
  });

  it("deactivateMissing leaves them alone", async () => {
    const { org, manager, target, promote, token } = await setup();
    const body = { records: [{ externalId: manager.externalId, name: manager.name }], deactivateMissing: true };
    const res = await requestWithInterference(
      "POST",
      staffPath(org, "/sync"),
      { token, body },
      { before: STAFF_WRITE, meanwhile: promote },
    );
    expect(res.status).toBe(200);
    expect(res.body.deactivated).toBe(0);
    expect((await allStaff(org)).find((s) => s.id === target.id)).toMatchObject({ deletedAt: null, accessRoleId: org.accessRoles.Admin });
  });
});
