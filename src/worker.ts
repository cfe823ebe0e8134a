import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from "cloudflare:workers";
import type { WakeUp } from "@/data/outbox/wake";
import type { AccrualJobParams } from "@/jobs/accrual-workflow";
import type { BulkJobParams } from "@/jobs/bulk-workflow";
import type { ExportMessage } from "@/jobs/export-queue";
import type { CloseJobParams } from "@/jobs/pay-close-workflow";
/**
 * The platform every request needs (hono, zod, drizzle, jose, the middleware and the table of features) is evaluated at
 * isolate startup, which Cloudflare runs during the TLS handshake of the connection that needs it; each feature's
 * routes and schemas wait for the first request to that feature (src/app.ts, docs/PERFORMANCE.md).
 */
import { app } from "./app";

/**
 * Tests and the bench set D1_LIMITS_ENFORCED="1": each invocation then gets its D1 bindings under a guard that
 * refuses what production D1 would (src/data/limited-d1.ts); local D1 enforces none of its limits. Without the flag
 * the env passes through untouched and the guard is never loaded.
 */
const limitsEnforced = (env: Env) => (env as { D1_LIMITS_ENFORCED?: string }).D1_LIMITS_ENFORCED === "1";
/**
 * A module loaded on first use and kept once loaded, so only its first users import it. Under vitest every dynamic
 * `import()` is an RPC to the module runner, even of a module already loaded, and concurrent imports of one module share
 * that RPC's promise: requests arriving together would each wait on I/O begun by another request, which workerd refuses
 * ("Cannot perform I/O on behalf of a different request") or cancels as hung when that request ends first.
 */
function loadedOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: T | undefined;
  return async () => {
    loaded ??= await load();
    return loaded;
  };
}
const limitedD1 = loadedOnce(() => import("@/data/limited-d1"));
const backgroundJobs = loadedOnce(() => import("@/jobs/index"));
const exportQueue = loadedOnce(() => import("@/jobs/export-queue"));
const payCloseWorkflow = loadedOnce(() => import("@/jobs/pay-close-workflow"));
const accrualWorkflow = loadedOnce(() => import("@/jobs/accrual-workflow"));
const bulkWorkflow = loadedOnce(() => import("@/jobs/bulk-workflow"));
const limited = async (env: Env): Promise<Env> => (await limitedD1()).limitedEnv(env);

export default {
  async fetch(request, env, ctx) {
    return app.fetch(request, limitsEnforced(env) ? await limited(env) : env, ctx);
  },
  /**
   * Cron Trigger, on every shard: drops Idempotency-Key records older than their 24 h window and events older than
   * 30 days, runs the time-off accrual pass (as a durable job per organization above ACCRUAL_IN_CRON_MAX_BALANCES), the availability horizon pass and the attendance pass (no-shows, forgotten
   * clock-outs) over the live organizations and, for a few sandboxes, the same passes at their test clock's time, then wakes every webhook endpoint with events to deliver (the safety net of the drain after each write).
   * On the directory's database: drops the exchanged partner tokens' ids once those tokens have expired. In each region's bucket (FILES, FILES_EU): deletes
   * the payroll objects of closes whose batch failed (src/jobs/sweep-files.ts), looking their keys up on every shard, and
   * the kiosk photos of deleted organizations with their rows (src/jobs/sweep-photos.ts). Exports QUEUED or RUNNING that
   * have not moved for 5 minutes get their message again (src/jobs/export-resend.ts).
   */
  async scheduled(controller, invocation, ctx) {
    const env = limitsEnforced(invocation) ? await limited(invocation) : invocation;
    const jobs = await backgroundJobs();
    const now = new Date(controller.scheduledTime);
    const { shards } = jobs.shardConfig(env);
    // D1's queries per invocation are shared by every shard's attendance pass.
    const attendanceStatements = Math.floor(jobs.STATEMENTS_PER_INVOCATION / shards.length);
    const horizonStatements = Math.floor(jobs.HORIZON_STATEMENTS / shards.length);
    ctx.waitUntil(jobs.purgeExpiredTokenUses(jobs.createDatabase(jobs.directoryBinding(env)), now));
    // Each region's bucket against its own shards: an object is an orphan when no shard of its region names it.
    const { regions } = jobs.shardConfig(env);
    for (const region of jobs.DATA_REGIONS) {
      const regional = shards.filter((shard) => regions[shard] === region);
      if (regional.length === 0) continue;
      const dbs = regional.map((shard) => jobs.createDatabase(jobs.shardBinding(env, shard)));
      ctx.waitUntil(jobs.sweepOrphanFiles(jobs.filesOf(env, regional[0]!), dbs, now));
    }
    for (const shard of shards) {
      const db = jobs.createDatabase(jobs.shardBinding(env, shard));
      ctx.waitUntil(Promise.all([jobs.purgeExpiredKeys(db), jobs.purgeExpiredEvents(db)]));
      ctx.waitUntil(jobs.sweepDeletedOrganizationPhotos(jobs.filesOf(env, shard), db));
      // Large organizations' passes start as durable jobs (ACCRUAL_WORKFLOW); the others' runs here.
      ctx.waitUntil(jobs.runCronAccrual(db, env, now));
      // Exports whose message was never sent or got lost: sent again (idempotent, src/jobs/export-resend.ts).
      ctx.waitUntil(jobs.resendStalledExports(db, env.EXPORT_QUEUE, now));
      // Availability occurrences written out two years ahead, for the scheduling guards and eligibility.
      ctx.waitUntil(jobs.runAvailabilityHorizonPass(db, now, horizonStatements));
      // The drain after the attendance pass delivers what it raised in this same invocation.
      ctx.waitUntil(jobs.runAttendancePass(db, now, attendanceStatements).finally(() => jobs.drainOutbox(db, env.WEBHOOK_QUEUE)));
      // Sandboxes are left out of the passes above: a few run here at their own test-clock time (src/jobs/sandbox-passes.ts).
      ctx.waitUntil(jobs.runSandboxesPass(db, { webhooks: env.WEBHOOK_QUEUE, exports: env.EXPORT_QUEUE }, now));
    }
  },
  /**
   * Webhook delivery: each message wakes one endpoint, which gets its pending events in sequence order from its shard.
   * Export jobs (a message naming `exportId`): each message works one chunk of the export on its organization's shard.
   */
  async queue(batch, invocation) {
    const env = limitsEnforced(invocation) ? await limited(invocation) : invocation;
    if (batch.messages.some((message) => "exportId" in message.body)) {
      await (await exportQueue()).workExports(batch as MessageBatch<ExportMessage>, env);
      return;
    }
    const { createDatabase, deliverPending, drainOutbox, newQueryBudget, shardBinding, webhookShard } = await backgroundJobs();
    const seen = new Set<string>();
    // The batch's wake-ups share the invocation's D1 queries: one that finds them spent hands on to a new message.
    const queries = newQueryBudget();
    for (const message of (batch as MessageBatch<WakeUp>).messages) {
      const { webhookId } = message.body;
      if (seen.has(webhookId)) {
        message.ack();
        continue;
      }
      seen.add(webhookId);
      const shard = await webhookShard(env, message.body);
      if (shard === null) {
        message.ack();
        continue;
      }
      const deps = {
        db: createDatabase(shardBinding(env, shard)),
        secretKey: env.WEBHOOK_SECRET_KEY,
        fetch: (request: Request) => fetch(request),
        queries,
      };
      const result = await deliverPending(deps, webhookId);
      // Disabled after 3 days of failures: its `webhook.disabled` goes to the organization's other endpoints now.
      if (result.disabled && message.body.organizationId) await drainOutbox(deps.db, env.WEBHOOK_QUEUE, message.body.organizationId);
      if (result.retryInSeconds !== undefined) {
        message.retry({ delaySeconds: result.retryInSeconds });
        continue;
      }
      if (result.more) await env.WEBHOOK_QUEUE.send({ webhookId, organizationId: message.body.organizationId });
      message.ack();
    }
  },
} satisfies ExportedHandler<Env, WakeUp | ExportMessage>;

/**
 * The pay close of a large organization as a Cloudflare Workflow ([[workflows]] in wrangler.toml): its steps load with
 * its first run (src/jobs/pay-close-workflow.ts), not at isolate startup.
 */
export class PayCloseWorkflow extends WorkflowEntrypoint<Env, CloseJobParams> {
  override async run(event: Readonly<WorkflowEvent<CloseJobParams>>, step: WorkflowStep) {
    const { PayCloseRun } = await payCloseWorkflow();
    return new PayCloseRun(this.env).run(event, step);
  }
}

/**
 * The accrual pass of a large organization as a Cloudflare Workflow ([[workflows]] in wrangler.toml), in pages
 * (src/jobs/accrual-workflow.ts), loaded with its first run.
 */
export class AccrualWorkflow extends WorkflowEntrypoint<Env, AccrualJobParams> {
  override async run(event: Readonly<WorkflowEvent<AccrualJobParams>>, step: WorkflowStep) {
    const { AccrualRun } = await accrualWorkflow();
    return new AccrualRun(this.env).run(event, step);
  }
}

/**
 * Large bulk writes (a staff sync of more records than one request writes) as a Cloudflare Workflow ([[workflows]] in
 * wrangler.toml), in pages (src/jobs/bulk-workflow.ts), loaded with its first run.
 */
export class BulkWorkflow extends WorkflowEntrypoint<Env, BulkJobParams> {
  override async run(event: Readonly<WorkflowEvent<BulkJobParams>>, step: WorkflowStep) {
    const { BulkRun } = await bulkWorkflow();
    return new BulkRun(this.env).run(event, step);
  }
}
