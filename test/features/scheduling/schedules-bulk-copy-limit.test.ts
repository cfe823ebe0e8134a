import { env, introspectWorkflow } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { copyId, copyRows } from "../../helpers/copy-rows";
import { requestWithInterference } from "../../helpers/interfering-d1";
import { feed } from "../../helpers/pay";
import { recordingRequest } from "../../helpers/recording-d1";
import { createEntry, createSchedulePlace, type SchedulePlace } from "../../helpers/schedules";
import { tenantDb } from "../../helpers/shards";

/*
 * A bulk copy writes its copies in one atomic batch, within D1's 1,000 queries per invocation: more copies than
 * BULK_COPY_IN_REQUEST_MAX (750; the deployment's variable of that name lowers it) run as a BULK job instead (202;
 * test/features/scheduling/schedules-bulk-copy-job.test.ts tests the job). Before, more answered 400 naming
 * fromEndDate, and before that 990 copies answered 500 (the batch broke D1's query limit) with nothing written.
 */

const COPY = { fromStartDate: "2026-06-01", fromEndDate: "2026-06-01", toStartDate: "2026-06-08" };

/** `count` entries on 2026-06-01 09:00–17:00 (UTC), each of its own staff member (the place's and count - 1 more). */
async function entriesOfEachWorker(p: SchedulePlace, count: number) {
  const first = await createEntry(p, { startTime: "2026-06-01T09:00:00Z", endTime: "2026-06-01T17:00:00Z" });
  if (count > 1) {
    await copyRows(tenantDb(), "staff_members", p.staff.id, count - 1, { id: copyId(p.staff.id), external_id: "NULL", email: "NULL" });
    await copyRows(tenantDb(), "schedule_entries", first.id, count - 1, { id: copyId(first.id), employee_id: copyId(p.staff.id) });
  }
  return first;
}

/** The live entries of the place's location starting on the copy's target date, 2026-06-08. */
const copiesAt = async (p: SchedulePlace) =>
  (await tenantDb()
    .prepare("SELECT COUNT(*) AS n FROM schedule_entries WHERE location_id = ? AND deleted_at IS NULL AND start_at >= ? AND start_at < ?")
    .bind(p.location.id, Date.parse("2026-06-08T00:00:00Z"), Date.parse("2026-06-09T00:00:00Z"))
    .first<{ n: number }>())!.n;

const total = (trips: string[][]) => trips.reduce((sum, trip) => sum + trip.length, 0);

describe("POST /schedules/bulk-copy: the copies one request writes", () => {
  const lowered = { BULK_COPY_IN_REQUEST_MAX: "3" } as Partial<Env>;

  it("writes exactly the limit (200) and runs one more as a job (202), writing nothing in the request", async () => {
    const p = await createSchedulePlace("UTC");
    await entriesOfEachWorker(p, 4);
    const eventsBefore = (await feed(p.org)).length;
    await using workflows = await introspectWorkflow(env.BULK_WORKFLOW);
    const over = await recordingRequest("POST", `${p.base}/schedules/bulk-copy`, { token: p.org.adminToken, body: COPY, env: lowered });
    expect(over.status, JSON.stringify(over.body)).toBe(202);
    expect(over.body).toMatchObject({ kind: "BULK", subject: "schedule-copy", status: "QUEUED" });
    // The request wrote the job and its event only (none of its statements inserts an entry); the job writes the 4
    // copies, after the request's job.created (the Workflow may already have run by now: its events are read after).
    expect(over.trips.flat().filter((sql) => /insert into "?schedule_entries/i.test(sql))).toEqual([]);
    const [instance] = await workflows.get();
    await instance!.waitForStatus("complete");
    expect(await copiesAt(p)).toBe(4);
    expect((await feed(p.org)).slice(eventsBefore).map((e) => e.type)).toEqual([
      "job.created",
      ...Array(4).fill("schedule_entry.created"),
      "job.succeeded",
    ]);

    // One staff member fewer: exactly the limit, in the request.
    const q = await createSchedulePlace("UTC");
    await entriesOfEachWorker(q, 4);
    const { results } = await tenantDb()
      .prepare("SELECT employee_id AS id FROM schedule_entries WHERE location_id = ? ORDER BY employee_id LIMIT 3")
      .bind(q.location.id)
      .all<{ id: string }>();
    const three = results.map((row) => row.id);
    expect(three).toHaveLength(3);
    const at = await recordingRequest("POST", `${q.base}/schedules/bulk-copy`, {
      token: q.org.adminToken,
      body: { ...COPY, employeeIds: three },
      env: lowered,
    });
    expect(at.status, JSON.stringify(at.body)).toBe(200);
    expect(at.body.created).toHaveLength(3);
    expect(await copiesAt(q)).toBe(3);
    // Here the request's own statements insert the entries (what the job's request above must not send).
    expect(at.trips.flat().filter((sql) => /insert into "?schedule_entries/i.test(sql))).toHaveLength(3);
  });

  it("counts only the copies it would write: a skipped copy leaves room for another", async () => {
    const p = await createSchedulePlace("UTC");
    await entriesOfEachWorker(p, 4);
    // The place's staff member already works the target day: that copy is skipped (SCHEDULE_OVERLAP), 3 remain.
    await createEntry(p, { startTime: "2026-06-08T12:00:00Z", endTime: "2026-06-08T13:00:00Z" });
    const res = await recordingRequest("POST", `${p.base}/schedules/bulk-copy`, { token: p.org.adminToken, body: COPY, env: lowered });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.created).toHaveLength(3);
    expect(res.body.skipped).toMatchObject([{ employeeId: p.staff.id, reason: "SCHEDULE_OVERLAP" }]);
  });

  it("at the real limit, 750 published copies of 750 workers at a working-time pack location stay within D1's 1,000 queries", async () => {
    const p = await createSchedulePlace("UTC");
    const pack = await api("PUT", `/api/organizations/${p.org.id}/locations/${p.location.id}/working-time`, {
      token: p.org.adminToken,
      body: { rulePack: "DE" },
    });
    expect(pack.status, pack.text).toBe(200);
    const first = await entriesOfEachWorker(p, 751);
    const body = { ...COPY, asDrafts: false };
    const send = (key: string) =>
      recordingRequest("POST", `${p.base}/schedules/bulk-copy`, { token: p.org.adminToken, body, headers: { "Idempotency-Key": key } });

    // One source moved out of the copied day: 750 copies, every one written in one request.
    await tenantDb()
      .prepare("UPDATE schedule_entries SET start_at = start_at + 172800000, end_at = end_at + 172800000 WHERE id = ?")
      .bind(first.id)
      .run();
    const at = await send("copy-750");
    expect(at.status, JSON.stringify(at.body).slice(0, 500)).toBe(200);
    expect(at.body.created).toHaveLength(750);
    expect(await copiesAt(p)).toBe(750);
    // The test D1 guard (limitedEnv) refuses a 1,001st query; the margin is the limit's (about 870 measured).
    const queries = total(at.trips) + total(at.directoryTrips);
    console.log(`bulk copy at BULK_COPY_IN_REQUEST_MAX: ${queries} queries`);
    expect(queries).toBeLessThan(1_000);
    expect(queries).toBeGreaterThan(750);

    // The source moved back: 751 copies (750 overlapping those written, skipped) are planned, 1 written in the request.
    await tenantDb()
      .prepare("UPDATE schedule_entries SET start_at = start_at - 172800000, end_at = end_at - 172800000 WHERE id = ?")
      .bind(first.id)
      .run();
    const rest = await send("copy-751-rest");
    expect(rest.status, JSON.stringify(rest.body).slice(0, 500)).toBe(200);
    expect(rest.body.created).toHaveLength(1);
    expect(rest.body.skipped).toHaveLength(750);
  });

  it("at the real limit, 751 published copies at a working-time pack location run as a job of 2 pages within D1's queries", async () => {
    const p = await createSchedulePlace("UTC");
    const pack = await api("PUT", `/api/organizations/${p.org.id}/locations/${p.location.id}/working-time`, {
      token: p.org.adminToken,
      body: { rulePack: "DE" },
    });
    expect(pack.status, pack.text).toBe(200);
    await entriesOfEachWorker(p, 751);
    await using workflows = await introspectWorkflow(env.BULK_WORKFLOW);
    await workflows.modifyAll(async (m) => {
      await m.disableRetryDelays();
    });
    const over = await recordingRequest("POST", `${p.base}/schedules/bulk-copy`, {
      token: p.org.adminToken,
      body: { ...COPY, asDrafts: false },
      headers: { "Idempotency-Key": "copy-751" },
    });
    expect(over.status, JSON.stringify(over.body).slice(0, 500)).toBe(202);
    const queries = total(over.trips) + total(over.directoryTrips);
    console.log(`bulk copy of 751 as a job, the request: ${queries} queries`);
    expect(queries).toBeLessThan(1_000);
    const [instance] = await workflows.get();
    await instance!.waitForStatus("complete");
    const job = await api("GET", `/api/organizations/${p.org.id}/jobs/${over.body.id}`, { token: p.org.adminToken });
    // copy-1 (500 workers' copies), copy-2 (251), finish; the Workflow's steps run on the test D1 guard (limitedEnv).
    expect(job.body).toMatchObject({ status: "SUCCEEDED", step: "finish", steps: 3, error: null });
    expect(await copiesAt(p)).toBe(751);
  });
  it("at the real limit, a copy refused by its batch (an entry written meanwhile) is 409 within D1's queries, nothing written", async () => {
    const p = await createSchedulePlace("UTC");
    const pack = await api("PUT", `/api/organizations/${p.org.id}/locations/${p.location.id}/working-time`, {
      token: p.org.adminToken,
      body: { rulePack: "DE" },
    });
    expect(pack.status, pack.text).toBe(200);
    await entriesOfEachWorker(p, 750);
    const at = Date.parse("2026-06-08T10:00:00Z");
    const res = await requestWithInterference(
      "POST",
      `${p.base}/schedules/bulk-copy`,
      { token: p.org.adminToken, body: { ...COPY, asDrafts: false }, headers: { "Idempotency-Key": "copy-refused" } },
      {
        before: /^insert into "schedule_entries"/i,
        meanwhile: () =>
          tenantDb()
            .prepare(
              `INSERT INTO schedule_entries (id, organization_id, location_id, employee_id, role_id, start_at, end_at, utc_offset,
               timezone, is_draft, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0, 'UTC', 0, ?, ?)`,
            )
            .bind(crypto.randomUUID(), p.org.id, p.location.id, p.staff.id, p.roleId, at, at + 3_600_000, at, at)
            .run(),
      },
    );
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(409);
    expect(res.body.code).toBe("SCHEDULE_OVERLAP");
    // The entry written meanwhile only.
    expect(await copiesAt(p)).toBe(1);
  });
});
