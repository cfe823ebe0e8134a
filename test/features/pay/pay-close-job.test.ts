import { createExecutionContext, env, introspectWorkflow, waitOnExecutionContext } from "cloudflare:test";
import { organizations } from "@db/schema";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { sha256Hex, startUpload } from "@/data/files";
import { payInputsFingerprint } from "@/data/pay/pay-inputs.data";
import { shardBinding } from "@/data/shards";
import { canonicalJson } from "@/domain/canonical-json";
import { type CloseJobParams, failCloseJob, uploadsKey } from "@/features/pay/pay-close-job.data";
import worker from "@/worker";
import { api } from "../../helpers/api";
import { approve, feed, PERIOD, periodsPath, reopenPeriod, WEEK, workDay } from "../../helpers/pay";
import { shardOf } from "../../helpers/shards";
import { createStaffMember, staffToken } from "../../helpers/staff";
import { createWorkplace, type Workplace } from "../../helpers/workplace";

/**
 * The pay close as a durable job (src/jobs/pay-close-workflow.ts, src/features/pay/pay-close-job.data.ts). The close
 * request runs through the Worker's fetch with an environment that makes every organization "large"
 * (CLOSE_IN_REQUEST_MAX_EMPLOYEES 0) and computes one employee a page, one page a step: four staff members make the
 * steps plan, employees-1 … employees-4, assemble-1 (or one assemble step a staged part: ASSEMBLE_BY_PART), commit, clean. JOB_FAULT_STEPS names the steps that fail after their
 * work (the vitest config allows it: JOB_FAULTS), so a step is redelivered having written what it writes.
 */
const AS_JOB = { CLOSE_IN_REQUEST_MAX_EMPLOYEES: "0", PAYROLL_PAGE_EMPLOYEES: "1", CLOSE_JOB_PAGES_PER_STEP: "1" };
const STEPS = ["plan", "employees-1", "employees-2", "employees-3", "employees-4", "assemble-1", "commit", "clean"];
/** Every staged part (one staff member's) its own assemble step: assemble-1 … assemble-4. */
const ASSEMBLE_BY_PART = { CLOSE_JOB_ASSEMBLE_BYTES: "1" };

async function crew() {
  const w = await createWorkplace();
  const others = [];
  for (let i = 0; i < 3; i++) others.push(await createStaffMember(w.org, { locationIds: [w.location.id], name: `Crew "${i}", Ü` }));
  for (const [i, staff] of [w.staff, ...others].entries()) {
    await workDay({ ...w, staff }, WEEK[i]!, 8 + i);
    await workDay({ ...w, staff }, WEEK[i + 1]!, 10);
  }
  return w;
}

/** POST …/close through the Worker's fetch with `vars` over the test environment. */
async function close(w: Workplace, vars: Record<string, string>, { approveAll = true, token = w.org.adminToken } = {}) {
  const request = new Request(`http://shiftline.test${periodsPath(w.org)}/${PERIOD}/close`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ approveAll }),
  });
  const ctx = createExecutionContext();
  const response = await worker.fetch(request as never, { ...env, ...vars } as Env, ctx);
  await waitOnExecutionContext(ctx);
  return { status: response.status, location: response.headers.get("Location"), body: JSON.parse(await response.text()) };
}

/**
 * A close as a job, run to its end (retries without their delays); answers the job as GET …/jobs/{id} does. `plan`:
 * the `plan` step's result as given (a plan made earlier, before a change).
 */
async function closeAsJob(w: Workplace, vars: Record<string, string> = {}, plan?: Record<string, unknown>) {
  await using workflows = await introspectWorkflow(env.PAY_CLOSE_WORKFLOW);
  await workflows.modifyAll(async (m) => {
    await m.disableRetryDelays();
    if (plan) await m.mockStepResult({ name: "plan" }, plan);
  });
  const started = await close(w, { ...AS_JOB, ...vars });
  expect(started.status).toBe(202);
  expect(started.body).toMatchObject({ kind: "PAY_CLOSE", subject: PERIOD, status: "QUEUED" });
  expect(started.location).toBe(`/api/organizations/${w.org.id}/jobs/${started.body.id}`);
  const [instance] = await workflows.get();
  await instance!.waitForStatus("complete");
  const job = await api("GET", started.location!, { token: w.org.adminToken });
  expect(job.status).toBe(200);
  return job.body as { id: string; status: string; step: string; steps: number; progress: number; error: { code: string } | null };
}

const payrollOf = async (w: Workplace) => {
  const json = await api("GET", `${periodsPath(w.org)}/${PERIOD}/payroll`, { token: w.org.adminToken });
  const csv = await api("GET", `${periodsPath(w.org)}/${PERIOD}/payroll?format=csv`, { token: w.org.adminToken });
  return { json: json.text, csv: csv.text };
};

/** The document without when and by whom it was closed (a close's own), and its hash checked against its bytes. */
async function figuresOf(json: string) {
  const { snapshotHash, closedAt: _, ...rest } = JSON.parse(json) as Record<string, unknown>;
  const canonical = canonicalJson({ ...rest, closedAt: JSON.parse(json).closedAt });
  expect(snapshotHash).toBe(await sha256Hex(new TextEncoder().encode(canonical)));
  return canonicalJson(rest);
}

/** The period open again as if never closed (rows only: a test's reset, so the next close is version 1 again). */
async function unclose(w: Workplace) {
  const db = shardBinding(env, await shardOf(w.org.id));
  await db.batch(
    ["pay_period_snapshots", "pay_rule_set_uses", "pay_periods"].map((table) =>
      db.prepare(`DELETE FROM ${table} WHERE organization_id = ?`).bind(w.org.id),
    ),
  );
}

const stagedOf = async (jobId: string) => (await env.FILES.list({ prefix: `jobs/${jobId}/` })).objects.map((o) => o.key);
const payrollObjectsOf = async (w: Workplace, jobId: string) =>
  (await env.FILES.list({ prefix: `payroll/${w.org.id}/` })).objects.map((o) => o.key).filter((key) => key.includes(jobId));

/** The committed snapshot row's object, checked against its bytes by WebCrypto: the key, size and SHA-256 D1 keeps. */
async function expectStoredObject(w: Workplace) {
  const db = shardBinding(env, await shardOf(w.org.id));
  const row = await db
    .prepare("SELECT object_key, object_size, object_sha256, snapshot_hash FROM pay_period_snapshots WHERE organization_id = ?")
    .bind(w.org.id)
    .first<{ object_key: string; object_size: number; object_sha256: string; snapshot_hash: string }>();
  const bytes = new Uint8Array(await (await env.FILES.get(row!.object_key))!.arrayBuffer());
  expect(row!.object_size).toBe(bytes.byteLength);
  expect(row!.object_sha256).toBe(await sha256Hex(bytes));
  const { snapshotHash, ...document } = JSON.parse(new TextDecoder().decode(bytes));
  expect(row!.snapshot_hash).toBe(snapshotHash);
  expect(snapshotHash).toBe(await sha256Hex(new TextEncoder().encode(canonicalJson(document))));
  return row!;
}

/** The period's pay inputs' fingerprint as a plan reads it now (the weekly PERIOD: WEEK's first and last days). */
async function fingerprintNow(w: Workplace) {
  const db = createDatabase(shardBinding(env, await shardOf(w.org.id)));
  const [row] = await db
    .select({ fingerprint: payInputsFingerprint(w.org.id, WEEK[0], WEEK[6]) })
    .from(organizations)
    .where(eq(organizations.id, w.org.id));
  return row!.fingerprint;
}

const periodStatus = async (w: Workplace) =>
  (await api("GET", `${periodsPath(w.org)}/${PERIOD}`, { token: w.org.adminToken })).body.status as string;

describe("the pay close as a durable job", () => {
  it("answers 202 with the job, which commits the same payroll as a close within the request", async () => {
    const w = await crew();
    const inRequest = await close(w, {});
    expect(inRequest.status).toBe(200);
    const expected = await payrollOf(w);
    await unclose(w);

    const job = await closeAsJob(w);
    // plan, 4 page steps, assemble-1, commit: 7 steps recorded; clean runs after the commit.
    expect(job).toMatchObject({ status: "SUCCEEDED", step: "commit", steps: 7, progress: 1, error: null });
    expect(await periodStatus(w)).toBe("CLOSED");
    const got = await payrollOf(w);
    expect(got.csv).toBe(expected.csv);
    expect(await figuresOf(got.json)).toBe(await figuresOf(expected.json));
    expect(await stagedOf(job.id)).toEqual([]);
    expect((await payrollObjectsOf(w, job.id)).sort()).toEqual([
      `payroll/${w.org.id}/${PERIOD}/v1/${job.id}.csv`,
      `payroll/${w.org.id}/${PERIOD}/v1/${job.id}.json`,
    ]);
    const types = (await feed(w.org)).map((e) => e.type);
    expect(types).toContain("job.created");
    expect(types).toContain("job.succeeded");
  });

  it("a re-close as a job carries the adjustments against the previous version: 2 more hours at $20 are +120 min, +$40", async () => {
    const w = await crew();
    expect((await closeAsJob(w)).status).toBe("SUCCEEDED");
    const before = JSON.parse((await payrollOf(w)).json);
    expect((await reopenPeriod(w, PERIOD)).status).toBe(200);
    const withdrawn = await api("DELETE", `${periodsPath(w.org)}/${PERIOD}/approvals/${w.staff.id}`, { token: w.org.adminToken });
    expect(withdrawn.status).toBe(200);
    expect((await workDay(w, WEEK[5]!, 2)).id).toBeTruthy();
    expect((await closeAsJob(w)).status).toBe("SUCCEEDED");
    const after = JSON.parse((await payrollOf(w)).json);
    expect(after.version).toBe(2);
    expect(after.adjustments).toHaveLength(1);
    expect(after.adjustments[0]).toMatchObject({ employeeId: w.staff.id, regularMinutes: 120, overtimeMinutes: 0, grossPay: 40 });
    expect(after.totals.regularMinutes - before.totals.regularMinutes).toBe(120);
    expect(after.totals.grossPay - before.totals.grossPay).toBe(40);
  });

  it("a large organization's close is refused in the request, as a small one's: no job, nothing written", async () => {
    const w = await crew();
    const jobs = async () => (await feed(w.org)).filter((e) => e.type.startsWith("job.")).length;
    // The closer's own timesheet (an admin who worked the period), then one not approved without approveAll.
    const admin = await createStaffMember(w.org, { locationIds: [w.location.id], accessRoleName: "Admin" });
    await workDay({ ...w, staff: admin }, WEEK[0]!, 8);
    const own = await close(w, AS_JOB, { token: await staffToken(w.org, admin.id) });
    expect(own.status).toBe(403);
    const unapproved = await close(w, AS_JOB, { approveAll: false });
    expect(unapproved.status).toBe(409);
    expect(unapproved.body.code).toBe("TIMESHEETS_NOT_APPROVED");
    // A shift still open in the period.
    const db = shardBinding(env, await shardOf(w.org.id));
    const shift = await db
      .prepare("SELECT id, end_at FROM shifts WHERE employee_id = ? LIMIT 1")
      .bind(w.staff.id)
      .first<{ id: string; end_at: number }>();
    await db.prepare("UPDATE shifts SET end_at = NULL WHERE id = ?").bind(shift!.id).run();
    const open = await close(w, AS_JOB);
    expect(open.status).toBe(409);
    expect(open.body).toMatchObject({ code: "OPEN_SHIFT_IN_PERIOD", employeeIds: [w.staff.id] });
    await db.prepare("UPDATE shifts SET end_at = ? WHERE id = ?").bind(shift!.end_at, shift!.id).run();
    expect(await jobs()).toBe(0);
    expect(await periodStatus(w)).toBe("OPEN");
    // Closed already.
    await approve(w, PERIOD, [admin.id]);
    expect((await close(w, {})).status).toBe(200);
    const closed = await close(w, AS_JOB);
    expect(closed.status).toBe(409);
    expect(closed.body.code).toBe("PAY_PERIOD_CLOSED");
    expect(await jobs()).toBe(0);
  });

  it("a commit holds to its plan: an approval given after the plan fails the job PAY_PERIOD_CHANGED, nothing written", async () => {
    const w = await crew();
    // The plan as made before the approval: version 1, the four workers none approved, the fingerprint then.
    const before = { ok: true, version: 1, fingerprint: await fingerprintNow(w), workers: 4, approved: 0, unapproved: 4 };
    expect((await approve(w, PERIOD, [w.staff.id])).status).toBe(200);
    const stale = await closeAsJob(w, {}, before);
    expect(stale).toMatchObject({ status: "FAILED", error: { code: "PAY_PERIOD_CHANGED" } });
    expect(await periodStatus(w)).toBe("OPEN");
    expect(await stagedOf(stale.id)).toEqual([]);
    expect(await payrollObjectsOf(w, stale.id)).toEqual([]);
    const events = async () => (await feed(w.org)).filter((e) => e.type === "pay_period.closed" || e.type === "timesheet.approved");
    expect(await events()).toHaveLength(1);
    // The same plan made after it commits, with its counts: one approved before, three approved by the close.
    const after = { ...before, fingerprint: await fingerprintNow(w), approved: 1, unapproved: 3 };
    expect(after.fingerprint).not.toBe(before.fingerprint);
    const job = await closeAsJob(w, {}, after);
    expect(job).toMatchObject({ status: "SUCCEEDED", error: null });
    expect(await periodStatus(w)).toBe("CLOSED");
    const closed = (await events()).find((e) => e.type === "pay_period.closed");
    expect(closed?.data).toMatchObject({ approvedCount: 4, employeeCount: 4 });
    expect((await events()).filter((e) => e.type === "timesheet.approved")).toHaveLength(4);
  });

  it("resumes to the same payroll bytes after a failure injected after each step's work", async () => {
    const w = await crew();
    const baseline = await closeAsJob(w);
    expect(baseline.status).toBe("SUCCEEDED");
    const expected = await payrollOf(w);
    for (const step of STEPS) {
      await unclose(w);
      const job = await closeAsJob(w, { JOB_FAULT_STEPS: step, JOB_FAULT_TIMES: "1" });
      expect({ step, status: job.status }).toEqual({ step, status: "SUCCEEDED" });
      const got = await payrollOf(w);
      expect(got.csv).toBe(expected.csv);
      expect(await figuresOf(got.json)).toBe(await figuresOf(expected.json));
      expect(await stagedOf(job.id)).toEqual([]);
    }
  });

  it("assembles over several steps (a staged part each): the in-request close's payroll, resumed to it after a failure at each", async () => {
    const w = await crew();
    expect((await close(w, {})).status).toBe(200);
    const expected = await payrollOf(w);
    for (const fault of [null, "assemble-1", "assemble-2", "assemble-3", "assemble-4", "assemble-*"]) {
      await unclose(w);
      const job = await closeAsJob(w, { ...ASSEMBLE_BY_PART, ...(fault && { JOB_FAULT_STEPS: fault, JOB_FAULT_TIMES: "1" }) });
      // plan, 4 page steps, 4 assemble steps, commit.
      expect({ fault, ...job }).toMatchObject({ fault, status: "SUCCEEDED", step: "commit", steps: 10, progress: 1, error: null });
      const got = await payrollOf(w);
      expect(got.csv).toBe(expected.csv);
      expect(await figuresOf(got.json)).toBe(await figuresOf(expected.json));
      const row = await expectStoredObject(w);
      expect(row.object_key).toBe(`payroll/${w.org.id}/${PERIOD}/v1/${job.id}.json`);
      expect(await stagedOf(job.id)).toEqual([]);
      expect((await payrollObjectsOf(w, job.id)).sort()).toEqual([row.object_key.replace(/\.json$/, ".csv"), row.object_key]);
    }
  });

  it("a re-close assembled over several steps carries the same adjustments: 2 more hours at $20 are +120 min, +$40", async () => {
    const w = await crew();
    expect((await closeAsJob(w, ASSEMBLE_BY_PART)).status).toBe("SUCCEEDED");
    expect((await reopenPeriod(w, PERIOD)).status).toBe(200);
    const withdrawn = await api("DELETE", `${periodsPath(w.org)}/${PERIOD}/approvals/${w.staff.id}`, { token: w.org.adminToken });
    expect(withdrawn.status).toBe(200);
    expect((await workDay(w, WEEK[5]!, 2)).id).toBeTruthy();
    const job = await closeAsJob(w, { ...ASSEMBLE_BY_PART, JOB_FAULT_STEPS: "assemble-2", JOB_FAULT_TIMES: "1" });
    expect(job.status).toBe("SUCCEEDED");
    const after = JSON.parse((await payrollOf(w)).json);
    expect(after.version).toBe(2);
    expect(after.adjustments).toHaveLength(1);
    expect(after.adjustments[0]).toMatchObject({ employeeId: w.staff.id, regularMinutes: 120, overtimeMinutes: 0, grossPay: 40 });
    await figuresOf((await payrollOf(w)).json);
  });

  it("an assemble step failing every retry ends the job FAILED with nothing of it in storage", async () => {
    const w = await crew();
    for (const step of ["assemble-1", "assemble-3", "assemble-4"]) {
      const job = await closeAsJob(w, { ...ASSEMBLE_BY_PART, JOB_FAULT_STEPS: step, JOB_FAULT_TIMES: "99" });
      expect({ step, status: job.status, code: job.error?.code }).toEqual({ step, status: "FAILED", code: "JOB_FAILED" });
      expect(await periodStatus(w)).toBe("OPEN");
      expect(await stagedOf(job.id)).toEqual([]);
      expect(await payrollObjectsOf(w, job.id)).toEqual([]);
    }
    expect((await closeAsJob(w, ASSEMBLE_BY_PART)).status).toBe("SUCCEEDED");
    await expectStoredObject(w);
  });

  it("`fail` aborts the payroll objects' uploads an assemble step started and recorded", async () => {
    const w = await crew();
    const jobId = "job-with-uploads";
    const key = `payroll/${w.org.id}/${PERIOD}/v1/${jobId}.json`;
    const uploads = [
      { key, uploadId: await startUpload(env.FILES, key, "application/json") },
      { key: key.replace(/\.json$/, ".csv"), uploadId: await startUpload(env.FILES, key.replace(/\.json$/, ".csv"), "text/csv") },
    ];
    await env.FILES.put(uploadsKey(jobId), JSON.stringify(uploads));
    const part = (u: (typeof uploads)[number]) => env.FILES.resumeMultipartUpload(u.key, u.uploadId).uploadPart(1, "bytes");
    // Open before the fail step: a part is taken.
    expect((await part(uploads[0]!)).partNumber).toBe(1);
    const db = createDatabase(shardBinding(env, await shardOf(w.org.id)));
    const p = { jobId, organizationId: w.org.id, periodId: PERIOD } as CloseJobParams;
    await failCloseJob({ writer: { db, principal: null as never }, files: env.FILES }, p, { code: "JOB_FAILED", detail: "test" });
    for (const upload of uploads) await expect(part(upload)).rejects.toThrow();
    expect(await stagedOf(jobId)).toEqual([]);
  });

  it("a step failing every retry ends the job FAILED: the period OPEN, nothing of the job in storage", async () => {
    const w = await crew();
    for (const step of ["plan", "employees-2", "assemble-1"]) {
      const job = await closeAsJob(w, { JOB_FAULT_STEPS: step, JOB_FAULT_TIMES: "99" });
      expect({ step, status: job.status, code: job.error?.code }).toEqual({ step, status: "FAILED", code: "JOB_FAILED" });
      expect(await periodStatus(w)).toBe("OPEN");
      expect(await stagedOf(job.id)).toEqual([]);
      expect(await payrollObjectsOf(w, job.id)).toEqual([]);
    }
    expect((await feed(w.org)).filter((e) => e.type === "job.failed")).toHaveLength(3);
    // The commit is the one step after which nothing is undone: failing after its batch, every retry finds its own
    // snapshot committed, and the job stays SUCCEEDED with the period CLOSED.
    const committed = await closeAsJob(w, { JOB_FAULT_STEPS: "commit", JOB_FAULT_TIMES: "99" });
    expect(committed.status).toBe("SUCCEEDED");
    expect(await periodStatus(w)).toBe("CLOSED");
    expect(await stagedOf(committed.id)).toEqual([]);
  });
});
