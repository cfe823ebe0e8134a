import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { requestWithInterference } from "../../helpers/interfering-d1";
import { createEntry, createSchedulePlace, createWorkingTimePlace, entryBody, type SchedulePlace } from "../../helpers/schedules";
import { tenantDb } from "../../helpers/shards";

/*
 * Issue 47: the working-time check of a schedule write holds under concurrency. The check reads the worker's
 * neighbours, the write's batch fails unless they are still as read (write_guards.working_time).
 * Germany, ArbZG §5(1): 11 hours' rest. 06-01 14:00–22:00 and 06-02 07:00–15:00 (UTC) leave 9 hours: each entry
 * alone passes, together they break the rest.
 */

const FIRST = { startTime: "2026-06-01T14:00:00Z", endTime: "2026-06-01T22:00:00Z" };
const SECOND = { startTime: "2026-06-02T07:00:00Z", endTime: "2026-06-02T15:00:00Z" };

const entriesOf = async (employeeId: string) =>
  (
    await tenantDb()
      .prepare("SELECT id FROM schedule_entries WHERE employee_id = ? AND deleted_at IS NULL AND is_draft = 0")
      .bind(employeeId)
      .all<{ id: string }>()
  ).results;

const post = (p: SchedulePlace, body: Record<string, unknown>) =>
  api("POST", `${p.base}/schedules`, { token: p.org.adminToken, body: entryBody(p, body) });

/** A create of `body` whose write lands only after `meanwhile` ran between its check and its batch. */
const createAfter = (p: SchedulePlace, body: Record<string, unknown>, meanwhile: () => Promise<unknown>) =>
  requestWithInterference(
    "POST",
    `${p.base}/schedules`,
    { token: p.org.adminToken, body: entryBody(p, body) },
    { before: /insert into "schedule_entries"/i, meanwhile },
  );

describe("concurrent schedule writes for one German worker (11 h rest)", () => {
  it("two creates at once leaving 9 hours' rest: one 201, one 409 WORKING_TIME_CONFLICT, one entry", async () => {
    const p = await createWorkingTimePlace("DE");
    const results = await Promise.all([post(p, FIRST), post(p, SECOND)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const refused = results.find((r) => r.status === 409)!;
    expect(refused.body.code).toBe("WORKING_TIME_CONFLICT");
    expect(await entriesOf(p.staff.id)).toHaveLength(1);
  });

  it("a create judged before another lands is refused by its batch, listing the rest judged again (deterministic)", async () => {
    const p = await createWorkingTimePlace("DE");
    let other = "";
    // The second create reads the worker's time (nothing yet), then the first lands, then its batch runs.
    const res = await createAfter(p, SECOND, async () => {
      const first = await post(p, FIRST);
      expect(first.status, first.text).toBe(201);
      other = first.body.id;
    });
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.code).toBe("WORKING_TIME_CONFLICT");
    // 22:00 to 07:00: 9 hours, 2 under the 11 of §5(1).
    expect(res.body.violations).toEqual([
      {
        rule: "REST_BETWEEN_SHIFTS",
        limit: 11,
        actual: 9,
        unit: "HOURS",
        date: "2026-06-02",
        scheduleEntryIds: [other],
        shiftIds: [],
        source: "ArbZG §5(1)",
      },
    ]);
    expect((await entriesOf(p.staff.id)).map((e) => e.id)).toEqual([other]);
  });

  it("a concurrent write that breaks nothing still fails the judged batch: 409 with no violations, and the retry passes", async () => {
    const p = await createWorkingTimePlace("DE");
    // Three days later: 11 h rest and more either way.
    const res = await createAfter(p, SECOND, () => post(p, { startTime: "2026-06-05T07:00:00Z", endTime: "2026-06-05T15:00:00Z" }));
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body).toMatchObject({ code: "WORKING_TIME_CONFLICT", violations: [] });
    expect(await entriesOf(p.staff.id)).toHaveLength(1);
    const retry = await post(p, SECOND);
    expect(retry.status, retry.text).toBe(201);
  });

  it("a move (PATCH) judged before a create lands is refused as well", async () => {
    const p = await createWorkingTimePlace("DE");
    const entry = await createEntry(p, { startTime: "2026-06-03T07:00:00Z", endTime: "2026-06-03T15:00:00Z" });
    const res = await requestWithInterference(
      "PATCH",
      `${p.base}/schedules/${entry.id}`,
      { token: p.org.adminToken, body: SECOND },
      { before: /update "schedule_entries"/i, meanwhile: () => post(p, FIRST) },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.code).toBe("WORKING_TIME_CONFLICT");
    expect(res.body.violations).toMatchObject([{ rule: "REST_BETWEEN_SHIFTS", limit: 11, actual: 9 }]);
    const moved = await api("GET", `${p.base}/schedules/${entry.id}`, { token: p.org.adminToken });
    expect(moved.body.startTime).toBe("2026-06-03T07:00:00.000Z"); // not moved
  });

  it("a location without a pack carries no guard: a concurrent create does not refuse the write", async () => {
    const p = await createSchedulePlace("UTC");
    const res = await createAfter(p, SECOND, () => post(p, FIRST));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await entriesOf(p.staff.id)).toHaveLength(2);
  });
});

describe("a publish applying a draft open-shift assignment (11 h rest)", () => {
  it("is refused whole when the worker's entry lands between its check and its batch", async () => {
    const p = await createWorkingTimePlace("DE");
    const shift = await api("POST", `${p.base}/open-shifts`, {
      token: p.org.adminToken,
      body: { roleName: "Barista", startDate: SECOND.startTime, endDate: SECOND.endTime, staffCountRequired: 1, requireApproval: true },
    });
    expect(shift.status, shift.text).toBe(201);
    const pref = await api("POST", `${p.base}/open-shifts/${shift.body.id}/preferences`, {
      token: p.org.adminToken,
      body: { workerId: p.staff.id, preference: "PREFERRED" },
    });
    const assign = await api("POST", `${p.base}/open-shifts/${shift.body.id}/preferences/${pref.body.id}/assign`, {
      token: p.org.adminToken,
    });
    expect(assign.status, assign.text).toBe(200);
    let other = "";
    // The publish judges the assignment's entry (nothing else of the worker's yet), then 06-01 14:00–22:00 lands.
    const res = await requestWithInterference(
      "POST",
      `${p.base}/schedules/publish`,
      { token: p.org.adminToken, body: { startDate: "2026-06-01", endDate: "2026-06-07" } },
      {
        before: /^update "open_shifts"/i,
        meanwhile: async () => {
          const first = await post(p, FIRST);
          expect(first.status, first.text).toBe(201);
          other = first.body.id;
        },
      },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.code).toBe("WORKING_TIME_CONFLICT");
    expect(res.body.violations).toMatchObject([
      { rule: "REST_BETWEEN_SHIFTS", limit: 11, actual: 9, scheduleEntryIds: expect.arrayContaining([other]) },
    ]);
    expect((await entriesOf(p.staff.id)).map((e) => e.id)).toEqual([other]);
  });
});
