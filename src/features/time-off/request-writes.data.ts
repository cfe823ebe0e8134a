import { timeOffRequests } from "@db/schema";
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { type DateRun, frozenByClose, periodFreezing } from "@/data/closed-periods";
import { rawAll, rawRun } from "@/data/raw-statement";
import { includedSql, sqlUuid } from "@/data/time-off/inclusion.data";
import type { ConstraintProblems } from "@/data/write/constraint-problems";
import { guard } from "@/data/write/guard";
import { conflict } from "@/problems/problem";
import { insufficientBalance, policyNotAvailable, scheduleConflict, timeOffOverlap } from "@/problems/time-off";
import type { RequestPlan } from "./request-plan.handlers";
import { findWorkerPolicy } from "./worker-policy-read.data";

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

/** A SQL boolean: a live published entry of `worker` overlaps [start, end) (columns or values). */
const publishedWorkDuring = (worker: SQL, start: SQL, end: SQL) =>
  sql`EXISTS (SELECT 1 FROM schedule_entries e WHERE e.employee_id = ${worker} AND e.deleted_at IS NULL AND e.is_draft = 0
    AND e.start_at < ${end} AND e.end_at > ${start})`;

/** The time off a schedule guard checks. */
export interface TimeOffSpan {
  workerId: string;
  start: Date;
  end: Date;
}

/** The live published entries of the worker during [start, end), in start order: the names a SCHEDULE_CONFLICT gives. */
export const publishedWorkOf = (db: Database, span: TimeOffSpan) =>
  rawAll<{ id: string }>(
    db,
    sql`SELECT e.id FROM schedule_entries e WHERE e.employee_id = ${span.workerId} AND e.deleted_at IS NULL
    AND e.is_draft = 0 AND e.start_at < ${span.end.getTime()} AND e.end_at > ${span.start.getTime()} ORDER BY e.start_at, e.id`,
  );

/*
 * Invariants of request writes are checked by the write itself: each guard (data/write/guard) is the value of a
 * NOT NULL column of time_off_requests that turns NULL when the invariant would break, failing the statement and
 * its batch. The balance and schedule guards' problems name what stands in the way, read when they refuse.
 */

/** policy_id: the policy id while it is Active and includes the worker. */
const policyAvailable = guard({
  column: timeOffRequests.policyId,
  problem: policyNotAvailable,
  sql: (s: Subject) =>
    sql`(SELECT p.id FROM time_off_policies p JOIN staff_members s ON s.id = ${s.workerId}
    LEFT JOIN worker_policies wp ON wp.policy_id = p.id AND wp.worker_id = s.id
    WHERE p.id = ${s.policyId} AND p.status = 'Active' AND p.deleted_at IS NULL AND s.deleted_at IS NULL AND ${includedSql()})`,
});

/** worker_id: the worker id unless another live pending or approved request of theirs overlaps [start, end). */
const noRequestOverlap = guard({
  column: timeOffRequests.workerId,
  problem: timeOffOverlap,
  sql: (s: Subject, plan: RequestPlan) =>
    sql`(SELECT ${s.workerId} WHERE NOT EXISTS (SELECT 1 FROM time_off_requests o
    WHERE o.worker_id = ${s.workerId} AND o.status IN ('pending', 'approved') AND o.deleted_at IS NULL AND o.id <> ${s.requestId}
      AND o.start_at < ${plan.end.getTime()} AND o.end_at > ${plan.start.getTime()}))`,
});

/** The refusals every request write can meet. */
export const requestGuardProblems: ConstraintProblems = [policyAvailable, noRequestOverlap];

/** What a balance guard checks: the hours a write asks of the worker's balance under the policy. */
export interface BalanceAsked {
  policyId: string;
  workerId: string;
  hours: number;
}

/** INSUFFICIENT_BALANCE with the balance as it is now. */
const balanceShort = async ({ db, asked }: { db: Database; asked: BalanceAsked }) => {
  const worker = await findWorkerPolicy(db, asked.policyId, asked.workerId);
  return insufficientBalance(asked.hours, worker ? Math.round((worker.balance - worker.pending) * 10_000) / 10_000 : 0);
};

/** total_hours: the hours while the balance covers them (or the policy allows a negative balance). */
const hoursCovered = guard({
  column: timeOffRequests.totalHours,
  problem: balanceShort,
  sql: (s: Subject, hours: number) =>
    sql`(SELECT ${hours} FROM time_off_policies p WHERE p.id = ${s.policyId}
    AND (p.allow_negative_balance = 1 OR ${availableSql(wpOf(s), sql`${s.requestId}`)} - ${hours} >= ${-EPSILON}))`,
});

/** The request an UPDATE changes, for guards that read its own columns. */
const r = sql.raw("time_off_requests");

/** status of an approval: 'approved' while the balance still covers the request. */
const approvalCovered = guard({
  column: timeOffRequests.status,
  problem: balanceShort,
  sql: () =>
    sql`(SELECT 'approved' FROM time_off_policies p WHERE p.id = ${r}.policy_id
        AND (p.allow_negative_balance = 1 OR ${availableSql(sql`${r}.worker_policy_id`, sql`${r}.id`)} - ${r}.total_hours >= ${-EPSILON}))`,
});

/** The refusals of a write that draws on the balance, answered with the balance then. */
export const balanceGuardProblems = (db: Database, asked: BalanceAsked): ConstraintProblems => [
  hoursCovered.about({ db, asked }),
  approvalCovered.about({ db, asked }),
];

/** SCHEDULE_CONFLICT naming the published entries in the way now. */
const workInTheWay = async ({ db, span }: { db: Database; span: TimeOffSpan }) =>
  scheduleConflict((await publishedWorkOf(db, span)).map((entry) => entry.id));

/** timezone of a new request: its zone, NULL when its policy approves it at once over published work. */
const autoApprovalClearOfWork = guard({
  column: timeOffRequests.timezone,
  problem: workInTheWay,
  sql: (s: Subject, plan: RequestPlan) =>
    sql`(SELECT ${plan.timezone} WHERE NOT (
    (SELECT requires_approval = 0 FROM time_off_policies WHERE id = ${s.policyId})
    AND ${publishedWorkDuring(sql`${s.workerId}`, sql`${plan.start.getTime()}`, sql`${plan.end.getTime()}`)}))`,
});

/** timezone of an approval: the request's zone, NULL over published work of the worker. */
const approvalClearOfWork = guard({
  column: timeOffRequests.timezone,
  problem: workInTheWay,
  sql: () => sql`(SELECT ${r}.timezone WHERE NOT ${publishedWorkDuring(sql`${r}.worker_id`, sql`${r}.start_at`, sql`${r}.end_at`)})`,
});

/** The refusals of a write that may approve time off over published work, naming the entries in the way. */
export const scheduleGuardProblems = (db: Database, span: TimeOffSpan): ConstraintProblems => [
  autoApprovalClearOfWork.about({ db, span }),
  approvalClearOfWork.about({ db, span }),
];

/** The local dates a request takes hours on, first to last. */
export const datesOf = (hourConfiguration: readonly { date: string }[]): DateRun => ({
  first: hourConfiguration[0]?.date ?? "",
  last: hourConfiguration.at(-1)?.date ?? "",
});

/** PAY_PERIOD_CLOSED naming the closed period that froze a date of the request. */
const requestFrozen = async ({ db, organizationId, dates }: { db: Database; organizationId: string; dates: DateRun }) =>
  (await periodFreezing(db, organizationId, [dates])) ??
  conflict("PAY_PERIOD_CLOSED", "A closed pay period froze the request's dates meanwhile: reopen it first.");

/**
 * organization_id: the organization, NULL while a closed pay period froze one of the request's dates (its hours
 * count in that period's pay): requesting, approving or cancelling time off there is refused.
 */
const datesUnfrozen = guard({
  column: timeOffRequests.organizationId,
  problem: requestFrozen,
  sql: (organizationId: string, first: SQL | string, last: SQL | string) =>
    sql`(SELECT ${organizationId} WHERE NOT ${frozenByClose(organizationId, first, last)})`,
});

/** The refusal of a write on the request's dates while a closed period froze one of them. */
export const freezeGuardProblems = (db: Database, organizationId: string, dates: DateRun): ConstraintProblems => [
  datesUnfrozen.about({ db, organizationId, dates }),
];

/** The guard over the updated request's own dates (approve, cancel). */
const ownDatesUnfrozen = (organizationId: string) =>
  datesUnfrozen.sql(
    organizationId,
    sql`(SELECT min(value ->> '$.date') FROM json_each(${r}.hour_configuration))`,
    sql`(SELECT max(value ->> '$.date') FROM json_each(${r}.hour_configuration))`,
  );

/** Every write moves updated_at (the request's ETag) forward, even two writes within one millisecond. */
const nextUpdatedAt = (now: number) => sql`max(${now}, time_off_requests.updated_at + 1)`;

const planDatesUnfrozen = (organizationId: string, plan: RequestPlan) => {
  const dates = datesOf(plan.hourConfiguration);
  return datesUnfrozen.sql(organizationId, dates.first, dates.last);
};

/** A new request: pending, or approved at once when the policy does not require approval. */
export function insertRequest(
  db: Database,
  organizationId: string,
  s: Subject,
  plan: RequestPlan,
  note: string | null,
  isAllDay: boolean,
  now = Date.now(),
) {
  return rawRun(
    db,
    sql`INSERT INTO time_off_requests (id, organization_id, worker_id, policy_id, worker_policy_id, location_id, start_at, end_at,
      is_all_day, hour_configuration, total_hours, status, note, timezone, utc_offset, submitted_at, decided_at, active, created_at, updated_at)
    VALUES (${s.requestId}, ${planDatesUnfrozen(organizationId, plan)}, ${noRequestOverlap.sql(s, plan)}, ${policyAvailable.sql(s)}, ${wpOf(s)}, ${s.locationId},
      ${plan.start.getTime()}, ${plan.end.getTime()}, ${isAllDay ? 1 : 0}, ${JSON.stringify(plan.hourConfiguration)},
      ${hoursCovered.sql(s, plan.totalHours)},
      (SELECT CASE WHEN requires_approval = 1 THEN 'pending' ELSE 'approved' END FROM time_off_policies WHERE id = ${s.policyId}),
      ${note}, ${autoApprovalClearOfWork.sql(s, plan)}, ${plan.utcOffset}, ${now},
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
  now = Date.now(),
) {
  return rawRun(
    db,
    sql`UPDATE time_off_requests SET organization_id = ${planDatesUnfrozen(organizationId, plan)}, worker_id = ${noRequestOverlap.sql(s, plan)}, policy_id = ${policyAvailable.sql(s)},
      worker_policy_id = ${wpOf(s)}, location_id = ${s.locationId}, start_at = ${plan.start.getTime()}, end_at = ${plan.end.getTime()}, is_all_day = ${isAllDay ? 1 : 0},
      hour_configuration = ${JSON.stringify(plan.hourConfiguration)}, total_hours = ${hoursCovered.sql(s, plan.totalHours)},
      note = ${note}, timezone = ${plan.timezone}, utc_offset = ${plan.utcOffset}, updated_at = ${nextUpdatedAt(now)}
    WHERE id = ${s.requestId} AND organization_id = ${organizationId} AND status = 'pending' AND deleted_at IS NULL AND ${version ?? sql`1`}
    RETURNING id`,
  );
}

/** Pending → approved, only while the balance still covers it: the status guard fails the batch otherwise. */
export function approveRequest(db: Database, organizationId: string, requestId: string, now = Date.now()) {
  return rawAll<{ id: string }>(
    db,
    sql`UPDATE time_off_requests SET
      organization_id = ${ownDatesUnfrozen(organizationId)},
      status = ${approvalCovered.sql()},
      timezone = ${approvalClearOfWork.sql()},
      decided_at = ${now}, updated_at = ${nextUpdatedAt(now)}
    WHERE id = ${requestId} AND organization_id = ${organizationId} AND status = 'pending' AND deleted_at IS NULL
      AND EXISTS (SELECT 1 FROM time_off_policies p WHERE p.id = ${r}.policy_id AND p.status = 'Active' AND p.deleted_at IS NULL)
    RETURNING id`,
  );
}

export function declineRequest(db: Database, organizationId: string, requestId: string, reason: string | null, now = Date.now()) {
  return rawAll<{ id: string }>(
    db,
    sql`UPDATE time_off_requests SET status = 'declined', decline_reason = ${reason}, decided_at = ${now}, updated_at = ${nextUpdatedAt(now)}
    WHERE id = ${requestId} AND organization_id = ${organizationId} AND status = 'pending' AND deleted_at IS NULL RETURNING id`,
  );
}

export function cancelRequest(
  db: Database,
  organizationId: string,
  requestId: string,
  version: SQL | undefined = undefined,
  now = Date.now(),
) {
  return rawAll<{ id: string }>(
    db,
    sql`UPDATE time_off_requests SET status = 'cancelled', organization_id = ${ownDatesUnfrozen(organizationId)}, updated_at = ${nextUpdatedAt(now)}
    WHERE id = ${requestId} AND organization_id = ${organizationId} AND status IN ('pending', 'approved') AND deleted_at IS NULL
      AND ${version ?? sql`1`} RETURNING id`,
  );
}

/** The usage entry of an approved request (once: the ledger's source index refuses a second). */
export function usageEntry(db: Database, requestId: string, effectiveDate: string, now = Date.now()) {
  return rawRun(
    db,
    sql`INSERT INTO time_off_ledger (id, organization_id, worker_policy_id, kind, hours, effective_date, source_type, source_id, created_at)
    SELECT ${sqlUuid}, organization_id, worker_policy_id, 'usage', -total_hours,
      COALESCE(json_extract(hour_configuration, '$[0].date'), ${effectiveDate}), 'request', id, ${now}
    FROM time_off_requests WHERE id = ${requestId} AND status = 'approved'
    ON CONFLICT (worker_policy_id, kind, source_type, source_id) DO NOTHING`,
  );
}

/** A cancelled request's usage given back, once. */
export function reversalEntry(db: Database, requestId: string, effectiveDate: string, now = Date.now()) {
  return rawRun(
    db,
    sql`INSERT INTO time_off_ledger (id, organization_id, worker_policy_id, kind, hours, effective_date, source_type, source_id, created_at)
    SELECT ${sqlUuid}, l.organization_id, l.worker_policy_id, 'reversal', -l.hours, ${effectiveDate}, 'request', l.source_id, ${now}
    FROM time_off_ledger l JOIN time_off_requests r ON r.id = l.source_id
    WHERE l.source_type = 'request' AND l.kind = 'usage' AND l.source_id = ${requestId} AND r.status = 'cancelled'
    ON CONFLICT (worker_policy_id, kind, source_type, source_id) DO NOTHING`,
  );
}

/** Marks the request's balance changed, for `updatedSince` readers of worker policies. */
export function touchBalance(db: Database, requestId: string, { ifPreviousChanged = false, now = Date.now() } = {}) {
  // changes() is the statement before this one in the batch: a refused approval leaves the balance's version alone.
  return rawRun(
    db,
    sql`UPDATE worker_policies SET updated_at = ${now}
    WHERE id = (SELECT worker_policy_id FROM time_off_requests WHERE id = ${requestId}) AND ${ifPreviousChanged ? sql`changes() > 0` : sql`1`}`,
  );
}
