import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createEntry, createOpenShift, createSchedulePlace, entryBody, type SchedulePlace } from "../../helpers/schedules";
import { tenantDb } from "../../helpers/shards";
import { createPolicy, orgPath } from "../../helpers/time-off";

/** Approved time off for the place's staff member, 2027-03-01 09:00–17:00 (the organization's zone: UTC). */
async function approvedTimeOff(p: SchedulePlace) {
  const policy = await createPolicy(p.org, { requiresApproval: false, allowNegativeBalance: true });
  const res = await api("POST", orgPath(p.org, "/time-off-requests"), {
    token: p.org.adminToken,
    body: { workerId: p.staff.id, policyId: policy.id, startTime: "2027-03-01T09:00:00Z", endTime: "2027-03-01T17:00:00Z" },
  });
  expect(res.status, res.text).toBe(201);
  expect(res.body.status).toBe("approved");
  return res.body as { id: string };
}

const entriesOf = async (employeeId: string) =>
  (await tenantDb().prepare("SELECT id FROM schedule_entries WHERE employee_id = ? AND deleted_at IS NULL").bind(employeeId).all()).results;

describe("schedules against approved time off", () => {
  it("POST /schedules refuses an entry on approved time off with 409 TIME_OFF_CONFLICT and writes nothing", async () => {
    const p = await createSchedulePlace();
    await approvedTimeOff(p);
    const res = await api("POST", `${p.base}/schedules`, {
      token: p.org.adminToken,
      body: entryBody(p, { startTime: "2027-03-01T08:00:00Z", endTime: "2027-03-01T12:00:00Z" }),
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("TIME_OFF_CONFLICT");
    expect(await entriesOf(p.staff.id)).toEqual([]);
    const nextDay = await createEntry(p, { startTime: "2027-03-02T08:00:00Z", endTime: "2027-03-02T12:00:00Z" });
    expect(nextDay.employeeId).toBe(p.staff.id);
  });

  it("a cancelled time off no longer blocks the entry", async () => {
    const p = await createSchedulePlace();
    const timeOff = await approvedTimeOff(p);
    const cancelled = await api("DELETE", orgPath(p.org, `/time-off-requests/${timeOff.id}`), { token: p.org.adminToken });
    expect(cancelled.status).toBe(200);
    const entry = await createEntry(p, { startTime: "2027-03-01T08:00:00Z", endTime: "2027-03-01T12:00:00Z" });
    expect(entry.startTime).toBe("2027-03-01T08:00:00.000Z");
  });

  it("a claim on an open shift during approved time off is refused with TIME_OFF_CONFLICT", async () => {
    const p = await createSchedulePlace();
    await approvedTimeOff(p);
    const shift = await createOpenShift(p, { startDate: "2027-03-01T10:00:00Z", endDate: "2027-03-01T14:00:00Z" });
    const res = await api("POST", `${p.base}/open-shifts/${shift.id}/claim`, { token: p.token, body: {} });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("TIME_OFF_CONFLICT");
    expect(await entriesOf(p.staff.id)).toEqual([]);
  });

  it("POST /schedules/publish leaves a draft on time off approved after it unpublished, reports it, and publishes the rest", async () => {
    const p = await createSchedulePlace("UTC");
    const onTimeOff = await createEntry(p, { startTime: "2027-03-01T08:00:00Z", endTime: "2027-03-01T12:00:00Z" }, true);
    const nextDay = await createEntry(p, { startTime: "2027-03-02T08:00:00Z", endTime: "2027-03-02T12:00:00Z" }, true);
    await approvedTimeOff(p);
    const res = await api("POST", `${p.base}/schedules/publish`, {
      token: p.org.adminToken,
      body: { startDate: "2027-03-01", endDate: "2027-03-07" },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ publishedEntries: 1, publishedOpenShifts: 0 });
    expect(res.body.skipped).toEqual([
      {
        id: onTimeOff.id,
        employeeId: p.staff.id,
        startTime: "2027-03-01T08:00:00.000Z",
        endTime: "2027-03-01T12:00:00.000Z",
        reason: "TIME_OFF_CONFLICT",
      },
    ]);
    expect((await api("GET", `${p.base}/schedules/drafts/${onTimeOff.id}`, { token: p.org.adminToken })).body.isDraft).toBe(true);
    expect((await api("GET", `${p.base}/schedules/${nextDay.id}`, { token: p.org.adminToken })).body.isPublished).toBe(true);
    const again = await api("POST", `${p.base}/schedules/publish`, {
      token: p.org.adminToken,
      body: { startDate: "2027-03-01", endDate: "2027-03-07" },
    });
    expect(again.body).toMatchObject({ publishedEntries: 0, skipped: [expect.objectContaining({ id: onTimeOff.id })] });
  });

  it("POST …/assign on a draft open shift during approved time off answers 409 TIME_OFF_CONFLICT and leaves the preference pending", async () => {
    const p = await createSchedulePlace();
    const shift = await createOpenShift(p, {
      publish: false,
      requireApproval: true,
      startDate: "2027-03-01T10:00:00Z",
      endDate: "2027-03-01T14:00:00Z",
    });
    // The preference predates the time off: a PREFERRED preference on approved time off is refused at once.
    const pref = await api("POST", `${p.base}/open-shifts/${shift.id}/preferences`, {
      token: p.org.adminToken,
      body: { workerId: p.staff.id, preference: "PREFERRED" },
    });
    expect(pref.status, pref.text).toBe(201);
    await approvedTimeOff(p);
    const res = await api("POST", `${p.base}/open-shifts/${shift.id}/preferences/${pref.body.id}/assign`, { token: p.org.adminToken });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("TIME_OFF_CONFLICT");
    const view = await api("GET", `${p.base}/open-shifts/${shift.id}`, { token: p.org.adminToken });
    expect(view.body.preferences).toEqual([expect.objectContaining({ id: pref.body.id, status: "PENDING" })]);
    expect(view.body.draftPreferences).toEqual([]);
  });

  it("POST /schedules/bulk-copy skips, and reports, a copy that falls on approved time off", async () => {
    const p = await createSchedulePlace();
    const source = await createEntry(p, { startTime: "2027-02-22T09:00:00Z", endTime: "2027-02-22T17:00:00Z" });
    await approvedTimeOff(p);
    const res = await api("POST", `${p.base}/schedules/bulk-copy`, {
      token: p.org.adminToken,
      body: { fromStartDate: "2027-02-22", fromEndDate: "2027-02-22", toStartDate: "2027-03-01" },
    });
    expect(res.status).toBe(200);
    expect(res.body.created).toEqual([]);
    expect(res.body.skipped).toEqual([
      expect.objectContaining({ sourceId: source.id, employeeId: p.staff.id, reason: "TIME_OFF_CONFLICT" }),
    ]);
  });
});
