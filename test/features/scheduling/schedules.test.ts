import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createOrganization } from "../../helpers/fixtures";
import { expectInvalid } from "../../helpers/problems";
import { createEntry, createSchedulePlace, entryBody } from "../../helpers/schedules";
import { tenantDb } from "../../helpers/shards";
import { createStaffMember, staffToken } from "../../helpers/staff";
import { createBreakType } from "../../helpers/workplace";

describe("POST /schedules", () => {
  it("creates a published entry, reading local times in the location's zone", async () => {
    const p = await createSchedulePlace();
    const res = await api("POST", `${p.base}/schedules`, { token: p.org.adminToken, body: entryBody(p, { note: "Opening" }) });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      organizationId: p.org.id,
      locationId: p.location.id,
      employeeId: p.staff.id,
      startTime: "2026-06-01T09:00:00.000Z",
      endTime: "2026-06-01T17:00:00.000Z",
      utcStartTime: "2026-06-01T13:00:00.000Z",
      utcOffset: -240,
      timezone: "America/New_York",
      breaks: [],
      note: "Opening",
      isDraft: false,
      isPublished: true,
      openShiftId: null,
      deletedAt: null,
    });
    expect(res.body.publishedAt).toMatch(/Z$/);
  });

  it("takes utcOffset as a numeric string and break types as a JSON string", async () => {
    const p = await createSchedulePlace();
    const lunch = await createBreakType({ org: p.org, location: p.location } as never);
    const res = await api("POST", `${p.base}/schedules`, {
      token: p.org.adminToken,
      body: entryBody(p, { utcOffset: "-300", breaks: JSON.stringify([lunch.id]) }),
    });
    expect(res.status).toBe(201);
    expect(res.body.utcStartTime).toBe("2026-06-01T14:00:00.000Z");
    expect(res.body.breaks).toEqual([lunch.id]);
  });

  it("rejects an end not after the start, and a shift over 24 hours", async () => {
    const p = await createSchedulePlace();
    const backwards = await api("POST", `${p.base}/schedules`, {
      token: p.org.adminToken,
      body: entryBody(p, { endTime: "2026-06-01T08:00:00Z" }),
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body.errors[0].path).toBe("endTime");
    const long = await api("POST", `${p.base}/schedules`, {
      token: p.org.adminToken,
      body: entryBody(p, { endTime: "2026-06-02T10:00:00Z" }),
    });
    expectInvalid(long, ["endTime"]);
  });

  it("rejects an unknown role, a break type of another location, and a staff member not assigned here", async () => {
    const p = await createSchedulePlace();
    const role = await api("POST", `${p.base}/schedules`, { token: p.org.adminToken, body: entryBody(p, { roleId: "nope" }) });
    expect(role.status).toBe(400);
    expect(role.body.errors[0].path).toBe("roleId");
    const breaks = await api("POST", `${p.base}/schedules`, { token: p.org.adminToken, body: entryBody(p, { breaks: ["nope"] }) });
    expect(breaks.status).toBe(400);
    expect(breaks.body.errors[0].path).toBe("breaks.0");
    const elsewhere = await createStaffMember(p.org, { locationIds: [] });
    const staff = await api("POST", `${p.base}/schedules`, { token: p.org.adminToken, body: entryBody(p, { employeeId: elsewhere.id }) });
    expect(staff.status).toBe(400);
    expect(staff.body.errors[0].path).toBe("employeeId");
    const missing = await api("POST", `${p.base}/schedules`, { token: p.org.adminToken, body: { roleId: p.roleId } });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe("VALIDATION_FAILED");
  });

  it("refuses an entry overlapping a draft or published entry of the same staff member (409 SCHEDULE_OVERLAP)", async () => {
    const p = await createSchedulePlace();
    await createEntry(p, {}, true);
    const res = await api("POST", `${p.base}/schedules`, {
      token: p.org.adminToken,
      body: entryBody(p, { startTime: "2026-06-01T16:00:00Z", endTime: "2026-06-01T20:00:00Z" }),
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("SCHEDULE_OVERLAP");
    const backToBack = await api("POST", `${p.base}/schedules`, {
      token: p.org.adminToken,
      body: entryBody(p, { startTime: "2026-06-01T17:00:00Z", endTime: "2026-06-01T20:00:00Z" }),
    });
    expect(backToBack.status).toBe(201);
    const rows = await tenantDb()
      .prepare("SELECT COUNT(*) AS n FROM schedule_entries WHERE employee_id = ?")
      .bind(p.staff.id)
      .first<{ n: number }>();
    expect(rows!.n).toBe(2);
  });

  it("answers 404 for a location of another organization and 403 to staff without SCHEDULE_WRITE", async () => {
    const p = await createSchedulePlace();
    const other = await createOrganization();
    const foreign = await api("POST", `/api/organizations/${p.org.id}/locations/${p.location.id}/schedules`, {
      token: other.adminToken,
      body: entryBody(p),
    });
    expect(foreign.status).toBe(404);
    const unknown = await api("POST", `/api/organizations/${p.org.id}/locations/nope/schedules`, {
      token: p.org.adminToken,
      body: entryBody(p),
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("LOCATION_NOT_FOUND");
    const staff = await api("POST", `${p.base}/schedules`, { token: p.token, body: entryBody(p) });
    expect(staff.status).toBe(403);
  });
});

describe("GET /schedules", () => {
  it("lists published entries of the range, filtered and keyset-paged", async () => {
    const p = await createSchedulePlace();
    const a = await createEntry(p);
    const b = await createEntry(p, { startTime: "2026-06-03T09:00:00Z", endTime: "2026-06-03T12:00:00Z" });
    await createEntry(p, { startTime: "2026-06-10T09:00:00Z", endTime: "2026-06-10T12:00:00Z" });
    await createEntry(p, { startTime: "2026-06-04T09:00:00Z", endTime: "2026-06-04T12:00:00Z" }, true);
    const page1 = await api("GET", `${p.base}/schedules?startDate=2026-06-01&endDate=2026-06-07&limit=1`, { token: p.org.adminToken });
    expect(page1.status).toBe(200);
    expect(page1.body.map((e: { id: string }) => e.id)).toEqual([a.id]);
    const next = /<([^>]+)>/.exec(page1.headers.get("Link") ?? "")![1]!;
    const page2 = await api("GET", next, { token: p.org.adminToken });
    expect(page2.body.map((e: { id: string }) => e.id)).toEqual([b.id]);
    expect(page2.headers.get("Link")).toBeNull();
    const byRole = await api("GET", `${p.base}/schedules?roleId=nope`, { token: p.org.adminToken });
    expect(byRole.body).toEqual([]);
    const byEmployee = await api("GET", `${p.base}/schedules?employeeId=${p.staff.id}&startDate=2026-06-01&endDate=2026-06-30`, {
      token: p.org.adminToken,
    });
    expect(byEmployee.body).toHaveLength(3);
  });

  it("rejects a start after the end", async () => {
    const p = await createSchedulePlace();
    const res = await api("GET", `${p.base}/schedules?startDate=2026-06-07&endDate=2026-06-01`, { token: p.org.adminToken });
    expectInvalid(res, ["endDate"]);
  });

  it("shows staff without SCHEDULE_READ the published entries of their own locations only", async () => {
    const p = await createSchedulePlace();
    const published = await createEntry(p);
    const draft = await createEntry(p, { startTime: "2026-06-03T09:00:00Z", endTime: "2026-06-03T12:00:00Z" }, true);
    const list = await api("GET", `${p.base}/schedules`, { token: p.token });
    expect(list.status).toBe(200);
    expect(list.body.map((e: { id: string }) => e.id)).toEqual([published.id]);
    expect((await api("GET", `${p.base}/schedules/${published.id}`, { token: p.token })).status).toBe(200);
    expect((await api("GET", `${p.base}/schedules/${draft.id}`, { token: p.token })).status).toBe(404);
    expect((await api("GET", `${p.base}/schedules/drafts`, { token: p.token })).status).toBe(403);
    const outsider = await createStaffMember(p.org, { locationIds: [], accessRoleName: "Employee" });
    const elsewhere = await api("GET", `${p.base}/schedules`, { token: await staffToken(p.org, outsider.id) });
    expect(elsewhere.status).toBe(404);
  });
});

describe("PATCH and DELETE /schedules/{id}", () => {
  it("changes only the named fields, refuses an overlap, and soft-deletes", async () => {
    const p = await createSchedulePlace();
    const first = await createEntry(p);
    const second = await createEntry(p, { startTime: "2026-06-02T09:00:00Z", endTime: "2026-06-02T17:00:00Z" });
    const moved = await api("PATCH", `${p.base}/schedules/${first.id}`, {
      token: p.org.adminToken,
      body: { endTime: "2026-06-01T18:00:00Z", note: "late" },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ startTime: "2026-06-01T09:00:00.000Z", endTime: "2026-06-01T18:00:00.000Z", note: "late" });
    const clash = await api("PATCH", `${p.base}/schedules/${second.id}`, {
      token: p.org.adminToken,
      body: { startTime: "2026-06-01T16:00:00Z" },
    });
    expectInvalid(clash, ["endTime"]); // the unchanged end (06-02 17:00) is 25 h after the new start
    const overlap = await api("PATCH", `${p.base}/schedules/${second.id}`, {
      token: p.org.adminToken,
      body: { startTime: "2026-06-01T17:30:00Z", endTime: "2026-06-01T20:00:00Z" },
    });
    expect(overlap.status).toBe(409);
    expect(overlap.body.code).toBe("SCHEDULE_OVERLAP");
    const empty = await api("PATCH", `${p.base}/schedules/${second.id}`, { token: p.org.adminToken, body: {} });
    expectInvalid(empty, ["(root)"]);
    const draftPath = await api("PATCH", `${p.base}/schedules/drafts/${second.id}`, { token: p.org.adminToken, body: { note: "x" } });
    expect(draftPath.status).toBe(404);
    const removed = await api("DELETE", `${p.base}/schedules/${first.id}`, { token: p.org.adminToken });
    expect(removed.status).toBe(200);
    expect(removed.body.deletedAt).not.toBeNull();
    expect((await api("GET", `${p.base}/schedules/${first.id}`, { token: p.org.adminToken })).status).toBe(404);
    expect((await api("DELETE", `${p.base}/schedules/${first.id}`, { token: p.org.adminToken })).status).toBe(404);
    expect((await api("DELETE", `${p.base}/schedules/${second.id}`, { token: p.token })).status).toBe(403);
  });
});

describe("drafts", () => {
  it("creates, reads, changes and removes a draft entry", async () => {
    const p = await createSchedulePlace();
    const draft = await createEntry(p, {}, true);
    expect(draft).toMatchObject({ isDraft: true, isPublished: false, publishedAt: null });
    const got = await api("GET", `${p.base}/schedules/drafts/${draft.id}`, { token: p.org.adminToken });
    expect(got.body.id).toBe(draft.id);
    expect((await api("GET", `${p.base}/schedules/${draft.id}`, { token: p.org.adminToken })).status).toBe(404);
    const listed = await api("GET", `${p.base}/schedules/drafts?startDate=2026-06-01&endDate=2026-06-01`, { token: p.org.adminToken });
    expect(listed.body.map((e: { id: string }) => e.id)).toEqual([draft.id]);
    const patched = await api("PATCH", `${p.base}/schedules/drafts/${draft.id}`, {
      token: p.org.adminToken,
      body: { startTime: "2026-06-01T10:00:00Z" },
    });
    expect(patched.body.startTime).toBe("2026-06-01T10:00:00.000Z");
    expect((await api("DELETE", `${p.base}/schedules/drafts/${draft.id}`, { token: p.org.adminToken })).status).toBe(200);
    expect((await api("GET", `${p.base}/schedules/drafts/${draft.id}`, { token: p.org.adminToken })).status).toBe(404);
  });
});

describe("GET /schedules for incremental sync", () => {
  it("takes updatedSince and includeDeleted, and refuses a cursor it did not issue", async () => {
    const p = await createSchedulePlace();
    const old = await createEntry(p);
    const since = new Date(Date.now() + 5).toISOString();
    await new Promise((resolve) => setTimeout(resolve, 10));
    const fresh = await createEntry(p, { startTime: "2026-06-02T09:00:00Z", endTime: "2026-06-02T12:00:00Z" });
    const changed = await api("GET", `${p.base}/schedules?updatedSince=${since}`, { token: p.org.adminToken });
    expect(changed.body.map((e: { id: string }) => e.id)).toEqual([fresh.id]);
    await api("DELETE", `${p.base}/schedules/${old.id}`, { token: p.org.adminToken });
    const live = await api("GET", `${p.base}/schedules`, { token: p.org.adminToken });
    expect(live.body.map((e: { id: string }) => e.id)).toEqual([fresh.id]);
    const all = await api("GET", `${p.base}/schedules?includeDeleted=true`, { token: p.org.adminToken });
    expect(all.body.map((e: { id: string }) => e.id)).toEqual([old.id, fresh.id]);
    const bad = await api("GET", `${p.base}/schedules?cursor=${btoa("nonsense")}`, { token: p.org.adminToken });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe("cursor");
  });
});

describe("schedule tenancy", () => {
  it("answers 404 for an entry through another location or another organization's token", async () => {
    const p = await createSchedulePlace();
    const entry = await createEntry(p);
    const other = await createOrganization();
    expect((await api("GET", `${p.base}/schedules/${entry.id}`, { token: other.adminToken })).status).toBe(404);
    expect((await api("PATCH", `${p.base}/schedules/${entry.id}`, { token: other.adminToken, body: { note: "x" } })).status).toBe(404);
    const second = await api("POST", `/api/organizations/${p.org.id}/locations`, {
      token: p.org.adminToken,
      body: { name: "Second", country: "US", timezone: "UTC" },
    });
    const elsewhere = `/api/organizations/${p.org.id}/locations/${second.body.id}/schedules/${entry.id}`;
    expect((await api("GET", elsewhere, { token: p.org.adminToken })).status).toBe(404);
    expect((await api("DELETE", elsewhere, { token: p.org.adminToken })).status).toBe(404);
    expect((await api("GET", `${p.base}/schedules/${entry.id}`, { token: p.org.adminToken })).body.deletedAt).toBeNull();
  });
});
