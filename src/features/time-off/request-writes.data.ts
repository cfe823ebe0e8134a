import { timeOffRequests } from "@db/schema";
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { rawAll, rawRun } from "@/data/raw-statement";
import { type ConstraintProblems, nullInto, whenNull } from "@/data/write/constraint-problems";
import { policyNotAvailable, timeOffOverlap } from "@/problems/time-off";
import { includedSql, sqlUuid } from "./inclusion.data";
import type { RequestPlan } from "./request-plan.handlers";

/**
 * Invariants of request writes are checked by the write itself: each guard is the value of a NOT NULL column
 * that turns NULL when the invariant would break, failing the statement and its batch.
 *   time_off_requests.policy_id NULL   → the policy is not Active or does not include the worker
 *   time_off_requests.worker_id NULL   → another pending or approved request of the worker overlaps
 *   time_off_requests.total_hours NULL → the balance cannot cover it (unless allowNegativeBalance)
 *   time_off_requests.status NULL      → approving: the balance cannot cover it any more
 */
export const requestGuardProblems: ConstraintProblems = [
  whenNull(timeOffRequests.policyId, policyNotAvailable),
  whenNull(timeOffRequests.workerId, timeOffOverlap),
];

/** The guard of an approval over published work: time_off_requests.timezone turns NULL (see `unlessOverPublishedWork`). */
export const SCHEDULE_CONFLICT_GUARD = nullInto(timeOffRequests.timezone);

/** A SQL boolean: a live published entry of `worker` overlaps [start, end) (columns or values). */
const publishedWorkDuring = (worker: SQL, start: SQL, end: SQL) =>
  sql`EXISTS (SELECT 1 FROM schedule_entries e WHERE e.employee_id = ${worker} AND e.deleted_at IS NULL AND e.is_draft = 0
    AND e.start_at < ${end} AND e.end_at > ${start})`;

/** The request's zone, or NULL (SCHEDULE_CONFLICT_GUARD) when its policy approves it at once over published work. */
const unlessAutoApprovedOverPublishedWork = (s: Subject, plan: RequestPlan) =>
  sql`(SELECT ${plan.timezone} WHERE NOT (
    (SELECT requires_approval = 0 FROM time_off_policies WHERE id = ${s.policyId})
    AND ${publishedWorkDuring(sql`${s.workerId}`, sql`${plan.start.getTime()}`, sql`${plan.end.getTime()}`)}))`;

/** The live published entries of the worker during [start, end), in start order: the names a SCHEDULE_CONFLICT gives. */
export const publishedWorkOf = (db: Database, span: { workerId: string; start: Date; end: Date }) =>
  rawAll<{ id: string }>(
    db,
    sql`SELECT e.id FROM schedule_entries e WHERE e.employee_id = ${span.workerId} AND e.deleted_at IS NULL
    AND e.is_draft = 0 AND e.start_at < ${span.end.getTime()} AND e.end_at > ${span.start.getTime()} ORDER BY e.start_at, e.id`,
  );

/**
 * Removes the published entries the approval of the request would contradict (its manager said
 * cancelConflictingEntries), while the request is pending: in the approval's batch, before it.
 */
export function cancelPublishedWork(db: Database, requestId: string, now: Date) {
  return rawRun(
    db,
    sql`UPDATE schedule_entries SET deleted_at = ${now.getTime()}, active = 0, updated_at = ${now.getTime()}
    WHERE id IN (SELECT e.id FROM schedule_entries e JOIN time_off_requests r ON r.id = ${requestId} AND r.status = 'pending'
      WHERE e.employee_id = r.worker_id AND e.deleted_at IS NULL AND e.is_draft = 0 AND e.start_at < r.end_at AND e.end_at > r.start_at)`,
  );
}

export const BALANCE_GUARDS = [nullInto(timeOffRequests.totalHours), nullInto(timeOffRequests.status)];

/** Σ ledger − pending requests other than `requestId`, for the worker policy `wpId` (a column or a value). */
const availableSql = (wpId: SQL, requestId: SQL) =>
  sql`((SELECT COALESCE(SUM(hours), 0) FROM time_off_ledger WHERE worker_policy_id = ${wpId})
    - (SELECT COALESCE(SUM(total_hours), 0) FROM time_off_requests o
       WHERE o.worker_policy_id = ${wpId} AND o.status = 'pending' AND o.deleted_at IS NULL AND o.id <> ${requestId}))`;

/** Tolerance for sums of fractional hours. */
const EPSILON = 0.00001;

interface Subject {
  requestId: string;
  workerId: string;
  policyId: string;
  /** One of the worker's locations (see `requestLocation`), or null for a worker assigned to none. */
  locationId: string | null;
}

const wpOf = (s: Subject) => sql`(SELECT id FROM worker_policies WHERE policy_id = ${s.policyId} AND worker_id = ${s.workerId})`;

/** The policy id when it is Active and includes the worker, else NULL. */
const availablePolicy = (s: Subject) =>
  sql`(SELECT p.id FROM time_off_policies p JOIN staff_members s ON s.id = ${s.workerId}
    LEFT JOIN worker_policies wp ON wp.policy_id = p.id AND wp.worker_id = s.id
    WHERE p.id = ${s.policyId} AND p.status = 'Active' AND p.deleted_at IS NULL AND s.deleted_at IS NULL AND ${includedSql()})`;

/** The worker id unless another live pending or approved request of theirs overlaps [start, end). */
const unlessOverlapping = (s: Subject, plan: RequestPlan) =>
  sql`(SELECT ${s.workerId} WHERE NOT EXISTS (SELECT 1 FROM time_off_requests o
    WHERE o.worker_id = ${s.workerId} AND o.status IN ('pending', 'approved') AND o.deleted_at IS NULL AND o.id <> ${s.requestId}
      AND o.start_at < ${plan.end.getTime()} AND o.end_at > ${plan.start.getTime()}))`;

/** The hours when the balance covers them (or the policy allows a negative balance), else NULL. */
const coveredHours = (s: Subject, hours: number) =>
  sql`(SELECT ${hours} FROM time_off_policies p WHERE p.id = ${s.policyId}
    AND (p.allow_negative_balance = 1 OR ${availableSql(wpOf(s), sql`${s.requestId}`)} - ${hours} >= ${-EPSILON}))`;

/** Every write moves updated_at (the request's ETag) forward, even two writes within one millisecond. */
const nextUpdatedAt = (now: number) => sql`max(${now}, time_off_requests.updated_at + 1)`;

/** A new request: pending, or approved at once when the policy does not require approval. */
export function insertRequest(db: Database, organizationId: string, s: Subject, plan: RequestPlan, note: string | null, isAllDay: boolean) {
  const now = Date.now();
  return rawRun(
    db,
    sql`INSERT INTO time_off_requests (id, organization_id, worker_id, policy_id, worker_policy_id, location_id, start_at, end_at,
      is_all_day, hour_configuration, total_hours, status, note, timezone, utc_offset, submitted_at, decided_at, active, created_at, updated_at)
    VALUES (${s.requestId}, ${organizationId}, ${unlessOverlapping(s, plan)}, ${availablePolicy(s)}, ${wpOf(s)}, ${s.locationId},
      ${plan.start.getTime()}, ${plan.end.getTime()}, ${isAllDay ? 1 : 0}, ${JSON.stringify(plan.hourConfiguration)},
      ${coveredHours(s, plan.totalHours)},
      (SELECT CASE WHEN requires_approval = 1 THEN 'pending' ELSE 'approved' END FROM time_off_policies WHERE id = ${s.policyId}),
      ${note}, ${unlessAutoApprovedOverPublishedWork(s, plan)}, ${plan.utcOffset}, ${now},
      (SELECT CASE WHEN requires_approval = 1 THEN NULL ELSE ${now} END FROM time_off_policies WHERE id = ${s.policyId}),
      1, ${now}, ${now})`,
  );
}

/** A pending request rewritten under the same guards; touches nothing unless it is still pending. */
export function updatePendingRequest(
  db: Database,
  organizationId: string,
  s: Subject,
  plan: RequestPlan,
  note: string | null,
  isAllDay: boolean,
  version: SQL | undefined = undefined,
) {
  const now = Date.now();
  return rawRun(
    db,
    sql`UPDATE time_off_requests SET worker_id = ${unlessOverlapping(s, plan)}, policy_id = ${availablePolicy(s)},
      worker_policy_id = ${wpOf(s)}, location_id = ${s.locationId}, start_at = ${plan.start.getTime()}, end_at = ${plan.end.getTime()}, is_all_day = ${isAllDay ? 1 : 0},
      hour_configuration = ${JSON.stringify(plan.hourConfiguration)}, total_hours = ${coveredHours(s, plan.totalHours)},
      note = ${note}, timezone = ${plan.timezone}, utc_offset = ${plan.utcOffset}, updated_at = ${nextUpdatedAt(now)}
    WHERE id = ${s.requestId} AND organization_id = ${organizationId} AND status = 'pending' AND deleted_at IS NULL AND ${version ?? sql`1`}
    RETURNING id`,
  );
}

/** Pending → approved, only while the balance still covers it: the status guard fails the batch otherwise. */
export function approveRequest(db: Database, organizationId: string, requestId: string) {
  const now = Date.now();
  const r = sql.raw("time_off_requests");
  return rawAll<{ id: string }>(
    db,
    sql`UPDATE time_off_requests SET
      status = (SELECT 'approved' FROM time_off_policies p WHERE p.id = ${r}.policy_id
        AND (p.allow_negative_balance = 1 OR ${availableSql(sql`${r}.worker_policy_id`, sql`${r}.id`)} - ${r}.total_hours >= ${-EPSILON})),
      timezone = (SELECT ${r}.timezone WHERE NOT ${publishedWorkDuring(sql`${r}.worker_id`, sql`${r}.start_at`, sql`${r}.end_at`)}),
      decided_at = ${now}, updated_at = ${nextUpdatedAt(now)}
    WHERE id = ${requestId} AND organization_id = ${organizationId} AND status = 'pending' AND deleted_at IS NULL
      AND EXISTS (SELECT 1 FROM time_off_policies p WHERE p.id = ${r}.policy_id AND p.status = 'Active' AND p.deleted_at IS NULL)
    RETURNING id`,
  );
}

export function declineRequest(db: Database, organizationId: string, requestId: string, reason: string | null) {
  const now = Date.now();
  return rawAll<{ id: string }>(
    db,
    sql`UPDATE time_off_requests SET status = 'declined', decline_reason = ${reason}, decided_at = ${now}, updated_at = ${nextUpdatedAt(now)}
    WHERE id = ${requestId} AND organization_id = ${organizationId} AND status = 'pending' AND deleted_at IS NULL RETURNING id`,
  );
}

export function cancelRequest(db: Database, organizationId: string, requestId: string, version: SQL | undefined = undefined) {
  const now = Date.now();
  return rawAll<{ id: string }>(
    db,
    sql`UPDATE time_off_requests SET status = 'cancelled', updated_at = ${nextUpdatedAt(now)}
    WHERE id = ${requestId} AND organization_id = ${organizationId} AND status IN ('pending', 'approved') AND deleted_at IS NULL
      AND ${version ?? sql`1`} RETURNING id`,
  );
}

/** The usage entry of an approved request (once: the ledger's source index refuses a second). */
export function usageEntry(db: Database, requestId: string, effectiveDate: string) {
  return rawRun(
    db,
    sql`INSERT INTO time_off_ledger (id, organization_id, worker_policy_id, kind, hours, effective_date, source_type, source_id, created_at)
    SELECT ${sqlUuid}, organization_id, worker_policy_id, 'usage', -total_hours,
      COALESCE(json_extract(hour_configuration, '$[0].date'), ${effectiveDate}), 'request', id, ${Date.now()}
    FROM time_off_requests WHERE id = ${requestId} AND status = 'approved'
    ON CONFLICT (worker_policy_id, kind, source_type, source_id) DO NOTHING`,
  );
}

/** A cancelled request's usage given back, once. */
export function reversalEntry(db: Database, requestId: string, effectiveDate: string) {
  return rawRun(
    db,
    sql`INSERT INTO time_off_ledger (id, organization_id, worker_policy_id, kind, hours, effective_date, source_type, source_id, created_at)
    SELECT ${sqlUuid}, l.organization_id, l.worker_policy_id, 'reversal', -l.hours, ${effectiveDate}, 'request', l.source_id, ${Date.now()}
    FROM time_off_ledger l JOIN time_off_requests r ON r.id = l.source_id
    WHERE l.source_type = 'request' AND l.kind = 'usage' AND l.source_id = ${requestId} AND r.status = 'cancelled'
    ON CONFLICT (worker_policy_id, kind, source_type, source_id) DO NOTHING`,
  );
}

/** Marks the request's balance changed, for `updatedSince` readers of worker policies. */
export function touchBalance(db: Database, requestId: string, { ifPreviousChanged = false } = {}) {
  // changes() is the statement before this one in the batch: a refused approval leaves the balance's version alone.
  return rawRun(
    db,
    sql`UPDATE worker_policies SET updated_at = ${Date.now()}
    WHERE id = (SELECT worker_policy_id FROM time_off_requests WHERE id = ${requestId}) AND ${ifPreviousChanged ? sql`changes() > 0` : sql`1`}`,
  );
}
