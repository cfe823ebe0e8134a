import type { WorkflowEvent, WorkflowStep, WorkflowStepConfig } from "cloudflare:workers";
import { systemActor } from "@/domain/audit";
import type { Assembled, AssembleState } from "@/features/pay/pay-close-assemble.data";
import type { CloseJobParams, JobError, StagedPart, StepContext } from "@/features/pay/pay-close-job.data";
import type { ClosedObjects } from "@/features/pay/pay-period-close.data";
import { jobShard } from "./job-shard";

export type { CloseJobParams } from "@/features/pay/pay-close-job.data";

/**
 * The pay close as a Cloudflare Workflow (binding PAY_CLOSE_WORKFLOW, class PayCloseWorkflow of src/worker.ts, which
 * loads this module on its first run; the instance id is the job's id): plan, then one
 * `employees-n` step per pagesPerStep pages of employees, `assemble-k` steps (a few MB of staged parts each), commit, clean (src/features/pay/pay-close-job.data.ts
 * says what each writes). The Workflow keeps each step's result, so a failure at any step resumes there; a step is
 * retried (RETRY) and is idempotent when redelivered. A refusal of the close (a 4xx problem, e.g. PAY_PERIOD_CHANGED)
 * or a step that exhausts its retries ends the job FAILED by the `fail` step, which leaves nothing in R2.
 */
export class PayCloseRun {
  constructor(private readonly env: Env) {}

  async run(event: Readonly<WorkflowEvent<CloseJobParams>>, step: WorkflowStep) {
    const p = event.payload;
    const steps = await import("@/features/pay/pay-close-job.data");
    const work =
      <T>(name: string, run: (c: StepContext) => Promise<T>) =>
      async (ctx: { attempt: number }) => {
        const result = await run(await this.#context(p));
        this.#injectFault(p, name, ctx.attempt);
        return result;
      };
    const fail = (error: JobError) =>
      step.do(
        "fail",
        RETRY,
        work("fail", (c) => steps.failCloseJob(c, p, error)),
      );
    try {
      const plan = await step.do(
        "plan",
        RETRY,
        work("plan", (c) => steps.planCloseJob(c, p)),
      );
      if (!plan.ok) return await fail(plan.error);
      const parts: StagedPart[] = [];
      let afterId: string | null = null;
      for (let n = 1; ; n++) {
        const from: string | null = afterId;
        const part: StagedPart = await step.do(
          `employees-${n}`,
          RETRY,
          work(`employees-${n}`, (c) => steps.stageEmployees(c, p, plan, n, from)),
        );
        parts.push(part);
        afterId = part.afterId;
        if (!part.more) break;
      }
      const assemble = await import("@/features/pay/pay-close-assemble.data");
      let state: AssembleState | null = null;
      let closed: ClosedObjects | null = null;
      for (let k = 1; closed === null; k++) {
        const carried: AssembleState | null = state;
        const assembled = (await step.do(
          `assemble-${k}`,
          RETRY,
          work(`assemble-${k}`, (c): Promise<Assembled> => assemble.assembleStep(c, p, plan, parts, k, carried)),
        )) as Assembled;
        if (assembled.done) closed = assembled.closed;
        else state = assembled.state;
      }
      const objects = closed;
      const committed = await step.do(
        "commit",
        RETRY,
        work("commit", (c) => steps.commitCloseJob(c, p, plan, objects)),
      );
      if (!committed.ok) return await fail(committed.error);
      await step.do(
        "clean",
        RETRY,
        work("clean", (c) => steps.cleanCloseJob(c, p)),
      );
    } catch (error) {
      await fail({ code: "JOB_FAILED", detail: error instanceof Error ? error.message : String(error) });
    }
  }

  /** The organization's shard as a Writer acting as the closer (the D1 limits' guard on it in tests and the bench). */
  async #context(p: CloseJobParams): Promise<StepContext> {
    const { db, files } = await jobShard(this.env, p.organizationId);
    return { writer: { db, principal: p.principal, actor: systemActor("pay-close-job") }, files };
  }

  /** Tests only: with JOB_FAULTS = "allow", a step named in `fault` fails after its work on its first `times` attempts. */
  #injectFault(p: CloseJobParams, name: string, attempt: number) {
    if ((this.env as { JOB_FAULTS?: string }).JOB_FAULTS !== "allow" || !p.fault) return;
    const named = p.fault.steps.some((s) => s === name || (s.endsWith("-*") && name.startsWith(s.slice(0, -1))));
    if (named && attempt <= p.fault.times) throw new Error(`Injected failure after the step ${name} (attempt ${attempt}).`);
  }
}

/** Every step: 3 retries, 2 s, 4 s, 8 s apart (a D1 or R2 blip, an organization move's freeze). */
const RETRY: WorkflowStepConfig = { retries: { limit: 3, delay: "2 seconds", backoff: "exponential" }, timeout: "10 minutes" };
