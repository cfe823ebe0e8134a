import { describe, expect, it } from "vitest";
import { newId } from "@/data/ids";
import { api } from "../../helpers/api";
import { createOrganization } from "../../helpers/fixtures";
import { expectInvalid } from "../../helpers/problems";
import { tenantDb } from "../../helpers/shards";
import { createStaffMember, staffToken } from "../../helpers/staff";
import { createManual, ids, manualShift, staffWithPermissions, timesheets } from "../../helpers/timesheets";
import { accessToken } from "../../helpers/tokens";
import { createWorkplace } from "../../helpers/workplace";

const DAY = { startTime: "2026-03-14T09:00:00Z", endTime: "2026-03-14T17:00:00Z" };
const MARCH = "startDate=2026-03-01&endDate=2026-03-31";

/** A workplace with a shift for its employee and one for a colleague. */
async function twoShifts() {
  const w = await createWorkplace();
  const colleague = await createStaffMember(w.org, { locationIds: [w.location.id] });
  const own = await createManual(w, DAY);
  const theirs = await createManual(w, { ...DAY, employeeId: colleague.id });
  return { w, colleague, own, theirs };
}

describe("authentication", () => {
  it("every timesheet operation is 401 without a token", async () => {
    const w = await createWorkplace();
    const calls: [string, string][] = [
      ["GET", `/api/timesheets?${MARCH}`],
      ["GET", "/api/timesheets/x"],
      ["POST", "/api/timesheets"],
      ["PATCH", "/api/timesheets/x"],
      ["DELETE", "/api/timesheets/x"],
      ["DELETE", `/api/timesheets?date=2026-03-14&locationId=${w.location.id}`],
      ["GET", `/api/timesheets/export?${MARCH}`],
      ["GET", `/api/timesheets/reports?${MARCH}`],
      ["GET", `/api/timesheets/reports/employees?${MARCH}`],
      ["POST", "/api/timesheets/locked-days"],
      ["DELETE", `/api/timesheets/locked-days?date=2026-03-14&locationId=${w.location.id}`],
      ["GET", `/api/organizations/${w.org.id}/locations/${w.location.id}/timesheets?${MARCH}`],
    ];
    for (const [method, path] of calls) {
      const res = await api(method, path, method === "POST" || method === "PATCH" ? { body: {} } : {});
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });
});

describe("the organization comes from the token", () => {
  it("a partner-level token must name organizationId (400), of its own partner (404 otherwise)", async () => {
    const { w, own, theirs } = await twoShifts();
    const partner = await accessToken();
    const missing = await api("GET", `/api/timesheets?${MARCH}`, { token: partner });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].path).toBe("organizationId");
    const listed = await api("GET", `/api/timesheets?${MARCH}&organizationId=${w.org.id}`, { token: partner });
    expect(listed.status).toBe(200);
    expect(ids(listed.body.shifts)).toEqual(ids([own, theirs]));
    const created = await api("POST", `/api/timesheets?organizationId=${w.org.id}`, {
      token: partner,
      body: {
        employeeId: w.staff.id,
        locationId: w.location.id,
        roleId: w.roleId,
        startTime: "2026-03-15T09:00:00Z",
        endTime: "2026-03-15T10:00:00Z",
      },
    });
    expect(created.status).toBe(201);
    const foreignOrg = newId();
    await tenantDb()
      .prepare(
        "INSERT INTO organizations (id, partner_id, name, timezone, active, created_at, updated_at) VALUES (?, 'another-partner', 'Theirs', 'UTC', 1, ?, ?)",
      )
      .bind(foreignOrg, Date.now(), Date.now())
      .run();
    for (const organizationId of [foreignOrg, "nope"]) {
      const res = await api("GET", `/api/timesheets?${MARCH}&organizationId=${organizationId}`, { token: partner });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("ORGANIZATION_NOT_FOUND");
    }
  });

  it("an organization token naming another organization is 404", async () => {
    const { w } = await twoShifts();
    const other = await createOrganization();
    expect((await api("GET", `/api/timesheets?${MARCH}&organizationId=${other.id}`, { token: w.org.adminToken })).status).toBe(404);
    expect((await api("GET", `/api/timesheets?${MARCH}&organizationId=${w.org.id}`, { token: w.org.adminToken })).status).toBe(200);
  });

  it("another organization's shifts and locations are 404 and never listed", async () => {
    const { w, own } = await twoShifts();
    const other = await createWorkplace();
    const token = other.org.adminToken;
    expect((await api("GET", `/api/timesheets/${own.id}`, { token })).status).toBe(404);
    expect((await api("PATCH", `/api/timesheets/${own.id}`, { token, body: { hourlyWage: 1 } })).status).toBe(404);
    expect((await api("DELETE", `/api/timesheets/${own.id}`, { token })).status).toBe(404);
    const filtered = await api("GET", `/api/timesheets?${MARCH}&employeeId=${w.staff.id}`, { token });
    expect(filtered.body.shifts).toEqual([]);
    expect(filtered.body.totals.count).toBe(0);
    const deleteDay = await api("DELETE", `/api/timesheets?date=2026-03-14&locationId=${w.location.id}`, { token });
    expectInvalid(deleteDay, ["locationId"]);
    expect((await api("GET", `/api/timesheets/${own.id}`, { token: w.org.adminToken })).status).toBe(200);
    const path = `/api/organizations/${w.org.id}/locations/${w.location.id}/timesheets?${MARCH}`;
    const cross = await api("GET", path, { token });
    expect(cross.status).toBe(404);
    expect(cross.body.code).toBe("ORGANIZATION_NOT_FOUND");
    const wrongLocation = await api("GET", `/api/organizations/${other.org.id}/locations/${w.location.id}/timesheets?${MARCH}`, { token });
    expect(wrongLocation.status).toBe(404);
    expect((await api("GET", path, { token: await accessToken() })).status).toBe(403);
  });
});

describe("permissions", () => {
  it("a staff member without SHIFT_READ sees only their own shifts, everywhere", async () => {
    const { w, own, theirs } = await twoShifts();
    const listing = await timesheets(w, { startDate: "2026-03-01", endDate: "2026-03-31" }, w.token);
    expect(listing.status).toBe(200);
    expect(ids(listing.body.shifts)).toEqual([own.id]);
    expect(listing.body.totals).toMatchObject({ count: 1, duration: 480 });
    const asked = await timesheets(w, { startDate: "2026-03-01", endDate: "2026-03-31", employeeId: theirs.employeeId }, w.token);
    expect(asked.body.shifts).toEqual([]);
    expect((await api("GET", `/api/timesheets/${own.id}`, { token: w.token })).status).toBe(200);
    expect((await api("GET", `/api/timesheets/${theirs.id}`, { token: w.token })).status).toBe(404);
    const csv = await api("GET", `/api/timesheets/export?${MARCH}`, { token: w.token });
    expect(csv.text).toContain(own.id);
    expect(csv.text).not.toContain(theirs.id);
    const report = await api("GET", `/api/timesheets/reports?${MARCH}`, { token: w.token });
    expect(report.body.days.map((d: { employeeId: string }) => d.employeeId)).toEqual([w.staff.id]);
    const perEmployee = await api("GET", `/api/timesheets/reports/employees?${MARCH}`, { token: w.token });
    expect(perEmployee.body.map((e: { employeeId: string }) => e.employeeId)).toEqual([w.staff.id]);
    const location = await api("GET", `/api/organizations/${w.org.id}/locations/${w.location.id}/timesheets?${MARCH}`, { token: w.token });
    expect(ids(location.body.shifts)).toEqual([own.id]);
  });

  it("writing needs SHIFT_WRITE, even on one's own shift", async () => {
    const { w, own } = await twoShifts();
    const reader = await staffWithPermissions(w, ["SHIFT_READ"]);
    for (const token of [w.token, reader.token]) {
      expect((await manualShift(w, { startTime: "2026-03-16T09:00:00Z", endTime: "2026-03-16T10:00:00Z" }, token)).status).toBe(403);
      expect((await api("PATCH", `/api/timesheets/${own.id}`, { token, body: { hourlyWage: 1 } })).status).toBe(403);
      expect((await api("DELETE", `/api/timesheets/${own.id}`, { token })).status).toBe(403);
      expect((await api("DELETE", `/api/timesheets?date=2026-03-14&locationId=${w.location.id}`, { token })).status).toBe(403);
    }
    expect((await timesheets(w, { startDate: "2026-03-01", endDate: "2026-03-31" }, reader.token)).body.shifts).toHaveLength(2);
  });

  it("a SHIFT_WRITE holder creates, and the audit names them", async () => {
    const { w } = await twoShifts();
    const writer = await staffWithPermissions(w, ["SHIFT_READ", "SHIFT_WRITE"]);
    const res = await manualShift(w, { startTime: "2026-03-16T09:00:00Z", endTime: "2026-03-16T10:00:00Z" }, writer.token);
    expect(res.status).toBe(201);
    const audit = await tenantDb()
      .prepare("SELECT actor_staff_member_id AS actor FROM shift_audits WHERE shift_id = ?")
      .bind(res.body.id)
      .first<{ actor: string }>();
    expect(audit!.actor).toBe(writer.id);
    const manager = await createStaffMember(w.org, { accessRoleName: "Manager" });
    expect(
      (await manualShift(w, { startTime: "2026-03-17T09:00:00Z", endTime: "2026-03-17T10:00:00Z" }, await staffToken(w.org, manager.id)))
        .status,
    ).toBe(201);
  });
});
