import { locations } from "@db/schema";
import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { upsertStatements } from "@/data/write/sync-by-external-id";
import { locationEntry } from "@/features/locations/locations-sync.data";
import { api } from "../../helpers/api";
import { createOrganization, type OrganizationFixture, unique } from "../../helpers/fixtures";
import { createLocation, sampleLocation } from "../../helpers/locations";
import { tenantDb } from "../../helpers/shards";
import { accessToken } from "../../helpers/tokens";

interface Stored {
  id: string;
  externalId: string;
  name: string;
  updatedAt: string;
  active: boolean;
  deletedAt: string | null;
}

const syncPath = (org: OrganizationFixture) => `/api/organizations/${org.id}/locations/sync`;
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
const sync = (org: OrganizationFixture, body: unknown, token = org.adminToken) => api("POST", syncPath(org), { token, body });
const record = (externalId: string, extra: Record<string, unknown> = {}) => ({
  ...sampleLocation(),
  name: `Store ${externalId}`,
  externalId,
  ...extra,
});
const many = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, i) => ({ externalId: `${prefix}-${i}`, name: `Store ${i}` }));

async function read(org: OrganizationFixture, id: string) {
  return (await api("GET", `/api/organizations/${org.id}/locations/${id}`, { token: org.adminToken })).body as Stored;
}

describe("POST /locations/sync", () => {
  it("creates what is new and answers the stored records in payload order", async () => {
    const org = await createOrganization();
    const res = await sync(org, { records: [record("b"), record("a"), record("c", { addressLine2: null })] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 3, updated: 0, deactivated: 0 });
    expect(res.body.records.map((r: Stored) => r.externalId)).toEqual(["b", "a", "c"]);
    expect(res.body.records[0]).toMatchObject({ ...sampleLocation(), name: "Store b", timezone: "UTC", active: true });
    const stored = await read(org, res.body.records[1].id);
    expect(stored).toEqual(res.body.records[1]);
  });

  it("updates what differs, restores a deleted location and leaves equal ones untouched", async () => {
    const org = await createOrganization();
    const first = await sync(org, { records: [record("same"), record("renamed"), record("deleted")] });
    const [same, renamed, deleted] = first.body.records as Stored[];
    await api("DELETE", `/api/organizations/${org.id}/locations/${deleted!.id}`, { token: org.adminToken });
    await tick();
    const res = await sync(org, {
      records: [record("same"), record("renamed", { name: "New name", zipCode: 10002 }), record("deleted"), record("fresh")],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 1, updated: 2, deactivated: 0 });
    const [sameAfter, renamedAfter, restored] = res.body.records as Stored[];
    expect(sameAfter).toEqual(same);
    expect(renamedAfter).toMatchObject({ id: renamed!.id, name: "New name", zipCode: 10002 });
    expect(renamedAfter!.updatedAt > renamed!.updatedAt).toBe(true);
    expect(restored).toMatchObject({ id: deleted!.id, active: true, deletedAt: null });
  });

  it("merges each record into the stored location: omitted fields are kept, null clears a field", async () => {
    const org = await createOrganization();
    const first = await sync(org, { records: [record("full", { timezone: "America/New_York", geofenceMode: "flag" })] });
    await tick();
    const res = await sync(org, { records: [{ externalId: "full", name: "Bare", city: null, latitude: null, longitude: null }] });
    expect(res.body).toMatchObject({ created: 0, updated: 1 });
    expect(res.body.records[0]).toMatchObject({
      ...sampleLocation(),
      id: first.body.records[0].id,
      name: "Bare",
      city: null,
      latitude: null,
      longitude: null,
      timezone: "America/New_York",
      geofenceMode: "flag",
      createdAt: first.body.records[0].createdAt,
    });
    const fresh = await sync(org, { records: [{ externalId: "bare", name: "Bare" }] });
    expect(fresh.body.records[0]).toMatchObject({ city: null, zipCode: null, latitude: null, timezone: "UTC", geofenceMode: "block" });
  });

  it("refuses a record that gives only one coordinate, keeping the stored pair", async () => {
    const org = await createOrganization();
    const first = await sync(org, { records: [record("geo")] });
    const onlyLatitude = await sync(org, { records: [{ externalId: "geo", name: "Geo", latitude: "1.5" }] });
    expect(onlyLatitude.status).toBe(400);
    expect(onlyLatitude.body.errors.map((e: { path: string }) => e.path)).toEqual(["records.0.longitude"]);
    const clearsOne = await sync(org, { records: [{ externalId: "geo", name: "Geo", latitude: "1.5", longitude: null }] });
    expect(clearsOne.status).toBe(400);
    expect(await read(org, first.body.records[0].id)).toEqual(first.body.records[0]);
  });

  it("deactivateMissing soft-deletes live synced locations the payload no longer names, never unsynced ones", async () => {
    const org = await createOrganization();
    await sync(org, { records: [record("keep"), record("drop-1"), record("drop-2")] });
    const manual = await createLocation(org, { name: "Hand-made" });
    const other = await createOrganization();
    await sync(other, { records: [record("drop-1")] });
    const res = await sync(org, { records: [record("keep")], deactivateMissing: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 0, updated: 0, deactivated: 2 });
    const live = (await api("GET", `/api/organizations/${org.id}/locations`, { token: org.adminToken })).body as Stored[];
    expect(live.map((l) => l.externalId ?? l.name).sort()).toEqual(["Hand-made", "keep"]);
    expect((await read(org, manual.id)).active).toBe(true);
    const all = (await api("GET", `/api/organizations/${org.id}/locations?includeDeleted=true`, { token: org.adminToken }))
      .body as Stored[];
    expect(
      all
        .filter((l) => !l.active)
        .map((l) => l.externalId)
        .sort(),
    ).toEqual(["drop-1", "drop-2"]);
    const untouched = await api("GET", `/api/organizations/${other.id}/locations/external/drop-1`, { token: other.adminToken });
    expect(untouched.body.active).toBe(true);
  });

  it("without deactivateMissing leaves unnamed locations alone", async () => {
    const org = await createOrganization();
    await sync(org, { records: [record("a"), record("b")] });
    const res = await sync(org, { records: [record("a")] });
    expect(res.body).toMatchObject({ created: 0, updated: 0, deactivated: 0 });
    const live = (await api("GET", `/api/organizations/${org.id}/locations`, { token: org.adminToken })).body;
    expect(live).toHaveLength(2);
  });

  it("syncing the same payload twice changes nothing the second time", async () => {
    const org = await createOrganization();
    const payload = {
      records: [record("x"), record("y", { addressLine2: null, website: null }), { externalId: "z", name: "Z" }],
      deactivateMissing: true,
    };
    const first = await sync(org, payload);
    expect(first.body).toMatchObject({ created: 3, updated: 0, deactivated: 0 });
    await tick();
    const second = await sync(org, payload);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ created: 0, updated: 0, deactivated: 0 });
    expect(second.body.records).toEqual(first.body.records);
    for (const stored of first.body.records as Stored[]) expect((await read(org, stored.id)).updatedAt).toBe(stored.updatedAt);
  });

  it("accepts 1000 records in one call, and a second identical call updates none", async () => {
    const org = await createOrganization();
    const records = many(1000, unique("bulk"));
    const res = await sync(org, { records });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.body).toMatchObject({ created: 1000, updated: 0, deactivated: 0 });
    expect(res.body.records).toHaveLength(1000);
    expect(new Set(res.body.records.map((r: Stored) => r.id)).size).toBe(1000);
    const again = await sync(org, { records, deactivateMissing: true });
    expect(again.body).toMatchObject({ created: 0, updated: 0, deactivated: 0 });
  });

  it("accepts 1000 full records (over the 256 KiB general body limit), refuses a body over 1 MiB", async () => {
    const org = await createOrganization();
    const prefix = unique("full");
    const records = Array.from({ length: 1000 }, (_, i) => record(`${prefix}-${i}`));
    expect(JSON.stringify({ records }).length).toBeGreaterThan(256 * 1024);
    const res = await sync(org, { records });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.body.created).toBe(1000);
    const huge = await sync(org, { records, padding: "x".repeat(1024 * 1024) });
    expect(huge.status).toBe(413);
  });

  it("binds at most 100 parameters in any statement of a 1000-record sync", () => {
    const db = createDatabase(tenantDb());
    const records = many(1000, "p").map((r) => ({ ...record(r.externalId), timezone: "UTC", geofenceMode: "block" as const }));
    const now = new Date();
    const statements = upsertStatements(
      db,
      locations,
      records.map((r) => locationEntry("org", r, now)),
    );
    const counts = statements.map((statement) => statement.toSQL().params.length);
    expect(Math.max(...counts)).toBeLessThanOrEqual(100);
    expect(counts.reduce((sum, n) => sum + n, 0)).toBe(1000 * 24);
    expect(statements.length).toBe(250);
  });

  it("rejects 1001 records, duplicate externalIds and records without externalId, writing nothing", async () => {
    const org = await createOrganization();
    const tooMany = await sync(org, { records: many(1001, "t") });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors.map((e: { path: string }) => e.path)).toEqual(["records"]);
    const duplicate = await sync(org, { records: [record("dup"), record("other"), record("dup")] });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.errors).toEqual([{ path: "records.2.externalId", message: "duplicate externalId 'dup' in this payload" }]);
    const missing = await sync(org, { records: [{ name: "No id" }] });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { path: string }) => e.path)).toEqual(["records.0.externalId"]);
    const invalid = await sync(org, { records: [record("ok"), record("bad", { latitude: 12.5 })] });
    expect(invalid.status).toBe(400);
    expect((await sync(org, { records: [] })).status).toBe(400);
    const list = await api("GET", `/api/organizations/${org.id}/locations?includeDeleted=true`, { token: org.adminToken });
    expect(list.body).toEqual([]);
  });

  it("is 401 without a token, 403 for an Employee and 404 for another organization", async () => {
    const org = await createOrganization();
    expect((await api("POST", syncPath(org), { body: { records: [record("a")] } })).status).toBe(401);
    const staff = await api("POST", `/api/organizations/${org.id}/staffmembers`, {
      token: org.adminToken,
      body: { name: unique("Staff"), accessRoleName: "Employee" },
    });
    expect(staff.status, staff.text).toBe(201);
    const employee = await accessToken({ organizationId: org.id, employeeId: staff.body.id });
    expect((await sync(org, { records: [record("a")] }, employee)).status).toBe(403);
    const other = await createOrganization();
    expect((await sync(org, { records: [record("a")] }, other.adminToken)).status).toBe(404);
    const list = await api("GET", `/api/organizations/${org.id}/locations`, { token: org.adminToken });
    expect(list.body).toEqual([]);
  });
});
