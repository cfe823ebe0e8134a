import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { shardBinding } from "@/data/shards";
import { advanceMove, requestAbort, startMove } from "@/shards/move-organization";
import { api } from "../helpers/api";
import { createOrganization, type OrganizationFixture } from "../helpers/fixtures";
import { JPEG } from "../helpers/images";
import { enrollDevice, setStaffPin } from "../helpers/kiosk";
import { createLocation } from "../helpers/locations";
import { directoryDb, dump, move, rowCount, runMove, shardNames, shardOf } from "../helpers/shards";
import { createStaffMember } from "../helpers/staff";

const PIN = "2468";

/**
 * An organization of `dataRegion` with a location, a staff member, a kiosk, a photo uploaded by the kiosk (an R2
 * object) and the shift its clock-in opened with that photo: everything written through the API.
 */
async function populated(dataRegion: "EU" | "DEFAULT") {
  const org = await createOrganization({ dataRegion });
  const location = await createLocation(org, { timezone: "Europe/Berlin" });
  const staff = await createStaffMember(org, { locationIds: [location.id], accessRoleName: "Employee" });
  await setStaffPin(org, staff.id, PIN);
  const device = await enrollDevice(org, location.id);
  const uploaded = await exports.default.fetch(
    new Request("http://shiftline.test/api/kiosk/photos", {
      method: "POST",
      headers: { Authorization: `Bearer ${device.token}`, "Content-Type": "image/jpeg" },
      body: JPEG,
    }),
  );
  expect(uploaded.status).toBe(201);
  const { photoId } = await uploaded.json<{ photoId: string }>();
  const shift = await api("POST", "/api/kiosk/punches", {
    token: device.token,
    body: { employeeId: staff.id, pin: PIN, action: "CLOCK_IN", roleId: org.defaultRoleId, photoId },
  });
  expect(shift.status, shift.text).toBe(200);
  return { org, staff, shiftId: shift.body.id as string, photoId };
}

/** How many of the organization's rows `table` holds on each shard. */
async function rowsByShard(table: string, column: string, organizationId: string) {
  const counts: Record<string, number> = {};
  for (const shard of shardNames()) {
    const row = await shardBinding(env, shard)
      .prepare(`SELECT count(*) AS n FROM ${table} WHERE ${column} = ?`)
      .bind(organizationId)
      .first<{ n: number }>();
    counts[shard] = row!.n;
  }
  return counts;
}

/** The keys under the organization's photo prefix in each region's bucket. */
async function objectsByBucket(organizationId: string) {
  const keysIn = async (bucket: R2Bucket) => (await bucket.list({ prefix: `photos/${organizationId}/` })).objects.map((o) => o.key);
  return { FILES: await keysIn(env.FILES), FILES_EU: await keysIn(env.FILES_EU) };
}

/** Only `shard` has the organization's rows: its organization row, staff member, shift and photo row. */
async function expectRowsOnlyOn(org: OrganizationFixture, shard: string) {
  const only = (n: number) => Object.fromEntries(shardNames().map((s) => [s, s === shard ? n : 0]));
  expect(await rowsByShard("organizations", "id", org.id)).toEqual(only(1));
  expect(await rowsByShard("staff_members", "organization_id", org.id)).toEqual(only(1));
  expect(await rowsByShard("shifts", "organization_id", org.id)).toEqual(only(1));
  expect(await rowsByShard("photos", "organization_id", org.id)).toEqual(only(1));
  // And nothing else of it, in any moved table, on another shard.
  for (const other of shardNames().filter((s) => s !== shard)) expect(rowCount(await dump(other, org.id))).toBe(0);
}

describe("data regions", () => {
  it("an EU organization's rows are only in the EU shard's D1 and its files only in the EU bucket", async () => {
    const { org, shiftId, photoId } = await populated("EU");
    expect(await shardOf(org.id)).toBe("DB_SHARD_EU");
    const read = await api("GET", `/api/organizations/${org.id}`, { token: org.adminToken });
    expect(read.body.dataRegion).toBe("EU");
    await expectRowsOnlyOn(org, "DB_SHARD_EU");
    expect(await objectsByBucket(org.id)).toEqual({ FILES: [], FILES_EU: [`photos/${org.id}/${photoId}`] });

    // Read back from the EU bucket through the photo's link.
    const listed = await api("GET", `/api/timesheets/${shiftId}/photos`, { token: org.adminToken });
    expect(listed.status).toBe(200);
    const image = await exports.default.fetch(new Request(listed.body[0].url.replace(/^https?:\/\/[^/]+/, "http://shiftline.test")));
    expect(image.status).toBe(200);
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(JPEG);
  });

  it("a DEFAULT organization's rows and files stay out of the EU shard and bucket", async () => {
    const { org, photoId } = await populated("DEFAULT");
    const shard = await shardOf(org.id);
    expect(shard).toBe("DB_SHARD_2"); // NEW_ORGANIZATION_SHARD in wrangler.toml
    await expectRowsOnlyOn(org, shard);
    expect(await objectsByBucket(org.id)).toEqual({ FILES: [`photos/${org.id}/${photoId}`], FILES_EU: [] });
  });

  it("the directory entry holds the shard and no personal data: id, partner, externalId, shard, times", async () => {
    const org = await createOrganization({ dataRegion: "EU", externalId: "eu-42" });
    const entry = await directoryDb().prepare("SELECT * FROM organization_directory WHERE organization_id = ?").bind(org.id).first();
    expect(Object.keys(entry!).sort()).toEqual(["created_at", "external_id", "organization_id", "partner_id", "shard", "updated_at"]);
    expect(entry!.shard).toBe("DB_SHARD_EU");
  });

  it("dataRegion defaults to DEFAULT, is read-only (PATCH: 400 VALIDATION_FAILED, nothing changed), and an unknown one is 400", async () => {
    const org = await createOrganization();
    const read = await api("GET", `/api/organizations/${org.id}`, { token: org.adminToken });
    expect(read.body.dataRegion).toBe("DEFAULT");
    const patched = await api("PATCH", `/api/organizations/${org.id}`, {
      token: org.adminToken,
      body: { name: "Moved?", dataRegion: "EU" },
    });
    expect(patched.status).toBe(400);
    expect(patched.body.code).toBe("VALIDATION_FAILED");
    expect(patched.body.errors.map((e: { path: string }) => e.path)).toEqual(["dataRegion"]);
    const after = await api("GET", `/api/organizations/${org.id}`, { token: org.adminToken });
    expect(after.body).toMatchObject({ name: read.body.name, dataRegion: "DEFAULT", updatedAt: read.body.updatedAt });
    await expect(createOrganization({ dataRegion: "US" })).rejects.toThrow(/400/);
  });

  it("a shard move to the other region's shard carries dataRegion and the organization's files to the target's region", async () => {
    const { org, shiftId, photoId } = await populated("EU");
    const { state } = await move(org.id, "DB_SHARD_2", { pages: 3 });
    expect(state).toMatchObject({ step: "done", error: null });
    expect(await shardOf(org.id)).toBe("DB_SHARD_2");
    await expectRowsOnlyOn(org, "DB_SHARD_2");
    expect(await objectsByBucket(org.id)).toEqual({ FILES: [`photos/${org.id}/${photoId}`], FILES_EU: [] });
    const read = await api("GET", `/api/organizations/${org.id}`, { token: org.adminToken });
    expect(read.body.dataRegion).toBe("DEFAULT");
    // The photo reads from its new region's bucket: the same bytes.
    const listed = await api("GET", `/api/timesheets/${shiftId}/photos`, { token: org.adminToken });
    const image = await exports.default.fetch(new Request(listed.body[0].url.replace(/^https?:\/\/[^/]+/, "http://shiftline.test")));
    expect(image.status).toBe(200);
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(JPEG);
  });

  it("an aborted move between regions leaves the files where they were and no copy in the target's bucket", async () => {
    const { org, photoId } = await populated("EU");
    await startMove(env, org.id, "DB_SHARD_2");
    // A unit of work a call, up to the photos' page, then that page: the copy made, the directory not flipped.
    let state = await advanceMove(env, org.id, { settleMs: 0, pages: 1 });
    for (let calls = 0; state.table !== "files:photos" && calls < 500; calls++)
      state = await advanceMove(env, org.id, { settleMs: 0, pages: 1 });
    expect(state).toMatchObject({ step: "copy", table: "files:photos" });
    state = await advanceMove(env, org.id, { settleMs: 0, pages: 1 });
    expect(state.step).toBe("verify");
    expect(await objectsByBucket(org.id)).toEqual({ FILES: [`photos/${org.id}/${photoId}`], FILES_EU: [`photos/${org.id}/${photoId}`] });
    await requestAbort(env, org.id);
    const { state: aborted } = await runMove(org.id);
    expect(aborted.step).toBe("aborted");
    expect(await shardOf(org.id)).toBe("DB_SHARD_EU");
    expect(await objectsByBucket(org.id)).toEqual({ FILES: [], FILES_EU: [`photos/${org.id}/${photoId}`] });
  });
});
