import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createOrganization, type OrganizationFixture } from "../../helpers/fixtures";
import { createStaffMember, staffPath } from "../../helpers/staff";

const sync = (org: OrganizationFixture, body: unknown) => api("POST", staffPath(org, "/sync"), { token: org.adminToken, body });

type Listed = { id: string; externalId: string | null; updatedAt: string; active: boolean; deletedAt: string | null };

/** Every page of the organization's staff list. */
async function listAll(org: OrganizationFixture, query = "") {
  const all: Listed[] = [];
  let path: string | null = staffPath(org, `?limit=500${query}`);
  while (path) {
    const res = await api("GET", path, { token: org.adminToken });
    expect(res.status).toBe(200);
    all.push(...res.body);
    const link = res.headers.get("Link");
    path = link ? link.slice(1, link.indexOf(">")) : null;
  }
  return all;
}

describe("staff members: sync", () => {
  it("creates, then an identical payload changes nothing, then a change updates only that member", async () => {
    const org = await createOrganization();
    const records = [
      { externalId: "e-1", name: "Ada", email: "ada@example.com", roleIds: [org.defaultRoleId] },
      { externalId: "e-2", name: "Grace", accessRoleName: "Manager", hourlyWage: 20, birthDate: "1990-01-31" },
      { externalId: "e-3", name: "Linus", accessRoleId: org.accessRoles.Admin, wageType: "salary" },
    ];
    const first = await sync(org, { records });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ created: 3, updated: 0, deactivated: 0 });
    expect(first.body.records.map((r: { externalId: string }) => r.externalId)).toEqual(["e-1", "e-2", "e-3"]);
    expect(first.body.records.map((r: { accessRoleId: string }) => r.accessRoleId)).toEqual([
      org.accessRoles.Employee,
      org.accessRoles.Manager,
      org.accessRoles.Admin,
    ]);
    expect(first.body.records[1]).toMatchObject({ hourlyWage: 20, birthDate: "1990-01-31T00:00:00.000Z", active: true });

    await new Promise((r) => setTimeout(r, 5));
    const again = await sync(org, { records });
    expect(again.body).toMatchObject({ created: 0, updated: 0, deactivated: 0 });
    expect(again.body.records).toEqual(first.body.records);

    const changed = await sync(org, { records: [records[0], { ...records[1], hourlyWage: 22 }, records[2]] });
    expect(changed.body).toMatchObject({ created: 0, updated: 1, deactivated: 0 });
    expect(changed.body.records[1].hourlyWage).toBe(22);
    expect(changed.body.records[1].updatedAt > first.body.records[1].updatedAt).toBe(true);
    expect(changed.body.records[0].updatedAt).toBe(first.body.records[0].updatedAt);
    expect(await listAll(org)).toHaveLength(3);
  });

  it("keeps fields a record omits, clears fields it sets to null, and matches members created one by one", async () => {
    const org = await createOrganization();
    const existing = await createStaffMember(org, {
      externalId: "hr-7",
      email: "old@example.com",
      phoneNumber: "+15550100100",
      accessRoleName: "Manager",
      roleIds: [org.defaultRoleId],
    });
    const res = await sync(org, { records: [{ externalId: "hr-7", name: "Renamed", phoneNumber: null }] });
    expect(res.body).toMatchObject({ created: 0, updated: 1 });
    expect(res.body.records[0]).toMatchObject({
      id: existing.id,
      name: "Renamed",
      email: "old@example.com",
      phoneNumber: null,
      accessRoleId: org.accessRoles.Manager,
      roleIds: [org.defaultRoleId],
      createdAt: existing.createdAt,
    });
  });

  it("deactivateMissing soft-deletes members the payload no longer names, and naming one again restores it", async () => {
    const org = await createOrganization();
    const manual = await createStaffMember(org);
    await sync(org, { records: ["a", "b", "c"].map((externalId) => ({ externalId, name: externalId })) });
    const trimmed = await sync(org, { records: [{ externalId: "a", name: "a" }], deactivateMissing: true });
    expect(trimmed.body).toMatchObject({ created: 0, updated: 0, deactivated: 2 });
    const live = await listAll(org);
    expect(live.map((s) => s.externalId).sort((x, y) => String(x).localeCompare(String(y)))).toEqual(["a", null]);
    expect(live.some((s) => s.id === manual.id)).toBe(true);
    const deleted = (await listAll(org, "&includeDeleted=true")).filter((s) => s.deletedAt !== null);
    expect(deleted.map((s) => s.externalId).sort()).toEqual(["b", "c"]);
    expect(deleted.every((s) => !s.active)).toBe(true);

    const restored = await sync(org, { records: [{ externalId: "b", name: "b" }] });
    expect(restored.body).toMatchObject({ created: 0, updated: 1, deactivated: 0 });
    expect(restored.body.records[0]).toMatchObject({ externalId: "b", active: true, deletedAt: null });
    expect(restored.body.records[0].id).toBe(deleted.find((s) => s.externalId === "b")!.id);
  });

  it("refuses duplicate externalIds, unknown references and bad sizes with 400 naming the record, writing nothing", async () => {
    const org = await createOrganization();
    const dup = await sync(org, {
      records: [
        { externalId: "x", name: "1" },
        { externalId: "y", name: "2" },
        { externalId: "x", name: "3" },
      ],
    });
    expect(dup.status).toBe(400);
    expect(dup.body.errors).toEqual([{ path: "records.2.externalId", message: "duplicates records.0.externalId" }]);

    const refs = await sync(org, {
      records: [
        { externalId: "ok", name: "fine" },
        { externalId: "l", name: "l", locationIds: ["ghost"] },
        { externalId: "r", name: "r", roleIds: ["ghost"] },
        { externalId: "a", name: "a", accessRoleId: "ghost" },
        { externalId: "n", name: "n", accessRoleName: "Ghost" },
      ],
    });
    expect(refs.status).toBe(400);
    expect(refs.body.errors.map((e: { path: string }) => e.path)).toEqual([
      "records.1.locationIds",
      "records.2.roleIds",
      "records.3.accessRoleId",
      "records.4.accessRoleName",
    ]);

    const invalid = await sync(org, { records: [{ externalId: "v", name: "v", email: "nope" }, { name: "no external id" }] });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["records.0.email", "records.1.externalId"]);

    expect((await sync(org, { records: [] })).status).toBe(400);
    // More than 1,000 records run as a job (staff-members-sync-job.test.ts); more than 50,000 are refused.
    const tooMany = Array.from({ length: 50_001 }, (_, i) => ({ externalId: `t${i}`, name: "T" }));
    const over = await sync(org, { records: tooMany });
    expect(over.status).toBe(400);
    expect(over.body.errors[0].path).toBe("records");
    expect(await listAll(org)).toEqual([]);
  });

  it("syncs 1,000 records in one call, and again with no changes", async () => {
    const org = await createOrganization();
    const records = Array.from({ length: 1000 }, (_, i) => ({
      externalId: `bulk-${i}`,
      name: `Member ${i}`,
      email: `m${i}@example.com`,
      ...(i % 2 === 0 && { roleIds: [org.defaultRoleId], hourlyWage: i / 10 }),
      ...(i % 3 === 0 && { accessRoleName: "Manager" }),
    }));
    const first = await sync(org, { records, deactivateMissing: true });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ created: 1000, updated: 0, deactivated: 0 });
    expect(first.body.records.map((r: { externalId: string }) => r.externalId)).toEqual(records.map((r) => r.externalId));
    expect(first.body.records[3]).toMatchObject({ accessRoleId: org.accessRoles.Manager, roleIds: [] });
    expect(first.body.records[4]).toMatchObject({ accessRoleId: org.accessRoles.Employee, hourlyWage: 0.4 });

    const second = await sync(org, { records, deactivateMissing: true });
    expect(second.body).toMatchObject({ created: 0, updated: 0, deactivated: 0 });
    const third = await sync(org, { records: records.slice(0, 600), deactivateMissing: true });
    expect(third.body).toMatchObject({ created: 0, updated: 0, deactivated: 400 });
    expect(await listAll(org)).toHaveLength(600);
    expect(await listAll(org, "&includeDeleted=true")).toHaveLength(1000);
  });
});
