import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { photoSignature } from "@/auth/photo-url";
import { createDatabase } from "@/data/client";
import { newId } from "@/data/ids";
import { sweepDeletedOrganizationPhotos } from "@/jobs/sweep-photos";
import { api } from "../../helpers/api";
import { createOrganization } from "../../helpers/fixtures";
import { enrollDevice } from "../../helpers/kiosk";
import { expectInvalid } from "../../helpers/problems";
import { tenantDb } from "../../helpers/shards";
import { manualShift } from "../../helpers/timesheets";
import { createWorkplace, type Workplace } from "../../helpers/workplace";

const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 2, 3, 4, 5]);
const SECRET = "test-photo-url-secret-not-for-production";

/** A kiosk photo of the workplace's shift, stored as the upload stores one: the object in R2, its row in D1. */
async function seedPhoto(w: Workplace, shiftId: string, bytes = JPEG) {
  const { deviceId } = await enrollDevice(w.org, w.location.id);
  const id = newId();
  const key = `photos/${w.org.id}/${id}`;
  await env.FILES.put(key, bytes, { httpMetadata: { contentType: "image/jpeg" } });
  await tenantDb()
    .prepare(
      `INSERT INTO photos (id, organization_id, location_id, device_id, employee_id, shift_id, object_key, size, sha256, content_type, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'ab', 'image/jpeg', ?)`,
    )
    .bind(id, w.org.id, w.location.id, deviceId, w.staff.id, shiftId, key, bytes.byteLength, Date.now())
    .run();
  return { id, key, deviceId };
}

async function shiftWithPhoto() {
  const w = await createWorkplace();
  const shift = await manualShift(w, { startTime: "2026-03-14T09:00:00Z", endTime: "2026-03-14T17:00:00Z" });
  const photo = await seedPhoto(w, shift.body.id);
  return { w, shiftId: shift.body.id as string, photo };
}

const listPhotos = (w: Workplace, shiftId: string, token = w.org.adminToken) => api("GET", `/api/timesheets/${shiftId}/photos`, { token });

/** A link's answer, read as bytes (no token: the link is the credential). */
async function download(url: string) {
  const response = await exports.default.fetch(new Request(url.replace(/^https?:\/\/[^/]+/, "http://shiftline.test")));
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  return { status: response.status, headers: response.headers, bytes, problem: response.ok ? null : JSON.parse(text) };
}

describe("GET /api/timesheets/{id}/photos", () => {
  it("lists the shift's photos with a 5-minute link that serves the image without a token", async () => {
    const { w, shiftId, photo } = await shiftWithPhoto();
    const res = await listPhotos(w, shiftId);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    const [listed] = res.body;
    expect(listed).toMatchObject({
      id: photo.id,
      shiftId,
      employeeId: w.staff.id,
      locationId: w.location.id,
      deviceId: photo.deviceId,
      contentType: "image/jpeg",
      size: JPEG.byteLength,
    });
    const ttl = Date.parse(listed.urlExpiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(290_000);
    expect(ttl).toBeLessThanOrEqual(300_000);
    const image = await download(listed.url);
    expect(image.status).toBe(200);
    expect(image.headers.get("Content-Type")).toBe("image/jpeg");
    expect([...image.bytes]).toEqual([...JPEG]);
  });

  it("serves a photo only as an image type, with nosniff: an object stored as text/html leaves as application/octet-stream", async () => {
    const { w, shiftId, photo } = await shiftWithPhoto();
    const served = await download((await listPhotos(w, shiftId)).body[0].url);
    expect(served.headers.get("X-Content-Type-Options")).toBe("nosniff");
    await env.FILES.put(photo.key, new TextEncoder().encode("<html><script>alert(1)</script>"), {
      httpMetadata: { contentType: "text/html" },
    });
    const html = await download((await listPhotos(w, shiftId)).body[0].url);
    expect(html.status).toBe(200);
    expect(html.headers.get("Content-Type")).toBe("application/octet-stream");
    expect(html.headers.get("X-Content-Type-Options")).toBe("nosniff");
  });

  it("answers an empty list for a shift without photos, 404 for another organization's shift, 403 without SHIFT_READ", async () => {
    const { w, shiftId } = await shiftWithPhoto();
    const other = await manualShift(w, { startTime: "2026-03-15T09:00:00Z", endTime: "2026-03-15T17:00:00Z" });
    expect((await listPhotos(w, other.body.id)).body).toEqual([]);
    const stranger = await createOrganization();
    const foreign = await listPhotos(w, shiftId, stranger.adminToken);
    expect([foreign.status, foreign.body.code]).toEqual([404, "SHIFT_NOT_FOUND"]);
    const own = await listPhotos(w, shiftId, w.token);
    expect([own.status, own.body.code]).toEqual([403, "FORBIDDEN"]);
    const unknown = await listPhotos(w, "no-such-shift");
    expect([unknown.status, unknown.body.code]).toEqual([404, "SHIFT_NOT_FOUND"]);
  });
});

describe("GET /api/photos/{photoId} (a signed link)", () => {
  it("refuses a link whose signature, photo, organization or expiry was changed: 403 PHOTO_URL_INVALID", async () => {
    const { w, shiftId } = await shiftWithPhoto();
    const url = new URL((await listPhotos(w, shiftId)).body[0].url);
    const variants = [
      // One character changed, always to another one (replacing the last two with "AA" left 1 in 1,024 links as they were).
      (u: URL) => {
        const signature = u.searchParams.get("signature")!;
        u.searchParams.set("signature", `${signature[0] === "A" ? "B" : "A"}${signature.slice(1)}`);
      },
      (u: URL) => u.searchParams.set("expires", String(Number(u.searchParams.get("expires")) + 3600)),
      (u: URL) => u.searchParams.set("organizationId", "another-organization"),
      (u: URL) => {
        u.pathname = "/api/photos/another-photo";
      },
      (u: URL) => u.searchParams.set("signature", "not-a-signature"),
    ];
    for (const change of variants) {
      const forged = new URL(url);
      change(forged);
      const res = await download(forged.toString());
      expect([res.status, res.problem.code]).toEqual([403, "PHOTO_URL_INVALID"]);
    }
  });

  it("stops serving once the link expires: 403 PHOTO_URL_EXPIRED", async () => {
    const { w, photo } = await shiftWithPhoto();
    const expires = Math.floor(Date.now() / 1000) - 1;
    const signature = await photoSignature(SECRET, { organizationId: w.org.id, photoId: photo.id, expires });
    const query = new URLSearchParams({ organizationId: w.org.id, expires: String(expires), signature });
    const res = await download(`http://shiftline.test/api/photos/${photo.id}?${query}`);
    expect([res.status, res.problem.code]).toEqual([403, "PHOTO_URL_EXPIRED"]);
  });

  it("refuses a link without its query: 400 naming each field", async () => {
    const res = await api("GET", "/api/photos/p1?expires=soon");
    expectInvalid(res, ["organizationId", "expires", "signature"]);
  });
});

describe("a deleted organization's photos", () => {
  it("are deleted with it: the file at once (its link 404), the rows by the sweep", async () => {
    const { w, shiftId, photo } = await shiftWithPhoto();
    const url = (await listPhotos(w, shiftId)).body[0].url;
    expect(await env.FILES.head(photo.key)).not.toBeNull();
    const deleted = await api("DELETE", `/api/organizations/${w.org.id}`, { token: w.org.adminToken });
    expect(deleted.status).toBe(200);
    expect(await env.FILES.head(photo.key)).toBeNull();
    const res = await download(url);
    expect([res.status, res.problem.code]).toEqual([404, "PHOTO_NOT_FOUND"]);

    const rows = async () =>
      (await tenantDb().prepare("SELECT count(*) AS n FROM photos WHERE organization_id = ?").bind(w.org.id).first<{ n: number }>())!.n;
    expect(await rows()).toBe(1);
    // The sweep also removes what the deletion could not: an object left behind.
    await env.FILES.put(photo.key, JPEG);
    const swept = await sweepDeletedOrganizationPhotos(env.FILES, createDatabase(tenantDb()), 1000);
    expect(swept).toContain(w.org.id);
    expect(await rows()).toBe(0);
    expect(await env.FILES.head(photo.key)).toBeNull();
  });

  it("a live organization's photos are left alone by the sweep", async () => {
    const { w, photo } = await shiftWithPhoto();
    const swept = await sweepDeletedOrganizationPhotos(env.FILES, createDatabase(tenantDb()), 1000);
    expect(swept).not.toContain(w.org.id);
    expect(await env.FILES.head(photo.key)).not.toBeNull();
  });
});

describe("kioskPhotoRequired on a location", () => {
  it("defaults to false, is set by PATCH and read back, and must be a boolean", async () => {
    const w = await createWorkplace();
    expect(w.location).toMatchObject({ kioskPhotoRequired: false });
    const path = `/api/organizations/${w.org.id}/locations/${w.location.id}`;
    const patched = await api("PATCH", path, { token: w.org.adminToken, body: { kioskPhotoRequired: true } });
    expect(patched.status).toBe(200);
    expect(patched.body.kioskPhotoRequired).toBe(true);
    expect((await api("GET", path, { token: w.org.adminToken })).body.kioskPhotoRequired).toBe(true);
    expectInvalid(await api("PATCH", path, { token: w.org.adminToken, body: { kioskPhotoRequired: "yes" } }), ["kioskPhotoRequired"]);
  });
});
