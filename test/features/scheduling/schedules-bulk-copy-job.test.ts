import { createExecutionContext, env, introspectWorkflow, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { BulkRun, type ScheduleCopyJobParams } from "@/jobs/bulk-workflow";
import worker from "@/worker";
import { api } from "../../helpers/api";
import { feed } from "../../helpers/pay";
import { addWorker, createEntry, createSchedulePlace, type SchedulePlace } from "../../helpers/schedules";
import { tenantDb } from "../../helpers/shards";

/**
 * A bulk copy larger than the request's as a BULK job (src/features/scheduling/schedule-copy-job.data.ts,
 * src/jobs/bulk-workflow.ts), through the Worker's fetch with an environment where more than 3 copies make a job
 * (BULK_COPY_IN_REQUEST_MAX) and a page holds 2 copies (BULK_COPY_JOB_PAGE_COPIES) unless one worker's are more.
 * The place's three workers: the first works 3 days of the copied week, the others 1 each — 5 copies: `copy-1` the
 * first worker's 3 (alone: a worker is never split), `copy-2` the other two's, then `finish`. JOB_FAULT_STEPS names
 * the steps that fail after their work (the vitest config allows it: JOB_FAULTS).
 */
const AS_JOB = { BULK_COPY_IN_REQUEST_MAX: "3", BULK_COPY_JOB_PAGE_COPIES: "2" };
const COPY = { fromStartDate: "2026-06-01", fromEndDate: "2026-06-07", toStartDate: "2026-06-08", asDrafts: false };

type JobAnswer = {
  id: string;
  kind: string;
  subject: string;
  status: string;
  step: string;
  steps: number;
  progress: number;
  error: { code: string } | null;
};

/** The place, its three workers in order, and their 5 published entries of the week of 2026-06-01 (UTC). */
async function week() {
  const p = await createSchedulePlace("UTC");
  const workers = [p.staff.id, (await addWorker(p)).id, (await addWorker(p)).id];
  for (const day of ["01", "02", "03"])
    await createEntry(p, { startTime: `2026-06-${day}T09:00:00Z`, endTime: `2026-06-${day}T17:00:00Z` });
  await createEntry(p, { employeeId: workers[1], startTime: "2026-06-02T10:00:00Z", endTime: "2026-06-02T18:00:00Z" });
  await createEntry(p, { employeeId: workers[2], startTime: "2026-06-04T06:00:00Z", endTime: "2026-06-04T12:00:00Z" });
  return { p, workers };
}

/** POST …/schedules/bulk-copy through the Worker's fetch with `vars` over the test environment. */
async function post(p: SchedulePlace, vars: Record<string, string>) {
  const request = new Request(`http://shiftline.test${p.base}/schedules/bulk-copy`, {
    method: "POST",
    headers: { Authorization: `Bearer ${p.org.adminToken}`, "Content-Type": "application/json" },
    body: JSON.stringify(COPY),
  });
  const ctx = createExecutionContext();
  const response = await worker.fetch(request as never, { ...env, ...vars } as Env, ctx);
  await waitOnExecutionContext(ctx);
  return { status: response.status, location: response.headers.get("Location"), body: JSON.parse(await response.text()) };
}

/** The copy as a job, run to its end (retries without their delays); the job as GET answers it. */
async function copyAsJob(p: SchedulePlace, vars: Record<string, string> = {}) {
  await using workflows = await introspectWorkflow(env.BULK_WORKFLOW);
  await workflows.modifyAll(async (m) => {
    await m.disableRetryDelays();
  });
  const started = await post(p, { ...AS_JOB, ...vars });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  expect(started.body).toMatchObject({ kind: "BULK", subject: "schedule-copy", status: "QUEUED", progress: 0 });
  expect(started.location).toBe(`/api/organizations/${p.org.id}/jobs/${started.body.id}`);
  const [instance] = await workflows.get();
  await instance!.waitForStatus("complete");
  const job = await api("GET", started.location!, { token: p.org.adminToken });
  expect(job.status).toBe(200);
  return job.body as JobAnswer;
}

/** The live entries starting in the target week, as [worker's number, start, end, draft], in order. */
async function copiesOf(p: SchedulePlace, workers: string[]) {
  const { results } = await tenantDb()
    .prepare(
      `SELECT id, employee_id, start_at, end_at, is_draft FROM schedule_entries
       WHERE location_id = ? AND deleted_at IS NULL AND start_at >= ? ORDER BY start_at, employee_id`,
    )
    .bind(p.location.id, Date.parse("2026-06-08T00:00:00Z"))
    .all<{ id: string; employee_id: string; start_at: number; end_at: number; is_draft: number }>();
  return results.map((r) => ({
    id: r.id,
    entry: [workers.indexOf(r.employee_id), new Date(r.start_at).toISOString(), new Date(r.end_at).toISOString(), r.is_draft],
  }));
}

/** The ids the place's `schedule_entry.created` events name after the 5 sources'. */
const createdEvents = async (p: SchedulePlace) =>
  (await feed(p.org))
    .filter((e) => e.type === "schedule_entry.created")
    .map((e) => e.data.id as string)
    .slice(5);

const jobEvents = async (p: SchedulePlace) =>
  (await feed(p.org)).filter((e) => e.type.startsWith("job.")).map((e) => [e.type, e.data.status, e.data.subject]);

const EXPECTED = [
  [0, "2026-06-08T09:00:00.000Z", "2026-06-08T17:00:00.000Z", 0],
  [0, "2026-06-09T09:00:00.000Z", "2026-06-09T17:00:00.000Z", 0],
  [1, "2026-06-09T10:00:00.000Z", "2026-06-09T18:00:00.000Z", 0],
  [0, "2026-06-10T09:00:00.000Z", "2026-06-10T17:00:00.000Z", 0],
  [2, "2026-06-11T06:00:00.000Z", "2026-06-11T12:00:00.000Z", 0],
];

const stagedOf = async (jobId: string) => (await env.FILES.list({ prefix: `jobs/${jobId}/` })).objects.map((o) => o.key);

describe("bulk copy as a BULK job", () => {
  it("answers 202 with the job, which writes the copies a page of workers at a time, as the request would", async () => {
    const inRequest = await week();
    const answered = await post(inRequest.p, {});
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    expect(answered.body.created).toHaveLength(5);
    expect((await copiesOf(inRequest.p, inRequest.workers)).map((c) => c.entry)).toEqual(EXPECTED);

    const { p, workers } = await week();
    const job = await copyAsJob(p);
    // copy-1 (the first worker's 3 copies), copy-2 (the other two's), finish.
    expect(job).toMatchObject({
      kind: "BULK",
      subject: "schedule-copy",
      status: "SUCCEEDED",
      step: "finish",
      steps: 3,
      progress: 1,
      error: null,
    });
    const copies = await copiesOf(p, workers);
    expect(copies.map((c) => c.entry)).toEqual(EXPECTED);
    expect((await createdEvents(p)).sort()).toEqual(copies.map((c) => c.id).sort());
    expect((await createdEvents(inRequest.p)).length).toBe(5);
    expect(await jobEvents(p)).toEqual([
      ["job.created", "QUEUED", "schedule-copy"],
      ["job.succeeded", "SUCCEEDED", "schedule-copy"],
    ]);
    expect(await stagedOf(job.id)).toEqual([]);
  });

  it("keeps the request's copy at its limit: 3 copies answer 200", async () => {
    const { p } = await week();
    const request = new Request(`http://shiftline.test${p.base}/schedules/bulk-copy`, {
      method: "POST",
      headers: { Authorization: `Bearer ${p.org.adminToken}`, "Content-Type": "application/json" },
      body: JSON.stringify({ ...COPY, fromEndDate: "2026-06-02" }),
    });
    const ctx = createExecutionContext();
    const response = await worker.fetch(request as never, { ...env, ...AS_JOB } as Env, ctx);
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(200);
  });

  it("resumes after a failure injected after each step's work: no copy lost or doubled, each event once", async () => {
    for (const step of ["copy-1", "copy-2", "finish"]) {
      const { p, workers } = await week();
      const job = await copyAsJob(p, { JOB_FAULT_STEPS: step, JOB_FAULT_TIMES: "1" });
      expect({ step, status: job.status }).toEqual({ step, status: "SUCCEEDED" });
      const copies = await copiesOf(p, workers);
      expect({ step, copies: copies.map((c) => c.entry) }).toEqual({ step, copies: EXPECTED });
      expect({ step, events: (await createdEvents(p)).sort() }).toEqual({ step, events: copies.map((c) => c.id).sort() });
      expect({ step, jobs: await jobEvents(p) }).toEqual({
        step,
        jobs: [
          ["job.created", "QUEUED", "schedule-copy"],
          ["job.succeeded", "SUCCEEDED", "schedule-copy"],
        ],
      });
      expect(await stagedOf(job.id)).toEqual([]);
    }
  });

  it("a page failing every retry ends the job FAILED, its earlier pages kept once", async () => {
    const { p, workers } = await week();
    const job = await copyAsJob(p, { JOB_FAULT_STEPS: "copy-2", JOB_FAULT_TIMES: "99" });
    expect(job).toMatchObject({ status: "FAILED", step: "fail", error: { code: "JOB_FAILED" } });
    expect(await jobEvents(p)).toEqual([
      ["job.created", "QUEUED", "schedule-copy"],
      ["job.failed", "FAILED", "schedule-copy"],
    ]);
    expect(await stagedOf(job.id)).toEqual([]);
    // The fault comes after copy-2's batch: both pages written, each once; a fault on copy-1 leaves copy-2 unwritten.
    const copies = await copiesOf(p, workers);
    expect(copies.map((c) => c.entry)).toEqual(EXPECTED);
    expect((await createdEvents(p)).sort()).toEqual(copies.map((c) => c.id).sort());

    const first = await week();
    const failed = await copyAsJob(first.p, { JOB_FAULT_STEPS: "copy-1", JOB_FAULT_TIMES: "99" });
    expect(failed).toMatchObject({ status: "FAILED", error: { code: "JOB_FAILED" } });
    const kept = await copiesOf(first.p, first.workers);
    expect(kept.map((c) => c.entry)).toEqual(EXPECTED.filter(([worker]) => worker === 0));
    expect((await createdEvents(first.p)).sort()).toEqual(kept.map((c) => c.id).sort());
  });

  it("refuses in the request what the request's copy refuses, with no job and nothing written", async () => {
    const { p, workers } = await week();
    const request = new Request(`http://shiftline.test${p.base}/schedules/bulk-copy`, {
      method: "POST",
      headers: { Authorization: `Bearer ${p.org.adminToken}`, "Content-Type": "application/json" },
      body: JSON.stringify({ ...COPY, employeeIds: [...workers, "ghost"] }),
    });
    const ctx = createExecutionContext();
    const response = await worker.fetch(request as never, { ...env, ...AS_JOB } as Env, ctx);
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(400);
    expect(await copiesOf(p, workers)).toEqual([]);
    expect(await jobEvents(p)).toEqual([]);
  });

  it("a page refused when written (an entry written meanwhile) ends the job FAILED with its code, earlier pages kept", async () => {
    const { p, workers } = await week();
    // The job's Workflow captured, not run: an entry is written between the plan and the pages.
    let params: ScheduleCopyJobParams | undefined;
    const capture = { create: async (options: { params: ScheduleCopyJobParams }) => void (params = options.params) };
    const request = new Request(`http://shiftline.test${p.base}/schedules/bulk-copy`, {
      method: "POST",
      headers: { Authorization: `Bearer ${p.org.adminToken}`, "Content-Type": "application/json" },
      body: JSON.stringify(COPY),
    });
    const ctx = createExecutionContext();
    const response = await worker.fetch(request as never, { ...env, ...AS_JOB, BULK_WORKFLOW: capture } as unknown as Env, ctx);
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(202);
    const jobId = (JSON.parse(await response.text()) as { id: string }).id;
    // The last worker now works the copy's target hours (copy-2 holds that worker's copy).
    await createEntry(p, { employeeId: workers[2], startTime: "2026-06-11T08:00:00Z", endTime: "2026-06-11T09:00:00Z" });
    const steps: string[] = [];
    const step = {
      do: async (name: string, _config: unknown, run: (c: { attempt: number }) => Promise<unknown>) => (
        steps.push(name), run({ attempt: 1 })
      ),
    };
    await new BulkRun(env).run({ payload: params! } as never, step as never);
    expect(steps).toEqual(["copy-1", "copy-2", "fail"]);
    const job = await api("GET", `/api/organizations/${p.org.id}/jobs/${jobId}`, { token: p.org.adminToken });
    expect(job.body).toMatchObject({ status: "FAILED", step: "fail", error: { code: "SCHEDULE_OVERLAP" } });
    const copies = await copiesOf(p, workers);
    expect(copies.map((c) => c.entry)).toEqual([
      ...EXPECTED.filter(([worker]) => worker === 0),
      [2, "2026-06-11T08:00:00.000Z", "2026-06-11T09:00:00.000Z", 0],
    ]);
    expect(await jobEvents(p)).toEqual([
      ["job.created", "QUEUED", "schedule-copy"],
      ["job.failed", "FAILED", "schedule-copy"],
    ]);
    expect(await stagedOf(jobId)).toEqual([]);
  });
});
