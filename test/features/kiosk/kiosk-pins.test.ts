import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { app } from "@/app";
import { limitedEnv } from "@/data/limited-d1";
import { shardBinding } from "@/data/shards";
import { api } from "../../helpers/api";
import { createOrganization, type OrganizationFixture } from "../../helpers/fixtures";
import { enrollDevice, pinCheck, setStaffPin } from "../../helpers/kiosk";
import { createLocation } from "../../helpers/locations";
import { shardNames, tenantDb } from "../../helpers/shards";
import { createStaffMember, staffToken } from "../../helpers/staff";

const pinPath = (org: OrganizationFixture, staffId: string, suffix = "pin") =>
  `/api/organizations/${org.id}/staffmembers/${staffId}/${suffix}`;

const feed = async (org: OrganizationFixture, prefix: string) =>
  ((await api("GET", `/api/organizations/${org.id}/events?limit=500`, { token: org.adminToken })).body as { type: string; data: any }[])
    .filter((e) => e.type.startsWith(prefix))
    .map((e) => [e.type, e.data] as const);

const failures = async (staffId: string) =>
  (await tenantDb().prepare("SELECT COUNT(*) AS n FROM pin_failures WHERE employee_id = ?").bind(staffId).first<{ n: number }>())!.n;

const failuresAt = async (staffId: string, locationId: string) =>
  (await tenantDb()
    .prepare("SELECT COUNT(*) AS n FROM pin_failures WHERE employee_id = ? AND location_id = ?")
    .bind(staffId, locationId)
    .first<{ n: number }>())!.n;

/** An organization with a location, a device there, and a member of it with PIN 2468. */
async function kiosk() {
  const org = await createOrganization();
  const location = await createLocation(org);
  const member = await createStaffMember(org, { locationIds: [location.id], accessRoleName: "Employee" });
  await setStaffPin(org, member.id, "2468");
  const device = await enrollDevice(org, location.id);
  return { org, location, member, device };
}

/**
 * Kiosk requests (POST `path` with each body) sent at once, each held after its read of the member's PIN failures
 * until every one of them has read: as many Worker instances answering at the same moment would (one isolate
 * interleaves only a few requests, since a PIN's PBKDF2 derivation holds its thread). The real statements reach D1.
 * Answers their statuses.
 */
async function sentReadingTogether(deviceToken: string, path: string, bodies: readonly Record<string, unknown>[]) {
  let read = 0;
  let allRead!: () => void;
  const together = new Promise<void>((resolve) => {
    allRead = resolve;
  });
  const sqlOf = new WeakMap<D1PreparedStatement, string>();
  const track = (statement: D1PreparedStatement, sql: string) => (sqlOf.set(statement, sql), statement);
  const holding = (binding: D1Database) => ({
    prepare: (sql: string) => track(binding.prepare(sql), sql),
    withSession: (constraintOrBookmark?: string) => {
      const session = binding.withSession(constraintOrBookmark);
      return {
        prepare: (sql: string) => {
          const statement = session.prepare(sql);
          const bind = statement.bind.bind(statement);
          statement.bind = (...values: unknown[]) => track(bind(...values), sql);
          return track(statement, sql);
        },
        batch: async (statements: D1PreparedStatement[]) => {
          const results = await session.batch(statements);
          if (statements.some((s) => /^select .* from "pin_failures"/.test(sqlOf.get(s) ?? ""))) {
            if (++read === bodies.length) allRead();
            await together;
          }
          return results;
        },
        getBookmark: () => session.getBookmark(),
      };
    },
  });
  const bindings = Object.fromEntries(shardNames().map((shard) => [shard, holding(shardBinding(env, shard))]));
  const held = limitedEnv({ ...env, ...bindings } as Env);
  return Promise.all(
    bodies.map(async (body) => {
      const init = {
        method: "POST",
        headers: { Authorization: `Bearer ${deviceToken}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      };
      return (await app.request(`http://shiftline.test${path}`, init, held)).status;
    }),
  );
}

/** A hundred PINs for the member, the right one (2468) at `rightAt`, sent to pin-check reading together. */
const hundredChecksReadingTogether = (deviceToken: string, employeeId: string, rightAt: number) =>
  sentReadingTogether(
    deviceToken,
    "/api/kiosk/pin-check",
    Array.from({ length: 100 }, (_, i) => ({ employeeId, pin: i === rightAt ? "2468" : String(1000 + i) })),
  );

describe("PINs: set and remove", () => {
  it("PUT stores only a salted PBKDF2 hash with its iterations, never answers the PIN, and records pin_updated", async () => {
    const org = await createOrganization();
    const member = await createStaffMember(org);
    const res = await api("PUT", pinPath(org, member.id), { token: org.adminToken, body: { pin: "04821" } });
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe("");
    const row = await tenantDb()
      .prepare("SELECT * FROM staff_member_pins WHERE employee_id = ?")
      .bind(member.id)
      .first<Record<string, any>>();
    expect(row).toMatchObject({ iterations: 100_000 });
    expect(atob(row!.salt)).toHaveLength(16);
    expect(atob(row!.hash)).toHaveLength(32);
    expect(JSON.stringify(row)).not.toContain("04821");
    // The same PIN again: a new salt, so a new hash.
    await setStaffPin(org, member.id, "04821");
    const again = await tenantDb().prepare("SELECT salt, hash FROM staff_member_pins WHERE employee_id = ?").bind(member.id).first();
    expect(again).not.toEqual({ salt: row!.salt, hash: row!.hash });
    const events = await feed(org, "staff_member.pin");
    expect(events).toEqual([
      ["staff_member.pin_updated", { employeeId: member.id, hasPin: true, updatedAt: expect.any(String) }],
      ["staff_member.pin_updated", { employeeId: member.id, hasPin: true, updatedAt: expect.any(String) }],
    ]);
    const member2 = await api("GET", `/api/organizations/${org.id}/staffmembers/${member.id}`, { token: org.adminToken });
    expect(member2.text).not.toMatch(/04821|pin/i);
  });

  it("a member sets their own PIN; another member without EMPLOYEE_WRITE cannot; bad PINs are 400 naming pin", async () => {
    const org = await createOrganization();
    const member = await createStaffMember(org, { accessRoleName: "Employee" });
    const colleague = await createStaffMember(org, { accessRoleName: "Employee" });
    const own = await api("PUT", pinPath(org, member.id), { token: await staffToken(org, member.id), body: { pin: "1234" } });
    expect(own.status, own.text).toBe(204);
    const other = await api("PUT", pinPath(org, member.id), { token: await staffToken(org, colleague.id), body: { pin: "9999" } });
    expect(other.status).toBe(403);
    expect(other.body.code).toBe("FORBIDDEN");
    for (const pin of ["123", "123456789", "12a4", 1234, ""]) {
      const bad = await api("PUT", pinPath(org, member.id), { token: org.adminToken, body: { pin } });
      expect(bad.status, String(pin)).toBe(400);
      expect(bad.body.code).toBe("VALIDATION_FAILED");
      expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(["pin"]);
    }
    expect((await feed(org, "staff_member.pin")).length).toBe(1);
  });

  it("a Manager cannot set or remove an Admin's PIN (403, nothing written) but may a Manager's or an Employee's", async () => {
    const org = await createOrganization();
    const manager = await createStaffMember(org, { accessRoleName: "Manager" });
    const admin = await createStaffMember(org, { accessRoleName: "Admin" });
    const employee = await createStaffMember(org, { accessRoleName: "Employee" });
    const managerToken = await staffToken(org, manager.id);
    await setStaffPin(org, admin.id, "1357");
    const adminPin = async () =>
      tenantDb().prepare("SELECT hash, salt FROM staff_member_pins WHERE employee_id = ?").bind(admin.id).first<Record<string, string>>();
    const before = await adminPin();
    const put = await api("PUT", pinPath(org, admin.id), { token: managerToken, body: { pin: "2468" } });
    expect(put.status, put.text).toBe(403);
    expect(put.body.code).toBe("FORBIDDEN");
    const removed = await api("DELETE", pinPath(org, admin.id), { token: managerToken });
    expect(removed.status, removed.text).toBe(403);
    expect(await adminPin()).toEqual(before);
    for (const id of [manager.id, employee.id]) {
      expect((await api("PUT", pinPath(org, id), { token: managerToken, body: { pin: "2468" } })).status).toBe(204);
      expect((await api("DELETE", pinPath(org, id), { token: managerToken })).status).toBe(204);
    }
  });

  it("a Manager cannot lift an Admin's PIN lock (403 as for setting it, the five failures stay) but may an Employee's", async () => {
    const { org, location, member, device } = await kiosk();
    const admin = await createStaffMember(org, { accessRoleName: "Admin", locationIds: [location.id] });
    await setStaffPin(org, admin.id, "1357");
    for (let i = 0; i < 5; i++) {
      await pinCheck(device.token, admin.id, "0000");
      await pinCheck(device.token, member.id, "0000");
    }
    const managerToken = await staffToken(org, (await createStaffMember(org, { accessRoleName: "Manager" })).id);
    const refused = await api("DELETE", pinPath(org, admin.id, "pin-lock"), { token: managerToken });
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.code).toBe("FORBIDDEN");
    expect(await failures(admin.id)).toBe(5);
    expect((await pinCheck(device.token, admin.id, "1357")).status).toBe(423);
    expect(await feed(org, "staff_member.pin_unlocked")).toEqual([]);
    expect((await api("DELETE", pinPath(org, member.id, "pin-lock"), { token: managerToken })).status).toBe(204);
    expect(await failures(member.id)).toBe(0);
    // The organization's admin token holds every permission: it lifts the Admin's lock.
    expect((await api("DELETE", pinPath(org, admin.id, "pin-lock"), { token: org.adminToken })).status).toBe(204);
    expect((await pinCheck(device.token, admin.id, "1357")).status).toBe(204);
  });

  it("an unknown, deleted or other organization's member is 404 and nothing is written", async () => {
    const org = await createOrganization();
    const other = await createOrganization();
    const stranger = await createStaffMember(other);
    const gone = await createStaffMember(org);
    await api("DELETE", `/api/organizations/${org.id}/staffmembers/${gone.id}`, { token: org.adminToken });
    for (const id of ["no-such-member", stranger.id, gone.id]) {
      for (const [method, suffix] of [
        ["PUT", "pin"],
        ["DELETE", "pin"],
        ["DELETE", "pin-lock"],
      ] as const) {
        const res = await api(method, pinPath(org, id, suffix), {
          token: org.adminToken,
          body: method === "PUT" ? { pin: "1234" } : undefined,
        });
        expect(res.status, `${method} ${suffix} ${id}`).toBe(404);
        expect(res.body.code).toBe("STAFF_MEMBER_NOT_FOUND");
      }
    }
    const stored = await tenantDb()
      .prepare("SELECT COUNT(*) AS n FROM staff_member_pins WHERE employee_id IN (?, ?)")
      .bind(stranger.id, gone.id)
      .first<{ n: number }>();
    expect(stored!.n).toBe(0);
    expect(await feed(org, "staff_member.pin")).toEqual([]);
  });

  it("DELETE removes the PIN: the kiosk then answers PIN_INCORRECT for it; pin_updated says hasPin false", async () => {
    const { org, member, device } = await kiosk();
    expect((await pinCheck(device.token, member.id, "2468")).status).toBe(204);
    const removed = await api("DELETE", pinPath(org, member.id), { token: org.adminToken });
    expect(removed.status, removed.text).toBe(204);
    const after = await pinCheck(device.token, member.id, "2468");
    expect(after.status).toBe(401);
    expect(after.body.code).toBe("PIN_INCORRECT");
    expect((await api("GET", "/api/kiosk/staff", { token: device.token })).body).toEqual([]);
    // Removing it again changes nothing and records nothing.
    expect((await api("DELETE", pinPath(org, member.id), { token: org.adminToken })).status).toBe(204);
    expect((await feed(org, "staff_member.pin")).map(([, data]) => data.hasPin)).toEqual([true, false]);
  });
});

describe("PINs at the kiosk: the check and the lock", () => {
  it("a wrong PIN, no PIN, an unknown, inactive or other location's member: one and the same 401", async () => {
    const { org, location, member, device } = await kiosk();
    const elsewhere = await createLocation(org);
    const remote = await createStaffMember(org, { locationIds: [elsewhere.id] });
    await setStaffPin(org, remote.id, "2468");
    const inactive = await createStaffMember(org, { locationIds: [location.id] });
    await setStaffPin(org, inactive.id, "2468");
    await api("PATCH", `/api/organizations/${org.id}/staffmembers/${inactive.id}`, { token: org.adminToken, body: { active: false } });
    const withoutPin = await createStaffMember(org, { locationIds: [location.id] });
    const otherOrg = await kiosk();

    const answers = await Promise.all([
      pinCheck(device.token, member.id, "1111"),
      pinCheck(device.token, withoutPin.id, "2468"),
      pinCheck(device.token, "0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d6e", "2468"),
      pinCheck(device.token, inactive.id, "2468"),
      pinCheck(device.token, remote.id, "2468"),
      pinCheck(device.token, otherOrg.member.id, "2468"),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual(answers[0]!.body);
    }
    expect(answers[0]!.body.code).toBe("PIN_INCORRECT");
    // The right PIN of a member of this location.
    expect((await pinCheck(device.token, member.id, "2468")).status).toBe(204);
    // The other organization's member counted nothing here.
    expect(await failures(otherOrg.member.id)).toBe(0);
  });

  it("five wrong PINs lock the member on every device of that location (423 with Retry-After), even for the right PIN; a manager lifts it", async () => {
    const { org, location, member, device } = await kiosk();
    const second = await enrollDevice(org, location.id, "Back door");
    for (let i = 0; i < 5; i++) {
      const wrong = await pinCheck(i % 2 ? device.token : second.token, member.id, "0000");
      expect(wrong.status).toBe(401);
      expect(wrong.body.code).toBe("PIN_INCORRECT");
    }
    for (const token of [device.token, second.token]) {
      const locked = await pinCheck(token, member.id, "2468");
      expect(locked.status).toBe(423);
      expect(locked.body).toMatchObject({ code: "PIN_LOCKED", status: 423, title: "Locked" });
      const retryAfter = Number(locked.headers.get("Retry-After"));
      expect(retryAfter).toBeGreaterThan(890);
      expect(retryAfter).toBeLessThanOrEqual(900);
    }
    expect(await failures(member.id)).toBe(5);

    // Only a manager lifts it.
    const self = await api("DELETE", pinPath(org, member.id, "pin-lock"), { token: await staffToken(org, member.id) });
    expect(self.status).toBe(403);
    const manager = await createStaffMember(org, { accessRoleName: "Manager", locationIds: [location.id] });
    const lifted = await api("DELETE", pinPath(org, member.id, "pin-lock"), { token: await staffToken(org, manager.id) });
    expect(lifted.status, lifted.text).toBe(204);
    expect((await pinCheck(device.token, member.id, "2468")).status).toBe(204);
    expect(await feed(org, "staff_member.pin_unlocked")).toEqual([
      ["staff_member.pin_unlocked", { employeeId: member.id, unlockedAt: expect.any(String) }],
    ]);
  });

  // Issue 44 item 11: a kiosk of one location must not lock the member out at their other locations.
  it("five wrong PINs at location A lock A's devices only: B's device still answers 204 for the right PIN", async () => {
    const { org, location: a, member, device } = await kiosk();
    const b = await createLocation(org);
    await api("PATCH", `/api/organizations/${org.id}/staffmembers/${member.id}`, {
      token: org.adminToken,
      body: { locationIds: [a.id, b.id] },
    });
    const atB = await enrollDevice(org, b.id, "Store B");
    for (let i = 0; i < 5; i++) expect((await pinCheck(device.token, member.id, "0000")).status).toBe(401);
    expect((await pinCheck(device.token, member.id, "2468")).status).toBe(423);
    // B: the right PIN passes; a wrong one is tried (401, counted at B) — five tries of B's own, not A's lock.
    expect((await pinCheck(atB.token, member.id, "2468")).status).toBe(204);
    const wrongAtB = await pinCheck(atB.token, member.id, "0000");
    expect(wrongAtB.status).toBe(401);
    expect(wrongAtB.body.code).toBe("PIN_INCORRECT");
    expect(await failuresAt(member.id, a.id)).toBe(5);
    expect(await failuresAt(member.id, b.id)).toBe(1);
    expect((await pinCheck(device.token, member.id, "2468")).status).toBe(423);
    // Lifting the lock forgets the member's failures at every location: 5 at A + 1 at B → 0.
    expect((await api("DELETE", pinPath(org, member.id, "pin-lock"), { token: org.adminToken })).status).toBe(204);
    expect(await failures(member.id)).toBe(0);
    expect((await pinCheck(device.token, member.id, "2468")).status).toBe(204);
  });

  it("fifty simultaneous wrong guesses at each of two locations: five tries at each, ten failures in all", async () => {
    const { org, location: a, member, device } = await kiosk();
    const b = await createLocation(org);
    await api("PATCH", `/api/organizations/${org.id}/staffmembers/${member.id}`, {
      token: org.adminToken,
      body: { locationIds: [a.id, b.id] },
    });
    const atB = await enrollDevice(org, b.id, "Store B");
    const guesses = await Promise.all(
      Array.from({ length: 100 }, (_, i) => pinCheck(i % 2 ? atB.token : device.token, member.id, String(1000 + i))),
    );
    // 5 tries per location × 2 locations = 10 × 401; 100 − 10 = 90 × 423.
    expect(guesses.filter((g) => g.status === 401).length).toBe(10);
    expect(guesses.filter((g) => g.status === 423).length).toBe(90);
    expect(await failuresAt(member.id, a.id)).toBe(5);
    expect(await failuresAt(member.id, b.id)).toBe(5);
  });

  it("wrong PINs at a location the member is not assigned to are 401 and record nothing: their own kiosk still takes them", async () => {
    const { org, location, member, device } = await kiosk();
    const elsewhere = await createLocation(org);
    const foreign = await enrollDevice(org, elsewhere.id, "Other store");
    const answers = [];
    for (let i = 0; i < 7; i++) answers.push(await pinCheck(foreign.token, member.id, String(1000 + i)));
    // The right PIN there answers exactly as the wrong ones do: it is never compared, so guessing there learns nothing.
    answers.push(await pinCheck(foreign.token, member.id, "2468"));
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual(answers[0]!.body);
    }
    expect(answers[0]!.body.code).toBe("PIN_INCORRECT");
    // 8 guesses elsewhere, 0 failures recorded; before the fix 5 were recorded and the member was locked at their own kiosk.
    expect(await failures(member.id)).toBe(0);
    expect((await pinCheck(device.token, member.id, "2468")).status).toBe(204);
    expect(await failuresAt(member.id, location.id)).toBe(0);
  });

  it("the lock ends when the oldest counted failure is 15 minutes old", async () => {
    const { member, device } = await kiosk();
    for (let i = 0; i < 5; i++) await pinCheck(device.token, member.id, "0000");
    expect((await pinCheck(device.token, member.id, "2468")).status).toBe(423);
    // The oldest failure 14 minutes 50 seconds ago: 10 seconds left.
    const oldest = await tenantDb()
      .prepare("SELECT id FROM pin_failures WHERE employee_id = ? ORDER BY failed_at LIMIT 1")
      .bind(member.id)
      .first<{ id: string }>();
    await tenantDb()
      .prepare("UPDATE pin_failures SET failed_at = ? WHERE id = ?")
      .bind(Date.now() - 890_000, oldest!.id)
      .run();
    const locked = await pinCheck(device.token, member.id, "2468");
    expect(locked.status).toBe(423);
    expect(Number(locked.headers.get("Retry-After"))).toBeLessThanOrEqual(10);
    await tenantDb()
      .prepare("UPDATE pin_failures SET failed_at = ? WHERE id = ?")
      .bind(Date.now() - 901_000, oldest!.id)
      .run();
    expect((await pinCheck(device.token, member.id, "2468")).status).toBe(204);
  });

  it("fifty simultaneous wrong guesses get at most five tries: five failures recorded, the rest locked out", async () => {
    const { member, device } = await kiosk();
    const guesses = await Promise.all(Array.from({ length: 50 }, (_, i) => pinCheck(device.token, member.id, String(1000 + i))));
    const statuses = guesses.map((g) => g.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s !== 401 && s !== 423)).toEqual([]);
    expect(await failures(member.id)).toBe(5);
    expect((await pinCheck(device.token, member.id, "2468")).status).toBe(423);
  });

  // Issue 44: a try is counted before it is judged. Through the Worker's fetch one isolate interleaves only the first
  // few of these (see sentReadingTogether), so this one holds before the fix too; the ones reading together do not.
  const hundredChecks = (device: { token: string }, memberId: string, rightAt: number) =>
    Promise.all(Array.from({ length: 100 }, (_, i) => pinCheck(device.token, memberId, i === rightAt ? "2468" : String(1000 + i))));

  it("a hundred simultaneous checks, the right PIN at index 50: five tried (401), 95 not tried (423), the right one too", async () => {
    const { member, device } = await kiosk();
    const answers = await hundredChecks(device, member.id, 50);
    const statuses = answers.map((a) => a.status);
    // Five slots claimed by the first wrong guesses: 5 × 401; 100 − 5 = 95 × 423, the right PIN (index 50) among them.
    expect(statuses.filter((s) => s === 401 || s === 204).length).toBe(5);
    expect(statuses.filter((s) => s === 401).length).toBe(5);
    expect(statuses.filter((s) => s === 423).length).toBe(95);
    expect(statuses[50]).toBe(423);
    expect(await failures(member.id)).toBe(5);
    expect((await pinCheck(device.token, member.id, "2468")).status).toBe(423);
  });

  it("a hundred checks that all read the member unlocked, the right PIN at index 50: five tried, 95 × 423", async () => {
    const { member, device } = await kiosk();
    const statuses = await hundredChecksReadingTogether(device.token, member.id, 50);
    // Each claims a try after its read, in the order they read: the first five (all wrong) 5 × 401; 100 − 5 = 95 × 423,
    // the right PIN among them. Before the fix every one was compared: 5 × 401, 94 × 423 and 204 for the right one.
    expect(statuses.filter((s) => s === 401 || s === 204).length).toBe(5);
    expect(statuses.filter((s) => s === 423).length).toBe(95);
    expect(statuses[50]).toBe(423);
    expect(await failures(member.id)).toBe(5);
  });

  it("the same, the right PIN at index 2 (a claimed try): 204, and it gives its try back to the wrong ones", async () => {
    const { member, device } = await kiosk();
    const statuses = await hundredChecksReadingTogether(device.token, member.id, 2);
    expect(statuses[2]).toBe(204);
    // Five wrong tries at most whatever the order (4 beside the right one, a fifth if one claims after it gave its try
    // back); the rest are not tried.
    const wrong = statuses.filter((s) => s === 401).length;
    expect(wrong).toBeGreaterThanOrEqual(4);
    expect(wrong).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 423).length).toBe(99 - wrong);
    expect(await failures(member.id)).toBe(wrong);
  });

  it("kiosk punches claim their try first too: twenty reading together, the right PIN at index 10, clock no one in", async () => {
    const { org, member, device } = await kiosk();
    const statuses = await sentReadingTogether(
      device.token,
      "/api/kiosk/punches",
      Array.from({ length: 20 }, (_, i) => ({
        employeeId: member.id,
        pin: i === 10 ? "2468" : String(1000 + i),
        action: "CLOCK_IN",
        roleId: org.defaultRoleId,
      })),
    );
    // 5 × 401 (the five tries), 20 − 5 = 15 × 423, the right PIN among them: no shift. Before the fix it clocked in.
    expect(statuses.filter((s) => s === 401).length).toBe(5);
    expect(statuses.filter((s) => s === 423).length).toBe(15);
    expect(statuses[10]).toBe(423);
    expect(await failures(member.id)).toBe(5);
    const shifts = await tenantDb()
      .prepare("SELECT COUNT(*) AS n FROM shifts WHERE employee_id = ?")
      .bind(member.id)
      .first<{ n: number }>();
    expect(shifts!.n).toBe(0);
  });

  it("pin-check refuses bad input with 400 naming the fields, and changes nothing", async () => {
    const { member, device } = await kiosk();
    const bad = await api("POST", "/api/kiosk/pin-check", { token: device.token, body: { employeeId: "", pin: "12" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["employeeId", "pin"]);
    expect(await failures(member.id)).toBe(0);
  });
});
