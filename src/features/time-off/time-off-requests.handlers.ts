import { scheduleEntries, staffMembers, timeOffPolicies, timeOffRequests } from "@db/schema";
import { and, eq, gt, gte, inArray, lt, type SQL, sql } from "drizzle-orm";
import type { Context } from "hono";
import type { Database, Statement } from "@/data/client";
import { newId } from "@/data/ids";
import type { EventSpec, EventType } from "@/data/outbox/outbox";
import { endRequestsOf } from "@/data/shift-requests/shift-request-endings.data";
import { inOrganization } from "@/data/tenancy";
import { ensureWorkerPolicies, onePair } from "@/data/time-off/worker-policy-rows.data";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import { orGone, preconditionGuard, rowExists } from "@/data/write/precondition-guard";
import { localDate } from "@/domain/accrual";
import { parseDateParam } from "@/domain/local-time";
import { mayAct } from "@/domain/permissions";
import { type HeaderContext, type IfMatch, ifMatchOf, requireVersion, setETag, versionCondition } from "@/platform/http/conditional";
import type { AppBindings, AppRouteHandler } from "@/platform/http/env";
import { keysetPage, pageResult } from "@/platform/http/pagination";
import { forbidden, invalidField } from "@/problems/problem";
import { forbiddenForOthers, policyNotAvailable, requestNotPending } from "@/problems/time-off";
import { planRequest, type RequestInput } from "./request-plan.handlers";
import { findRequest, type RequestReadRow, requestEventData, selectRequests, serializeRequest } from "./request-read.data";
import {
  approveRequest,
  type BalanceAsked,
  balanceGuardProblems,
  cancelPublishedWork,
  cancelRequest,
  datesOf,
  declineRequest,
  freezeGuardProblems,
  insertRequest,
  requestGuardProblems,
  reversalEntry,
  scheduleGuardProblems,
  type TimeOffSpan,
  touchBalance,
  updatePendingRequest,
  usageEntry,
} from "./request-writes.data";
import { mayActOn, workerInScope } from "./self-scope.guards";
import type * as routes from "./time-off-requests.routes";
import { readSettings } from "./time-off-settings.data";

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
async function writeRequest<T extends readonly [Statement, ...Statement[]]>(
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
async function references(
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

async function listRequests(
  c: Context<AppBindings>,
  organization_id: string,
  query: { limit: number; cursor?: string; updatedSince?: string; workerId?: string; startTime?: string; endTime?: string },
  filters: (SQL | undefined)[],
) {
  const workerId = workerInScope(c.var.scope, query.workerId);
  const page = keysetPage(timeOffRequests, { ...query, includeDeleted: false });
  const window = await overlapWindow(c.var.db, organization_id, query.startTime, query.endTime);
  const rows = await selectRequests(
    c.var.db,
    and(
      inOrganization(timeOffRequests, organization_id),
      page.where,
      workerId ? eq(timeOffRequests.workerId, workerId) : undefined,
      query.updatedSince ? gte(timeOffRequests.updatedAt, new Date(query.updatedSince)) : undefined,
      ...window,
      ...filters,
    ),
  )
    .orderBy(page.orderBy)
    .limit(page.limit);
  return pageResult(
    c,
    rows.map((r) => ({ ...r, id: r.request.id })),
    query.limit,
  ).map(serializeRequest);
}

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const query = c.req.valid("query");
  const rows = await listRequests(c, c.req.valid("param").organization_id, query, [
    query.status ? eq(timeOffRequests.status, query.status) : undefined,
    query.policyId ? eq(timeOffRequests.policyId, query.policyId) : undefined,
    query.locationId ? sql`EXISTS (SELECT 1 FROM json_each(s.location_ids) WHERE value = ${query.locationId})` : undefined,
  ]);
  return c.json(rows, 200);
};

/** Operation 9: approved requests overlapping the window, across the organization (a worker sees their own). */
export const timeOffs: AppRouteHandler<routes.TimeOffsRoute> = async (c) => {
  const query = c.req.valid("query");
  const rows = await listRequests(c, c.req.valid("param").organization_id, query, [
    eq(timeOffRequests.status, "approved"),
    query.locationId ? eq(timeOffRequests.locationId, query.locationId) : undefined,
  ]);
  return c.json(rows, 200);
};

export const get: AppRouteHandler<routes.GetRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const row = await findRequest(c.var.db, organization_id, id);
  if (!mayActOn(c.var.scope, row.request.workerId)) throw forbiddenForOthers();
  return c.json(serializeRequest(withETag(c, row)), 200);
};

export const create: AppRouteHandler<routes.CreateRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const body = c.req.valid("json");
  const db = c.var.db;
  const workerId = workerInScope(c.var.scope, body.workerId) ?? c.var.principal.staffMemberId;
  if (!workerId) throw invalidField("workerId", "required: this token acts for no staff member of its own");
  const { policy, settings, locationId } = await references(db, organization_id, { ...body, workerId });
  const plan = planRequest(body as RequestInput, policy.fullDayDuration, settings.settings, settings.timezone, {
    mayExceedFullDay: mayAct(c.var.principal, "TIMEOFF_APPROVE"),
  });
  const subject = { requestId: newId(), workerId, policyId: policy.id, locationId };
  await writeRequest(c.var, organization_id, {
    statements: [
      ensureWorkerPolicies(db, organization_id, onePair(policy.id, workerId)),
      insertRequest(db, organization_id, subject, plan, body.note ?? null, body.isAllDay),
      usageEntry(db, subject.requestId, plan.firstDate),
      touchBalance(db, subject.requestId),
    ],
    event: requestEvent(db, organization_id, subject.requestId, "time_off_request.created"),
    // A policy that needs no approval approves on creation: that is an approval too.
    also: [
      {
        organizationId: organization_id,
        type: "time_off_request.approved",
        read: requestEventData(db, subject.requestId, eq(timeOffRequests.status, "approved")),
        always: true,
      },
    ],
    balance: { policyId: policy.id, workerId, hours: plan.totalHours },
    span: { workerId, start: plan.start, end: plan.end },
    dates: datesOf(plan.hourConfiguration),
  });
  return c.json(serializeRequest(withETag(c, await findRequest(db, organization_id, subject.requestId))), 201);
};

/** The request as the API answers it after the batch, recorded only when the batch's last statement changed a row. */
const requestEvent = (db: Database, organizationId: string, id: string, type: EventType): EventSpec => ({
  organizationId,
  type,
  read: requestEventData(db, id),
});

/** A pending request, or the 404 / 409 REQUEST_NOT_PENDING that explains why a pending-only write touched nothing. */
async function refusal(db: Database, organizationId: string, id: string, ifMatch: IfMatch = { kind: "none" }) {
  const row = await findRequest(db, organizationId, id);
  requireVersion(ifMatch, row.request);
  return requestNotPending(row.request.status);
}

const versionOf = (ifMatch: IfMatch) => versionCondition(timeOffRequests.updatedAt, ifMatch);

/**
 * Fails the batch unless the request is still live, in one of `statuses` and (with If-Match) that version, so a
 * refused write leaves the batch's worker-policy and ledger statements unwritten too.
 */
const requestGuard = (
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

function withETag(c: HeaderContext, row: RequestReadRow) {
  setETag(c, row.request);
  return row;
}

async function ownRequest(c: Context<AppBindings>, organizationId: string, id: string) {
  const row = await findRequest(c.var.db, organizationId, id);
  if (!mayActOn(c.var.scope, row.request.workerId)) throw forbiddenForOthers();
  return row;
}

export const update: AppRouteHandler<routes.UpdateRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const body = c.req.valid("json");
  const db = c.var.db;
  const ifMatch = ifMatchOf(c);
  const current = await ownRequest(c, organization_id, id);
  requireVersion(ifMatch, current.request);
  if (current.request.status !== "pending") throw requestNotPending(current.request.status);
  const workerId = current.request.workerId;
  const { policy, settings, locationId } = await references(db, organization_id, {
    ...body,
    workerId,
    keptLocationId: current.request.locationId,
  });
  const plan = planRequest(body as RequestInput, policy.fullDayDuration, settings.settings, settings.timezone, {
    mayExceedFullDay: mayAct(c.var.principal, "TIMEOFF_APPROVE"),
  });
  const subject = { requestId: id, workerId, policyId: policy.id, locationId };
  await writeRequest(c.var, organization_id, {
    statements: [
      requestGuard(db, organization_id, id, ifMatch, ["pending"]),
      ensureWorkerPolicies(db, organization_id, onePair(policy.id, workerId)),
      updatePendingRequest(db, organization_id, subject, plan, body.note ?? null, body.isAllDay, versionOf(ifMatch)),
      touchBalance(db, id),
    ],
    event: requestEvent(db, organization_id, id, "time_off_request.updated"),
    balance: { policyId: policy.id, workerId, hours: plan.totalHours },
    guarded: { id, ifMatch },
    dates: datesOf(plan.hourConfiguration),
  });
  return c.json(serializeRequest(withETag(c, await findRequest(db, organization_id, id))), 200);
};

export const cancel: AppRouteHandler<routes.CancelRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const db = c.var.db;
  const ifMatch = ifMatchOf(c);
  const current = await ownRequest(c, organization_id, id);
  requireVersion(ifMatch, current.request);
  await writeRequest(c.var, organization_id, {
    statements: [
      requestGuard(db, organization_id, id, ifMatch, ["pending", "approved"]),
      cancelRequest(db, organization_id, id, versionOf(ifMatch)),
      reversalEntry(db, id, localDate(new Date(), current.request.timezone)),
      touchBalance(db, id),
    ],
    event: requestEvent(db, organization_id, id, "time_off_request.cancelled"),
    guarded: { id, ifMatch },
    dates: datesOf(current.request.hourConfiguration),
  });
  return c.json(serializeRequest(withETag(c, await findRequest(db, organization_id, id))), 200);
};

/** The status change and the usage entry in one batch: of two approvals, one changes the status and writes the entry. */
export const approve: AppRouteHandler<routes.ApproveRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const db = c.var.db;
  const current = await findRequest(db, organization_id, id);
  const { policyId, workerId, totalHours, startAt, endAt } = current.request;
  if (c.var.principal.staffMemberId === workerId) throw forbidden("Nobody approves their own time off: another manager decides.");
  const cancel = c.req.valid("json")?.cancelConflictingEntries === true;
  const now = new Date();
  const cancelled = {
    organizationId: organization_id,
    occurredAt: now,
    rows: {
      table: scheduleEntries,
      where: and(eq(scheduleEntries.employeeId, workerId), eq(scheduleEntries.deletedAt, now), eq(scheduleEntries.isDraft, false))!,
      typeOf: sql`${"schedule_entry.deleted" satisfies EventType}`,
    },
  };
  // The shift requests on the entries cancelled end with them (scheduling's shift-request-endings).
  const ended = endRequestsOf(db, {
    organizationId: organization_id,
    entryIds: sql`SELECT id FROM schedule_entries WHERE employee_id = ${workerId} AND deleted_at = ${now.getTime()} AND is_draft = 0`,
    reason: "ENTRY_DELETED",
    now,
  });
  const approval = [
    approveRequest(db, organization_id, id),
    touchBalance(db, id, { ifPreviousChanged: true }),
    usageEntry(db, id, current.request.hourConfiguration[0]?.date ?? ""),
  ] as const;
  const written = await writeRequest(c.var, organization_id, {
    // The entries a manager cancels first, while the request is pending; the usage entry last: it changes a row only
    // when this approval did, which is what the event looks at.
    statements: cancel ? [cancelPublishedWork(db, id, now), ended.statement, ...approval] : approval,
    event: requestEvent(db, organization_id, id, "time_off_request.approved"),
    also: cancel ? [cancelled, ended.event] : undefined,
    balance: { policyId, workerId, hours: totalHours },
    span: { workerId, start: startAt, end: endAt },
    dates: datesOf(current.request.hourConfiguration),
  });
  const approved = written[cancel ? 2 : 0] as { id: string }[];
  if (approved.length === 0) {
    const now = await findRequest(db, organization_id, id);
    throw now.request.status === "pending" && now.policy.status !== "Active" ? policyNotAvailable() : requestNotPending(now.request.status);
  }
  return c.json(serializeRequest(withETag(c, await findRequest(db, organization_id, id))), 200);
};

export const decline: AppRouteHandler<routes.DeclineRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const db = c.var.db;
  const [declined] = await writeRequest(c.var, organization_id, {
    statements: [declineRequest(db, organization_id, id, c.req.valid("json")?.reason ?? null)],
    event: requestEvent(db, organization_id, id, "time_off_request.declined"),
  });
  if (declined.length === 0) throw await refusal(db, organization_id, id);
  return c.json(serializeRequest(withETag(c, await findRequest(db, organization_id, id))), 200);
};
