import { createExecutionContext, createScheduledController, env, introspectWorkflow, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import worker from "@/worker";
import { api } from "../../helpers/api";
import { unique } from "../../helpers/fixtures";
import { feed } from "../../helpers/pay";
import { tenantDb } from "../../helpers/shards";
import { createStaffMember } from "../../helpers/staff";
import { createTimeOffPlace, orgPath, simulateSince, type TimeOffPlace } from "../../helpers/time-off";

/**
 * The Cron's accrual pass of a large organization as a durable job (src/jobs/accrual-job.ts, accrual-workflow.ts).
 * Here "large" is more than 4 balances (ACCRUAL_IN_CRON_MAX_BALANCES) and a page is 2 balances: 5 workers make the
 * steps page-1 (2 balances), page-2 (2), page-3 (1), finish. JOB_FAULT_STEPS names the steps that fail after their
 * work (the vitest config allows it: JOB_FAULTS), so a page is redelivered having written its entries.
 */
const AS_JOB = { ACCRUAL_IN_CRON_MAX_BALANCES: "4", ACCRUAL_JOB_PAGE_BALANCES: "2" };
const weekly = {
  limitSettings: {
    isFixedAmount: true,
    fixedAmount: { hours: 2, accrualCycle: "Periodic", accrualFrequency: "EveryOneWeek", accrualDay: "Monday" },
  },
};
const ACTIVATED = "2030-01-01T00:00:00Z";
const NOW = "2030-02-04T00:30:00Z";
/** Mondays 2030-01-07, 14, 21, 28 and 02-04 at 2 h each: 5 entries, 10 h, for each worker. */
const EACH = [5, 10];

const places: TimeOffPlace[] = [];
/** Each test's policies deleted after it, so that the next test's Cron starts jobs for its own organizations only. */
afterEach(async () => {
  for (const p of places.splice(0)) {
    await tenantDb().prepare("UPDATE time_off_policies SET deleted_at = 1 WHERE id = ?").bind(p.policy.id).run();
  }
});

/** An organization of `staff` workers under a weekly 2 h policy active since 2030-01-01. */
async function place(staff: number): Promise<TimeOffPlace> {
  const p = await createTimeOffPlace(weekly);
  places.push(p);
  for (let i = 1; i < staff; i++) await createStaffMember(p.org, { externalId: unique("ext"), accessRoleName: "Employee" });
  await simulateSince(p, ACTIVATED);
  return p;
}

/** The Cron at NOW with `vars` over the test environment; answers the accrual jobs it started, each run to its end. */
async function cron(vars: Record<string, string>) {
  await using workflows = await introspectWorkflow(env.ACCRUAL_WORKFLOW);
  await workflows.modifyAll(async (m) => {
    await m.disableRetryDelays();
  });
  const ctx = createExecutionContext();
  await worker.scheduled(
    createScheduledController({ scheduledTime: Date.parse(NOW), cron: "*/30 * * * *" }),
    { ...env, ...vars } as Env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  const instances = await workflows.get();
  for (const instance of instances) await instance.waitForStatus("complete");
  return instances.length;
}

/** [accrual entries, accrued hours] of each worker of the policy. */
async function accruedOf(p: TimeOffPlace) {
  const { results } = await tenantDb()
    .prepare(
      `SELECT (SELECT count(*) FROM time_off_ledger l WHERE l.worker_policy_id = wp.id AND l.kind = 'accrual') AS entries,
         (SELECT COALESCE(SUM(hours), 0) FROM time_off_ledger l WHERE l.worker_policy_id = wp.id AND l.kind = 'accrual') AS hours
       FROM worker_policies wp WHERE wp.policy_id = ? ORDER BY wp.id`,
    )
    .bind(p.policy.id)
    .all<{ entries: number; hours: number }>();
  return results.map((r) => [r.entries, r.hours]);
}

/** The organization's accrual jobs, newest last, as GET …/jobs/{id} answers them. */
async function jobsOf(p: TimeOffPlace) {
  const { results } = await tenantDb()
    .prepare("SELECT id FROM jobs WHERE organization_id = ? AND kind = 'ACCRUAL' ORDER BY created_at, rowid")
    .bind(p.org.id)
    .all<{ id: string }>();
  const answers = [];
  for (const { id } of results) answers.push((await api("GET", orgPath(p.org, `/jobs/${id}`), { token: p.org.adminToken })).body);
  return answers as { status: string; step: string; steps: number; progress: number; error: { code: string } | null }[];
}

/** The ledger and watermarks as before any pass (a test's reset between runs of the Cron at the same instant). */
async function unaccrue(p: TimeOffPlace) {
  await tenantDb().batch([
    tenantDb()
      .prepare("DELETE FROM time_off_ledger WHERE worker_policy_id IN (SELECT id FROM worker_policies WHERE policy_id = ?)")
      .bind(p.policy.id),
    tenantDb().prepare("UPDATE worker_policies SET accrued_through = NULL WHERE policy_id = ?").bind(p.policy.id),
  ]);
}

describe("the accrual pass of a large organization as a durable job", () => {
  it("runs in pages of 2 balances: 5 workers × 5 Mondays × 2 h accrued once, the job SUCCEEDED with its events", async () => {
    const large = await place(5);
    const small = await place(1);
    expect(await cron(AS_JOB)).toBe(1);
    expect(await accruedOf(large)).toEqual([EACH, EACH, EACH, EACH, EACH]);
    // The organization at the threshold or under it is accrued by the Cron itself: no job.
    expect(await accruedOf(small)).toEqual([EACH]);
    expect(await jobsOf(small)).toEqual([]);
    const [job] = await jobsOf(large);
    // page-1, page-2, page-3, finish.
    expect(job).toMatchObject({ kind: "ACCRUAL", subject: "2030-02-04T00:30:00.000Z", status: "SUCCEEDED", step: "finish" });
    expect(job).toMatchObject({ steps: 4, progress: 1, error: null });
    const types = (await feed(large.org)).map((e) => e.type);
    expect(types.filter((t) => t.startsWith("job."))).toEqual(["job.created", "job.succeeded"]);
  });

  it("resumes after a failure injected after each step's work without accruing twice", async () => {
    const large = await place(5);
    for (const step of ["page-1", "page-2", "page-3", "finish"]) {
      await unaccrue(large);
      expect(await cron({ ...AS_JOB, JOB_FAULT_STEPS: step, JOB_FAULT_TIMES: "1" })).toBe(1);
      expect({ step, accrued: await accruedOf(large) }).toEqual({ step, accrued: [EACH, EACH, EACH, EACH, EACH] });
      expect({ step, status: (await jobsOf(large)).at(-1)?.status }).toEqual({ step, status: "SUCCEEDED" });
    }
    // Every page of every run redelivered: still 25 entries, 50 h in all.
    const total = await tenantDb()
      .prepare(
        "SELECT count(*) AS n, SUM(hours) AS h FROM time_off_ledger WHERE kind = 'accrual' AND worker_policy_id IN (SELECT id FROM worker_policies WHERE policy_id = ?)",
      )
      .bind(large.policy.id)
      .first<{ n: number; h: number }>();
    expect(total).toEqual({ n: 25, h: 50 });
  });

  it("a page failing every retry ends the job FAILED; the next Cron's job catches up, each entry once", async () => {
    const large = await place(5);
    expect(await cron({ ...AS_JOB, JOB_FAULT_STEPS: "page-2", JOB_FAULT_TIMES: "99" })).toBe(1);
    const [failed] = await jobsOf(large);
    expect(failed).toMatchObject({ status: "FAILED", step: "fail", error: { code: "JOB_FAILED" } });
    expect((await feed(large.org)).map((e) => e.type)).toContain("job.failed");
    // Each worker's 5 Mondays written once or not yet (a retried page reads the balances not yet accrued).
    expect((await accruedOf(large)).every(([n, h]) => (n === 0 && h === 0) || (n === 5 && h === 10))).toBe(true);
    expect(await cron(AS_JOB)).toBe(1);
    expect(await accruedOf(large)).toEqual([EACH, EACH, EACH, EACH, EACH]);
    expect((await jobsOf(large)).map((j) => j.status)).toEqual(["FAILED", "SUCCEEDED"]);
  });

  it("starts no second job while the organization's last one is still running", async () => {
    const large = await place(5);
    await tenantDb()
      .prepare(
        "INSERT INTO jobs (id, organization_id, kind, status, subject, step_index, progress_permille, created_at, updated_at) VALUES (?, ?, 'ACCRUAL', 'RUNNING', 'x', 1, 0, ?, ?)",
      )
      .bind(crypto.randomUUID(), large.org.id, Date.parse(NOW) - 60_000, Date.parse(NOW) - 60_000)
      .run();
    expect(await cron(AS_JOB)).toBe(0);
    expect((await jobsOf(large)).map((j) => j.status)).toEqual(["RUNNING"]);
  });
});
