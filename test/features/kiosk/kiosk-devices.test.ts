import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { changes, snapshot } from "../../helpers/db-snapshot";
import { createOrganization, type OrganizationFixture } from "../../helpers/fixtures";
import { requestWithInterference } from "../../helpers/interfering-d1";
import { enrollDevice } from "../../helpers/kiosk";
import { createLocation } from "../../helpers/locations";
import { loadDocument, walk } from "../../helpers/openapi-walk";
import { tenantDb } from "../../helpers/shards";
import { createStaffMember, staffToken } from "../../helpers/staff";
import { HERE } from "../../helpers/workplace";

const devicesPath = (org: OrganizationFixture, locationId: string) => `/api/organizations/${org.id}/locations/${locationId}/devices`;

const feed = async (org: OrganizationFixture, prefix: string) =>
  ((await api("GET", `/api/organizations/${org.id}/events?limit=500`, { token: org.adminToken })).body as { type: string; data: any }[])
    .filter((e) => e.type.startsWith(prefix))
    .map((e) => [e.type, e.data] as const);

async function createDevice(org: OrganizationFixture, locationId: string, name = "Door") {
  const res = await api("POST", devicesPath(org, locationId), { token: org.adminToken, body: { name } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; enrollmentCode: string; status: string } & Record<string, unknown>;
}

const enroll = (enrollmentCode: string) => api("POST", "/api/devices/enroll", { body: { enrollmentCode } });
const deviceRow = (id: string) => tenantDb().prepare("SELECT * FROM devices WHERE id = ?").bind(id).first<Record<string, any>>();

describe("devices: creation and enrollment", () => {
  it("creates a PENDING device with an 8-character code from the unambiguous alphabet, stored only as a hash", async () => {
    const org = await createOrganization();
    const location = await createLocation(org);
    const device = await createDevice(org, location.id, "Front door iPad");
    expect(device).toMatchObject({ name: "Front door iPad", locationId: location.id, status: "PENDING", lastSeenAt: null });
    expect(device.enrollmentCode).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$/);
    const expiresIn = Date.parse(device.enrollmentExpiresAt as string) - Date.now();
    expect(expiresIn).toBeGreaterThan(9 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(10 * 60_000);
    const row = await deviceRow(device.id);
    expect(JSON.stringify(row)).not.toContain(device.enrollmentCode);
    expect(row!.enrollment_code_hash).toMatch(/^[0-9a-f]{64}$/);
    // Listed without its code.
    const list = await api("GET", devicesPath(org, location.id), { token: org.adminToken });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([expect.objectContaining({ id: device.id, enrollmentCode: null, status: "PENDING" })]);
    expect(await feed(org, "device.")).toEqual([["device.created", expect.objectContaining({ id: device.id, enrollmentCode: null })]]);
  });

  it("enrolls once: the code answers a device token, then the same 400 as an unknown code; the token is stored hashed", async () => {
    const org = await createOrganization();
    const location = await createLocation(org);
    const device = await createDevice(org, location.id);
    // Case and separators do not matter.
    const typed = `${device.enrollmentCode.slice(0, 4).toLowerCase()}-${device.enrollmentCode.slice(4)}`;
    const first = await enroll(typed);
    expect(first.status, first.text).toBe(200);
    expect(first.body.deviceId).toBe(device.id);
    expect(first.body.deviceToken).toMatch(new RegExp(`^sld_${org.id}\\.[A-Za-z0-9_-]{43}$`));
    const row = await deviceRow(device.id);
    expect(row).toMatchObject({ status: "ACTIVE", enrollment_code_hash: null });
    expect(JSON.stringify(row)).not.toContain(first.body.deviceToken.split(".")[1]);

    const again = await enroll(device.enrollmentCode);
    const unknown = await enroll("ZZZZZZZZ");
    expect(again.status).toBe(400);
    expect(again.body.code).toBe("ENROLLMENT_CODE_INVALID");
    expect(again.body).toEqual(unknown.body);
    expect(await feed(org, "device.")).toEqual([
      ["device.created", expect.objectContaining({ id: device.id })],
      ["device.enrolled", expect.objectContaining({ id: device.id, status: "ACTIVE" })],
    ]);
    // No event carries a hash of the code or the token.
    const events = await api("GET", `/api/organizations/${org.id}/events?limit=500`, { token: org.adminToken });
    expect(events.text).not.toMatch(/[0-9a-f]{64}/);
  });

  it("an expired code answers exactly as an unknown one, and enrolls nothing", async () => {
    const org = await createOrganization();
    const location = await createLocation(org);
    const device = await createDevice(org, location.id);
    await tenantDb()
      .prepare("UPDATE devices SET enrollment_expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1000, device.id)
      .run();
    const expired = await enroll(device.enrollmentCode);
    const unknown = await enroll("ZZZZZZZZ");
    expect(expired.status).toBe(400);
    expect(expired.body.code).toBe("ENROLLMENT_CODE_INVALID");
    expect(expired.body).toEqual(unknown.body);
    expect((await deviceRow(device.id))!.status).toBe("PENDING");
  });

  it("two enrolls with one code at once: exactly one gets a token", async () => {
    const org = await createOrganization();
    const location = await createLocation(org);
    const device = await createDevice(org, location.id);
    const answers = await Promise.all(Array.from({ length: 6 }, () => enroll(device.enrollmentCode)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    const winner = answers.find((a) => a.status === 200)!;
    expect((await api("GET", "/api/kiosk/staff", { token: winner.body.deviceToken })).status).toBe(200);
    expect((await feed(org, "device.enrolled")).length).toBe(1);
  });

  it("an enroll that read the code before another spent it writes nothing and is told the code is invalid", async () => {
    const org = await createOrganization();
    const location = await createLocation(org);
    const device = await createDevice(org, location.id);
    let other: Awaited<ReturnType<typeof enroll>> | undefined;
    const late = await requestWithInterference(
      "POST",
      "/api/devices/enroll",
      { token: "", body: { enrollmentCode: device.enrollmentCode } },
      { before: /^update "devices"/i, meanwhile: async () => (other = await enroll(device.enrollmentCode)) },
    );
    expect(other!.status).toBe(200);
    expect(late.status).toBe(400);
    expect(late.body.code).toBe("ENROLLMENT_CODE_INVALID");
    expect((await api("GET", "/api/kiosk/staff", { token: other!.body.deviceToken })).status).toBe(200);
    expect((await feed(org, "device.enrolled")).length).toBe(1);
  });

  it("refuses bad input with 400 naming the field, and unknown locations with 404", async () => {
    const org = await createOrganization();
    const location = await createLocation(org);
    const blank = await api("POST", devicesPath(org, location.id), { token: org.adminToken, body: { name: "" } });
    expect(blank.status).toBe(400);
    expect(blank.body.errors.map((e: { path: string }) => e.path)).toEqual(["name"]);
    const missing = await api("POST", "/api/devices/enroll", { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { path: string }) => e.path)).toEqual(["enrollmentCode"]);
    const nowhere = await api("POST", devicesPath(org, "no-such-location"), { token: org.adminToken, body: { name: "x" } });
    expect(nowhere.status).toBe(404);
    expect(nowhere.body.code).toBe("LOCATION_NOT_FOUND");
    expect((await api("GET", devicesPath(org, "no-such-location"), { token: org.adminToken })).body.code).toBe("LOCATION_NOT_FOUND");
  });

  it("needs LOCATION_ADMIN, and another organization's location is 404", async () => {
    const org = await createOrganization();
    const location = await createLocation(org);
    const employee = await createStaffMember(org, { accessRoleName: "Employee", locationIds: [location.id] });
    const token = await staffToken(org, employee.id);
    const refused = await api("POST", devicesPath(org, location.id), { token, body: { name: "x" } });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("FORBIDDEN");
    const manager = await createStaffMember(org, { accessRoleName: "Manager", locationIds: [location.id] });
    const allowed = await api("POST", devicesPath(org, location.id), { token: await staffToken(org, manager.id), body: { name: "x" } });
    expect(allowed.status).toBe(201);
    const other = await createOrganization();
    const foreign = await api("POST", devicesPath(other, location.id), { token: other.adminToken, body: { name: "x" } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe("LOCATION_NOT_FOUND");
  });
});

describe("devices: revoke and rotate", () => {
  it("a revoked device's next request is 401 DEVICE_REVOKED; it leaves the list but shows with includeDeleted", async () => {
    const org = await createOrganization();
    const location = await createLocation(org);
    const { deviceId, token } = await enrollDevice(org, location.id);
    expect((await api("GET", "/api/kiosk/staff", { token })).status).toBe(200);
    const revoked = await api("DELETE", `${devicesPath(org, location.id)}/${deviceId}`, { token: org.adminToken });
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body).toMatchObject({ id: deviceId, status: "REVOKED", active: false });
    const document = await loadDocument();
    for (const [method, path, documented] of [
      ["GET", "/api/kiosk/staff", "/api/kiosk/staff"],
      ["POST", "/api/kiosk/pin-check", "/api/kiosk/pin-check"],
      ["GET", `/api/organizations/${org.id}`, "/api/organizations/{organization_id}"],
    ] as const) {
      const res = await api(method, path, { token, body: method === "POST" ? { employeeId: "x", pin: "1234" } : undefined });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body.code).toBe("DEVICE_REVOKED");
      // Every operation lists it among its 401 codes.
      expect(document.paths[documented]![method.toLowerCase()]!.responses["401"]["x-problem-codes"]).toContain("DEVICE_REVOKED");
    }
    expect((await api("GET", devicesPath(org, location.id), { token: org.adminToken })).body).toEqual([]);
    const all = await api("GET", `${devicesPath(org, location.id)}?includeDeleted=true`, { token: org.adminToken });
    expect(all.body).toEqual([expect.objectContaining({ id: deviceId, status: "REVOKED" })]);
    // Revoking again, or rotating a revoked device: 404.
    expect((await api("DELETE", `${devicesPath(org, location.id)}/${deviceId}`, { token: org.adminToken })).body.code).toBe(
      "DEVICE_NOT_FOUND",
    );
    expect((await api("POST", `${devicesPath(org, location.id)}/${deviceId}/rotate`, { token: org.adminToken })).body.code).toBe(
      "DEVICE_NOT_FOUND",
    );
    expect((await feed(org, "device.")).map(([type]) => type)).toEqual(["device.created", "device.enrolled", "device.revoked"]);
  });

  it("rotate answers a new token once; the old one stops at once", async () => {
    const org = await createOrganization();
    const location = await createLocation(org);
    const { deviceId, token } = await enrollDevice(org, location.id);
    const rotated = await api("POST", `${devicesPath(org, location.id)}/${deviceId}/rotate`, { token: org.adminToken });
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.deviceId).toBe(deviceId);
    expect(rotated.body.deviceToken).not.toBe(token);
    const old = await api("GET", "/api/kiosk/staff", { token });
    expect(old.status).toBe(401);
    expect(old.body.code).toBe("INVALID_ACCESS_TOKEN");
    expect((await api("GET", "/api/kiosk/staff", { token: rotated.body.deviceToken })).status).toBe(200);
    // The list never answers a token.
    const list = await api("GET", devicesPath(org, location.id), { token: org.adminToken });
    expect(list.text).not.toContain(rotated.body.deviceToken);
    expect((await feed(org, "device.rotated")).length).toBe(1);
  });

  it("a device of another location or organization is 404 to revoke or rotate", async () => {
    const org = await createOrganization();
    const location = await createLocation(org);
    const elsewhere = await createLocation(org);
    const { deviceId } = await enrollDevice(org, location.id);
    const wrongLocation = await api("DELETE", `${devicesPath(org, elsewhere.id)}/${deviceId}`, { token: org.adminToken });
    expect(wrongLocation.status).toBe(404);
    expect(wrongLocation.body.code).toBe("DEVICE_NOT_FOUND");
    expect((await deviceRow(deviceId))!.status).toBe("ACTIVE");
  });
});

describe("device tokens reach the kiosk operations of their location only", () => {
  it("every operation of the document but the kiosk's answers a device token 403 FORBIDDEN and changes nothing", async () => {
    const org = await createOrganization();
    const location = await createLocation(org);
    const staff = await createStaffMember(org, { locationIds: [location.id] });
    const { token } = await enrollDevice(org, location.id);
    const document = await loadDocument();
    const operations = walk(document).filter((op) => !op.isPublic);
    const kiosk = operations.filter((op) => op.path.startsWith("/api/kiosk/"));
    expect(kiosk.map((op) => op.name).sort()).toEqual([
      "GET /api/kiosk/staff",
      "POST /api/kiosk/photos",
      "POST /api/kiosk/pin-check",
      "POST /api/kiosk/punches",
    ]);
    // Its lastSeenAt set for the minute, so that nothing below has a reason to write.
    expect((await api("GET", "/api/kiosk/staff", { token })).status).toBe(200);
    const before = await snapshot();
    const refusedWrongly: string[] = [];
    for (const op of operations.filter((o) => !o.path.startsWith("/api/kiosk/"))) {
      // This organization, its location and a staff member in every path: the most a device could hope to reach.
      const path = op.path
        .replace(/\{organization_?[iI]d\}/, org.id)
        .replace(/\{location_?[iI]d\}/, location.id)
        .replace(/\{[^}]+\}/g, staff.id);
      const res = await api(op.method, path, { token, body: op.body ? {} : undefined });
      if (res.status !== 403 || res.body?.code !== "FORBIDDEN") refusedWrongly.push(`${op.name}: ${res.status} ${res.text.slice(0, 120)}`);
    }
    expect(refusedWrongly).toEqual([]);
    expect(changes(before, await snapshot())).toEqual([]);
    expect(operations.length - kiosk.length).toBeGreaterThan(100);
  });

  it("the kiosk operations refuse an access token (403) and a made-up device token (401)", async () => {
    const org = await createOrganization();
    const admin = await api("GET", "/api/kiosk/staff", { token: org.adminToken });
    expect(admin.status).toBe(403);
    expect(admin.body.code).toBe("FORBIDDEN");
    const check = await api("POST", "/api/kiosk/pin-check", { token: org.adminToken, body: { employeeId: "x", pin: "1234" } });
    expect(check.status).toBe(403);
    for (const fake of [`sld_${org.id}.${"A".repeat(43)}`, "sld_nonsense", `sld_no-such-org.${"A".repeat(43)}`]) {
      const res = await api("GET", "/api/kiosk/staff", { token: fake });
      expect(res.status, fake).toBe(401);
      expect(res.body.code).toBe("INVALID_ACCESS_TOKEN");
    }
  });

  it("a device sees only its own location's staff, and its lastSeenAt moves at most once a minute", async () => {
    const org = await createOrganization();
    const here = await createLocation(org);
    const there = await createLocation(org);
    const local = await createStaffMember(org, { locationIds: [here.id] });
    const remote = await createStaffMember(org, { locationIds: [there.id] });
    const noPin = await createStaffMember(org, { locationIds: [here.id] });
    for (const member of [local, remote]) {
      await api("PUT", `/api/organizations/${org.id}/staffmembers/${member.id}/pin`, { token: org.adminToken, body: { pin: "4321" } });
    }
    const { deviceId, token } = await enrollDevice(org, here.id);
    const staff = await api("GET", "/api/kiosk/staff", { token });
    expect(staff.status, staff.text).toBe(200);
    expect(staff.body).toEqual([
      { id: local.id, name: local.name, shiftState: { totalShiftTimeToday: 0, openShift: null, availableBreaks: [] } },
    ]);
    expect(staff.text).not.toContain(noPin.id);
    const seen = (await deviceRow(deviceId))!.last_seen_at;
    expect(seen).toBeGreaterThan(Date.now() - 60_000);
    await api("GET", "/api/kiosk/staff", { token });
    expect((await deviceRow(deviceId))!.last_seen_at).toBe(seen);
    await tenantDb()
      .prepare("UPDATE devices SET last_seen_at = ? WHERE id = ?")
      .bind(Date.now() - 61_000, deviceId)
      .run();
    await api("GET", "/api/kiosk/staff", { token });
    expect((await deviceRow(deviceId))!.last_seen_at).toBeGreaterThan(Date.now() - 60_000);
    const listed = await api("GET", devicesPath(org, here.id), { token: org.adminToken });
    expect(listed.body[0].lastSeenAt).not.toBeNull();
  });

  it("GET /api/kiosk/staff answers each member's shift state at the device's location", async () => {
    const org = await createOrganization();
    const location = await createLocation(org);
    const member = await createStaffMember(org, { locationIds: [location.id], roleIds: [org.defaultRoleId] });
    await api("PUT", `/api/organizations/${org.id}/staffmembers/${member.id}/pin`, { token: org.adminToken, body: { pin: "4321" } });
    const clockIn = await api("POST", `/api/organizations/${org.id}/staffmembers/${member.id}/locations/${location.id}/clock-in`, {
      token: org.adminToken,
      body: { ...HERE, roleId: org.defaultRoleId },
    });
    expect(clockIn.status, clockIn.text).toBe(200);
    const { token } = await enrollDevice(org, location.id);
    const staff = await api("GET", "/api/kiosk/staff", { token });
    const state = await api("GET", `/api/organizations/${org.id}/staffmembers/${member.id}/locations/${location.id}/shift-state`, {
      token: org.adminToken,
    });
    expect(staff.body).toHaveLength(1);
    expect(staff.body[0].shiftState.openShift.id).toBe(clockIn.body.id);
    expect(staff.body[0].shiftState).toEqual({ ...state.body, totalShiftTimeToday: staff.body[0].shiftState.totalShiftTimeToday });
  });

  it("a device of a deleted location is revoked with it (401 DEVICE_REVOKED)", async () => {
    const org = await createOrganization();
    const location = await createLocation(org);
    const { token } = await enrollDevice(org, location.id);
    expect((await api("DELETE", `/api/organizations/${org.id}/locations/${location.id}`, { token: org.adminToken })).status).toBe(200);
    const res = await api("GET", "/api/kiosk/staff", { token });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("DEVICE_REVOKED");
  });

  it("an Idempotency-Key of a device is its own: another device's same key is not a replay of it", async () => {
    const org = await createOrganization();
    const location = await createLocation(org);
    const member = await createStaffMember(org, { locationIds: [location.id] });
    await api("PUT", `/api/organizations/${org.id}/staffmembers/${member.id}/pin`, { token: org.adminToken, body: { pin: "4321" } });
    const [first, second] = [await enrollDevice(org, location.id), await enrollDevice(org, location.id)];
    const check = (token: string) =>
      api("POST", "/api/kiosk/pin-check", {
        token,
        body: { employeeId: member.id, pin: "4321" },
        headers: { "Idempotency-Key": "who-am-i-1" },
      });
    expect((await check(first.token)).headers.get("Idempotent-Replayed")).toBeNull();
    expect((await check(first.token)).headers.get("Idempotent-Replayed")).toBe("true");
    const other = await check(second.token);
    expect(other.status).toBe(204);
    expect(other.headers.get("Idempotent-Replayed")).toBeNull();
  });
});
