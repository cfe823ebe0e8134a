import { scheduleEntries } from "@db/schema";
import { and, count } from "drizzle-orm";
import { organizationNow } from "@/data/clock";
import { getFile, putFile } from "@/data/files";
import { newId } from "@/data/ids";
import { endJob, type JobError, type JobFault, newJobRow, recordStep, type StepContext, startJob } from "@/data/jobs/jobs.data";
import { inJsonList } from "@/data/json-list";
import { inOrganization } from "@/data/tenancy";
import { judgePlanned } from "@/data/working-time/schedule-check.data";
import type { Writer } from "@/data/write/guarded-batch";
import type { Principal } from "@/domain/permissions";
import { ProblemError } from "@/problems/problem";
import { writeCopies } from "./schedule-copy.data";
import type { ScheduleEntryRow } from "./schedules.schemas";

/**
 * A bulk copy larger than the request's (more than BULK_COPY_IN_REQUEST_MAX copies) as a durable BULK job
 * (src/jobs/bulk-workflow.ts runs these steps as a Cloudflare Workflow). The request plans it as the request's copy
 * does — every 400 answered, each copy's id fixed — stores the planned rows in R2 under `jobs/{jobId}/`, a page an
 * object, each worker's copies in one page (the working-time check judges them together), and answers 202. Step
 * `copy-n` writes the n-th page with the request's statements (writeCopies): one atomic batch with its
 * `schedule_entry.created` events and Fair Workweek change rows; a page whose copies already exist is done (a
 * redelivery). A page refused at write time (a 409: an entry written meanwhile, a closed pay period, a rest consent,
 * a working-time rule now broken) ends the job FAILED by `fail` with that code, the pages before kept. `finish`
 * deletes the stored pages and ends the job SUCCEEDED.
 */
export interface ScheduleCopyJobParams {
  operation: "schedule-copy";
  jobId: string;
  organizationId: string;
  locationId: string;
  /** Who asked: every page writes as them (their guard, their audit entries). */
  principal: Principal;
  pages: number;
  /** Copies planned to be written, and those the plan skipped. */
  copies: number;
  skipped: number;
  /** Tests only (honoured when the Worker's JOB_FAULTS is "allow"): the named steps fail after their work. */
  fault?: JobFault;
}

export type CopiedPage = { ok: true; written: number } | { ok: false; error: JobError };

/** A page holds at most this many copies, unless one worker's copies alone are more (a worker is never split). */
const PAGE_COPIES = 500;

/** BULK_COPY_JOB_PAGE_COPIES (default and at most 500): a page's copies, one atomic batch. */
export function copyJobPageOf(env: object): number {
  const page = Number((env as { BULK_COPY_JOB_PAGE_COPIES?: string }).BULK_COPY_JOB_PAGE_COPIES);
  return Number.isInteger(page) && page > 0 ? Math.min(page, PAGE_COPIES) : PAGE_COPIES;
}

const prefixOf = (jobId: string) => `jobs/${jobId}/`;
const pageKey = (jobId: string, n: number) => `${prefixOf(jobId)}copies-${n}.json`;

/** The rows in pages of at most `size`, each worker's in one page (alone when they are more than `size`). */
export function pagesByWorker(rows: readonly ScheduleEntryRow[], size: number): ScheduleEntryRow[][] {
  const byWorker = new Map<string, ScheduleEntryRow[]>();
  for (const row of rows) byWorker.set(row.employeeId, [...(byWorker.get(row.employeeId) ?? []), row]);
  const pages: ScheduleEntryRow[][] = [];
  let page: ScheduleEntryRow[] = [];
  for (const mine of byWorker.values()) {
    if (page.length > 0 && page.length + mine.length > size) {
      pages.push(page);
      page = [];
    }
    page.push(...mine);
  }
  if (page.length > 0) pages.push(page);
  return pages;
}

/**
 * The job started: the planned rows stored a page an object, the job's row QUEUED with `job.created`, its Workflow
 * created (the instance id is the job's id). A Workflow that cannot be created ends the job FAILED, its objects deleted.
 */
export async function startCopyJob(
  writer: Writer,
  files: R2Bucket,
  workflow: Workflow<ScheduleCopyJobParams>,
  organizationId: string,
  locationId: string,
  plan: { rows: ScheduleEntryRow[]; skipped: number },
  options: { pageCopies: number; fault?: JobFault | undefined },
) {
  const now = await organizationNow({ ...writer, organizationId });
  const row = newJobRow({ id: newId(now.getTime()), organizationId, kind: "BULK", subject: "schedule-copy", now });
  const pages = pagesByWorker(plan.rows, options.pageCopies);
  await Promise.all(pages.map((rows, i) => putFile(files, pageKey(row.id, i + 1), JSON.stringify(rows), "application/json")));
  const params: ScheduleCopyJobParams = {
    operation: "schedule-copy",
    jobId: row.id,
    organizationId,
    locationId,
    principal: writer.principal,
    pages: pages.length,
    copies: plan.rows.length,
    skipped: plan.skipped,
    ...(options.fault && { fault: options.fault }),
  };
  return startJob(writer, files, workflow, row, params, prefixOf(row.id));
}

const dated = (at: string | null) => (at === null ? null : new Date(at));

/** A stored page's rows, their instants Dates again. */
async function readPage(c: StepContext, p: ScheduleCopyJobParams, n: number): Promise<ScheduleEntryRow[]> {
  const object = await getFile(c.files, pageKey(p.jobId, n));
  if (!object) throw new Error(`The job's object ${pageKey(p.jobId, n)} is missing.`);
  type Stored = Record<"startAt" | "endAt" | "createdAt" | "updatedAt", string> &
    Record<"publishedAt" | "deletedAt", string | null> &
    Omit<ScheduleEntryRow, "startAt" | "endAt" | "createdAt" | "updatedAt" | "publishedAt" | "deletedAt">;
  return ((await object.json()) as Stored[]).map((row) => ({
    ...row,
    startAt: new Date(row.startAt),
    endAt: new Date(row.endAt),
    createdAt: new Date(row.createdAt),
    updatedAt: new Date(row.updatedAt),
    publishedAt: dated(row.publishedAt),
    deletedAt: dated(row.deletedAt),
  }));
}

const nowOf = (c: StepContext, p: ScheduleCopyJobParams) => organizationNow({ ...c.writer, organizationId: p.organizationId });

/**
 * Step `copy-n`: the n-th page written as the request writes its copies (one atomic batch, its events); a page whose
 * copies exist is done already; a 4xx ends the job.
 */
export async function copyPage(c: StepContext, p: ScheduleCopyJobParams, n: number): Promise<CopiedPage> {
  const { db } = c.writer;
  const rows = await readPage(c, p, n);
  const ids = rows.map((row) => row.id);
  const [done] = await db
    .select({ n: count() })
    .from(scheduleEntries)
    .where(and(inOrganization(scheduleEntries, p.organizationId), inJsonList(scheduleEntries.id, ids)));
  let page: CopiedPage = { ok: true, written: rows.length };
  if (!done?.n) {
    try {
      await writePage(c, p, rows);
    } catch (error) {
      if (!(error instanceof ProblemError) || error.status >= 500) throw error;
      return { ok: false, error: { code: error.code, detail: error.detail } };
    }
  } else page = { ok: true, written: 0 };
  const steps = p.pages + 1;
  await recordStep(db, p.jobId, { name: `copy-${n}`, index: n, steps, progress: n / steps, at: await nowOf(c, p) });
  return page;
}

/** The page's published copies judged again (the workers' time may have changed since the plan), then written. */
async function writePage(c: StepContext, p: ScheduleCopyJobParams, rows: ScheduleEntryRow[]) {
  const { writer } = c;
  const published = rows.length > 0 && !rows[0]!.isDraft;
  const workingTime = published
    ? await judgePlanned(
        writer.db,
        p.organizationId,
        p.locationId,
        rows.map((row) => ({ id: row.id, employeeId: row.employeeId, start: row.startAt, end: row.endAt, utcOffset: row.utcOffset })),
      )
    : null;
  const breaking = rows.find((row) => row.workingTimeOverride === null && (workingTime?.byEntry.get(row.id)?.length ?? 0) > 0);
  if (breaking)
    throw new ProblemError(
      409,
      "WORKING_TIME_CONFLICT",
      `The copy of staff member ${breaking.employeeId} starting ${breaking.startAt.toISOString()} now breaks a working-time rule.`,
    );
  await writeCopies(writer, p.organizationId, p.locationId, rows, { workingTime, now: await nowOf(c, p) });
}

/** Step `finish` (or `fail`): the stored pages deleted, then the job SUCCEEDED (or FAILED with `error`) with its event, once. */
export async function finishCopyJob(c: StepContext, p: ScheduleCopyJobParams, error?: JobError) {
  await endJob(c, p.organizationId, p.jobId, prefixOf(p.jobId), await nowOf(c, p), error);
}
