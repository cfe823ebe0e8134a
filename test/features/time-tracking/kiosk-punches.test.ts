import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import * as images from "../../helpers/images";
import { enrollDevice, setStaffPin } from "../../helpers/kiosk";
import { createLocation } from "../../helpers/locations";
import { meanwhile } from "../../helpers/meanwhile";
import { feed } from "../../helpers/pay";
import { expectInvalid } from "../../helpers/problems";
import { tenantDb } from "../../helpers/shards";
import { createStaffMember } from "../../helpers/staff";
import { createBreakType, createWorkplace, minutesAgo, type Workplace } from "../../helpers/workplace";

const PIN = "2468";
const { JPEG, PNG } = images;

interface Kiosk extends Workplace {
  device: { deviceId: string; token: string };
}

/** The workplace (a fenced location) with an enrolled kiosk, and its staff member's PIN set. */
async function kioskWorkplace(location: Record<string, unknown> = {}): Promise<Kiosk> {
  const w = await createWorkplace(location);
  await setStaffPin(w.org, w.staff.id, PIN);
  return { ...w, device: await enrollDevice(w.org, w.location.id) };
}

const kioskPunch = (k: Kiosk, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  api("POST", "/api/kiosk/punches", { token: k.device.token, body: { employeeId: k.staff.id, pin: PIN, ...body }, headers });

const clockIn = (k: Kiosk, body: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  kioskPunch(k, { action: "CLOCK_IN", roleId: k.roleId, ...body }, headers);

/** An image upload as a kiosk sends it: the bytes, with their Content-Type. */
async function upload(token: string, bytes: Uint8Array, contentType: string) {
  const response = await exports.default.fetch(
    new Request("http://shiftline.test/api/kiosk/photos", {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": contentType },
      body: bytes,
    }),
  );
  return { status: response.status, body: await response.json<Record<string, any>>() };
}

const count = async (sql: string, ...values: unknown[]) =>
  (await tenantDb()
    .prepare(sql)
    .bind(...values)
    .first<{ n: number }>())!.n;
const shiftsOf = (k: Kiosk) => count("SELECT count(*) AS n FROM shifts WHERE employee_id = ?", k.staff.id);
const eventsOf = (k: Kiosk) => count("SELECT count(*) AS n FROM shift_events WHERE employee_id = ?", k.staff.id);

describe("POST /api/kiosk/punches", () => {
  it("clocks in by PIN as the phone does, with no position at a fenced location: source KIOSK and the device", async () => {
    const k = await kioskWorkplace();
    const res = await clockIn(k);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      employeeId: k.staff.id,
      locationId: k.location.id,
      roleId: k.roleId,
      active: true,
      endTime: null,
      clockInSource: "KIOSK",
      clockInDeviceId: k.device.deviceId,
      clockOutSource: null,
    });
    expect(res.body.events).toEqual([
      expect.objectContaining({ kind: "clock_in", source: "KIOSK", deviceId: k.device.deviceId, verdict: "unfenced", latitude: null }),
    ]);
    const clockedIn = (await feed(k.org)).find((e) => e.type === "shift.clocked_in")!;
    expect(clockedIn.data).toMatchObject({ id: res.body.id, clockInSource: "KIOSK", clockInDeviceId: k.device.deviceId });
    // The same shift rules: one open shift.
    const again = await clockIn(k);
    expect([again.status, again.body.code]).toEqual([409, "SHIFT_ALREADY_OPEN"]);
  });

  it("starts and ends a break and clocks out, each event KIOSK; the shift reads them back", async () => {
    const k = await kioskWorkplace();
    const lunch = await createBreakType(k);
    const opened = await clockIn(k, { occurredAt: minutesAgo(60) });
    const started = await kioskPunch(k, { action: "BREAK_START", typeId: lunch.id, occurredAt: minutesAgo(40) });
    expect(started.status, started.text).toBe(200);
    expect(started.body.breaks).toHaveLength(1);
    const ended = await kioskPunch(k, { action: "BREAK_END", occurredAt: minutesAgo(10) });
    expect(ended.status).toBe(200);
    expect(ended.body.breaks[0].utcEndTime).not.toBeNull();
    const closed = await kioskPunch(k, { action: "CLOCK_OUT" });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({
      active: false,
      totalUnpaidBreaks: 30,
      clockInSource: "KIOSK",
      clockOutSource: "KIOSK",
      clockOutDeviceId: k.device.deviceId,
    });
    const read = (await api("GET", `/api/timesheets/${opened.body.id}`, { token: k.org.adminToken })).body;
    expect(read.events.map((e: { kind: string; source: string; deviceId: string }) => [e.kind, e.source, e.deviceId])).toEqual([
      ["clock_in", "KIOSK", k.device.deviceId],
      ["break_start", "KIOSK", k.device.deviceId],
      ["break_end", "KIOSK", k.device.deviceId],
      ["clock_out", "KIOSK", k.device.deviceId],
    ]);
    const listed = await api("GET", `/api/timesheets?startDate=${read.businessDate}&endDate=${read.businessDate}&source=KIOSK`, {
      token: k.org.adminToken,
    });
    expect(listed.body.shifts.map((s: { id: string }) => s.id)).toEqual([opened.body.id]);
  });

  it("refuses what the phone's punches refuse: no open shift, no open break, a missing role or break type", async () => {
    const k = await kioskWorkplace();
    const out = await kioskPunch(k, { action: "CLOCK_OUT" });
    expect([out.status, out.body.code]).toEqual([409, "NO_OPEN_SHIFT"]);
    expectInvalid(await kioskPunch(k, { action: "CLOCK_IN" }), ["roleId"]);
    await clockIn(k);
    expectInvalid(await kioskPunch(k, { action: "BREAK_START" }), ["typeId"]);
    const end = await kioskPunch(k, { action: "BREAK_END" });
    expect([end.status, end.body.code]).toEqual([409, "NO_OPEN_BREAK"]);
    // A break type named is checked whatever the action.
    expectInvalid(await kioskPunch(k, { action: "CLOCK_OUT", typeId: "no-such-type" }), ["typeId"], "BREAK_TYPE_UNAVAILABLE");
    const future = await kioskPunch(k, { action: "CLOCK_OUT", occurredAt: new Date(Date.now() + 3_600_000).toISOString() });
    expect([future.status, future.body.code]).toEqual([400, "OCCURRED_AT_IN_FUTURE"]);
  });

  it("a wrong PIN is 401 PIN_INCORRECT and writes no shift and no event", async () => {
    const k = await kioskWorkplace();
    const res = await clockIn(k, { pin: "1111" });
    expect([res.status, res.body.code]).toEqual([401, "PIN_INCORRECT"]);
    expect(await shiftsOf(k)).toBe(0);
    expect(await eventsOf(k)).toBe(0);
    expect((await feed(k.org)).filter((e) => e.type.startsWith("shift."))).toEqual([]);
  });

  it("a member of another location, or an access token, cannot punch here", async () => {
    const k = await kioskWorkplace();
    const elsewhere = await createLocation(k.org, { timezone: "UTC" });
    const stranger = await createStaffMember(k.org, { locationIds: [elsewhere.id] });
    await setStaffPin(k.org, stranger.id, PIN);
    const res = await clockIn(k, { employeeId: stranger.id });
    expect([res.status, res.body.code]).toEqual([401, "PIN_INCORRECT"]);
    const admin = await api("POST", "/api/kiosk/punches", {
      token: k.org.adminToken,
      body: { employeeId: k.staff.id, pin: PIN, action: "CLOCK_IN", roleId: k.roleId },
    });
    expect([admin.status, admin.body.code]).toEqual([403, "FORBIDDEN"]);
    expect(await shiftsOf(k)).toBe(0);
  });

  it("replays an offline punch sent again under its Idempotency-Key: the first answer, one shift", async () => {
    const k = await kioskWorkplace();
    const key = { "Idempotency-Key": "kiosk-offline-1" };
    const at = minutesAgo(30);
    const first = await clockIn(k, { occurredAt: at }, key);
    expect(first.status).toBe(200);
    expect(first.body.utcStartTime).toBe(new Date(at).toISOString());
    const again = await clockIn(k, { occurredAt: at }, key);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await shiftsOf(k)).toBe(1);
    const other = await clockIn(k, { occurredAt: minutesAgo(20) }, key);
    expect([other.status, other.body.code]).toEqual([422, "IDEMPOTENCY_KEY_REUSED"]);
    // The PIN is checked before the replay: a wrong one learns nothing of the stored answer.
    const wrong = await clockIn(k, { occurredAt: at, pin: "9999" }, key);
    expect([wrong.status, wrong.body.code]).toEqual([401, "PIN_INCORRECT"]);
  });

  it("raises the same attendance exceptions as a phone's clock-in (an unscheduled shift)", async () => {
    const k = await kioskWorkplace({ timezone: "UTC" });
    const shift = await clockIn(k);
    const day = shift.body.businessDate;
    const exceptions = await api("GET", `/api/organizations/${k.org.id}/attendance-exceptions?startDate=${day}&endDate=${day}`, {
      token: k.org.adminToken,
    });
    expect(exceptions.body.map((e: { type: string; shiftId: string }) => [e.type, e.shiftId])).toEqual([
      ["UNSCHEDULED_SHIFT", shift.body.id],
    ]);
  });
});

describe("kiosk photos", () => {
  it("a location with kioskPhotoRequired refuses a punch without a photo (422 PHOTO_REQUIRED, nothing written)", async () => {
    const k = await kioskWorkplace();
    await api("PATCH", `/api/organizations/${k.org.id}/locations/${k.location.id}`, {
      token: k.org.adminToken,
      body: { kioskPhotoRequired: true },
    });
    const res = await clockIn(k);
    expect([res.status, res.body.code]).toEqual([422, "PHOTO_REQUIRED"]);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(["photoId"]);
    expect(await shiftsOf(k)).toBe(0);

    const photo = await upload(k.device.token, JPEG, "image/jpeg");
    expect(photo.status).toBe(201);
    expect(photo.body).toMatchObject({
      locationId: k.location.id,
      deviceId: k.device.deviceId,
      contentType: "image/jpeg",
      size: JPEG.length,
    });
    const punched = await clockIn(k, { photoId: photo.body.photoId });
    expect(punched.status, JSON.stringify(punched.body)).toBe(200);
    expect(punched.body.events[0]).toMatchObject({ source: "KIOSK", photoId: photo.body.photoId });

    const listed = await api("GET", `/api/timesheets/${punched.body.id}/photos`, { token: k.org.adminToken });
    expect(listed.body.map((p: { id: string; employeeId: string }) => [p.id, p.employeeId])).toEqual([[photo.body.photoId, k.staff.id]]);
    const image = await exports.default.fetch(new Request(listed.body[0].url));
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(JPEG);

    // A photo goes with one punch only.
    const reused = await kioskPunch(k, { action: "CLOCK_OUT", photoId: photo.body.photoId });
    expect([reused.status, reused.body.code]).toEqual([409, "PHOTO_ALREADY_ATTACHED"]);
    expect((await feed(k.org)).filter((e) => e.type === "photo.created")).toHaveLength(1);
  });

  it("a photo of another location is 404 PHOTO_NOT_FOUND", async () => {
    const k = await kioskWorkplace();
    const elsewhere = await createLocation(k.org, { timezone: "UTC" });
    const otherDevice = await enrollDevice(k.org, elsewhere.id);
    const photo = await upload(otherDevice.token, JPEG, "image/jpeg");
    const res = await clockIn(k, { photoId: photo.body.photoId });
    expect([res.status, res.body.code]).toEqual([404, "PHOTO_NOT_FOUND"]);
    expect(await shiftsOf(k)).toBe(0);
  });

  it("two punches naming one photo at once: one takes it, the other is 409 and writes nothing", async () => {
    const k = await kioskWorkplace();
    const second = await createStaffMember(k.org, { locationIds: [k.location.id], accessRoleName: "Employee" });
    await setStaffPin(k.org, second.id, PIN);
    const photo = await upload(k.device.token, JPEG, "image/jpeg");
    const results = await Promise.all([
      clockIn(k, { photoId: photo.body.photoId }),
      clockIn(k, { photoId: photo.body.photoId, employeeId: second.id }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.code).toBe("PHOTO_ALREADY_ATTACHED");
    const open = await count("SELECT count(*) AS n FROM shifts WHERE employee_id IN (?, ?)", k.staff.id, second.id);
    expect(open).toBe(1);
  });

  it("a photo another punch takes between this punch's read and its write: 409, and the batch writes nothing", async () => {
    const k = await kioskWorkplace();
    const photo = await upload(k.device.token, JPEG, "image/jpeg");
    const undo = await meanwhile("photo-race", [`UPDATE photos SET shift_id = 'another-shift' WHERE id = '${photo.body.photoId}'`]);
    try {
      const res = await clockIn(k, { photoId: photo.body.photoId }, { "Idempotency-Key": "photo-race" });
      expect([res.status, res.body.code]).toEqual([409, "PHOTO_ALREADY_ATTACHED"]);
    } finally {
      await undo();
    }
    expect(await shiftsOf(k)).toBe(0);
    expect(await eventsOf(k)).toBe(0);
  });

  it("checks the content by its magic bytes: a PNG sent as JPEG, text, another type, too large; nothing stored", async () => {
    const k = await kioskWorkplace();
    const mismatch = await upload(k.device.token, PNG, "image/jpeg");
    expect([mismatch.status, mismatch.body.code]).toEqual([400, "PHOTO_CONTENT_INVALID"]);
    expect(mismatch.body.errors.map((e: { path: string }) => e.path)).toEqual(["body"]);
    const text = await upload(k.device.token, new TextEncoder().encode("not an image"), "image/png");
    expect([text.status, text.body.code]).toEqual([400, "PHOTO_CONTENT_INVALID"]);
    const gif = await upload(k.device.token, new TextEncoder().encode("GIF89a"), "image/gif");
    expect([gif.status, gif.body.code]).toEqual([415, "PHOTO_TYPE_UNSUPPORTED"]);
    const big = new Uint8Array(2 * 1024 * 1024 + 1);
    big.set(JPEG);
    const tooLarge = await upload(k.device.token, big, "image/jpeg");
    expect([tooLarge.status, tooLarge.body.code]).toEqual([413, "PAYLOAD_TOO_LARGE"]);
    expect((await upload(k.device.token, images.jpegOfSize(2 * 1024 * 1024), "image/jpeg")).status).toBe(201);
    expect(await count("SELECT count(*) AS n FROM photos WHERE organization_id = ?", k.org.id)).toBe(1);
    expect((await env.FILES.list({ prefix: `photos/${k.org.id}/` })).objects).toHaveLength(1);
    const admin = await upload(k.org.adminToken, JPEG, "image/jpeg");
    expect([admin.status, admin.body.code]).toEqual([403, "FORBIDDEN"]);
  });

  it("judges the image's whole structure, not its first bytes: a JPEG header or a whole image followed by HTML is refused", async () => {
    const k = await kioskWorkplace();
    const html = new TextEncoder().encode("<html><script>alert(document.cookie)</script></html>");
    const header = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
    for (const [bytes, type] of [
      [new Uint8Array([...header, ...html]), "image/jpeg"],
      [new Uint8Array([...JPEG, ...html]), "image/jpeg"],
      [new Uint8Array([...PNG, ...html]), "image/png"],
      [PNG.subarray(0, PNG.length - 12), "image/png"],
    ] as const) {
      const refused = await upload(k.device.token, bytes, type);
      expect([refused.status, refused.body.code]).toEqual([400, "PHOTO_CONTENT_INVALID"]);
      expect(refused.body.errors.map((e: { path: string }) => e.path)).toEqual(["body"]);
    }
    expect(await count("SELECT count(*) AS n FROM photos WHERE organization_id = ?", k.org.id)).toBe(0);
    expect((await env.FILES.list({ prefix: `photos/${k.org.id}/` })).objects).toHaveLength(0);
    for (const [bytes, type] of [
      [images.PROGRESSIVE_JPEG, "image/jpeg"],
      [images.PALETTE_PNG, "image/png"],
      [images.WEBP_LOSSLESS, "image/webp"],
      [images.WEBP_ALPHA, "image/webp"],
    ] as const) {
      expect((await upload(k.device.token, bytes, type)).status, type).toBe(201);
    }
  });
});
