import { jobs } from "@db/schema";
import { and, eq, inArray, lt } from "drizzle-orm";
import type { Database } from "@/data/client";
import { deleteFilesUnder } from "@/data/files";
import { eventStatement } from "@/data/outbox/outbox";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import { type JobRow, serializeJob } from "@/wire/job.schemas";

type JobKind = JobRow["kind"];

/** A new job's row, QUEUED (written in the batch of the request that starts it). */
export function newJobRow(input: { id: string; organizationId: string; kind: JobKind; subject: string; now: Date }): JobRow {
  return {
    id: input.id,
    organizationId: input.organizationId,
    kind: input.kind,
    subject: input.subject,
    status: "QUEUED",
    step: null,
    stepIndex: 0,
    steps: null,
    progress: 0,
    error: null,
    errorCode: null,
    createdAt: input.now,
    updatedAt: input.now,
    finishedAt: null,
  };
}

export const insertJob = (db: Database, row: JobRow) => db.insert(jobs).values(row);

/** The job, or null when the organization has none of that id. */
export async function readJob(db: Database, organizationId: string, id: string): Promise<JobRow | null> {
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.id, id), eq(jobs.organizationId, organizationId)));
  return row ?? null;
}

const live = inArray(jobs.status, ["QUEUED", "RUNNING"]);

/**
 * A step done: RUNNING at `stepIndex`, only forward (a step redelivered after a later one was recorded changes
 * nothing) and only while the job has not ended.
 */
export const recordStep = (
  db: Database,
  id: string,
  step: { name: string; index: number; steps?: number | null; progress: number; at: Date },
) =>
  db
    .update(jobs)
    .set({
      status: "RUNNING",
      step: step.name,
      stepIndex: step.index,
      ...(step.steps !== undefined && { steps: step.steps }),
      progress: Math.max(0, Math.min(1000, Math.round(step.progress * 1000))),
      updatedAt: step.at,
    })
    .where(and(eq(jobs.id, id), live, lt(jobs.stepIndex, step.index)));

/**
 * The job's end, with `job.succeeded` or `job.failed` when this statement ended it (a redelivered end records
 * nothing twice). `row` is the job as last read: the event's data is it with the end applied.
 */
export function finishJob(
  db: Database,
  row: JobRow,
  end: { status: "SUCCEEDED" | "FAILED"; step: string; at: Date; error?: { code: string; detail: string } },
) {
  const done = {
    status: end.status,
    step: end.step,
    stepIndex: row.stepIndex + 1,
    ...(end.status === "SUCCEEDED" && { progress: 1000, steps: row.stepIndex + 1 }),
    error: end.error?.detail.slice(0, 500) ?? null,
    errorCode: end.error?.code ?? null,
    updatedAt: end.at,
    finishedAt: end.at,
  };
  return [
    db
      .update(jobs)
      .set(done)
      .where(and(eq(jobs.id, row.id), live)),
    eventStatement(db, {
      type: end.status === "SUCCEEDED" ? "job.succeeded" : "job.failed",
      organizationId: row.organizationId,
      occurredAt: end.at,
      data: serializeJob({ ...row, ...done }),
      whenChanged: true,
    }),
  ] as const;
}

/** Tests only: the steps named fail after their work on their first `times` attempts (the job's params carry it). */
export type JobFault = { steps: string[]; times: number };

/**
 * JOB_FAULT_STEPS (comma-separated step names, `page-*` for every step of that name) and JOB_FAULT_TIMES, read only
 * when JOB_FAULTS is "allow" — which no deployment sets; the Workflow checks it again.
 */
export function jobFaultOf(env: object): JobFault | undefined {
  const vars = env as Partial<Record<"JOB_FAULTS" | "JOB_FAULT_STEPS" | "JOB_FAULT_TIMES", string>>;
  if (vars.JOB_FAULTS !== "allow" || !vars.JOB_FAULT_STEPS) return undefined;
  return { steps: vars.JOB_FAULT_STEPS.split(","), times: Number(vars.JOB_FAULT_TIMES ?? "1") };
}

/** Whether a step named `name` fails now, after its work (the Worker's JOB_FAULTS must be "allow" too). */
export function faultyStep(env: object, fault: JobFault | undefined, name: string, attempt: number): boolean {
  if ((env as { JOB_FAULTS?: string }).JOB_FAULTS !== "allow" || !fault) return false;
  const named = fault.steps.some((s) => s === name || (s.endsWith("-*") && name.startsWith(s.slice(0, -1))));
  return named && attempt <= fault.times;
}

/** What a BULK job's step needs: the organization's shard (a Writer acting as the caller) and the files bucket. */
export interface StepContext {
  writer: Writer;
  files: R2Bucket;
}

/** Why a job FAILED: a problem code of the operation (or JOB_FAILED) and its detail. */
export type JobError = { code: string; detail: string };

/**
 * A job started once its objects are stored: its row QUEUED with `job.created` in one batch, then its Workflow created
 * (the instance id is the job's id). A Workflow that cannot be created ends the job FAILED and deletes its objects
 * (those under `objectsPrefix`).
 */
export async function startJob<P>(
  writer: Writer,
  files: R2Bucket,
  workflow: Workflow<P>,
  row: JobRow,
  params: P,
  objectsPrefix: string,
): Promise<JobRow> {
  const { db } = writer;
  const now = row.createdAt;
  await guardedBatch(writer, [insertJob(db, row)], [], {
    events: [{ type: "job.created", organizationId: row.organizationId, occurredAt: now, data: serializeJob(row) }],
  });
  try {
    await workflow.create({ id: row.id, params });
  } catch (error) {
    const detail = `The job could not be started: ${error instanceof Error ? error.message : String(error)}`;
    await deleteFilesUnder(files, objectsPrefix);
    await db.batch([...finishJob(db, row, { status: "FAILED", step: "start", at: now, error: { code: "JOB_FAILED", detail } })]);
    return { ...row, status: "FAILED", error: detail, errorCode: "JOB_FAILED", finishedAt: now };
  }
  return row;
}

/**
 * A BULK job's last step, `finish` (or `fail` with `error`): its objects (those under `objectsPrefix`) deleted, then
 * the job SUCCEEDED (or FAILED) with its event, once: a job already ended is left as it is.
 */
export async function endJob(c: StepContext, organizationId: string, jobId: string, objectsPrefix: string, at: Date, error?: JobError) {
  const { db } = c.writer;
  await deleteFilesUnder(c.files, objectsPrefix);
  const job = await readJob(db, organizationId, jobId);
  if (!job) return;
  const end = error ? { status: "FAILED" as const, step: "fail", error } : { status: "SUCCEEDED" as const, step: "finish" };
  await db.batch([...finishJob(db, job, { ...end, at })]);
}
