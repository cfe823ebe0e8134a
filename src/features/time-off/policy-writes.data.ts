import { sql } from "drizzle-orm";
import type { Database, Statement } from "@/data/client";
import { rawRun } from "@/data/raw-statement";
import { sqlUuid } from "@/data/time-off/inclusion.data";
import { ensureWorkerPolicies } from "@/data/time-off/worker-policy-rows.data";

export interface Assignment {
  workerId: string;
  isIncluded?: boolean;
  /** Target balance in hours. */
  hours?: number;
}

/**
 * Operation 8's workerPolicies as statements of the policy's update batch: the rows are made, `isIncluded`
 * set (an inclusion switched on restarts accrual from now), and each target balance becomes one adjustment
 * entry of its difference from the ledger's sum, computed in the same statement that writes it.
 */
export function assignmentStatements(
  db: Database,
  organizationId: string,
  policyId: string,
  assignments: Assignment[],
  today: string,
  { grants = [] }: { grants?: Statement[] } = {},
): Statement[] {
  if (assignments.length === 0) return grants;
  const now = Date.now();
  const list = JSON.stringify(assignments.map((a) => ({ w: a.workerId, i: a.isIncluded ?? null, h: a.hours ?? null })));
  const chosen = sql`SELECT json_extract(value, '$.w') AS w, json_extract(value, '$.i') AS i, json_extract(value, '$.h') AS h FROM json_each(${list})`;
  return [
    ensureWorkerPolicies(
      db,
      organizationId,
      sql`SELECT ${policyId} AS policy_id, json_extract(value, '$.w') AS worker_id FROM json_each(${list})`,
    ),
    rawRun(
      db,
      sql`UPDATE worker_policies SET
        included_at = CASE WHEN j.i = 1 AND COALESCE(worker_policies.is_included, 0) = 0 THEN ${now} ELSE worker_policies.included_at END,
        is_included = j.i, updated_at = ${now}
      FROM (${chosen}) AS j WHERE worker_policies.policy_id = ${policyId} AND worker_policies.worker_id = j.w AND j.i IS NOT NULL`,
    ),
    ...grants,
    rawRun(
      db,
      sql`INSERT INTO time_off_ledger (id, organization_id, worker_policy_id, kind, hours, effective_date, source_type, source_id, created_at)
      SELECT ${sqlUuid}, ${organizationId}, wp.id, 'adjustment',
        j.h - (SELECT COALESCE(SUM(l.hours), 0) FROM time_off_ledger l WHERE l.worker_policy_id = wp.id),
        ${today}, 'adjustment', ${sqlUuid}, ${now}
      FROM (${chosen}) AS j JOIN worker_policies wp ON wp.policy_id = ${policyId} AND wp.worker_id = j.w WHERE j.h IS NOT NULL`,
    ),
    rawRun(
      db,
      sql`UPDATE worker_policies SET updated_at = ${now}
      WHERE policy_id = ${policyId} AND worker_id IN (SELECT w FROM (${chosen}) WHERE h IS NOT NULL)`,
    ),
  ];
}
