import { timeOffPolicies } from "@db/schema";
import { and, eq, ne, sql } from "drizzle-orm";
import type { Database, Statement } from "@/data/client";
import { organizationNow } from "@/data/clock";
import type { EventType } from "@/data/outbox/outbox";
import { rawRun } from "@/data/raw-statement";
import { grantsDueNow } from "@/data/time-off/grants-now.data";
import { sqlUuid } from "@/data/time-off/inclusion.data";
import { ensureWorkerPolicies } from "@/data/time-off/worker-policy-rows.data";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import { orGone, preconditionGuard, rowExists } from "@/data/write/precondition-guard";
import { localDate } from "@/domain/accrual";
import { type IfMatch, nextVersion, versionCondition } from "@/platform/http/conditional";
import { findPolicy, policyEventData, policyWhere } from "./policy-read.data";
import { readSettings } from "./time-off-settings.data";

type PolicyRow = typeof timeOffPolicies.$inferSelect;
type PolicyChanges = Partial<Omit<typeof timeOffPolicies.$inferInsert, "id" | "organizationId">>;

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
  { grants = [], now }: { grants?: Statement[]; now: number },
): Statement[] {
  if (assignments.length === 0) return grants;
  const list = JSON.stringify(assignments.map((a) => ({ w: a.workerId, i: a.isIncluded ?? null, h: a.hours ?? null })));
  const chosen = sql`SELECT json_extract(value, '$.w') AS w, json_extract(value, '$.i') AS i, json_extract(value, '$.h') AS h FROM json_each(${list})`;
  return [
    ensureWorkerPolicies(
      db,
      organizationId,
      sql`SELECT ${policyId} AS policy_id, json_extract(value, '$.w') AS worker_id FROM json_each(${list})`,
      now,
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

/**
 * Operation 8's write: the policy's fields and, in the same batch, its workers' inclusion and balances, at the
 * If-Match version (412 otherwise, 404 when gone).
 */
export async function patchPolicy(
  writer: Writer,
  organizationId: string,
  policyId: string,
  patch: { changes: PolicyChanges; assignments: Assignment[]; current: PolicyRow; timezone: string; ifMatch: IfMatch },
) {
  const { changes, assignments, current, timezone, ifMatch } = patch;
  const { db } = writer;
  const now = await organizationNow({ ...writer, organizationId });
  const unchanged = and(policyWhere(organizationId, policyId), versionCondition(timeOffPolicies.updatedAt, ifMatch));
  // The guard, not the update's own condition, keeps a concurrent write or delete from leaving the assignments written.
  await orGone(
    guardedBatch(
      writer,
      [
        preconditionGuard(db, rowExists(timeOffPolicies, unchanged)),
        db
          .update(timeOffPolicies)
          .set({ ...changes, updatedAt: nextVersion(timeOffPolicies.updatedAt, now) })
          .where(unchanged),
        ...assignmentStatements(db, organizationId, policyId, assignments, localDate(now, timezone), {
          now: now.getTime(),
          // Whoever the patch includes in an Active policy is granted what is due now, before any target balance is set.
          grants: current.status === "Active" ? grantsDueNow(db, organizationId, [{ ...current, ...changes }], timezone, now) : [],
        }),
      ],
      [],
      // After every statement, so it reads the balances and counts the patch left; the guard fails the batch otherwise.
      {
        events: [{ organizationId: organizationId, type: "time_off_policy.updated", read: policyEventData(db, policyId), always: true }],
      },
    ),
    () => findPolicy(db, organizationId, policyId),
  );
}

/** The statuses a policy moves from: to Active from any other, to Inactive from Active only. */
const movableTo = (status: "Active" | "Inactive") =>
  status === "Active" ? ne(timeOffPolicies.status, "Active") : eq(timeOffPolicies.status, "Active");

/**
 * Moves the policy to `status` from the statuses that may move there (`movableTo`), recording the event only when it moved (a
 * repeat is a no-op that records nothing), and answers the policy as it now stands.
 */
export async function movePolicy(
  writer: Writer,
  organizationId: string,
  policyId: string,
  /** `activate`: stamps activatedAt at the organization's time. */
  move: { status: "Active" | "Inactive"; type: EventType; activate?: boolean },
) {
  const now = await organizationNow({ ...writer, organizationId });
  const { db } = writer;
  // Activation grants at once what is due to everyone the policy includes (once per period, as the Cron would).
  const grants =
    move.status === "Active"
      ? await Promise.all([findPolicy(db, organizationId, policyId), readSettings(db, organizationId)]).then(([{ policy }, { timezone }]) =>
          grantsDueNow(db, organizationId, [policy], timezone, now),
        )
      : [];
  await guardedBatch(
    writer,
    [
      db
        .update(timeOffPolicies)
        .set({ ...(move.activate && { activatedAt: now }), status: move.status, updatedAt: nextVersion(timeOffPolicies.updatedAt, now) })
        .where(and(policyWhere(organizationId, policyId), movableTo(move.status))),
    ],
    [],
    { events: [{ organizationId, type: move.type, read: policyEventData(db, policyId) }], trailing: grants },
  );
  return findPolicy(db, organizationId, policyId);
}
