import type { Context } from "hono";
import { newId } from "@/data/ids";
import { ensureWorkerPolicies, onePair } from "@/data/time-off/worker-policy-rows.data";
import { localDate } from "@/domain/accrual";
import { mayAct } from "@/domain/permissions";
import { requestNow } from "@/platform/http/clock";
import { type HeaderContext, ifMatchOf, requireVersion, setETag } from "@/platform/http/conditional";
import type { AppBindings, AppRouteHandler } from "@/platform/http/env";
import { pageResult } from "@/platform/http/pagination";
import { forbidden, invalidField } from "@/problems/problem";
import { forbiddenForOthers, policyNotAvailable, requestNotPending } from "@/problems/time-off";
import { planRequest, type RequestInput } from "./request-plan.handlers";
import { findRequest, type RequestReadRow, serializeRequest } from "./request-read.data";
import {
  approveRequest,
  cancelRequest,
  datesOf,
  declineRequest,
  insertRequest,
  reversalEntry,
  touchBalance,
  updatePendingRequest,
  usageEntry,
} from "./request-writes.data";
import { mayActOn, workerInScope } from "./self-scope.guards";
import {
  approvedOnCreation,
  cancellingConflicts,
  type RequestFilters,
  references,
  refusal,
  requestEvent,
  requestGuard,
  requestsPage,
  versionOf,
  writeRequest,
} from "./time-off-requests.data";
import type * as routes from "./time-off-requests.routes";

/** A page of requests as the API answers them: the caller's own unless they may see others'. */
async function listRequests(
  c: Parameters<AppRouteHandler<routes.ListRoute | routes.TimeOffsRoute>>[0],
  query: { limit: number; cursor?: string; updatedSince?: string; workerId?: string; startTime?: string; endTime?: string },
  filters: RequestFilters,
) {
  const workerId = workerInScope(c.var.scope, query.workerId);
  const rows = await requestsPage(c.var.db, c.req.valid("param").organization_id, workerId, query, filters);
  return pageResult(
    c,
    rows.map((r) => ({ ...r, id: r.request.id })),
    query.limit,
  ).map(serializeRequest);
}

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const query = c.req.valid("query");
  const { status, policyId, locationId } = query;
  const rows = await listRequests(c, query, { status, policyId, workerLocationId: locationId });
  return c.json(rows, 200);
};

/** Operation 9: approved requests overlapping the window, across the organization (a worker sees their own). */
export const timeOffs: AppRouteHandler<routes.TimeOffsRoute> = async (c) => {
  const query = c.req.valid("query");
  const rows = await listRequests(c, query, { status: "approved", locationId: query.locationId });
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
  const now = await requestNow(c);
  const plan = planRequest(body as RequestInput, policy.fullDayDuration, settings.settings, settings.timezone, {
    mayExceedFullDay: mayAct(c.var.principal, "TIMEOFF_APPROVE"),
    now,
  });
  const subject = { requestId: newId(), workerId, policyId: policy.id, locationId };
  await writeRequest(c.var, organization_id, {
    statements: [
      ensureWorkerPolicies(db, organization_id, onePair(policy.id, workerId), now.getTime()),
      insertRequest(db, organization_id, subject, plan, body.note ?? null, body.isAllDay, now.getTime()),
      usageEntry(db, subject.requestId, plan.firstDate, now.getTime()),
      touchBalance(db, subject.requestId, { now: now.getTime() }),
    ],
    event: requestEvent(db, organization_id, subject.requestId, "time_off_request.created"),
    // A policy that needs no approval approves on creation: that is an approval too.
    also: [approvedOnCreation(db, organization_id, subject.requestId)],
    balance: { policyId: policy.id, workerId, hours: plan.totalHours },
    span: { workerId, start: plan.start, end: plan.end },
    dates: datesOf(plan.hourConfiguration),
  });
  return c.json(serializeRequest(withETag(c, await findRequest(db, organization_id, subject.requestId))), 201);
};

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
  const now = await requestNow(c);
  const plan = planRequest(body as RequestInput, policy.fullDayDuration, settings.settings, settings.timezone, {
    mayExceedFullDay: mayAct(c.var.principal, "TIMEOFF_APPROVE"),
    now,
  });
  const subject = { requestId: id, workerId, policyId: policy.id, locationId };
  await writeRequest(c.var, organization_id, {
    statements: [
      requestGuard(db, organization_id, id, ifMatch, ["pending"]),
      ensureWorkerPolicies(db, organization_id, onePair(policy.id, workerId), now.getTime()),
      updatePendingRequest(db, organization_id, subject, plan, body.note ?? null, body.isAllDay, versionOf(ifMatch), now.getTime()),
      touchBalance(db, id, { now: now.getTime() }),
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
  const now = await requestNow(c);
  await writeRequest(c.var, organization_id, {
    statements: [
      requestGuard(db, organization_id, id, ifMatch, ["pending", "approved"]),
      cancelRequest(db, organization_id, id, versionOf(ifMatch), now.getTime()),
      reversalEntry(db, id, localDate(now, current.request.timezone), now.getTime()),
      touchBalance(db, id, { now: now.getTime() }),
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
  const now = await requestNow(c);
  const conflicts = cancel ? cancellingConflicts(db, organization_id, id, workerId, now) : undefined;
  const approval = [
    approveRequest(db, organization_id, id, now.getTime()),
    touchBalance(db, id, { ifPreviousChanged: true, now: now.getTime() }),
    usageEntry(db, id, current.request.hourConfiguration[0]?.date ?? "", now.getTime()),
  ] as const;
  const written = await writeRequest(c.var, organization_id, {
    // The entries a manager cancels first, while the request is pending; the usage entry last: it changes a row only
    // when this approval did, which is what the event looks at.
    statements: conflicts ? [...conflicts.statements, ...approval] : approval,
    event: requestEvent(db, organization_id, id, "time_off_request.approved"),
    also: conflicts?.events,
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
    statements: [declineRequest(db, organization_id, id, c.req.valid("json")?.reason ?? null, (await requestNow(c)).getTime())],
    event: requestEvent(db, organization_id, id, "time_off_request.declined"),
  });
  if (declined.length === 0) throw await refusal(db, organization_id, id);
  return c.json(serializeRequest(withETag(c, await findRequest(db, organization_id, id))), 200);
};
