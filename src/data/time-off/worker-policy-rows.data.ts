import { type SQL, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { rawRun } from "@/data/raw-statement";

/**
 * Makes the worker policy rows of (policy, worker) pairs that have none yet, in one INSERT … SELECT: `pairs` is a
 * SELECT yielding `policy_id, worker_id` columns. A balance exists for every pair from its first need; rows made
 * twice meet the unique (policy, worker) index and are skipped. A row's id is `policyId:workerId`, the id the
 * read-only balance listings already answered for the pair before its row existed (worker-policy-read).
 */
/** `now`: the organization's time in ms (data/clock organizationNow; a sandbox's runs ahead). */
export function ensureWorkerPolicies(db: Database, organizationId: string, pairs: SQL, now: number) {
  return rawRun(
    db,
    sql`INSERT INTO worker_policies (id, organization_id, policy_id, worker_id, active, created_at, updated_at)
    SELECT pair.policy_id || ':' || pair.worker_id, ${organizationId}, pair.policy_id, pair.worker_id, 1, ${now}, ${now} FROM (${pairs}) AS pair WHERE true
    ON CONFLICT (policy_id, worker_id) DO NOTHING`,
  );
}

/** One (policy, worker) pair. */
export const onePair = (policyId: string, workerId: string): SQL => sql`SELECT ${policyId} AS policy_id, ${workerId} AS worker_id`;
