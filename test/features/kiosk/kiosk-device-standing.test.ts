import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { changes, snapshot } from "../../helpers/db-snapshot";
import { requestWithInterference } from "../../helpers/interfering-d1";
import { enrollDevice, setStaffPin } from "../../helpers/kiosk";
import { tenantDb } from "../../helpers/shards";
import { createWorkplace, type Workplace } from "../../helpers/workplace";

const PIN = "2468";

interface Kiosk extends Workplace {
  device: { deviceId: string; token: string };
}

/**
 * A workplace with an enrolled kiosk that has punched once (clocked its member in): this isolate knows the device,
 * so its next punch reads the device in the punch's own read batch (auth/device-auth: deviceToRead).
 */
async function warmKiosk(): Promise<Kiosk> {
  const w = await createWorkplace();
  await setStaffPin(w.org, w.staff.id, PIN);
  const k = { ...w, device: await enrollDevice(w.org, w.location.id) };
  const first = await kioskPunch(k, { action: "CLOCK_IN", roleId: k.roleId });
  expect(first.status, first.text).toBe(200);
  return k;
}

const kioskPunch = (k: Kiosk, body: Record<string, unknown>, token = k.device.token) =>
  api("POST", "/api/kiosk/punches", { token, body: { employeeId: k.staff.id, pin: PIN, ...body } });

const devicesPath = (k: Kiosk) => `/api/organizations/${k.org.id}/locations/${k.location.id}/devices`;

async function revoke(k: Kiosk) {
  const res = await api("DELETE", `${devicesPath(k)}/${k.device.deviceId}`, { token: k.org.adminToken });
  expect(res.status, res.text).toBe(200);
}

describe("a kiosk punch reads its device in its own read batch, and still refuses a device no longer enrolled", () => {
  it("a revoked device's next punch is 401 DEVICE_REVOKED and writes nothing, not even a wrong PIN's failure", async () => {
    const k = await warmKiosk();
    await revoke(k);
    const before = await snapshot();
    for (const pin of [PIN, "1357"]) {
      const res = await kioskPunch(k, { action: "CLOCK_OUT", pin });
      expect(res.status, res.text).toBe(401);
      expect(res.body.code).toBe("DEVICE_REVOKED");
    }
    expect(changes(before, await snapshot())).toEqual([]);
  });

  it("a revoked device's punch refused before its read (a body that is no punch) is still 401 DEVICE_REVOKED", async () => {
    const k = await warmKiosk();
    const invalid = await kioskPunch(k, { action: "CLOCK_SOMEWHERE" });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe("VALIDATION_FAILED");
    await revoke(k);
    const res = await kioskPunch(k, { action: "CLOCK_SOMEWHERE" });
    expect(res.status, res.text).toBe(401);
    expect(res.body.code).toBe("DEVICE_REVOKED");
  });

  it("a device revoked between the punch's read and its write does not punch: the write batch refuses it, nothing written", async () => {
    const k = await warmKiosk();
    const before = await snapshot();
    let revokedMeanwhile = false;
    const res = await requestWithInterference(
      "POST",
      "/api/kiosk/punches",
      { token: k.device.token, body: { employeeId: k.staff.id, pin: PIN, action: "CLOCK_OUT" } },
      {
        before: /^insert into "write_guards"/i,
        meanwhile: async () => {
          await revoke(k);
          revokedMeanwhile = true;
        },
      },
    );
    expect(revokedMeanwhile).toBe(true);
    expect(res.status, JSON.stringify(res.body)).toBe(401);
    expect(res.body.code).toBe("TOKEN_REVOKED");
    // Only the revocation itself changed anything: the device's row, its event and that event's audit entry.
    const changed = changes(before, await snapshot());
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.filter((change) => !/\.(devices|events|audit_log): /.test(change))).toEqual([]);
    const open = await tenantDb()
      .prepare("SELECT end_at AS endAt FROM shifts WHERE employee_id = ?")
      .bind(k.staff.id)
      .first<{ endAt: number | null }>();
    expect(open!.endAt).toBeNull();
  });

  it("a device of a deleted location: 401 DEVICE_REVOKED on its next punch", async () => {
    const k = await warmKiosk();
    const deleted = await api("DELETE", `/api/organizations/${k.org.id}/locations/${k.location.id}`, { token: k.org.adminToken });
    expect(deleted.status, deleted.text).toBe(200);
    const res = await kioskPunch(k, { action: "CLOCK_OUT" });
    expect(res.status, res.text).toBe(401);
    expect(res.body.code).toBe("DEVICE_REVOKED");
  });

  it("a rotated token stops at once (401 INVALID_ACCESS_TOKEN); the new one punches", async () => {
    const k = await warmKiosk();
    const rotated = await api("POST", `${devicesPath(k)}/${k.device.deviceId}/rotate`, { token: k.org.adminToken });
    expect(rotated.status, rotated.text).toBe(200);
    const old = await kioskPunch(k, { action: "CLOCK_OUT" });
    expect(old.status, old.text).toBe(401);
    expect(old.body.code).toBe("INVALID_ACCESS_TOKEN");
    const renewed = await kioskPunch(k, { action: "CLOCK_OUT" }, rotated.body.deviceToken);
    expect(renewed.status, renewed.text).toBe(200);
    expect(renewed.body).toMatchObject({ clockOutSource: "KIOSK", clockOutDeviceId: k.device.deviceId });
  });

  it("a punch read this way still moves a stale lastSeenAt (at most once a minute)", async () => {
    const k = await warmKiosk();
    const lastSeen = async () =>
      (await tenantDb().prepare("SELECT last_seen_at AS at FROM devices WHERE id = ?").bind(k.device.deviceId).first<{ at: number }>())!.at;
    const stale = Date.now() - 5 * 60_000;
    await tenantDb().prepare("UPDATE devices SET last_seen_at = ? WHERE id = ?").bind(stale, k.device.deviceId).run();
    const res = await kioskPunch(k, { action: "CLOCK_OUT" });
    expect(res.status, res.text).toBe(200);
    const moved = await lastSeen();
    expect(moved).toBeGreaterThan(Date.now() - 60_000);
    expect((await kioskPunch(k, { action: "CLOCK_IN", roleId: k.roleId })).status).toBe(200);
    expect(await lastSeen()).toBe(moved);
  });
});
