import { organizationNow } from "@/data/clock";
import { abortUpload, deleteFiles, deleteFilesUnder, FileWriter, getFile } from "@/data/files";
import { newId } from "@/data/ids";
import { finishJob, insertJob, newJobRow, readJob, recordStep } from "@/data/jobs/jobs.data";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import type { EmployeeTotals } from "@/domain/payroll";
import type { Principal } from "@/domain/permissions";
import { ProblemError } from "@/problems/problem";
import { serializeJob } from "@/wire/job.schemas";
import { checkClose } from "./pay-close-check.data";
import { type ClosedObjects, commitClose, committedSnapshot, writeEmployees } from "./pay-period-close.data";
import { readSettings } from "./pay-period-settings.data";
import { actorOf, spanOf } from "./pay-periods.data";
import { PAYROLL_CSV_TYPE, PAYROLL_JSON_TYPE, PAYROLL_PREFIX } from "./snapshot.data";

/**
 * The pay close as a durable job (src/jobs/pay-close-workflow.ts runs these steps as a Cloudflare Workflow). Each step
 * is one Worker invocation within D1's 1,000 queries, and is idempotent: a step redelivered (its result lost after its
 * work) does the same work again over the same keys. Only the last step writes what anyone reads — the period CLOSED
 * with its snapshot row naming the payroll objects, and the job SUCCEEDED, in one batch — so the period reads OPEN
 * until then. Before it, the steps write only to R2 under keys of the job: the staged pages (`jobs/{jobId}/…`) and the
 * payroll objects (`payroll/{organizationId}/{startDate}/v{version}/{jobId}.json|.csv`), which no row names until the
 * commit. A job that fails deletes both (and the Cron's orphan sweep deletes payroll objects no row names after an hour).
 */
export interface CloseJobParams {
  jobId: string;
  organizationId: string;
  periodId: string;
  approveAll: boolean;
  /** When the close was asked for: the snapshot's closedAt (ms since the epoch). */
  requestedAt: number;
  principal: Principal;
  pageEmployees: number;
  /** Pages of pageEmployees each `employees-n` step computes. */
  pagesPerStep: number;
  partBytes: number;
  /** Bytes of staged parts (JSON and CSV) each `assemble-k` step copies at most (but one part at least). */
  assembleBytes: number;
  /** Tests only (honoured when the Worker's JOB_FAULTS is "allow"): the named steps fail after their work. */
  fault?: { steps: string[]; times: number };
}

/** What a step needs: the organization's shard (a Writer acting as the closer) and the files bucket. */
export interface StepContext {
  writer: Writer;
  files: R2Bucket;
}

export type JobError = { code: string; detail: string };

/**
 * The plan every later step holds to. `approved`/`unapproved`: its counts, which the commit's fingerprint guard holds
 * (absent from a plan made before 2026-12-07: its commit reads them again).
 */
export type Planned =
  | { ok: true; version: number; fingerprint: string; workers: number; approved?: number; unapproved?: number }
  | { ok: false; error: JobError };

/** A page range staged by `employees-n`. */
export interface StagedPart {
  n: number;
  employees: number;
  afterId: string | null;
  more: boolean;
  weeksFrom: string;
  weeksTo: string;
  /** Bytes of its staged JSON and CSV. */
  bytes: number;
}

const stagingPrefix = (jobId: string) => `jobs/${jobId}/`;
export const stagedKey = (jobId: string, n: number, what: "json" | "csv" | "totals.json") =>
  `${stagingPrefix(jobId)}employees-${n}.${what}`;

/** The payroll JSON key of a close job: named by the job, so a redelivered step writes the same key. */
/** The multipart uploads of the payroll objects, recorded by `assemble-1` when it starts them (for `fail` to abort). */
export const uploadsKey = (jobId: string) => `${stagingPrefix(jobId)}assemble-uploads.json`;

export const jobSnapshotKey = (p: CloseJobParams, startDate: string, version: number) =>
  `${PAYROLL_PREFIX}${p.organizationId}/${startDate}/v${version}/${p.jobId}.json`;

/** A refusal of the close (a 4xx problem) ends the job FAILED with its code; anything else is thrown, to be retried. */
async function asJobError<T>(work: () => Promise<T>): Promise<T | { ok: false; error: JobError }> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ProblemError && error.status < 500) return { ok: false, error: { code: error.code, detail: error.detail } };
    throw error;
  }
}

/** The organization's time (a sandbox's test clock: data/clock): a period has ended, and a step is stamped, by it. */
export const nowOf = (c: StepContext, p: CloseJobParams) => organizationNow({ ...c.writer, organizationId: p.organizationId });

/** Employees a job plans per step (an estimate: the period's workers), for `steps` and `progress`. */
export const stepsFor = (p: CloseJobParams, workers: number) => Math.max(1, Math.ceil(workers / (p.pageEmployees * p.pagesPerStep)));

/** Step `plan`: the close's refusals (checkClose) again, now; the version and fingerprint every later step holds to. */
export async function planCloseJob(c: StepContext, p: CloseJobParams): Promise<Planned> {
  return asJobError(async () => {
    const check = await checkClose(c.writer, p.organizationId, p.periodId, p.approveAll, await nowOf(c, p));
    // A plan redelivered starts from nothing staged.
    await deleteFilesUnder(c.files, stagingPrefix(p.jobId));
    const steps = stepsFor(p, check.counts.workers) + 3;
    await recordStep(c.writer.db, p.jobId, { name: "plan", index: 1, steps, progress: 1 / steps, at: await nowOf(c, p) });
    const { workers, approved, unapproved } = check.counts;
    return { ok: true as const, version: check.version, fingerprint: check.inputs.fingerprint, workers, approved, unapproved };
  });
}

/** Step `employees-n`: computes up to pagesPerStep pages after `afterId` into staged JSON, CSV and totals objects. */
export async function stageEmployees(
  c: StepContext,
  p: CloseJobParams,
  plan: Extract<Planned, { ok: true }>,
  n: number,
  afterId: string | null,
): Promise<StagedPart> {
  const { db } = c.writer;
  const check = await checkSpan(c, p);
  const keys = [stagedKey(p.jobId, n, "json"), stagedKey(p.jobId, n, "csv"), stagedKey(p.jobId, n, "totals.json")] as const;
  await deleteFiles(c.files, [...keys]);
  const json = new FileWriter(c.files, keys[0], PAYROLL_JSON_TYPE, p.partBytes);
  const csv = new FileWriter(c.files, keys[1], PAYROLL_CSV_TYPE, p.partBytes);
  try {
    const written = await writeEmployees(
      db,
      check.filter,
      p.pageEmployees,
      { employees: (bytes) => json.write(bytes), csv },
      { afterId: afterId ?? undefined, maxPages: p.pagesPerStep, header: false },
    );
    const bytes = (await json.finish()).size + (await csv.finish()).size;
    await c.files.put(keys[2], JSON.stringify(written.totals));
    const steps = stepsFor(p, plan.workers) + 3;
    await recordStep(db, p.jobId, {
      name: `employees-${n}`,
      index: n + 1,
      progress: Math.min(n + 1, steps - 2) / steps,
      at: await nowOf(c, p),
    });
    return {
      n,
      employees: written.totals.length,
      afterId: written.afterId ?? null,
      more: written.more,
      weeksFrom: written.weeksFrom,
      weeksTo: written.weeksTo,
      bytes,
    };
  } catch (error) {
    await Promise.all([json.abort(), csv.abort()]);
    throw error;
  }
}

/** The period's span and filter under the settings as they are now (a step reads nothing else it must hold to). */
export async function checkSpan(c: StepContext, p: CloseJobParams) {
  const span = spanOf(await readSettings(c.writer.db, p.organizationId), p.periodId);
  return { span, filter: { organizationId: p.organizationId, startDate: span.startDate, endDate: span.endDate } };
}

/** Each staged part's totals in order, one part (a step's pages of employees) in memory at a time. */
export async function forEachStagedTotals(files: R2Bucket, jobId: string, parts: readonly StagedPart[], each: (t: EmployeeTotals) => void) {
  for (const part of parts) {
    const object = await getFile(files, stagedKey(jobId, part.n, "totals.json"));
    if (!object) throw new Error(`The staged totals of part ${part.n} of job ${jobId} are missing.`);
    for (const t of JSON.parse(await object.text()) as EmployeeTotals[]) each(t);
  }
}

/** Every staged part's totals, in order: a re-close's adjustments compare them all with the previous version's. */
export async function stagedTotals(files: R2Bucket, jobId: string, parts: readonly StagedPart[]) {
  const totals: EmployeeTotals[] = [];
  await forEachStagedTotals(files, jobId, parts, (t) => totals.push(t));
  return totals;
}

/**
 * Step `commit`: the close's refusals once more (now), held to the plan's version, then commitClose's batch with the
 * job SUCCEEDED and `job.succeeded` in it, guarded on the plan's fingerprint: the batch itself refuses
 * PAY_PERIOD_CHANGED when the period's inputs (approvals included, so the plan's counts) are no longer those the plan
 * read, and the step reads no whole period before it. Redelivered after it committed, it finds its own snapshot row
 * and answers as done.
 */
export async function commitCloseJob(
  c: StepContext,
  p: CloseJobParams,
  plan: Extract<Planned, { ok: true }>,
  closed: ClosedObjects,
): Promise<{ ok: true } | { ok: false; error: JobError }> {
  const { db } = c.writer;
  const { span } = await checkSpan(c, p);
  const mine = async () => (await committedSnapshot(db, p.organizationId, span.startDate))?.objectKey === closed.object.key;
  if (await mine()) return { ok: true };
  const job = await readJob(db, p.organizationId, p.jobId);
  if (!job) throw new Error(`The job ${p.jobId} has no row.`);
  const at = await nowOf(c, p);
  return asJobError(async () => {
    try {
      const planned = plan.approved !== undefined && plan.unapproved !== undefined;
      const check = await checkClose(c.writer, p.organizationId, p.periodId, p.approveAll, at, planned ? "refusals" : "full");
      if (check.version !== plan.version || (!planned && check.inputs.fingerprint !== plan.fingerprint)) {
        return { ok: false as const, error: { code: "PAY_PERIOD_CHANGED", detail: changedDetail } };
      }
      const held = planned
        ? {
            ...check,
            inputs: { ...check.inputs, fingerprint: plan.fingerprint },
            counts: { workers: plan.workers, approved: plan.approved ?? 0, unapproved: plan.unapproved ?? 0 },
          }
        : check;
      const closedAt = new Date(p.requestedAt);
      await commitClose(c.writer, held, closed, { closedAt, closedBy: actorOf(p.principal) }, [
        ...finishJob(db, { ...job, stepIndex: Math.max(job.stepIndex, 1) }, { status: "SUCCEEDED", step: "commit", at }),
      ]);
      return { ok: true as const };
    } catch (error) {
      // Committed by an earlier delivery of this step whose answer was lost.
      if (error instanceof ProblemError && error.code === "PAY_PERIOD_CLOSED" && (await mine())) return { ok: true as const };
      throw error;
    }
  });
}

const changedDetail = "Shifts, time off or pay rules of the period changed while it was being closed: nothing was written. Close it again.";

/** Step `clean`: the staged parts deleted (the payroll objects stay: the committed row names them). */
export async function cleanCloseJob(c: StepContext, p: CloseJobParams) {
  await deleteFilesUnder(c.files, stagingPrefix(p.jobId));
}

/**
 * Step `fail`: nothing of the job left in R2 — its staged parts, and its payroll objects unless a committed row names
 * them — then the job FAILED with `job.failed`.
 */
export async function failCloseJob(c: StepContext, p: CloseJobParams, error: JobError) {
  const { db } = c.writer;
  await abortUploads(c.files, p.jobId);
  await deleteFilesUnder(c.files, stagingPrefix(p.jobId));
  const { span } = await checkSpan(c, p);
  const latest = await committedSnapshot(db, p.organizationId, span.startDate);
  const committed = latest?.objectKey?.endsWith(`/${p.jobId}.json`) ?? false;
  if (!committed) {
    // A period's objects: two per close of each version, a handful.
    const listed = await c.files.list({ prefix: `${PAYROLL_PREFIX}${p.organizationId}/${span.startDate}/` });
    const mine = listed.objects.map((o) => o.key).filter((key) => key.endsWith(`/${p.jobId}.json`) || key.endsWith(`/${p.jobId}.csv`));
    await deleteFiles(c.files, mine);
  }
  const job = await readJob(db, p.organizationId, p.jobId);
  if (!job || committed) return;
  await db.batch([...finishJob(db, job, { status: "FAILED", step: "fail", at: await nowOf(c, p), error })]);
}

/** The payroll objects' multipart uploads aborted (one completed already refuses: nothing to abort). */
async function abortUploads(files: R2Bucket, jobId: string) {
  const record = await getFile(files, uploadsKey(jobId));
  if (!record) return;
  const uploads = (await record.json()) as { key: string; uploadId: string }[];
  await Promise.all(uploads.map(({ key, uploadId }) => abortUpload(files, key, uploadId).catch(() => undefined)));
}

/** CLOSE_IN_REQUEST_MAX_EMPLOYEES (default 5,000): above it a period closes as a job. */
export function closeInRequestMax(env: object): number {
  const max = Number((env as { CLOSE_IN_REQUEST_MAX_EMPLOYEES?: string }).CLOSE_IN_REQUEST_MAX_EMPLOYEES);
  return Number.isInteger(max) && max >= 0 ? max : 5000;
}

/** Pages of a close job's `employees-n` step (CLOSE_JOB_PAGES_PER_STEP, default 1: 500 staff, one page's heap). */
export function pagesPerStepOf(env: object): number {
  const pages = Number((env as { CLOSE_JOB_PAGES_PER_STEP?: string }).CLOSE_JOB_PAGES_PER_STEP);
  return Number.isInteger(pages) && pages > 0 ? pages : 1;
}

/**
 * Bytes of staged parts an `assemble-k` step copies (CLOSE_JOB_ASSEMBLE_BYTES, default 8 MiB: at 20,000 staff ≈ 2,500
 * staff a step, so no step's CPU grows with the organization).
 */
export function assembleBytesOf(env: object): number {
  const bytes = Number((env as { CLOSE_JOB_ASSEMBLE_BYTES?: string }).CLOSE_JOB_ASSEMBLE_BYTES);
  return Number.isInteger(bytes) && bytes > 0 ? bytes : 8 * 1024 * 1024;
}

/**
 * POST …/close of a large organization: the job's row QUEUED with `job.created` (one guarded batch: the closer's token
 * still holds, the organization is not moving), then its Workflow instance. An instance that cannot be created ends
 * the job FAILED before the request answers.
 */
export async function startCloseJob(
  writer: Writer,
  workflow: Workflow<CloseJobParams>,
  input: Omit<CloseJobParams, "jobId" | "principal" | "requestedAt" | "fault"> & { fault: CloseJobParams["fault"] },
) {
  const { fault, ...params } = input;
  const { db } = writer;
  const now = await organizationNow({ ...writer, organizationId: params.organizationId });
  const row = newJobRow({ id: newId(), organizationId: params.organizationId, kind: "PAY_CLOSE", subject: params.periodId, now });
  await guardedBatch(writer, [insertJob(db, row)], [], {
    events: [{ type: "job.created", organizationId: params.organizationId, occurredAt: now, data: serializeJob(row) }],
  });
  try {
    const requestedAt = now.getTime();
    await workflow.create({
      id: row.id,
      params: { ...params, ...(fault && { fault }), jobId: row.id, principal: writer.principal, requestedAt },
    });
  } catch (error) {
    const detail = `The job could not be started: ${error instanceof Error ? error.message : String(error)}`;
    await db.batch([...finishJob(db, row, { status: "FAILED", step: "start", at: now, error: { code: "JOB_FAILED", detail } })]);
    return { ...row, status: "FAILED" as const, error: detail, errorCode: "JOB_FAILED", finishedAt: now };
  }
  return row;
}

/**
 * Tests only: JOB_FAULT_STEPS (comma-separated step names, `employees-*` for every page step) and JOB_FAULT_TIMES,
 * read only when JOB_FAULTS is "allow" — which no deployment sets; the Workflow checks it again.
 */
export function faultOf(env: object): CloseJobParams["fault"] {
  const vars = env as Partial<Record<"JOB_FAULTS" | "JOB_FAULT_STEPS" | "JOB_FAULT_TIMES", string>>;
  if (vars.JOB_FAULTS !== "allow" || !vars.JOB_FAULT_STEPS) return undefined;
  return { steps: vars.JOB_FAULT_STEPS.split(","), times: Number(vars.JOB_FAULT_TIMES ?? "1") };
}
