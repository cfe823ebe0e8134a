import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { unique } from "../../helpers/fixtures";
import { enrollDevice, setStaffPin } from "../../helpers/kiosk";
import { tenantDb } from "../../helpers/shards";
import { accessToken } from "../../helpers/tokens";
import { createWorkplace, HERE } from "../../helpers/workplace";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface Sandbox {
  id: string;
  token: string;
  body: Record<string, any>;
  path: (suffix?: string) => string;
}

/** A seeded sandbox in New York, and an organization token of it. */
async function createSandbox(body: Record<string, unknown> = {}): Promise<Sandbox> {
  const res = await api("POST", "/api/organizations/sandbox", {
    token: await accessToken(),
    body: { name: unique("Sandbox"), timezone: "America/New_York", seed: true, ...body },
  });
  if (res.status !== 201) throw new Error(`sandbox: ${res.status} ${res.text}`);
  const id = res.body.id as string;
  return {
    id,
    token: await accessToken({ organizationId: id }),
    body: res.body,
    path: (suffix = "") => `/api/organizations/${id}${suffix}`,
  };
}

const advance = (sandbox: Sandbox, to: number | string) =>
  api("POST", sandbox.path("/test-clock/advance"), {
    token: sandbox.token,
    body: { to: typeof to === "string" ? to : new Date(to).toISOString() },
  });

const clockNow = async (sandbox: Sandbox) => Date.parse((await api("GET", sandbox.path("/test-clock"), { token: sandbox.token })).body.now);

/** The first seeded shift's start (epoch ms): tomorrow 09:00 in New York. */
async function firstShiftStart(sandbox: Sandbox) {
  const row = await tenantDb()
    .prepare("SELECT min(start_at) AS start FROM schedule_entries WHERE organization_id = ?")
    .bind(sandbox.id)
    .first<{ start: number }>();
  return row!.start;
}

const exceptionsOf = async (token: string, organizationId: string, from: number, to: number) => {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const res = await api("GET", `/api/organizations/${organizationId}/attendance-exceptions?startDate=${day(from)}&endDate=${day(to)}`, {
    token,
  });
  expect(res.status, res.text).toBe(200);
  return res.body as { type: string; employeeId: string }[];
};

describe("sandbox organizations", () => {
  it("POST /organizations/sandbox creates sandbox: true, seeded with a location, three staff and their published week", async () => {
    const sandbox = await createSandbox();
    expect(sandbox.body).toMatchObject({ sandbox: true, timezone: "America/New_York" });
    const { seeded } = sandbox.body;
    expect(seeded.staffMemberIds).toHaveLength(3);
    // 3 staff × 7 days.
    expect(seeded.scheduleEntryIds).toHaveLength(21);
    const location = await api("GET", sandbox.path(`/locations/${seeded.locationId}`), { token: sandbox.token });
    expect(location.status).toBe(200);
    expect(location.body).toMatchObject({ name: "Sandbox Café", timezone: "America/New_York" });
    const staff = await api("GET", sandbox.path("/staffmembers"), { token: sandbox.token });
    expect(staff.body.map((s: any) => s.name).sort()).toEqual(["Ada Lovelace", "Alan Turing", "Grace Hopper"]);
    const published = await tenantDb()
      .prepare("SELECT count(*) AS n FROM schedule_entries WHERE organization_id = ? AND is_draft = 0 AND published_at IS NOT NULL")
      .bind(sandbox.id)
      .first<{ n: number }>();
    expect(published!.n).toBe(21);
    // Tomorrow 09:00 in New York is 13:00 or 14:00 UTC (EDT or EST).
    expect([13, 14]).toContain(new Date(await firstShiftStart(sandbox)).getUTCHours());
    const bare = await api("POST", "/api/organizations/sandbox", { token: await accessToken(), body: { name: unique("Bare") } });
    expect(bare.status).toBe(201);
    expect(bare.body).toMatchObject({ sandbox: true, seeded: null });
    const live = await api("POST", "/api/organizations/with-defaults", { token: await accessToken(), body: { name: unique("Live") } });
    expect(live.body.sandbox).toBe(false);
  });

  it("a sandbox never becomes live (PATCH sandbox: false is 409 SANDBOX_PERMANENT), nor a live organization a sandbox", async () => {
    const sandbox = await createSandbox({ seed: false });
    const refused = await api("PATCH", sandbox.path(), { token: sandbox.token, body: { sandbox: false } });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("SANDBOX_PERMANENT");
    const same = await api("PATCH", sandbox.path(), { token: sandbox.token, body: { sandbox: true, name: "Still a sandbox" } });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ sandbox: true, name: "Still a sandbox" });
    const w = await createWorkplace();
    const live = await api("PATCH", `/api/organizations/${w.org.id}`, { token: w.org.adminToken, body: { sandbox: true } });
    expect(live.status).toBe(409);
    expect(live.body.code).toBe("SANDBOX_PERMANENT");
    // The database refuses it too, whatever writes the row.
    await expect(tenantDb().prepare("UPDATE organizations SET sandbox = 0 WHERE id = ?").bind(sandbox.id).run()).rejects.toThrow(
      /SANDBOX_PERMANENT/,
    );
  });

  it("the test clock: GET reads it, advance moves it forward only (422 back), a live organization has none (409)", async () => {
    const sandbox = await createSandbox({ seed: false });
    const start = await clockNow(sandbox);
    expect(Math.abs(start - Date.now())).toBeLessThan(60_000);
    const to = start + 3 * DAY;
    const moved = await advance(sandbox, to);
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ organizationId: sandbox.id, now: new Date(to).toISOString() });
    // 3 days = 259,200 s ahead of the real clock, give or take the request's own time.
    expect(Math.abs(moved.body.advancedBySeconds - 259_200)).toBeLessThan(60);
    expect((await clockNow(sandbox)) - to).toBeGreaterThanOrEqual(0);
    expect((await clockNow(sandbox)) - to).toBeLessThan(60_000);
    const back = await advance(sandbox, to - HOUR);
    expect(back.status).toBe(422);
    expect(back.body.code).toBe("TEST_CLOCK_BACKWARDS");
    expect((await advance(sandbox, to + 91 * DAY)).status).toBe(400);
    const events = await api("GET", sandbox.path("/events"), { token: sandbox.token });
    expect(events.body.filter((e: any) => e.type === "test_clock.advanced").map((e: any) => e.data.to)).toEqual([
      new Date(to).toISOString(),
    ]);
    const w = await createWorkplace();
    for (const res of [
      await api("GET", `/api/organizations/${w.org.id}/test-clock`, { token: w.org.adminToken }),
      await api("POST", `/api/organizations/${w.org.id}/test-clock/advance`, {
        token: w.org.adminToken,
        body: { to: new Date(to).toISOString() },
      }),
    ]) {
      expect(res.status).toBe(409);
      expect(res.body.code).toBe("NOT_A_SANDBOX");
    }
  });

  it("advancing past a seeded shift's start raises NO_SHOW for the sandbox only: a live organization's same shift is untouched", async () => {
    const sandbox = await createSandbox();
    const start = await firstShiftStart(sandbox);
    // A live organization with a published shift at the same instant.
    const w = await createWorkplace();
    const entry = await api("POST", `/api/organizations/${w.org.id}/locations/${w.location.id}/schedules`, {
      token: w.org.adminToken,
      body: {
        employeeId: w.staff.id,
        roleId: w.roleId,
        startTime: new Date(start).toISOString(),
        endTime: new Date(start + 8 * HOUR).toISOString(),
      },
    });
    expect(entry.status, entry.text).toBe(201);
    // The default noShowAfterMinutes is 30: at 29 minutes past the start nothing is due yet, at 31 the three are.
    const early = await advance(sandbox, start + 29 * 60_000);
    expect(early.body.ran.noShows).toBe(0);
    const moved = await advance(sandbox, start + 31 * 60_000);
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.ran.noShows).toBe(3);
    const raised = await exceptionsOf(sandbox.token, sandbox.id, start - DAY, start + DAY);
    expect(
      raised
        .filter((x) => x.type === "NO_SHOW")
        .map((x) => x.employeeId)
        .sort(),
    ).toEqual([...sandbox.body.seeded.staffMemberIds].sort());
    expect(await exceptionsOf(w.org.adminToken, w.org.id, start - DAY, start + DAY)).toEqual([]);
    // Resolved at the sandbox's time (31 minutes past the shift's start, give or take the requests' own time).
    const noShow = raised.find((x) => x.type === "NO_SHOW") as unknown as { id: string };
    const resolved = await api("PATCH", sandbox.path(`/attendance-exceptions/${noShow.id}`), {
      token: sandbox.token,
      body: { status: "RESOLVED" },
    });
    expect(resolved.status, resolved.text).toBe(200);
    expect(Math.abs(Date.parse(resolved.body.resolvedAt) - (start + 31 * 60_000))).toBeLessThan(60_000);
  });

  it("a punch in a sandbox is stamped with its clock, and advancing 16 hours closes the forgotten shift (MISSED_CLOCK_OUT)", async () => {
    const sandbox = await createSandbox();
    const start = await firstShiftStart(sandbox);
    await advance(sandbox, start - 5 * 60_000);
    const [ada] = sandbox.body.seeded.staffMemberIds as string[];
    const token = await accessToken({ organizationId: sandbox.id, employeeId: ada });
    const punchPath = sandbox.path(`/staffmembers/${ada}/locations/${sandbox.body.seeded.locationId}`);
    const roleId = sandbox.body.defaults.roles[0].id;
    const clocked = await api("POST", `${punchPath}/clock-in`, { token, body: { roleId, ...HERE, accuracy: 5 } });
    expect(clocked.status, clocked.text).toBe(200);
    const shift = await tenantDb()
      .prepare("SELECT id, start_at, end_at FROM shifts WHERE organization_id = ?")
      .bind(sandbox.id)
      .first<any>();
    // Clocked in at the sandbox's time, 5 minutes before the shift (give or take the request's own time), not today's.
    expect(Math.abs(shift.start_at - (start - 5 * 60_000))).toBeLessThan(60_000);
    // The default autoClockOutAfterMinutes is 960 (16 h).
    const before = await advance(sandbox, start + 15 * HOUR);
    expect(before.body.ran.autoClockOuts).toBe(0);
    const after = await advance(sandbox, start + 17 * HOUR);
    expect(after.body.ran.autoClockOuts).toBe(1);
    const closed = await tenantDb().prepare("SELECT end_at FROM shifts WHERE id = ?").bind(shift.id).first<{ end_at: number }>();
    expect(closed!.end_at).not.toBeNull();
    const raised = await exceptionsOf(sandbox.token, sandbox.id, start - DAY, start + DAY);
    expect(raised.map((x) => x.type)).toContain("MISSED_CLOCK_OUT");
  });

  it("accruals run at the sandbox's time: three weeks on, a weekly 2-hour policy has accrued each Monday passed", async () => {
    const sandbox = await createSandbox({ seed: true, timezone: "UTC" });
    // The policy starts on a Wednesday at noon of the sandbox's time (the next one from now), whatever today is.
    const now = await clockNow(sandbox);
    const today = Date.parse(new Date(now).toISOString().slice(0, 10));
    const wednesday = today + ((3 - new Date(today).getUTCDay() + 7) % 7 || 7) * DAY + 12 * 3_600_000;
    expect((await advance(sandbox, wednesday)).status).toBe(200);
    const types = await api("GET", sandbox.path("/policies/types"), { token: sandbox.token });
    const typeId = types.body.find((t: any) => t.type === "Vacation").id;
    const policy = await api("POST", sandbox.path("/policies"), {
      token: sandbox.token,
      body: {
        name: "Weekly",
        typeId,
        defaultSettings: { assignedStaff: { type: "All" } },
        limitSettings: {
          isFixedAmount: true,
          fixedAmount: { hours: 2, accrualCycle: "Periodic", accrualFrequency: "EveryOneWeek", accrualDay: "Monday" },
        },
      },
    });
    expect(policy.status, policy.text).toBe(201);
    expect((await api("PATCH", sandbox.path(`/policies/${policy.body.id}/activate`), { token: sandbox.token })).status).toBe(200);
    const moved = await advance(sandbox, wednesday + 21 * DAY);
    expect(moved.status, moved.text).toBe(200);
    const ledger = await tenantDb()
      .prepare(
        `SELECT l.effective_date, count(*) AS entries, sum(l.hours) AS hours FROM time_off_ledger l
         JOIN worker_policies wp ON wp.id = l.worker_policy_id
         WHERE wp.policy_id = ? AND l.kind <> 'adjustment' GROUP BY l.effective_date ORDER BY l.effective_date`,
      )
      .bind(policy.body.id)
      .all<{ effective_date: string; entries: number; hours: number }>();
    // Wednesday + 21 days passes the Mondays 5, 12 and 19 days on: each gives the 3 seeded staff 2 h (6 h a Monday).
    const dayAfter = (days: number) => new Date(wednesday + days * DAY).toISOString().slice(0, 10);
    expect(ledger.results).toEqual([
      { effective_date: dayAfter(5), entries: 3, hours: 6 },
      { effective_date: dayAfter(12), entries: 3, hours: 6 },
      { effective_date: dayAfter(19), entries: 3, hours: 6 },
    ]);
  });

  it("a pay period ends by the sandbox's clock: this week's is 409 PAY_PERIOD_NOT_ENDED until the clock passes its end", async () => {
    const sandbox = await createSandbox({ seed: false, timezone: "UTC" });
    const now = await clockNow(sandbox);
    // Under the default settings periods are weekly from Monday: this week's starts on the Monday on or before today (UTC).
    const monday = new Date(now - ((new Date(now).getUTCDay() + 6) % 7) * DAY).toISOString().slice(0, 10);
    const close = () => api("POST", sandbox.path(`/pay-periods/${monday}/close`), { token: sandbox.token, body: { approveAll: true } });
    const early = await close();
    expect(early.status).toBe(409);
    expect(early.body.code).toBe("PAY_PERIOD_NOT_ENDED");
    // 8 days on, the period (7 days from that Monday) has ended by the sandbox's clock, whatever today's weekday.
    expect((await advance(sandbox, now + 8 * DAY)).status).toBe(200);
    const closed = await close();
    expect(closed.status, closed.text).toBe(200);
  });

  it("a kiosk punch in a sandbox advanced 2 days is stamped at the sandbox's time; a live organization's at the real time", async () => {
    const sandbox = await createSandbox();
    const org = { id: sandbox.id, adminToken: sandbox.token, accessRoles: {}, defaultRoleId: sandbox.body.defaults.roles[0].id };
    const [ada] = sandbox.body.seeded.staffMemberIds as string[];
    await setStaffPin(org, ada!, "2468");
    const device = await enrollDevice(org, sandbox.body.seeded.locationId);
    const to = (await clockNow(sandbox)) + 2 * DAY;
    expect((await advance(sandbox, to)).status).toBe(200);
    const kioskPunch = (token: string, employeeId: string, roleId: string, action: string) =>
      api("POST", "/api/kiosk/punches", { token, body: { employeeId, pin: "2468", action, roleId } });
    const clocked = await kioskPunch(device.token, ada!, org.defaultRoleId, "CLOCK_IN");
    expect(clocked.status, clocked.text).toBe(200);
    const shiftOf = (employeeId: string) =>
      tenantDb()
        .prepare("SELECT start_at, end_at FROM shifts WHERE employee_id = ?")
        .bind(employeeId)
        .first<{ start_at: number; end_at: number | null }>();
    // 2 days (172,800,000 ms) ahead of the real clock, give or take the requests' own time.
    expect(Math.abs((await shiftOf(ada!))!.start_at - to)).toBeLessThan(60_000);
    // The device is now known to this isolate (its later punches read it in their own batch): still the sandbox's time.
    expect((await advance(sandbox, to + 3 * HOUR)).status).toBe(200);
    const out = await kioskPunch(device.token, ada!, org.defaultRoleId, "CLOCK_OUT");
    expect(out.status, out.text).toBe(200);
    expect(Math.abs((await shiftOf(ada!))!.end_at! - (to + 3 * HOUR))).toBeLessThan(60_000);
    // A live organization's kiosk is untouched: its punch is stamped now.
    const w = await createWorkplace();
    await setStaffPin(w.org, w.staff.id, "2468");
    const liveDevice = await enrollDevice(w.org, w.location.id);
    const live = await kioskPunch(liveDevice.token, w.staff.id, w.roleId, "CLOCK_IN");
    expect(live.status, live.text).toBe(200);
    expect(Math.abs((await shiftOf(w.staff.id))!.start_at - Date.now())).toBeLessThan(60_000);
  });

  it("handlers read the sandbox's clock: shift state's today, a published entry's publishedAt, a time-off request's times", async () => {
    const sandbox = await createSandbox({ timezone: "UTC" });
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    // 10:00 UTC on the day 10 days from the real today.
    const to = Date.parse(`${day((await clockNow(sandbox)) + 10 * DAY)}T10:00:00Z`);
    expect((await advance(sandbox, to)).status).toBe(200);
    const near = (iso: string, ms: number) => expect(Math.abs(Date.parse(iso) - ms)).toBeLessThan(60_000);
    const [ada] = sandbox.body.seeded.staffMemberIds as string[];
    const { locationId } = sandbox.body.seeded;
    const punchPath = sandbox.path(`/staffmembers/${ada}/locations/${locationId}`);
    const adaToken = await accessToken({ organizationId: sandbox.id, employeeId: ada });
    const roleId = sandbox.body.defaults.roles[0].id;
    const clocked = await api("POST", `${punchPath}/clock-in`, { token: adaToken, body: { roleId, ...HERE, accuracy: 5 } });
    expect(clocked.status, clocked.text).toBe(200);
    expect((await advance(sandbox, to + 90 * 60_000)).status).toBe(200);
    const state = await api("GET", `${punchPath}/shift-state`, { token: sandbox.token });
    expect(state.status, state.text).toBe(200);
    // Clocked in at 10:00 (and the request's few ms), read at 11:30 by the sandbox's clock: 90 minutes today, whole
    // minutes counted (89 when the clock-in came those ms late); by the real clock the shift has not begun (0).
    expect([89, 90]).toContain(state.body.totalShiftTimeToday);
    const out = await api("POST", `${punchPath}/clock-out`, { token: adaToken, body: { ...HERE, accuracy: 5 } });
    expect(out.status, out.text).toBe(200);
    // Two days past the sandbox's today, past its seeded week (which began the real tomorrow).
    const entryStart = Date.parse(`${day(to + 2 * DAY)}T09:00:00Z`);
    const entryBody = (employeeId: string, roleId: string) => ({
      employeeId,
      roleId,
      startTime: new Date(entryStart).toISOString(),
      endTime: new Date(entryStart + 8 * HOUR).toISOString(),
    });
    const entry = await api("POST", sandbox.path(`/locations/${locationId}/schedules`), {
      token: sandbox.token,
      body: entryBody(ada!, roleId),
    });
    expect(entry.status, entry.text).toBe(201);
    near(entry.body.publishedAt, to + 90 * 60_000);
    const types = await api("GET", sandbox.path("/policies/types"), { token: sandbox.token });
    const policy = await api("POST", sandbox.path("/policies"), {
      token: sandbox.token,
      body: {
        name: "Leave",
        typeId: types.body.find((t: any) => t.type === "Vacation").id,
        requiresApproval: true,
        allowNegativeBalance: true,
        defaultSettings: { assignedStaff: { type: "All" } },
      },
    });
    expect(policy.status, policy.text).toBe(201);
    expect((await api("PATCH", sandbox.path(`/policies/${policy.body.id}/activate`), { token: sandbox.token })).status).toBe(200);
    const offDay = day(to + 5 * DAY);
    const request = await api("POST", sandbox.path("/time-off-requests"), {
      token: sandbox.token,
      body: { workerId: ada, policyId: policy.body.id, startTime: `${offDay}T09:00:00Z`, endTime: `${offDay}T17:00:00Z` },
    });
    expect(request.status, request.text).toBe(201);
    near(request.body.submittedAt, to + 90 * 60_000);
    near(request.body.createdAt, to + 90 * 60_000);
    const approved = await api("POST", sandbox.path(`/time-off-requests/${request.body.id}/approve`), { token: sandbox.token });
    expect(approved.status, approved.text).toBe(200);
    near(approved.body.decidedAt, to + 90 * 60_000);
    // A live organization's entry is published at the real time.
    const w = await createWorkplace();
    const live = await api("POST", `/api/organizations/${w.org.id}/locations/${w.location.id}/schedules`, {
      token: w.org.adminToken,
      body: entryBody(w.staff.id, w.roleId),
    });
    expect(live.status, live.text).toBe(201);
    near(live.body.publishedAt, Date.now());
  });
});
