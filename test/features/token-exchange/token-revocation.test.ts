import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { signAccessToken } from "@/auth/access-token";
import { api } from "../../helpers/api";
import { createOrganization, type OrganizationFixture, unique } from "../../helpers/fixtures";
import { createLocation } from "../../helpers/locations";
import { recordingRequest } from "../../helpers/recording-d1";
import { addWorker, createEntry, createOpenShift, createSchedulePlace, entryBody, openShiftBody } from "../../helpers/schedules";
import { tenantDb } from "../../helpers/shards";
import { createStaffMember, staffPath, staffToken } from "../../helpers/staff";
import { createPolicy, dayFromToday } from "../../helpers/time-off";
import { createManual } from "../../helpers/timesheets";
import { accessToken } from "../../helpers/tokens";
import { clockIn, createBreakType, createWorkplace, punch } from "../../helpers/workplace";

const accessRolesPath = (org: OrganizationFixture) => `/api/organizations/${org.id}/access-roles`;
const locationsPath = (org: OrganizationFixture) => `/api/organizations/${org.id}/locations`;

const count = async (table: string, organizationId: string) =>
  (await tenantDb().prepare(`SELECT count(*) AS n FROM ${table} WHERE organization_id = ?`).bind(organizationId).first<{ n: number }>())!.n;

function expectRevoked(res: { status: number; body: { code?: string; detail?: string } }) {
  expect(res.status, JSON.stringify(res.body)).toBe(401);
  expect(res.body.code).toBe("TOKEN_REVOKED");
  expect(res.body.detail).toMatch(/exchange a new token/);
}

/** A staff member holding `accessRoleName`, with their token. */
async function staffWith(org: OrganizationFixture, accessRoleName: string) {
  const member = await createStaffMember(org, { accessRoleName });
  return { member, token: await staffToken(org, member.id) };
}

describe("writes refuse a stale access token (401 TOKEN_REVOKED), reads honour it until it expires", () => {
  it("a demoted admin's token creates no access role, still reads, and a fresh token gets 403", async () => {
    const org = await createOrganization();
    const { member, token } = await staffWith(org, "Admin");
    expect((await api("POST", accessRolesPath(org), { token, body: { name: unique("Before"), permissions: [] } })).status).toBe(201);
    const demoted = await api("PATCH", staffPath(org, `/${member.id}`), { token: org.adminToken, body: { accessRoleName: "Employee" } });
    expect(demoted.status).toBe(200);
    const before = await count("access_roles", org.id);
    const name = unique("Escalated");
    expectRevoked(await api("POST", accessRolesPath(org), { token, body: { name, permissions: ["ORGANIZATION_ADMIN"] } }));
    expect(await count("access_roles", org.id)).toBe(before);
    const read = await api("GET", accessRolesPath(org), { token });
    expect(read.status).toBe(200);
    expect(read.body.map((r: { name: string }) => r.name)).not.toContain(name);
    const fresh = await api("POST", accessRolesPath(org), { token: await staffToken(org, member.id), body: { name, permissions: [] } });
    expect(fresh.status).toBe(403);
  });

  it("a deleted organization's admin token creates no location", async () => {
    const org = await createOrganization();
    expect((await createLocation(org)).id).toBeTruthy();
    const partner = await accessToken();
    expect((await api("DELETE", `/api/organizations/${org.id}`, { token: partner })).status).toBe(200);
    const before = await count("locations", org.id);
    expectRevoked(await api("POST", locationsPath(org), { token: org.adminToken, body: { name: "After deletion" } }));
    expectRevoked(await api("PATCH", `/api/organizations/${org.id}`, { token: org.adminToken, body: { name: "Revived" } }));
    expect(await count("locations", org.id)).toBe(before);
  });

  it("a deactivated staff member's punch is refused and the shift stays open", async () => {
    const w = await createWorkplace();
    expect((await clockIn(w)).status).toBe(200);
    const off = await api("PATCH", staffPath(w.org, `/${w.staff.id}`), { token: w.org.adminToken, body: { active: false } });
    expect(off.status).toBe(200);
    expectRevoked(await punch(w, "clock-out"));
    const open = await tenantDb()
      .prepare("SELECT count(*) AS n FROM shifts WHERE employee_id = ? AND end_at IS NULL")
      .bind(w.staff.id)
      .first<{ n: number }>();
    expect(open!.n).toBe(1);
    const events = await tenantDb()
      .prepare("SELECT count(*) AS n FROM shift_events WHERE employee_id = ?")
      .bind(w.staff.id)
      .first<{ n: number }>();
    expect(events!.n).toBe(1);
  });

  it("a deleted staff member's token writes nothing", async () => {
    const org = await createOrganization();
    const { member, token } = await staffWith(org, "Manager");
    expect((await api("DELETE", staffPath(org, `/${member.id}`), { token: org.adminToken })).status).toBe(200);
    expectRevoked(await api("POST", locationsPath(org), { token, body: { name: "Ghost store" } }));
  });

  it("changing an access role's permissions refuses its holders' old tokens; renaming it does not; fresh tokens work", async () => {
    const org = await createOrganization();
    const role = await api("POST", accessRolesPath(org), {
      token: org.adminToken,
      body: { name: unique("Ops"), permissions: ["LOCATION_ADMIN"] },
    });
    expect(role.status).toBe(201);
    const { member, token } = await staffWith(org, role.body.name);
    expect((await api("POST", locationsPath(org), { token, body: { name: "One" } })).status).toBe(201);

    const renamed = await api("PATCH", `${accessRolesPath(org)}/${role.body.id}`, {
      token: org.adminToken,
      body: { name: unique("Operations"), permissions: ["LOCATION_ADMIN"] },
    });
    expect(renamed.status).toBe(200);
    expect((await api("POST", locationsPath(org), { token, body: { name: "Two" } })).status).toBe(201);

    const changed = await api("PATCH", `${accessRolesPath(org)}/${role.body.id}`, {
      token: org.adminToken,
      body: { permissions: ["LOCATION_ADMIN", "SHIFT_READ"] },
    });
    expect(changed.status).toBe(200);
    expectRevoked(await api("POST", locationsPath(org), { token, body: { name: "Three" } }));
    expectRevoked(await api("PATCH", staffPath(org, `/${member.id}`), { token, body: { name: "Renamed by a stale token" } }));
    expect((await api("GET", locationsPath(org), { token })).status).toBe(200);
    const fresh = await staffToken(org, member.id);
    expect((await api("POST", locationsPath(org), { token: fresh, body: { name: "Three" } })).status).toBe(201);
  });

  it("a refused write under an Idempotency-Key stores nothing under it: the retry with a fresh token runs", async () => {
    const org = await createOrganization();
    const role = await api("POST", accessRolesPath(org), {
      token: org.adminToken,
      body: { name: unique("Ops"), permissions: ["LOCATION_ADMIN"] },
    });
    const { member, token } = await staffWith(org, role.body.name);
    const changed = await api("PATCH", `${accessRolesPath(org)}/${role.body.id}`, {
      token: org.adminToken,
      body: { permissions: ["ORGANIZATION_ADMIN"] },
    });
    expect(changed.status).toBe(200);
    const key = { "Idempotency-Key": unique("key") };
    expectRevoked(await api("POST", locationsPath(org), { token, body: { name: "Keyed" }, headers: key }));
    const retry = await api("POST", locationsPath(org), { token: await staffToken(org, member.id), body: { name: "Keyed" }, headers: key });
    expect(retry.status).toBe(201);
    expect(retry.headers.get("Idempotent-Replayed")).toBeNull();
  });

  it("a refused punch under an Idempotency-Key records no answer for it", async () => {
    const w = await createWorkplace();
    expect((await clockIn(w)).status).toBe(200);
    await api("PATCH", staffPath(w.org, `/${w.staff.id}`), { token: w.org.adminToken, body: { active: false } });
    const key = unique("punch");
    expectRevoked(await punch(w, "clock-out", {}, { "Idempotency-Key": key }));
    const stored = await tenantDb().prepare("SELECT count(*) AS n FROM idempotency_keys WHERE key = ?").bind(key).first<{ n: number }>();
    expect(stored!.n).toBe(0);
  });

  it("moving a staff member to another access role refuses their old token even where both grant the write", async () => {
    const org = await createOrganization();
    const { member, token } = await staffWith(org, "Admin");
    const moved = await api("PATCH", staffPath(org, `/${member.id}`), { token: org.adminToken, body: { accessRoleName: "Manager" } });
    expect(moved.status).toBe(200);
    expectRevoked(await api("POST", locationsPath(org), { token, body: { name: "Store" } }));
  });

  it("a staff token that names no access role (issued before tokens carried one) is refused on writes only", async () => {
    const org = await createOrganization();
    const member = await createStaffMember(org, { accessRoleName: "Manager" });
    const principal = {
      partnerId: "dev-partner",
      organizationId: org.id,
      staffMemberId: member.id,
      permissions: ["LOCATION_ADMIN" as const],
    };
    const legacy = await signAccessToken(principal, env.TOKEN_SECRET);
    expect((await api("GET", locationsPath(org), { token: legacy })).status).toBe(200);
    expectRevoked(await api("POST", locationsPath(org), { token: legacy, body: { name: "Store" } }));
  });

  it("every write operation refuses a deleted organization's token and changes nothing", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const { org, location, staff } = w;
    const o = `/api/organizations/${org.id}`;
    const breakType = await createBreakType(w);
    const shift = await createManual(w, { startTime: "2026-03-14T09:00:00Z", endTime: "2026-03-14T17:00:00Z" });
    expect((await clockIn(w)).status).toBe(200);
    const manager = await staffWith(org, "Manager");
    const admin = await staffWith(org, "Admin");
    const accessRole = await api("POST", accessRolesPath(org), { token: org.adminToken, body: { name: unique("Spare"), permissions: [] } });
    const policy = await createPolicy(org, { allowNegativeBalance: true });
    const draft = await createPolicy(org, {}, false);
    const holder = await createStaffMember(org, { externalId: unique("ext") });
    const timeOff = (day: string) => ({
      workerId: staff.id,
      policyId: policy.id,
      startTime: `${day}T09:00:00Z`,
      endTime: `${day}T17:00:00Z`,
      isAllDay: false,
    });
    const pending = await api("POST", `${o}/time-off-requests`, { token: org.adminToken, body: timeOff(dayFromToday(7)) });
    const approved = await api("POST", `${o}/time-off-requests`, { token: org.adminToken, body: timeOff(dayFromToday(8)) });
    expect((await api("POST", `${o}/time-off-requests/${approved.body.id}/approve`, { token: org.adminToken })).status).toBe(200);
    const writes: [string, string, unknown?][] = [
      ["PATCH", o, { name: "Renamed" }],
      ["DELETE", o],
      ["POST", `${o}/locations`, { name: "New" }],
      ["PATCH", `${o}/locations/${location.id}`, { city: "Boston" }],
      ["DELETE", `${o}/locations/${location.id}`],
      ["POST", `${o}/locations/sync`, { records: [{ externalId: unique("e"), name: "Synced" }] }],
      ["POST", `${o}/roles`, { name: "Barista" }],
      ["PATCH", `${o}/roles/${w.roleId}`, { hourlyWage: 99 }],
      ["DELETE", `${o}/roles/${w.roleId}`],
      ["POST", `${o}/access-roles`, { name: unique("Root"), permissions: ["ORGANIZATION_ADMIN"] }],
      ["PATCH", `${o}/access-roles/${accessRole.body.id}`, { permissions: ["ORGANIZATION_ADMIN"] }],
      ["DELETE", `${o}/access-roles/${accessRole.body.id}`],
      [
        "POST",
        `${o}/locations/${location.id}/breaks`,
        { name: "Tea", durationMinutes: 10, frequencyMinutes: 120, paid: true, mandatory: false },
      ],
      ["PATCH", `${o}/locations/${location.id}/breaks/${breakType.id}`, { paid: true }],
      ["DELETE", `${o}/locations/${location.id}/breaks/${breakType.id}`],
      ["POST", `${o}/staffmembers`, { name: "New hire" }],
      ["PATCH", `${o}/staffmembers/${manager.member.id}`, { name: "Renamed" }],
      ["DELETE", `${o}/staffmembers/${manager.member.id}`],
      ["POST", `${o}/staffmembers/sync`, { records: [{ externalId: unique("e"), name: "Synced" }] }],
      ["POST", `${o}/staffmembers/${staff.id}/shift-notes`, { text: "Note" }],
      ["POST", `${o}/staffmembers/${staff.id}/locations/${location.id}/clock-out`, { latitude: 40.748817, longitude: -73.985428 }],
      [
        "POST",
        "/api/timesheets",
        {
          employeeId: staff.id,
          locationId: location.id,
          roleId: w.roleId,
          startTime: "2026-03-15T09:00:00Z",
          endTime: "2026-03-15T17:00:00Z",
        },
      ],
      ["PATCH", `/api/timesheets/${shift.id}`, { hourlyWage: 1 }],
      ["DELETE", `/api/timesheets/${shift.id}`],
      ["DELETE", `/api/timesheets?date=2026-03-14&locationId=${location.id}`],
      ["POST", "/api/timesheets/locked-days", { date: "2026-03-14", locationId: location.id }],
      ["DELETE", `/api/timesheets/locked-days?date=2026-03-14&locationId=${location.id}`],
      ["POST", `${o}/policies/types`, { name: "Jury duty", type: "Other" }],
      ["POST", `${o}/policies`, { name: "New policy", typeId: policy.type.id }],
      [
        "PATCH",
        `${o}/policies/${policy.id}`,
        { name: "Renamed", workerPolicies: [{ employee: { externalEmployeeId: holder.externalId }, hoursBalance: 80 }] },
      ],
      ["PATCH", `${o}/policies/${draft.id}/activate`],
      ["PATCH", `${o}/policies/${policy.id}/deactivate`],
      ["PATCH", `${o}/time-off-settings`, { minimumNoticeDays: 3 }],
      ["POST", `${o}/time-off-requests`, timeOff(dayFromToday(9))],
      ["PUT", `${o}/time-off-requests/${pending.body.id}`, timeOff(dayFromToday(10))],
      ["POST", `${o}/time-off-requests/${pending.body.id}/approve`],
      ["POST", `${o}/time-off-requests/${pending.body.id}/decline`, { reason: "No" }],
      ["DELETE", `${o}/time-off-requests/${pending.body.id}`],
      ["DELETE", `${o}/time-off-requests/${approved.body.id}`],
    ];
    expect((await api("DELETE", o, { token: await accessToken() })).status).toBe(200);
    const tables = [
      "locations",
      "roles",
      "access_roles",
      "break_types",
      "staff_members",
      "shifts",
      "shift_events",
      "shift_notes",
      "locked_days",
      "shift_audits",
      "policy_types",
      "time_off_policies",
      "time_off_settings",
      "worker_policies",
      "time_off_ledger",
      "time_off_requests",
    ];
    const snapshot = async () =>
      Promise.all(
        tables.map(
          async (table) =>
            (await tenantDb().prepare(`SELECT * FROM ${table} WHERE organization_id = ? ORDER BY rowid`).bind(org.id).all()).results,
        ),
      );
    const before = await snapshot();
    for (const [method, path, body] of writes) {
      for (const token of [org.adminToken, admin.token]) {
        const res = await api(method, path, { token, body });
        expect(res.status, `${method} ${path}: ${res.text}`).toBe(401);
        expect(res.body.code, `${method} ${path}`).toBe("TOKEN_REVOKED");
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it("the guard costs no round trip: a create, an update and a delete are each still one batch", async () => {
    const org = await createOrganization();
    const { token } = await staffWith(org, "Manager");
    const created = await recordingRequest("POST", locationsPath(org), { token, body: { name: "Counted" } });
    expect(created.status).toBe(201);
    expect(created.trips).toHaveLength(1);
    expect(created.trips[0]![0]).toMatch(/insert into "write_guards"/i);
    const id = created.body.id as string;
    const patched = await recordingRequest("PATCH", `${locationsPath(org)}/${id}`, { token, body: { city: "Boston" } });
    expect(patched.status).toBe(200);
    expect(patched.trips).toHaveLength(1);
    const deleted = await recordingRequest("DELETE", `${locationsPath(org)}/${id}`, { token });
    expect(deleted.status).toBe(200);
    expect(deleted.trips).toHaveLength(1);
    const member = await recordingRequest("POST", staffPath(org), { token, body: { name: "Counted", accessRoleName: "Employee" } });
    expect(member.status).toBe(201);
    // Two reads side by side (the references; the Active time-off policies whose grants the member gets), one write.
    expect(member.trips.map((trip) => /write_guards/i.test(trip[0]!))).toEqual([false, false, true]);
    const read = await recordingRequest("GET", `${locationsPath(org)}?limit=5`, { token });
    expect(read.trips.flat().join(" ")).not.toMatch(/write_guards|staff_members/i);
  });

  it("partner-level tokens are not checked: they create organizations as before", async () => {
    const partner = await accessToken();
    const res = await recordingRequest("POST", "/api/organizations", { token: partner, body: { name: unique("Org") } });
    expect(res.status).toBe(201);
    expect(res.trips).toHaveLength(1);
  });

  it("every schedule and open-shift write refuses a deleted organization's token and changes nothing", async () => {
    const p = await createSchedulePlace("UTC");
    const other = await addWorker(p);
    const entry = await createEntry(p);
    const draft = await createEntry(p, { startTime: "2026-06-02T09:00:00Z", endTime: "2026-06-02T17:00:00Z" }, true);
    const shift = await createOpenShift(p, { requireApproval: true, startDate: "2026-06-03T09:00:00Z", endDate: "2026-06-03T17:00:00Z" });
    const os = `${p.base}/open-shifts/${shift.id}`;
    const pending = await api("POST", `${os}/preferences`, {
      token: p.org.adminToken,
      body: { workerId: other.id, preference: "PREFERRED" },
    });
    expect(pending.status).toBe(201);
    const pref = `${os}/preferences/${pending.body.id}`;
    const writes: [string, string, string, unknown?][] = [
      [
        "POST",
        `${p.base}/schedules`,
        p.org.adminToken,
        entryBody(p, { startTime: "2026-06-04T09:00:00Z", endTime: "2026-06-04T17:00:00Z" }),
      ],
      ["PATCH", `${p.base}/schedules/${entry.id}`, p.org.adminToken, { note: "Moved" }],
      ["DELETE", `${p.base}/schedules/${entry.id}`, p.org.adminToken],
      [
        "POST",
        `${p.base}/schedules/drafts`,
        p.org.adminToken,
        entryBody(p, { startTime: "2026-06-05T09:00:00Z", endTime: "2026-06-05T17:00:00Z" }),
      ],
      ["PATCH", `${p.base}/schedules/drafts/${draft.id}`, p.org.adminToken, { note: "Moved" }],
      ["DELETE", `${p.base}/schedules/drafts/${draft.id}`, p.org.adminToken],
      ["POST", `${p.base}/schedules/publish`, p.org.adminToken, { startDate: "2026-06-01", endDate: "2026-06-07" }],
      [
        "POST",
        `${p.base}/schedules/bulk-copy`,
        p.org.adminToken,
        { fromStartDate: "2026-06-01", fromEndDate: "2026-06-07", toStartDate: "2026-06-08" },
      ],
      ["POST", `${p.base}/open-shifts`, p.org.adminToken, openShiftBody({ roleName: "Created by a stale token" })],
      ["PATCH", os, p.org.adminToken, { staffCountRequired: 3 }],
      ["DELETE", os, p.org.adminToken],
      ["POST", `${os}/claim`, p.token, {}],
      ["POST", `${os}/preferences`, p.token, { preference: "PREFERRED" }],
      ["PATCH", pref, p.org.adminToken, { preference: "NOT_PREFERRED" }],
      ["POST", `${pref}/retract`, p.org.adminToken],
      ["PATCH", `${pref}/remove`, p.org.adminToken],
      ["POST", `${pref}/assign`, p.org.adminToken],
      ["POST", `${os}/preferences/bulk-assign`, p.org.adminToken, { preferenceIds: [pending.body.id] }],
    ];
    expect((await api("DELETE", `/api/organizations/${p.org.id}`, { token: await accessToken() })).status).toBe(200);
    const tables = ["schedule_entries", "open_shifts", "open_shift_preferences", "roles"];
    const snapshot = async () =>
      Promise.all(
        tables.map(
          async (table) =>
            (await tenantDb().prepare(`SELECT * FROM ${table} WHERE organization_id = ? ORDER BY rowid`).bind(p.org.id).all()).results,
        ),
      );
    const before = await snapshot();
    for (const [method, path, token, body] of writes) {
      const res = await api(method, path, { token, body });
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(401);
      expect(res.body.code, `${method} ${path}`).toBe("TOKEN_REVOKED");
    }
    expect(await snapshot()).toEqual(before);
  });

  it("a staff member moved to another access role claims no place with their old token", async () => {
    const p = await createSchedulePlace("UTC");
    const shift = await createOpenShift(p, { staffCountRequired: 1 });
    const moved = await api("PATCH", staffPath(p.org, `/${p.staff.id}`), { token: p.org.adminToken, body: { accessRoleName: "Manager" } });
    expect(moved.status).toBe(200);
    expectRevoked(await api("POST", `${p.base}/open-shifts/${shift.id}/claim`, { token: p.token, body: {} }));
    const claims = await tenantDb()
      .prepare("SELECT count(*) AS n FROM open_shift_preferences WHERE open_shift_id = ?")
      .bind(shift.id)
      .first<{ n: number }>();
    expect(claims!.n).toBe(0);
  });
});
