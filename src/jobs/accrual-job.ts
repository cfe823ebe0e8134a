import { jobs } from "@db/schema";
import { sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { inPassScope } from "@/data/clock";
import { frozenHere } from "@/data/freezes";
import { newId } from "@/data/ids";
import { finishJob, newJobRow, readJob, recordStep } from "@/data/jobs/jobs.data";
import { eventStatement } from "@/data/outbox/outbox";
import { rawAll, rawRun } from "@/data/raw-statement";
import { serializeJob } from "@/wire/job.schemas";
import { type PassReport, runAccrualPass } from "./accrual-pass";

/**
 * The accrual pass of a large organization as a durable job (src/jobs/accrual-workflow.ts runs these steps as a
 * Cloudflare Workflow). The Cron starts one per organization whose balances exceed ACCRUAL_IN_CRON_MAX_BALANCES and
 * runs the pass of every other organization itself. Each `page-n` step is one page of the pass (PassPage: at most
 * `pageBalances` balances of each policy, ≈ 30 queries at 1,000) at the Cron's instant `now`, so a step redelivered
 * computes the same periods. Idempotent on redelivery: every ledger entry carries its period key under the ledger's
 * unique source index (written ON CONFLICT DO NOTHING), so a page run twice accrues nothing twice.
 */
export interface AccrualJobParams {
  jobId: string;
  organizationId: string;
  /** The Cron's instant (ms since the epoch): the pass's `now` at every step. */
  now: number;
  pageBalances: number;
  /** Balances counted when the job started: the planned steps (pages, then `finish`). */
  balances: number;
  /** Tests only (honoured when the Worker's JOB_FAULTS is "allow"): the named steps fail after their work. */
  fault?: { steps: string[]; times: number };
}

/** What a page step answers (the Workflow keeps it): where the next page starts, and the page's figures. */
export interface AccruedPage {
  n: number;
  afterId: string | null;
  entries: number;
  balances: number;
}

/** ACCRUAL_IN_CRON_MAX_BALANCES (default 5,000): an organization with more balances accrues as a job. */
export function accrualInCronMax(env: object): number {
  const max = Number((env as { ACCRUAL_IN_CRON_MAX_BALANCES?: string }).ACCRUAL_IN_CRON_MAX_BALANCES);
  return Number.isInteger(max) && max >= 0 ? max : 5000;
}

/** ACCRUAL_JOB_PAGE_BALANCES (default 1,000): balances of each policy a page step accrues (≈ 20 MB, 2 s at 1,000). */
export function accrualPageOf(env: object): number {
  const page = Number((env as { ACCRUAL_JOB_PAGE_BALANCES?: string }).ACCRUAL_JOB_PAGE_BALANCES);
  return Number.isInteger(page) && page > 0 ? page : 1000;
}

const plannedSteps = (p: AccrualJobParams) => Math.max(1, Math.ceil(p.balances / p.pageBalances)) + 1;

/**
 * Live organizations, not frozen for a move, whose active policies cover more than `max` live staff members (the
 * balances their pass reads, created or not yet): one read over the shard.
 */
export const largeAccrualOrganizations = (db: Database, max: number) =>
  rawAll<{ organizationId: string; balances: number }>(
    db,
    sql`SELECT p.organization_id AS organizationId, count(*) AS balances
      FROM time_off_policies p JOIN staff_members s ON s.organization_id = p.organization_id AND s.deleted_at IS NULL
      WHERE p.status = 'Active' AND p.deleted_at IS NULL
        AND NOT ${frozenHere(sql`p.organization_id`)} AND ${inPassScope(sql`p.organization_id`, "live")}
      GROUP BY p.organization_id HAVING count(*) > ${max}`,
  );

/** A live accrual job older than this without a step is taken as lost (its Workflow never started): a new one may start. */
const STALE_MS = 2 * 3_600_000;

/**
 * The Cron's accrual jobs: one per large organization, unless one is still running (a pass longer than the Cron's
 * period, or a Cron run twice): the row and its `job.created` are written only when the organization has no ACCRUAL
 * job QUEUED or RUNNING that moved within STALE_MS (a conditional INSERT, so two Cron runs racing start one). Answers
 * the jobs started.
 */
export async function startAccrualJobs(
  db: Database,
  workflow: Workflow<AccrualJobParams>,
  now: Date,
  large: { organizationId: string; balances: number }[],
  options: { pageBalances: number; fault?: AccrualJobParams["fault"] },
): Promise<string[]> {
  const started: string[] = [];
  for (const { organizationId, balances } of large) {
    const row = newJobRow({ id: newId(), organizationId, kind: "ACCRUAL", subject: now.toISOString(), now });
    const [inserted] = await db.batch([
      rawRun(
        db,
        sql`INSERT INTO ${jobs} (id, organization_id, kind, status, subject, step_index, progress_permille, created_at, updated_at)
        SELECT ${row.id}, ${organizationId}, 'ACCRUAL', 'QUEUED', ${row.subject}, 0, 0, ${now.getTime()}, ${now.getTime()}
        WHERE NOT EXISTS (SELECT 1 FROM ${jobs} j WHERE j.organization_id = ${organizationId} AND j.kind = 'ACCRUAL'
          AND j.status IN ('QUEUED', 'RUNNING') AND j.updated_at > ${now.getTime() - STALE_MS})`,
      ),
      eventStatement(db, { type: "job.created", organizationId, occurredAt: now, data: serializeJob(row), whenChanged: true }),
    ]);
    if (inserted.changes !== 1) continue;
    const params: AccrualJobParams = {
      jobId: row.id,
      organizationId,
      now: now.getTime(),
      pageBalances: options.pageBalances,
      balances,
      ...(options.fault && { fault: options.fault }),
    };
    try {
      await workflow.create({ id: row.id, params });
      started.push(row.id);
    } catch (error) {
      const detail = `The job could not be started: ${error instanceof Error ? error.message : String(error)}`;
      await db.batch([...finishJob(db, row, { status: "FAILED", step: "start", at: new Date(), error: { code: "JOB_FAILED", detail } })]);
    }
  }
  return started;
}

/** Step `page-n`: one page of the organization's pass after `afterId`, then the job's progress. */
export async function accruePage(db: Database, p: AccrualJobParams, n: number, afterId: string | null): Promise<AccruedPage> {
  const report: PassReport = await runAccrualPass(db, new Date(p.now), {
    page: { balances: p.pageBalances, afterId },
    scope: { organizationId: p.organizationId },
  });
  const steps = Math.max(plannedSteps(p), n + 1);
  await recordStep(db, p.jobId, { name: `page-${n}`, index: n, steps, progress: n / steps, at: new Date() });
  return { n, afterId: report.nextAfterId ?? null, entries: report.entries, balances: report.balances };
}

/** Step `finish` (or `fail`): the job SUCCEEDED (or FAILED with `error`) with its event, once. */
export async function finishAccrualJob(db: Database, p: AccrualJobParams, error?: { code: string; detail: string }) {
  const job = await readJob(db, p.organizationId, p.jobId);
  if (!job) return;
  const end = error ? { status: "FAILED" as const, step: "fail", error } : { status: "SUCCEEDED" as const, step: "finish" };
  await db.batch([...finishJob(db, job, { ...end, at: new Date() })]);
}

/**
 * The Cron's accrual pass on one shard: large organizations (more balances than ACCRUAL_IN_CRON_MAX_BALANCES) each get
 * a job (ACCRUAL_WORKFLOW), every other live organization is accrued here, in this invocation, as before.
 */
export async function runCronAccrual(db: Database, env: Env, now: Date) {
  const large = await largeAccrualOrganizations(db, accrualInCronMax(env));
  const started = await startAccrualJobs(db, env.ACCRUAL_WORKFLOW, now, large, {
    pageBalances: accrualPageOf(env),
    fault: faultOf(env),
  });
  const report = await runAccrualPass(db, now, { scope: { liveExcept: large.map((o) => o.organizationId) } });
  return { jobs: started, report };
}

/** Tests only: JOB_FAULT_STEPS (comma-separated, `page-*` for every page) and JOB_FAULT_TIMES, when JOB_FAULTS is "allow". */
function faultOf(env: object): AccrualJobParams["fault"] {
  const vars = env as Partial<Record<"JOB_FAULTS" | "JOB_FAULT_STEPS" | "JOB_FAULT_TIMES", string>>;
  if (vars.JOB_FAULTS !== "allow" || !vars.JOB_FAULT_STEPS) return undefined;
  return { steps: vars.JOB_FAULT_STEPS.split(","), times: Number(vars.JOB_FAULT_TIMES ?? "1") };
}
