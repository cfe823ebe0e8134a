import type { WorkflowEvent, WorkflowStep, WorkflowStepConfig } from "cloudflare:workers";
import type { DeactivatedPage, StaffSyncJobParams, StepContext, SyncedPage } from "@/features/staff-members/staff-sync-job.data";

export type { StaffSyncJobParams } from "@/features/staff-members/staff-sync-job.data";

/** A BULK job's parameters: its `operation` says which steps run (one so far: a staff sync larger than the request's). */
export type BulkJobParams = StaffSyncJobParams;

/**
 * Large bulk writes as a Cloudflare Workflow (binding BULK_WORKFLOW, class BulkWorkflow of src/worker.ts; the instance
 * id is the job's id). A staff sync: `page-1` … `page-N` (one atomic batch of records each), with deactivateMissing
 * `deactivate-1`, … until a page says none is left, then `finish` (src/features/staff-members/staff-sync-job.data.ts
 * says what each writes). The Workflow keeps each step's result, so a failure at any step resumes there; a step is
 * retried (RETRY) and is idempotent when redelivered. A page's refusal (a 4xx problem) or a step that exhausts its
 * retries ends the job FAILED by the `fail` step.
 */
export class BulkRun {
  constructor(private readonly env: Env) {}

  async run(event: Readonly<WorkflowEvent<BulkJobParams>>, step: WorkflowStep) {
    const p = event.payload;
    const [steps, { faultyStep }] = await Promise.all([
      import("@/features/staff-members/staff-sync-job.data"),
      import("@/data/jobs/jobs.data"),
    ]);
    const work =
      <T>(name: string, run: (c: StepContext) => Promise<T>) =>
      async (ctx: { attempt: number }) => {
        const result = await run(await this.#context(p));
        if (faultyStep(this.env, p.fault, name, ctx.attempt))
          throw new Error(`Injected failure after the step ${name} (attempt ${ctx.attempt}).`);
        return result;
      };
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

  /** The organization's shard as a Writer acting as the caller (the D1 limits' guard on it in tests and the bench). */
  async #context(p: BulkJobParams): Promise<StepContext> {
    const { createDatabase } = await import("@/data/client");
    const { filesOf, shardBinding, shardOfOrganization } = await import("@/data/shards");
    let env = this.env;
    if ((env as { D1_LIMITS_ENFORCED?: string }).D1_LIMITS_ENFORCED === "1") env = (await import("@/data/limited-d1")).limitedEnv(env);
    const shard = await shardOfOrganization(env, p.organizationId);
    if (shard === null) throw new Error(`The organization ${p.organizationId} is in no shard.`);
    return {
      writer: { db: createDatabase(shardBinding(env, shard)), principal: p.principal, organizationId: p.organizationId },
      files: filesOf(env, shard),
    };
  }
}

/** Every step: 3 retries, 2 s, 4 s, 8 s apart (a D1 or R2 blip, an organization move's freeze). */
const RETRY: WorkflowStepConfig = { retries: { limit: 3, delay: "2 seconds", backoff: "exponential" }, timeout: "10 minutes" };
