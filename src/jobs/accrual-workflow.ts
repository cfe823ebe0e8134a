import type { WorkflowEvent, WorkflowStep, WorkflowStepConfig } from "cloudflare:workers";
import type { Database } from "@/data/client";
import type { AccrualJobParams, AccruedPage } from "./accrual-job";
import { jobShard } from "./job-shard";

export type { AccrualJobParams } from "./accrual-job";

/**
 * A large organization's accrual pass as a Cloudflare Workflow (binding ACCRUAL_WORKFLOW, class AccrualWorkflow of
 * src/worker.ts; the instance id is the job's id): `page-1`, `page-2`, … one page of the pass each, until a page says
 * none is left, then `finish` (the job SUCCEEDED, `job.succeeded`). The Workflow keeps each step's result, so a failure
 * at any step resumes there; a step is retried (RETRY), and a page redelivered after its work accrues nothing twice
 * (src/jobs/accrual-job.ts). A step that exhausts its retries ends the job FAILED by the `fail` step: the pages done
 * stay done (each entry is final), and the next Cron's job catches up the rest.
 */
export class AccrualRun {
  constructor(private readonly env: Env) {}

  async run(event: Readonly<WorkflowEvent<AccrualJobParams>>, step: WorkflowStep) {
    const p = event.payload;
    const steps = await import("./accrual-job");
    const work =
      <T>(name: string, run: (db: Database) => Promise<T>) =>
      async (ctx: { attempt: number }) => {
        const result = await run(await this.#database(p));
        this.#injectFault(p, name, ctx.attempt);
        return result;
      };
    try {
      let afterId: string | null = null;
      for (let n = 1; ; n++) {
        const from: string | null = afterId;
        const page: AccruedPage = await step.do(
          `page-${n}`,
          RETRY,
          work(`page-${n}`, (db) => steps.accruePage(db, p, n, from)),
        );
        afterId = page.afterId;
        if (afterId === null) break;
      }
      await step.do(
        "finish",
        RETRY,
        work("finish", (db) => steps.finishAccrualJob(db, p)),
      );
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      await step.do(
        "fail",
        RETRY,
        work("fail", (db) => steps.finishAccrualJob(db, p, { code: "JOB_FAILED", detail })),
      );
    }
  }

  /** The organization's shard (under the D1 limits' guard in tests and the bench). */
  async #database(p: AccrualJobParams): Promise<Database> {
    return (await jobShard(this.env, p.organizationId)).db;
  }

  /** Tests only: with JOB_FAULTS = "allow", a step named in `fault` fails after its work on its first `times` attempts. */
  #injectFault(p: AccrualJobParams, name: string, attempt: number) {
    if ((this.env as { JOB_FAULTS?: string }).JOB_FAULTS !== "allow" || !p.fault) return;
    const named = p.fault.steps.includes(name) || (p.fault.steps.includes("page-*") && name.startsWith("page-"));
    if (named && attempt <= p.fault.times) throw new Error(`Injected failure after the step ${name} (attempt ${attempt}).`);
  }
}

/** Every step: 3 retries, 2 s, 4 s, 8 s apart (a D1 blip, an organization move's freeze). */
const RETRY: WorkflowStepConfig = { retries: { limit: 3, delay: "2 seconds", backoff: "exponential" }, timeout: "10 minutes" };
