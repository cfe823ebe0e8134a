import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createEntry, createOpenShift, createWorkingTimePlace, type SchedulePlace } from "../../helpers/schedules";
import { tenantDb } from "../../helpers/shards";

/*
 * Issue 47: bulk copy and open-shift claims and assignments are judged by the location's working-time pack.
 * Germany, ArbZG §5(1): 11 hours' rest. An entry ending 22:00 (UTC) and another starting 07:00 the next day leave
 * 9 hours (refused); one starting 09:00 leaves exactly 11 (accepted).
 */

const REST_9H = {
  rule: "REST_BETWEEN_SHIFTS",
  limit: 11,
  actual: 9,
  unit: "HOURS",
  shiftIds: [],
  source: "ArbZG §5(1)",
};

const publishedEntries = async (employeeId: string) =>
  (
    await tenantDb()
      .prepare(
        "SELECT id, start_at AS startAt, working_time_override AS override FROM schedule_entries WHERE employee_id = ? AND deleted_at IS NULL AND is_draft = 0 ORDER BY start_at",
      )
      .bind(employeeId)
      .all<{ id: string; startAt: number; override: string | null }>()
  ).results;

describe("bulk copy (published copies)", () => {
  /** Copies 06-01 (14:00–22:00) to 06-08 (14:00–22:00), where the worker already works 06-09 from `nextStart`. */
  async function copyBeforeNext(nextStart: string, extra: Record<string, unknown> = {}) {
    const p = await createWorkingTimePlace("DE");
    await createEntry(p, { startTime: "2026-06-01T14:00:00Z", endTime: "2026-06-01T22:00:00Z" });
    const next = await createEntry(p, { startTime: nextStart, endTime: "2026-06-09T16:00:00Z" });
    const res = await api("POST", `${p.base}/schedules/bulk-copy`, {
      token: p.org.adminToken,
      body: { fromStartDate: "2026-06-01", fromEndDate: "2026-06-01", toStartDate: "2026-06-08", asDrafts: false, ...extra },
    });
    return { p, next, res };
  }

  it("skips a copy leaving 9 hours' rest before the worker's next entry, listing the violation", async () => {
    const { p, next, res } = await copyBeforeNext("2026-06-09T07:00:00Z");
    expect(res.status, res.text).toBe(200);
    expect(res.body.created).toEqual([]);
    expect(res.body.skipped).toEqual([
      {
        sourceId: expect.any(String),
        employeeId: p.staff.id,
        startTime: "2026-06-08T14:00:00.000Z",
        endTime: "2026-06-08T22:00:00.000Z",
        reason: "WORKING_TIME_CONFLICT",
        violations: [{ ...REST_9H, date: "2026-06-09", scheduleEntryIds: [next.id] }],
      },
    ]);
    expect(await publishedEntries(p.staff.id)).toHaveLength(2); // the source and the next one: no copy
  });

  it("copies one leaving exactly 11 hours", async () => {
    const { p, res } = await copyBeforeNext("2026-06-09T09:00:00Z");
    expect(res.status, res.text).toBe(200);
    expect(res.body.skipped).toEqual([]);
    expect(res.body.created).toHaveLength(1);
    expect(await publishedEntries(p.staff.id)).toHaveLength(3);
  });

  it("writes the breaking copy with a manager's override, which it keeps", async () => {
    const { p, res } = await copyBeforeNext("2026-06-09T07:00:00Z", { workingTimeOverride: { reason: "stocktake" } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.skipped).toEqual([]);
    expect(res.body.created).toHaveLength(1);
    expect(res.body.created[0].workingTimeOverride).toMatchObject({
      reason: "stocktake",
      violations: [{ rule: "REST_BETWEEN_SHIFTS", limit: 11, actual: 9, unit: "HOURS", source: "ArbZG §5(1)" }],
    });
    expect(await publishedEntries(p.staff.id)).toHaveLength(3);
  });

  it("does not judge copies made as drafts (they are judged at publish)", async () => {
    const { res } = await copyBeforeNext("2026-06-09T07:00:00Z", { asDrafts: true });
    expect(res.status, res.text).toBe(200);
    expect(res.body.skipped).toEqual([]);
    expect(res.body.created).toHaveLength(1);
  });
});

describe("open-shift claims and assignments", () => {
  /** The worker works 06-01 14:00–22:00; an open shift on 06-02 starts at `start` (until 16:00). */
  async function shiftAfterWork(start: string, requireApproval = false) {
    const p = await createWorkingTimePlace("DE");
    const worked = await createEntry(p, { startTime: "2026-06-01T14:00:00Z", endTime: "2026-06-01T22:00:00Z" });
    const shift = await createOpenShift(p, { startDate: start, endDate: "2026-06-02T16:00:00Z", requireApproval });
    return { p, worked, shift };
  }

  it("refuses the worker's claim leaving 9 hours' rest (409 WORKING_TIME_CONFLICT), writing nothing", async () => {
    const { p, worked, shift } = await shiftAfterWork("2026-06-02T07:00:00Z");
    const res = await api("POST", `${p.base}/open-shifts/${shift.id}/claim`, { token: p.token, body: {} });
    expect(res.status, res.text).toBe(409);
    expect(res.body.code).toBe("WORKING_TIME_CONFLICT");
    expect(res.body.violations).toEqual([{ ...REST_9H, date: "2026-06-02", scheduleEntryIds: [worked.id] }]);
    expect(await publishedEntries(p.staff.id)).toHaveLength(1);
    const claims = await tenantDb()
      .prepare("SELECT COUNT(*) AS n FROM open_shift_preferences WHERE open_shift_id = ?")
      .bind(shift.id)
      .first<{ n: number }>();
    expect(claims!.n).toBe(0);
  });

  it("takes a claim leaving exactly 11 hours", async () => {
    const { p, shift } = await shiftAfterWork("2026-06-02T09:00:00Z");
    const res = await api("POST", `${p.base}/open-shifts/${shift.id}/claim`, { token: p.token, body: {} });
    expect(res.status, res.text).toBe(201);
    expect(res.body.status).toBe("APPROVED");
    expect(await publishedEntries(p.staff.id)).toHaveLength(2);
  });

  it("a manager's override claims it for the worker, kept on the entry; the worker's own override is 403", async () => {
    const { p, shift } = await shiftAfterWork("2026-06-02T07:00:00Z");
    const own = await api("POST", `${p.base}/open-shifts/${shift.id}/claim`, {
      token: p.token,
      body: { workingTimeOverride: { reason: "I want it" } },
    });
    expect(own.status, own.text).toBe(403);
    const res = await api("POST", `${p.base}/open-shifts/${shift.id}/claim`, {
      token: p.org.adminToken,
      body: { workerId: p.staff.id, workingTimeOverride: { reason: "short-staffed" } },
    });
    expect(res.status, res.text).toBe(201);
    const entries = await publishedEntries(p.staff.id);
    expect(entries).toHaveLength(2);
    expect(JSON.parse(entries[1]!.override!)).toMatchObject({
      reason: "short-staffed",
      violations: [{ rule: "REST_BETWEEN_SHIFTS", limit: 11, actual: 9 }],
    });
  });

  it("a pending claim waits; its assignment is refused 409, and bulk-assign with an override approves it", async () => {
    const { p, worked, shift } = await shiftAfterWork("2026-06-02T07:00:00Z", true);
    const pending = await api("POST", `${p.base}/open-shifts/${shift.id}/claim`, { token: p.token, body: {} });
    expect(pending.status, pending.text).toBe(201);
    expect(pending.body.status).toBe("PENDING");
    const assign = await api("POST", `${p.base}/open-shifts/${shift.id}/preferences/${pending.body.id}/assign`, {
      token: p.org.adminToken,
    });
    expect(assign.status, assign.text).toBe(409);
    expect(assign.body.violations).toEqual([{ ...REST_9H, date: "2026-06-02", scheduleEntryIds: [worked.id] }]);
    expect(await publishedEntries(p.staff.id)).toHaveLength(1);
    const bulk = await api("POST", `${p.base}/open-shifts/${shift.id}/preferences/bulk-assign`, {
      token: p.org.adminToken,
      body: { preferenceIds: [pending.body.id], workingTimeOverride: { reason: "short-staffed" } },
    });
    expect(bulk.status, bulk.text).toBe(200);
    expect(bulk.body[0].status).toBe("APPROVED");
    expect(await publishedEntries(p.staff.id)).toHaveLength(2);
  });

  it("assigns a pending claim leaving exactly 11 hours", async () => {
    const { p, shift } = await shiftAfterWork("2026-06-02T09:00:00Z", true);
    const pending = await api("POST", `${p.base}/open-shifts/${shift.id}/claim`, { token: p.token, body: {} });
    const assign = await api("POST", `${p.base}/open-shifts/${shift.id}/preferences/${pending.body.id}/assign`, {
      token: p.org.adminToken,
    });
    expect(assign.status, assign.text).toBe(200);
    expect(await publishedEntries(p.staff.id)).toHaveLength(2);
  });
});

describe("draft open-shift assignments applied at publish", () => {
  const week = { startDate: "2026-06-01", endDate: "2026-06-07" };

  /** The worker works 06-01 14:00–22:00 (published); a draft open shift on 06-02 from `start` (to 16:00) is assigned to them. */
  async function assignedAfterWork(start: string) {
    const p = await createWorkingTimePlace("DE");
    const worked = await createEntry(p, { startTime: "2026-06-01T14:00:00Z", endTime: "2026-06-01T22:00:00Z" });
    const shift = await createOpenShift(p, { publish: false, requireApproval: true, startDate: start, endDate: "2026-06-02T16:00:00Z" });
    const pref = await api("POST", `${p.base}/open-shifts/${shift.id}/preferences`, {
      token: p.org.adminToken,
      body: { workerId: p.staff.id, preference: "PREFERRED" },
    });
    expect(pref.status, pref.text).toBe(201);
    const assign = await api("POST", `${p.base}/open-shifts/${shift.id}/preferences/${pref.body.id}/assign`, {
      token: p.org.adminToken,
    });
    expect(assign.status, assign.text).toBe(200); // a draft assignment: judged at publish
    return { p, worked, shift, preferenceId: pref.body.id as string };
  }

  const publish = (p: SchedulePlace, extra: Record<string, unknown> = {}) =>
    api("POST", `${p.base}/schedules/publish`, { token: p.org.adminToken, body: { ...week, ...extra } });

  it("the dry run lists the assignment's 9 hours' rest; the publish is refused 409, publishing nothing", async () => {
    const { p, worked, shift, preferenceId } = await assignedAfterWork("2026-06-02T07:00:00Z");
    const dry = await publish(p, { dryRun: true });
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body.workingTimeViolations).toEqual([
      {
        scheduleEntryId: expect.any(String),
        preferenceId,
        openShiftId: shift.id,
        violations: [{ ...REST_9H, date: "2026-06-02", scheduleEntryIds: [worked.id] }],
      },
    ]);
    const res = await publish(p);
    expect(res.status, res.text).toBe(409);
    expect(res.body.code).toBe("WORKING_TIME_CONFLICT");
    expect(res.body.violations).toEqual([{ ...REST_9H, date: "2026-06-02", scheduleEntryIds: [worked.id] }]);
    expect(await publishedEntries(p.staff.id)).toHaveLength(1);
    const view = await api("GET", `${p.base}/open-shifts/${shift.id}`, { token: p.org.adminToken });
    expect(view.body).toMatchObject({ isDraft: true });
    expect(view.body.draftPreferences).toHaveLength(1);
  });

  it("publishes an assignment leaving exactly 11 hours", async () => {
    const { p } = await assignedAfterWork("2026-06-02T09:00:00Z");
    const dry = await publish(p, { dryRun: true });
    expect(dry.body.workingTimeViolations).toEqual([]);
    const res = await publish(p);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ publishedOpenShifts: 1, appliedAssignments: 1 });
    const entries = await publishedEntries(p.staff.id);
    expect(entries).toHaveLength(2);
    expect(entries[1]!.override).toBeNull();
  });

  it("publishes the breaking assignment with a manager's override, which its entry keeps", async () => {
    const { p } = await assignedAfterWork("2026-06-02T07:00:00Z");
    const res = await publish(p, { workingTimeOverride: { reason: "short-staffed" } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ publishedOpenShifts: 1, appliedAssignments: 1 });
    const entries = await publishedEntries(p.staff.id);
    expect(entries).toHaveLength(2);
    expect(entries[0]!.override).toBeNull();
    expect(JSON.parse(entries[1]!.override!)).toMatchObject({
      reason: "short-staffed",
      violations: [{ rule: "REST_BETWEEN_SHIFTS", limit: 11, actual: 9, unit: "HOURS", source: "ArbZG §5(1)" }],
    });
  });
});
