import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { exports } from "@db/schema";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { newId } from "@/data/ids";
import type { ExportMessage } from "@/features/exports/export-chunk";
import worker from "@/worker";
import { api } from "../../helpers/api";
import { feed } from "../../helpers/pay";
import { tenantDb } from "../../helpers/shards";
import { createStaffMember } from "../../helpers/staff";
import { createRole, newYork, seedShifts } from "../../helpers/timesheets";
import { createWorkplace, type Workplace } from "../../helpers/workplace";

/**
 * An export as a job (src/features/exports/export-chunk.ts, src/jobs/export-queue.ts): the jobs row of the export's id
 * moves with each chunk. Seven shifts in chunks of 2 rows (EXPORT_CHUNK_ROWS in vitest.config.ts) are the steps
 * chunk-1 (2 rows), chunk-2 (2), chunk-3 (2), chunk-4 (1, and the file completed). JOB_FAULT_STEPS names the steps
 * that fail (the vitest config allows it: JOB_FAULTS): `chunk-2` after its batch, `chunk-2@write` after its R2 writes
 * and before its batch; the queue redelivers a failed message up to 4 times in all (EXPORT_ATTEMPTS).
 */
const db = createDatabase(tenantDb());
const SHIFTS = 7;
const STEPS = ["chunk-1", "chunk-2", "chunk-3", "chunk-4"];
const MARCH = { kind: "TIMESHEETS", format: "csv", startDate: "2026-03-01", endDate: "2026-03-31" };
const exportsPath = (w: Workplace, rest = "") => `/api/organizations/${w.org.id}/exports${rest}`;

async function march() {
  const w = await createWorkplace();
  const role = await createRole(w, 18.5, "Barista");
  const ada = await createStaffMember(w.org, { locationIds: [w.location.id] });
  await seedShifts(
    w.org.id,
    Array.from({ length: SHIFTS }, (_, i) => ({
      employeeId: i % 2 ? ada.id : w.staff.id,
      locationId: w.location.id,
      roleId: role.id,
      hourlyWage: 18.5,
      minutes: 300 + i,
      ...newYork(`2026-03-${String(10 + i).padStart(2, "0")}T09:00:00`),
    })),
  );
  return w;
}

/** One delivery of the export's message (its `attempts`-th) through the Worker's queue handler, `vars` over env. */
async function deliver(organizationId: string, exportId: string, attempts = 1, vars: Record<string, string> = {}) {
  const batch = createMessageBatch<ExportMessage>("shiftline-exports", [
    { id: newId(), timestamp: new Date(), attempts, body: { exportId, organizationId } },
  ]);
  const ctx = createExecutionContext();
  await worker.queue(batch as never, { ...env, ...vars } as Env);
  return getQueueResult(batch, ctx);
}

const rowOf = async (id: string) => (await db.select().from(exports).where(eq(exports.id, id)))[0]!;

/** Delivers the export's messages as the queue would (a retried message again, one attempt more) until it is over. */
async function work(organizationId: string, id: string, vars: Record<string, string> = {}) {
  let attempts = 1;
  for (let i = 0; i < 50; i++) {
    const row = await rowOf(id);
    if (row.status === "SUCCEEDED" || row.status === "FAILED") return row;
    const result = await deliver(organizationId, id, attempts, vars);
    attempts = result.retryMessages.length ? attempts + 1 : 1;
  }
  throw new Error("the export did not finish");
}

const jobOf = async (w: Workplace, id: string) => {
  const res = await api("GET", `/api/organizations/${w.org.id}/jobs/${id}`, { token: w.org.adminToken });
  expect(res.status).toBe(200);
  return res.body as Record<string, unknown>;
};

/** The export's objects in storage: its file, pending tails (`….pending/…`), anything under its key. */
const objectsOf = async (w: Workplace, id: string) =>
  (await env.FILES.list({ prefix: `exports/${w.org.id}/${id}` })).objects.map((o) => o.key);

/** The organization's events about the export and its job, in order: [type, status]. */
const endsOf = async (w: Workplace, id: string) =>
  (await feed(w.org)).filter((e) => /^(job|export)\./.test(e.type) && e.data.id === id).map((e) => [e.type, e.data.status]);

async function expectTheFile(w: Workplace, id: string) {
  const file = await api("GET", exportsPath(w, `/${id}/download`), { token: w.org.adminToken });
  expect(file.status).toBe(200);
  const sync = await api("GET", "/api/timesheets/export?startDate=2026-03-01&endDate=2026-03-31", { token: w.org.adminToken });
  expect(file.text).toBe(sync.text);
}

describe("an export as a job", () => {
  it("answers 202 with its jobId; GET …/jobs/{id} follows each chunk's step and progress to SUCCEEDED, with its events", async () => {
    const w = await march();
    const res = await api("POST", exportsPath(w), { token: w.org.adminToken, body: MARCH });
    expect(res.status).toBe(202);
    const id = res.body.id as string;
    expect(res.body.jobId).toBe(id);
    // The export's own URL, as before.
    expect(res.headers.get("Location")).toBe(exportsPath(w, `/${id}`));
    expect(await jobOf(w, id)).toMatchObject({
      id,
      kind: "EXPORT",
      subject: id,
      status: "QUEUED",
      step: null,
      steps: null,
      progress: 0,
      error: null,
      finishedAt: null,
    });

    // 7 rows in chunks of 2: 4 chunks planned from the count at the first.
    const seen = [];
    for (let i = 0; i < 3; i++) {
      expect((await deliver(w.org.id, id)).explicitAcks).toHaveLength(1);
      const job = await jobOf(w, id);
      seen.push([job.status, job.step, job.steps, job.progress]);
    }
    expect(seen).toEqual([
      ["RUNNING", "chunk-1", 4, 0.25],
      ["RUNNING", "chunk-2", 4, 0.5],
      ["RUNNING", "chunk-3", 4, 0.75],
    ]);
    await deliver(w.org.id, id);
    const done = await jobOf(w, id);
    expect(done).toMatchObject({ status: "SUCCEEDED", step: "chunk-4", steps: 4, progress: 1, error: null });
    expect(done.finishedAt).toBe((await api("GET", exportsPath(w, `/${id}`), { token: w.org.adminToken })).body.finishedAt);
    await expectTheFile(w, id);
    expect(await objectsOf(w, id)).toEqual([`exports/${w.org.id}/${id}.csv`]);
    expect(await endsOf(w, id)).toEqual([
      ["export.created", "QUEUED"],
      ["job.created", "QUEUED"],
      ["export.succeeded", "SUCCEEDED"],
      ["job.succeeded", "SUCCEEDED"],
    ]);
  });

  it("a failure at any step, after its batch or before it, is retried and resumes: each row once, no object but the file", async () => {
    const w = await march();
    for (const step of STEPS) {
      for (const fault of [step, `${step}@write`]) {
        const res = await api("POST", exportsPath(w), { token: w.org.adminToken, body: MARCH });
        const id = res.body.id as string;
        const done = await work(w.org.id, id, { JOB_FAULT_STEPS: fault, JOB_FAULT_TIMES: "1" });
        expect({ fault, status: done.status, rows: done.rowsWritten }).toEqual({ fault, status: "SUCCEEDED", rows: SHIFTS });
        expect({ fault, job: await jobOf(w, id) }).toMatchObject({
          fault,
          job: { status: "SUCCEEDED", step: "chunk-4", steps: 4, progress: 1 },
        });
        await expectTheFile(w, id);
        expect({ fault, objects: await objectsOf(w, id) }).toEqual({ fault, objects: [`exports/${w.org.id}/${id}.csv`] });
        expect({ fault, ends: (await endsOf(w, id)).filter(([type]) => type !== "export.created" && type !== "job.created") }).toEqual({
          fault,
          ends: [
            ["export.succeeded", "SUCCEEDED"],
            ["job.succeeded", "SUCCEEDED"],
          ],
        });
      }
    }
  });

  it("a step failing on every delivery before its batch ends the export and its job FAILED, and leaves nothing in storage", async () => {
    const w = await march();
    for (const [n, step] of STEPS.entries()) {
      const res = await api("POST", exportsPath(w), { token: w.org.adminToken, body: MARCH });
      const id = res.body.id as string;
      const done = await work(w.org.id, id, { JOB_FAULT_STEPS: `${step}@write`, JOB_FAULT_TIMES: "99" });
      // The chunks before it done: 2 rows each.
      expect({ step, status: done.status, rows: done.rowsWritten }).toEqual({ step, status: "FAILED", rows: 2 * n });
      const job = await jobOf(w, id);
      expect({ step, job }).toMatchObject({ step, job: { status: "FAILED", step, error: { code: "JOB_FAILED" } } });
      expect((job.error as { detail: string }).detail).toMatch(/Injected failure before the batch of the step/);
      expect(job.finishedAt).not.toBeNull();
      // The upload aborted, the tails and (after the last chunk) the completed file deleted.
      expect({ step, objects: await objectsOf(w, id) }).toEqual({ step, objects: [] });
      expect({ step, ends: (await endsOf(w, id)).slice(2) }).toEqual({
        step,
        ends: [
          ["export.failed", "FAILED"],
          ["job.failed", "FAILED"],
        ],
      });
      const download = await api("GET", exportsPath(w, `/${id}/download`), { token: w.org.adminToken });
      expect(download.status).toBe(409);
    }
  });

  it("a step failing on every delivery after its batch resumes at the next: the chunk it did stays done", async () => {
    const w = await march();
    const res = await api("POST", exportsPath(w), { token: w.org.adminToken, body: MARCH });
    const id = res.body.id as string;
    const done = await work(w.org.id, id, { JOB_FAULT_STEPS: "chunk-2", JOB_FAULT_TIMES: "99" });
    expect(done).toMatchObject({ status: "SUCCEEDED", rowsWritten: SHIFTS, chunk: 4 });
    expect(await jobOf(w, id)).toMatchObject({ status: "SUCCEEDED", steps: 4, progress: 1 });
    await expectTheFile(w, id);
  });

  it("duplicate deliveries of every chunk's message move the job once a step; a redelivery after its end changes nothing", async () => {
    const w = await march();
    const res = await api("POST", exportsPath(w), { token: w.org.adminToken, body: MARCH });
    const id = res.body.id as string;
    const progress: number[] = [];
    for (let i = 0; i < 10 && (await rowOf(id)).status !== "SUCCEEDED"; i++) {
      await Promise.all([deliver(w.org.id, id), deliver(w.org.id, id)]);
      progress.push((await jobOf(w, id)).progress as number);
    }
    // Each pair moved it on by one chunk or two (when one delivery read after the other's batch), never back.
    expect(progress).toEqual([...progress].sort());
    expect(progress.every((p) => [0.25, 0.5, 0.75, 1].includes(p))).toBe(true);
    await expectTheFile(w, id);
    const job = await jobOf(w, id);
    expect(job).toMatchObject({ status: "SUCCEEDED", step: "chunk-4", steps: 4, progress: 1 });
    const row = await rowOf(id);
    await deliver(w.org.id, id);
    expect(await jobOf(w, id)).toEqual(job);
    expect(await rowOf(id)).toEqual(row);
    expect((await endsOf(w, id)).filter(([type]) => type === "job.succeeded")).toHaveLength(1);
    expect(await objectsOf(w, id)).toEqual([`exports/${w.org.id}/${id}.csv`]);
  });

  it("another organization's admin does not find the export's job", async () => {
    const w = await march();
    const res = await api("POST", exportsPath(w), { token: w.org.adminToken, body: MARCH });
    const other = await createWorkplace();
    const foreign = await api("GET", `/api/organizations/${other.org.id}/jobs/${res.body.id}`, { token: other.org.adminToken });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe("JOB_NOT_FOUND");
  });
});
