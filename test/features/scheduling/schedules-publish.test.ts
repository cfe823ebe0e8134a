import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createOrganization } from "../../helpers/fixtures";
import { requestWithInterference } from "../../helpers/interfering-d1";
import { expectInvalid } from "../../helpers/problems";
import { addWorker, createEntry, createOpenShift, createSchedulePlace } from "../../helpers/schedules";
import { tenantDb } from "../../helpers/shards";
import { createPolicy } from "../../helpers/time-off";

const week = { startDate: "2026-06-01", endDate: "2026-06-07" };

describe("POST /schedules/publish", () => {
  it("publishes the drafts and draft open shifts of the range only, and nothing twice", async () => {
    const p = await createSchedulePlace();
    const inside = await createEntry(p, {}, true);
    const outside = await createEntry(p, { startTime: "2026-06-08T09:00:00Z", endTime: "2026-06-08T12:00:00Z" }, true);
    const shift = await createOpenShift(p, { publish: false });
    const res = await api("POST", `${p.base}/schedules/publish`, { token: p.org.adminToken, body: week });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ publishedEntries: 1, publishedOpenShifts: 1, appliedAssignments: 0 });
    const published = await api("GET", `${p.base}/schedules/${inside.id}`, { token: p.token });
    expect(published.body).toMatchObject({ isDraft: false, isPublished: true });
    expect(published.body.publishedAt).toBe(res.body.publishedAt);
    expect((await api("GET", `${p.base}/schedules/drafts/${outside.id}`, { token: p.org.adminToken })).status).toBe(200);
    expect((await api("GET", `${p.base}/open-shifts/${shift.id}`, { token: p.token })).body.isPublished).toBe(true);
    const again = await api("POST", `${p.base}/schedules/publish`, { token: p.org.adminToken, body: week });
    expect(again.body).toMatchObject({ publishedEntries: 0, publishedOpenShifts: 0, appliedAssignments: 0 });
  });

  it("answers zeros for an empty range", async () => {
    const p = await createSchedulePlace();
    const res = await api("POST", `${p.base}/schedules/publish`, { token: p.org.adminToken, body: week });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ publishedEntries: 0, publishedOpenShifts: 0, appliedAssignments: 0 });
  });

  it("publishes nothing when one part of the batch is refused", async () => {
    const p = await createSchedulePlace();
    const draft = await createEntry(p, {}, true);
    const worker = await addWorker(p);
    const shift = await createOpenShift(p, { publish: false, requireApproval: true });
    const pref = await api("POST", `${p.base}/open-shifts/${shift.id}/preferences`, {
      token: p.org.adminToken,
      body: { workerId: worker.id, preference: "PREFERRED" },
    });
    expect(
      (await api("POST", `${p.base}/open-shifts/${shift.id}/preferences/${pref.body.id}/assign`, { token: p.org.adminToken })).status,
    ).toBe(200);
    const now = Date.now();
    // Meanwhile the assigned worker gets a published entry overlapping the open shift: applying the assignment fails.
    const res = await requestWithInterference(
      "POST",
      `${p.base}/schedules/publish`,
      { token: p.org.adminToken, body: week },
      {
        before: /^update "schedule_entries"/i,
        meanwhile: () =>
          tenantDb()
            .prepare(
              `INSERT INTO schedule_entries (id, organization_id, location_id, employee_id, role_id, start_at, end_at, utc_offset,
               timezone, is_draft, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, -240, 'America/New_York', 0, ?, ?)`,
            )
            .bind(
              `meanwhile-${now}`,
              p.org.id,
              p.location.id,
              worker.id,
              p.roleId,
              Date.parse("2026-06-02T12:00:00Z"),
              Date.parse("2026-06-02T15:00:00Z"),
              now,
              now,
            )
            .run(),
      },
    );
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("SCHEDULE_OVERLAP");
    expect((await api("GET", `${p.base}/schedules/drafts/${draft.id}`, { token: p.org.adminToken })).body.isDraft).toBe(true);
    const view = await api("GET", `${p.base}/open-shifts/${shift.id}`, { token: p.org.adminToken });
    expect(view.body).toMatchObject({ isDraft: true });
    expect(view.body.draftPreferences).toHaveLength(1);
  });

  it("withholds a draft open shift whose assignment meets approved time off, reports it, and publishes the rest", async () => {
    const p = await createSchedulePlace();
    const draft = await createEntry(p, {}, true);
    const worker = await addWorker(p);
    const shift = await createOpenShift(p, { publish: false, requireApproval: true });
    const other = await createOpenShift(p, { publish: false, startDate: "2026-06-04T09:00:00Z", endDate: "2026-06-04T17:00:00Z" });
    const pref = await api("POST", `${p.base}/open-shifts/${shift.id}/preferences`, {
      token: p.org.adminToken,
      body: { workerId: worker.id, preference: "PREFERRED" },
    });
    expect(
      (await api("POST", `${p.base}/open-shifts/${shift.id}/preferences/${pref.body.id}/assign`, { token: p.org.adminToken })).status,
    ).toBe(200);
    // The assigned worker's time off is approved after the assignment.
    const org = `/api/organizations/${p.org.id}`;
    await api("PATCH", `${org}/time-off-settings`, { token: p.org.adminToken, body: { allowPastRequests: true } });
    const policy = await createPolicy(p.org, { requiresApproval: false, allowNegativeBalance: true });
    const away = await api("POST", `${org}/time-off-requests`, {
      token: p.org.adminToken,
      body: { workerId: worker.id, policyId: policy.id, startTime: "2026-06-02T00:00:00-04:00", endTime: "2026-06-03T00:00:00-04:00" },
    });
    expect(away.body.status, away.text).toBe("approved");
    const res = await api("POST", `${p.base}/schedules/publish`, { token: p.org.adminToken, body: week });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ publishedEntries: 1, publishedOpenShifts: 1, appliedAssignments: 0 });
    expect(res.body.withheldOpenShifts).toEqual([
      expect.objectContaining({ openShiftId: shift.id, preferenceId: pref.body.id, employeeId: worker.id, reason: "TIME_OFF_CONFLICT" }),
    ]);
    expect((await api("GET", `${p.base}/open-shifts/${shift.id}`, { token: p.org.adminToken })).body).toMatchObject({ isDraft: true });
    expect((await api("GET", `${p.base}/open-shifts/${other.id}`, { token: p.org.adminToken })).body).toMatchObject({ isPublished: true });
    expect((await api("GET", `${p.base}/schedules/${draft.id}`, { token: p.org.adminToken })).body).toMatchObject({ isPublished: true });
  });

  it("a draft assignment committed between publish's read and its batch fails the publish with 409 OPEN_SHIFT_CHANGED, stranding nothing", async () => {
    const p = await createSchedulePlace();
    const shift = await createOpenShift(p, { publish: false, requireApproval: true });
    const pref = await api("POST", `${p.base}/open-shifts/${shift.id}/preferences`, {
      token: p.org.adminToken,
      body: { workerId: p.staff.id, preference: "PREFERRED" },
    });
    const assignPath = `${p.base}/open-shifts/${shift.id}/preferences/${pref.body.id}/assign`;
    const res = await requestWithInterference(
      "POST",
      `${p.base}/schedules/publish`,
      { token: p.org.adminToken, body: week },
      {
        before: /^update "open_shifts"/i,
        meanwhile: async () => expect((await api("POST", assignPath, { token: p.org.adminToken })).status).toBe(200),
      },
    );
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("OPEN_SHIFT_CHANGED");
    expect((await api("GET", `${p.base}/open-shifts/${shift.id}`, { token: p.org.adminToken })).body).toMatchObject({ isDraft: true });
    const again = await api("POST", `${p.base}/schedules/publish`, { token: p.org.adminToken, body: week });
    expect(again.body).toMatchObject({ publishedOpenShifts: 1, appliedAssignments: 1 });
    const view = await api("GET", `${p.base}/open-shifts/${shift.id}`, { token: p.org.adminToken });
    expect(view.body.preferences).toEqual([
      expect.objectContaining({ status: "APPROVED", isDraft: false, scheduleShiftId: expect.any(String) }),
    ]);
  });

  it("POST …/assign on an open shift published after it was read as a draft answers 409 OPEN_SHIFT_CHANGED and writes nothing", async () => {
    const p = await createSchedulePlace();
    const shift = await createOpenShift(p, { publish: false, requireApproval: true });
    const pref = await api("POST", `${p.base}/open-shifts/${shift.id}/preferences`, {
      token: p.org.adminToken,
      body: { workerId: p.staff.id, preference: "PREFERRED" },
    });
    const res = await requestWithInterference(
      "POST",
      `${p.base}/open-shifts/${shift.id}/preferences/${pref.body.id}/assign`,
      { token: p.org.adminToken },
      {
        before: /^update "open_shift_preferences"/i,
        meanwhile: async () =>
          expect((await api("POST", `${p.base}/schedules/publish`, { token: p.org.adminToken, body: week })).body.publishedOpenShifts).toBe(
            1,
          ),
      },
    );
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("OPEN_SHIFT_CHANGED");
    const view = await api("GET", `${p.base}/open-shifts/${shift.id}`, { token: p.org.adminToken });
    expect(view.body).toMatchObject({ isPublished: true });
    expect(view.body.preferences).toEqual([expect.objectContaining({ status: "PENDING", isDraft: false })]);
    const retried = await api("POST", `${p.base}/open-shifts/${shift.id}/preferences/${pref.body.id}/assign`, { token: p.org.adminToken });
    expect(retried.body).toMatchObject({ status: "APPROVED", isDraft: false, scheduleShiftId: expect.any(String) });
  });

  it("rejects a start after the end, and refuses staff and other organizations", async () => {
    const p = await createSchedulePlace();
    const backwards = await api("POST", `${p.base}/schedules/publish`, {
      token: p.org.adminToken,
      body: { startDate: "2026-06-07", endDate: "2026-06-01" },
    });
    expectInvalid(backwards, ["endDate"]);
    expectInvalid(await api("POST", `${p.base}/schedules/publish`, { token: p.org.adminToken, body: {} }), ["startDate", "endDate"]);
    expect((await api("POST", `${p.base}/schedules/publish`, { token: p.token, body: week })).status).toBe(403);
    const other = await createOrganization();
    expect((await api("POST", `${p.base}/schedules/publish`, { token: other.adminToken, body: week })).status).toBe(404);
  });

  it("replays a publish retried with the same Idempotency-Key", async () => {
    const p = await createSchedulePlace();
    await createEntry(p, {}, true);
    const headers = { "Idempotency-Key": `publish-${Date.now()}` };
    const first = await api("POST", `${p.base}/schedules/publish`, { token: p.org.adminToken, body: week, headers });
    const retry = await api("POST", `${p.base}/schedules/publish`, { token: p.org.adminToken, body: week, headers });
    expect(retry.body).toEqual(first.body);
    expect(retry.body.publishedEntries).toBe(1);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
  });
});

describe("POST /schedules/bulk-copy", () => {
  it("keeps 09:00 local at 09:00 local across the March DST change, as drafts", async () => {
    const p = await createSchedulePlace();
    const source = await createEntry(p, { startTime: "2026-03-02T09:00:00Z", endTime: "2026-03-02T17:00:00Z" });
    expect(source.utcStartTime).toBe("2026-03-02T14:00:00.000Z");
    const res = await api("POST", `${p.base}/schedules/bulk-copy`, {
      token: p.org.adminToken,
      body: { fromStartDate: "2026-03-02", fromEndDate: "2026-03-08", toStartDate: "2026-03-09" },
    });
    expect(res.status).toBe(200);
    expect(res.body.skipped).toEqual([]);
    expect(res.body.created).toHaveLength(1);
    expect(res.body.created[0]).toMatchObject({
      startTime: "2026-03-09T09:00:00.000Z",
      endTime: "2026-03-09T17:00:00.000Z",
      utcStartTime: "2026-03-09T13:00:00.000Z",
      utcOffset: -240,
      isDraft: true,
      employeeId: p.staff.id,
    });
    const drafts = await api("GET", `${p.base}/schedules/drafts?startDate=2026-03-09&endDate=2026-03-15`, { token: p.org.adminToken });
    expect(drafts.body.map((e: { id: string }) => e.id)).toEqual([res.body.created[0].id]);
  });

  it("skips and reports copies that would overlap, copies the rest, and filters by employee", async () => {
    const p = await createSchedulePlace();
    const other = await addWorker(p);
    const mine = await createEntry(p, { startTime: "2026-06-01T09:00:00Z", endTime: "2026-06-01T17:00:00Z" });
    await createEntry(p, { employeeId: other.id, startTime: "2026-06-01T09:00:00Z", endTime: "2026-06-01T17:00:00Z" });
    await createEntry(p, { startTime: "2026-06-08T12:00:00Z", endTime: "2026-06-08T13:00:00Z" }, true);
    const res = await api("POST", `${p.base}/schedules/bulk-copy`, {
      token: p.org.adminToken,
      body: { fromStartDate: "2026-06-01", fromEndDate: "2026-06-01", toStartDate: "2026-06-08", asDrafts: false },
    });
    expect(res.status).toBe(200);
    expect(res.body.skipped).toEqual([
      {
        sourceId: mine.id,
        employeeId: p.staff.id,
        startTime: "2026-06-08T09:00:00.000Z",
        endTime: "2026-06-08T17:00:00.000Z",
        reason: "SCHEDULE_OVERLAP",
      },
    ]);
    expect(res.body.created.map((e: { employeeId: string; isPublished: boolean }) => [e.employeeId, e.isPublished])).toEqual([
      [other.id, true],
    ]);
    const filtered = await api("POST", `${p.base}/schedules/bulk-copy`, {
      token: p.org.adminToken,
      body: { fromStartDate: "2026-06-01", fromEndDate: "2026-06-01", toStartDate: "2026-06-15", employeeIds: [other.id] },
    });
    expect(filtered.body.created.map((e: { employeeId: string }) => e.employeeId)).toEqual([other.id]);
  });

  it("refuses employeeIds naming another organization's staff member with 400 naming it, and copies nothing", async () => {
    const p = await createSchedulePlace();
    const elsewhere = await createSchedulePlace();
    await createEntry(p, { startTime: "2026-06-01T09:00:00Z", endTime: "2026-06-01T17:00:00Z" });
    const res = await api("POST", `${p.base}/schedules/bulk-copy`, {
      token: p.org.adminToken,
      body: {
        fromStartDate: "2026-06-01",
        fromEndDate: "2026-06-01",
        toStartDate: "2026-06-08",
        employeeIds: [p.staff.id, elsewhere.staff.id],
      },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "VALIDATION_FAILED", errors: [{ path: "employeeIds.1" }] });
    const drafts = await api("GET", `${p.base}/schedules/drafts?startDate=2026-06-08&endDate=2026-06-08`, { token: p.org.adminToken });
    expect(drafts.body).toEqual([]);
  });

  it("rejects a backwards source range and a copy onto itself, and refuses staff", async () => {
    const p = await createSchedulePlace();
    const body = { fromStartDate: "2026-06-07", fromEndDate: "2026-06-01", toStartDate: "2026-06-08" };
    expectInvalid(await api("POST", `${p.base}/schedules/bulk-copy`, { token: p.org.adminToken, body }), ["fromEndDate"]);
    const self = { fromStartDate: "2026-06-01", fromEndDate: "2026-06-07", toStartDate: "2026-06-01" };
    expectInvalid(await api("POST", `${p.base}/schedules/bulk-copy`, { token: p.org.adminToken, body: self }), ["toStartDate"]);
    expectInvalid(await api("POST", `${p.base}/schedules/bulk-copy`, { token: p.org.adminToken, body: { ...self, toStartDate: "June" } }), [
      "toStartDate",
    ]);
    expect(
      (await api("POST", `${p.base}/schedules/bulk-copy`, { token: p.token, body: { ...self, toStartDate: "2026-06-08" } })).status,
    ).toBe(403);
    expect(
      (
        await api("POST", `/api/organizations/${p.org.id}/locations/nope/schedules/bulk-copy`, {
          token: p.org.adminToken,
          body: { ...self, toStartDate: "2026-06-08" },
        })
      ).status,
    ).toBe(404);
  });
});
