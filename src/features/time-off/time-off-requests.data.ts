import { scheduleEntries, staffMembers, timeOffPolicies, timeOffRequests } from "@db/schema";
import { and, eq, gt, gte, inArray, lt, type SQL, sql } from "drizzle-orm";
import type { Database, Statement } from "@/data/client";
import type { EventSpec, EventType } from "@/data/outbox/outbox";
import { endRequestsOf } from "@/data/shift-requests/shift-request-endings.data";
import { inOrganization } from "@/data/tenancy";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import { orGone, preconditionGuard, rowExists } from "@/data/write/precondition-guard";
import { parseDateParam } from "@/domain/local-time";
import { type IfMatch, requireVersion, versionCondition } from "@/platform/http/conditional";
import { keysetPage } from "@/platform/http/pagination";
import { invalidField } from "@/problems/problem";
import { requestNotPending } from "@/problems/time-off";
import { findRequest, requestEventData, selectRequests } from "./request-read.data";
import {
  type BalanceAsked,
  balanceGuardProblems,
  cancelPublishedWork,
  freezeGuardProblems,
  requestGuardProblems,
  scheduleGuardProblems,
  type TimeOffSpan,
} from "./request-writes.data";
import { readSettings } from "./time-off-settings.data";

type RequestRow = typeof timeOffRequests.$inferSelect;

interface RequestWrite<T> {
  statements: T;
  event?: EventSpec;
  /** Events after the first (their `changes()` is an event's insert: give them `always` and their own condition). */
  also?: EventSpec[];
  /** The hours the batch's balance guard checks: its refusal answers 409 INSUFFICIENT_BALANCE with the balance then. */
  balance?: BalanceAsked;
  /** The time off the batch's schedule guard checks: its refusal answers 409 SCHEDULE_CONFLICT naming the entries. */
  span?: TimeOffSpan;
  /** The request a `requestGuard` of the batch protects: its refusal answers 404, 412 or 409 REQUEST_NOT_PENDING. */
  guarded?: { id: string; ifMatch: IfMatch };
  /** The request's dates the freeze guard checks: its refusal answers 409 PAY_PERIOD_CLOSED naming the period. */
  dates?: { first: string; last: string };
}

/** Every write of a request: one guarded batch (with its event), each guard's refusal told as its problem. */
export async function writeRequest<T extends readonly [Statement, ...Statement[]]>(
  writer: Writer,
  organizationId: string,
  write: RequestWrite<T>,
) {
  const { db } = writer;
  const events = [write.event, ...(write.also ?? [])].filter((spec) => spec !== undefined);
  const { guarded, balance, span, dates } = write;
  const problems = [
    ...(dates ? freezeGuardProblems(db, organizationId, dates) : []),
    ...requestGuardProblems,
    ...(span ? scheduleGuardProblems(db, span) : []),
    ...(balance ? balanceGuardProblems(db, balance) : []),
  ];
  const batch = guardedBatch(writer, write.statements, problems, { events });
  if (!guarded) return batch;
  return orGone(batch, async () => {
    throw await refusal(db, organizationId, guarded.id, guarded.ifMatch);
  });
}

/**
 * The policy and staff member a request names, and the location it is taken from: the one named (one of the
 * worker's locations), else `keptLocationId` (a PUT keeps the request's), else the worker's first. An unknown
 * reference is a 400 naming the field.
 */
export async function references(
  db: Database,
  organizationId: string,
  named: { policyId: string; workerId: string; locationId?: string; keptLocationId?: string | null },
) {
  const [[policy], [worker], settings] = await Promise.all([
    db
      .select()
      .from(timeOffPolicies)
      .where(and(inOrganization(timeOffPolicies, organizationId), eq(timeOffPolicies.id, named.policyId))),
    db
      .select({ id: staffMembers.id, locationIds: staffMembers.locationIds })
      .from(staffMembers)
      .where(and(inOrganization(staffMembers, organizationId), eq(staffMembers.id, named.workerId))),
    readSettings(db, organizationId),
  ]);
  if (!policy) throw invalidField("policyId", "no such policy in this organization");
  if (!worker) throw invalidField("workerId", "no such staff member in this organization");
  if (named.locationId !== undefined && !worker.locationIds.includes(named.locationId)) {
    throw invalidField("locationId", "must be one of the staff member's locations");
  }
  const locationId = named.locationId ?? (named.keptLocationId !== undefined ? named.keptLocationId : (worker.locationIds[0] ?? null));
  return { policy, settings, locationId };
}

/** A date query bound in the organization's zone, or a 400 naming it. */
function bound(value: string | undefined, field: string, zone: string, edge: "start" | "end") {
  if (value === undefined) return undefined;
  const parsed = parseDateParam(value, zone, edge);
  if (!parsed) throw invalidField(field, "must be YYYY-MM-DD or an ISO 8601 date-time");
  return parsed.at.getTime();
}

async function overlapWindow(db: Database, organizationId: string, startTime?: string, endTime?: string): Promise<SQL[]> {
  if (startTime === undefined && endTime === undefined) return [];
  const { timezone } = await readSettings(db, organizationId);
  const start = bound(startTime, "startTime", timezone, "start");
  const end = bound(endTime, "endTime", timezone, "end");
  if (start !== undefined && end !== undefined && start >= end) throw invalidField("endTime", "must not be before startTime");
  return [
    ...(end !== undefined ? [lt(timeOffRequests.startAt, new Date(end))] : []),
    ...(start !== undefined ? [gt(timeOffRequests.endAt, new Date(start))] : []),
  ];
}

/**
 * A keyset page of the organization's requests as the API reads them: the worker's (when given), overlapping the
 * window the query names (400 for a bad bound), filtered: `limit + 1` rows (the handler's `pageResult`).
 */
export async function requestsPage(
  db: Database,
  organizationId: string,
  workerId: string | undefined,
  query: { limit: number; cursor?: string; updatedSince?: string; startTime?: string; endTime?: string },
  filters: RequestFilters,
) {
  const page = keysetPage(timeOffRequests, { ...query, includeDeleted: false });
  const window = await overlapWindow(db, organizationId, query.startTime, query.endTime);
  return selectRequests(
    db,
    and(
      inOrganization(timeOffRequests, organizationId),
      page.where,
      workerId ? eq(timeOffRequests.workerId, workerId) : undefined,
      query.updatedSince ? gte(timeOffRequests.updatedAt, new Date(query.updatedSince)) : undefined,
      ...window,
      filters.status ? eq(timeOffRequests.status, filters.status) : undefined,
      filters.policyId ? eq(timeOffRequests.policyId, filters.policyId) : undefined,
      filters.workerLocationId
        ? sql`EXISTS (SELECT 1 FROM json_each(s.location_ids) WHERE value = ${filters.workerLocationId})`
        : undefined,
      filters.locationId ? eq(timeOffRequests.locationId, filters.locationId) : undefined,
    ),
  )
    .orderBy(page.orderBy)
    .limit(page.limit);
}

/** What a request listing filters on: its status and policy, the worker's locations, the request's location. */
export interface RequestFilters {
  status?: RequestRow["status"];
  policyId?: string;
  /** One of the worker's locations. */
  workerLocationId?: string;
  /** The location the request is taken from. */
  locationId?: string;
}

/** `time_off_request.approved` when a created request approved on creation (a policy that needs no approval). */
export const approvedOnCreation = (db: Database, organizationId: string, requestId: string): EventSpec => ({
  organizationId,
  type: "time_off_request.approved",
  read: requestEventData(db, requestId, eq(timeOffRequests.status, "approved")),
  always: true,
});

/**
 * What an approval that cancels the worker's conflicting published entries also writes, first: the entries deleted
 * (each with its event) and the shift requests on them ended (scheduling's shift-request-endings).
 */
export function cancellingConflicts(db: Database, organizationId: string, requestId: string, workerId: string, now: Date) {
  const cancelled: EventSpec = {
    organizationId,
    occurredAt: now,
    rows: {
      table: scheduleEntries,
      where: and(eq(scheduleEntries.employeeId, workerId), eq(scheduleEntries.deletedAt, now), eq(scheduleEntries.isDraft, false))!,
      typeOf: sql`${"schedule_entry.deleted" satisfies EventType}`,
    },
  };
  const ended = endRequestsOf(db, {
    organizationId,
    entryIds: sql`SELECT id FROM schedule_entries WHERE employee_id = ${workerId} AND deleted_at = ${now.getTime()} AND is_draft = 0`,
    reason: "ENTRY_DELETED",
    now,
  });
  return { statements: [cancelPublishedWork(db, requestId, now), ended.statement] as const, events: [cancelled, ended.event] };
}

/** The request as the API answers it after the batch, recorded only when the batch's last statement changed a row. */
export const requestEvent = (db: Database, organizationId: string, id: string, type: EventType): EventSpec => ({
  organizationId,
  type,
  read: requestEventData(db, id),
});

/** A pending request, or the 404 / 409 REQUEST_NOT_PENDING that explains why a pending-only write touched nothing. */
export async function refusal(db: Database, organizationId: string, id: string, ifMatch: IfMatch = { kind: "none" }) {
  const row = await findRequest(db, organizationId, id);
  requireVersion(ifMatch, row.request);
  return requestNotPending(row.request.status);
}

export const versionOf = (ifMatch: IfMatch) => versionCondition(timeOffRequests.updatedAt, ifMatch);

/**
 * Fails the batch unless the request is still live, in one of `statuses` and (with If-Match) that version, so a
 * refused write leaves the batch's worker-policy and ledger statements unwritten too.
 */
export const requestGuard = (
  db: Database,
  organizationId: string,
  id: string,
  ifMatch: IfMatch,
  statuses: (typeof timeOffRequests.$inferSelect)["status"][],
) =>
  preconditionGuard(
    db,
    rowExists(
      timeOffRequests,
      and(
        inOrganization(timeOffRequests, organizationId),
        eq(timeOffRequests.id, id),
        inArray(timeOffRequests.status, statuses),
        versionOf(ifMatch),
      ),
    ),
  );
