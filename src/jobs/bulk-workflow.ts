import type { WorkflowEvent, WorkflowStep, WorkflowStepConfig } from "cloudflare:workers";
import type { StepContext } from "@/data/jobs/jobs.data";
import type { CopiedPage, ScheduleCopyJobParams } from "@/features/scheduling/schedule-copy-job.data";
import type { DeactivatedPage, StaffSyncJobParams, SyncedPage } from "@/features/staff-members/staff-sync-job.data";
import { jobShard } from "./job-shard";

export type { ScheduleCopyJobParams } from "@/features/scheduling/schedule-copy-job.data";
export type { StaffSyncJobParams } from "@/features/staff-members/staff-sync-job.data";

/**
 * A BULK job's parameters: its `operation` says which steps run — a staff sync or a bulk copy larger than the
 * request's.
 */
export type BulkJobParams = StaffSyncJobParams | ScheduleCopyJobParams;

/**
 * Large bulk writes as a Cloudflare Workflow (binding BULK_WORKFLOW, class BulkWorkflow of src/worker.ts; the instance
 * id is the job's id). A staff sync: `page-1` … `page-N` (one atomic batch of records each), with deactivateMissing
 * `deactivate-1`, … until a page says none is left, then `finish` (src/features/staff-members/staff-sync-job.data.ts
 * says what each writes). A bulk copy: `copy-1` … `copy-N` (one atomic batch of a page of copies each, each worker's
 * copies in one page), then `finish` (src/features/scheduling/schedule-copy-job.data.ts). The Workflow keeps each step's result, so a failure at any step resumes there; a step is
 * retried (RETRY) and is idempotent when redelivered. A page's refusal (a 4xx problem) or a step that exhausts its
 * retries ends the job FAILED by the `fail` step.
 */
export class BulkRun {
  constructor(private readonly env: Env) {}

  async run(event: Readonly<WorkflowEvent<BulkJobParams>>, step: WorkflowStep) {
    const p = event.payload;
    const { faultyStep } = await import("@/data/jobs/jobs.data");
    const work =
      <T>(name: string, run: (c: StepContext) => Promise<T>) =>
      async (ctx: { attempt: number }) => {
        const result = await run(await this.#context(p));
        if (faultyStep(this.env, p.fault, name, ctx.attempt))
          throw new Error(`Injected failure after the step ${name} (attempt ${ctx.attempt}).`);
        return result;
      };
    if (p.operation === "schedule-copy") return this.#copy(p, step, work);
    const steps = await import("@/features/staff-members/staff-sync-job.data");
    const fail = (error: { code: string; detail: string }) =>
      step.do(
        "fail",
        RETRY,
        work("fail", (c) => steps.finishStaffSyncJob(c, p, error)),
      );
    try {
      for (let n = 1; n <= Math.ceil(p.records / p.pageRecords); n++) {
        const page: SyncedPage = await step.do(
          `page-${n}`,
          RETRY,
          work(`page-${n}`, (c) => steps.syncPage(c, p, n)),
        );
        if (!page.ok) return await fail(page.error);
      }
      if (p.deactivateMissing) {
        let afterId: string | null = null;
        for (let m = 1; ; m++) {
          const from: string | null = afterId;
          const page: DeactivatedPage = await step.do(
            `deactivate-${m}`,
            RETRY,
            work(`deactivate-${m}`, (c) => steps.deactivatePage(c, p, m, from)),
          );
          afterId = page.afterId;
          if (afterId === null) break;
        }
      }
      await step.do(
        "finish",
        RETRY,
        work("finish", (c) => steps.finishStaffSyncJob(c, p)),
      );
    } catch (error) {
      await fail({ code: "JOB_FAILED", detail: error instanceof Error ? error.message : String(error) });
    }
  }

  /** A bulk copy: its pages `copy-n`, then `finish`; a page refused or out of retries ends it by `fail`. */
  async #copy(p: ScheduleCopyJobParams, step: WorkflowStep, work: Work) {
    const steps = await import("@/features/scheduling/schedule-copy-job.data");
    const fail = (error: { code: string; detail: string }) =>
      step.do(
        "fail",
        RETRY,
        work("fail", (c) => steps.finishCopyJob(c, p, error)),
      );
    try {
      for (let n = 1; n <= p.pages; n++) {
        const page: CopiedPage = await step.do(
          `copy-${n}`,
          RETRY,
          work(`copy-${n}`, (c) => steps.copyPage(c, p, n)),
        );
        if (!page.ok) return await fail(page.error);
      }
      await step.do(
        "finish",
        RETRY,
        work("finish", (c) => steps.finishCopyJob(c, p)),
      );
    } catch (error) {
      await fail({ code: "JOB_FAILED", detail: error instanceof Error ? error.message : String(error) });
    }
  }

  /** The organization's shard as a Writer acting as the caller (the D1 limits' guard on it in tests and the bench). */
  async #context(p: BulkJobParams): Promise<StepContext> {
    const { db, files } = await jobShard(this.env, p.organizationId);
    return { writer: { db, principal: p.principal, organizationId: p.organizationId }, files };
  }
}

type Work = <T extends Rpc.Serializable<T>>(name: string, run: (c: StepContext) => Promise<T>) => (ctx: { attempt: number }) => Promise<T>;

/** Every step: 3 retries, 2 s, 4 s, 8 s apart (a D1 or R2 blip, an organization move's freeze). */
const RETRY: WorkflowStepConfig = { retries: { limit: 3, delay: "2 seconds", backoff: "exponential" }, timeout: "10 minutes" };
