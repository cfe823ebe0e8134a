import { z } from "@hono/zod-openapi";
import { authorize } from "@/auth/authorize";
import { MAX_REQUEST_DAYS } from "@/domain/hour-configuration";
import { conditionalGet } from "@/platform/http/conditional";
import {
  IfMatchHeaders,
  IfNoneMatchHeaders,
  jsonBody,
  jsonContent,
  notModified,
  OrganizationParams,
  problems,
  problemWith,
  withETag,
} from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import type { ProblemCode } from "@/problems/codes";
import { ProblemSchema } from "@/problems/problem";
import {
  ApproveBody,
  DeclineBody,
  RequestListQuery,
  RequestParams,
  TimeOffRequest,
  TimeOffRequestCreate,
  TimeOffRequestUpdate,
  TimeOffsQuery,
} from "./time-off-requests.schemas";

const tags = ["Time off"];
const path = "/api/organizations/{organization_id}/time-off-requests";
const self = "A caller without the permission acts only on their own requests.";

const frozenNote =
  "A request taking hours on a date a closed pay period froze (every date of every workweek overlapping it, in " +
  "any period: paid time off counts in its pay) is 409 `PAY_PERIOD_CLOSED` naming `periodId`, and nothing is " +
  "written: reopen the period first.";

const BalanceProblem = ProblemSchema.extend({
  requestedHours: z.number().optional(),
  availableHours: z.number().optional(),
}).openapi("TimeOffProblem", {
  description:
    "409 POLICY_NOT_AVAILABLE, INSUFFICIENT_BALANCE (with requestedHours and availableHours), TIME_OFF_OVERLAP or REQUEST_NOT_PENDING",
});

const conflicts = (...codes: ProblemCode[]) => ({ 409: problemWith(409, BalanceProblem, undefined, codes) });

export const list = defineRoute({
  method: "get",
  path,
  operationId: "listTimeOffRequests",
  flags: { scope: "organization", list: true },
  tags,
  summary: "List time-off requests",
  description: `Filters combine; startTime/endTime select requests overlapping the window. ${self}`,
  middleware: [authorize("TIMEOFF_READ", { asThemself: true })] as const,
  request: { params: OrganizationParams, query: RequestListQuery },
  responses: { 200: jsonContent(z.array(TimeOffRequest), "Requests"), ...problems() },
});

export const timeOffs = defineRoute({
  method: "get",
  path: `${path}/time-offs`,
  operationId: "listTimeOffs",
  flags: { scope: "organization", list: true },
  tags,
  summary: "List Time-Offs",
  description: `Approved requests overlapping the window, as a bare array. ${self}`,
  middleware: [authorize("TIMEOFF_READ", { asThemself: true })] as const,
  request: { params: OrganizationParams, query: TimeOffsQuery },
  responses: { 200: jsonContent(z.array(TimeOffRequest), "Approved time off"), ...problems() },
});

export const get = defineRoute({
  method: "get",
  path: `${path}/{id}`,
  operationId: "getTimeOffRequest",
  flags: { scope: "organization" },
  tags,
  summary: "Get Time-Off Request",
  description: self,
  middleware: [authorize("TIMEOFF_READ", { asThemself: true }), conditionalGet] as const,
  request: { params: RequestParams, headers: IfNoneMatchHeaders },
  responses: { 200: withETag(jsonContent(TimeOffRequest, "The request")), ...notModified, ...problems("TIME_OFF_REQUEST_NOT_FOUND") },
});

export const create = defineRoute({
  method: "post",
  path,
  operationId: "createTimeOffRequest",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Create a time off request",
  description:
    "Pending, or approved at once (with its usage entry) when the policy does not require approval. The balance " +
    `check and the write are one statement. A window longer than ${MAX_REQUEST_DAYS} days (of 24 hours) is a 400 naming ` +
    `endTime. A request its policy would approve at once over the worker's published schedule is 409 ` +
    `SCHEDULE_CONFLICT naming the entries: a worker does not cancel a manager's schedule; a manager approves it. ` +
    `${frozenNote} ${self}`,
  middleware: [authorize("TIMEOFF_WRITE", { asThemself: true })] as const,
  request: { params: OrganizationParams, body: jsonBody(TimeOffRequestCreate) },
  responses: {
    201: withETag(jsonContent(TimeOffRequest, "The request")),
    ...problems(),
    ...conflicts("POLICY_NOT_AVAILABLE", "INSUFFICIENT_BALANCE", "TIME_OFF_OVERLAP", "SCHEDULE_CONFLICT", "PAY_PERIOD_CLOSED"),
  },
});

export const update = defineRoute({
  method: "put",
  path: `${path}/{id}`,
  operationId: "updateTimeOffRequest",
  flags: { scope: "organization" },
  tags,
  summary: "Update Time-Off Request",
  description:
    `Rewrites a pending request under the same checks as creation (a window of at most ${MAX_REQUEST_DAYS} days). ` +
    `${frozenNote} ${self}`,
  middleware: [authorize("TIMEOFF_WRITE", { asThemself: true })] as const,
  request: { params: RequestParams, body: jsonBody(TimeOffRequestUpdate), headers: IfMatchHeaders },
  responses: {
    200: withETag(jsonContent(TimeOffRequest, "The request")),
    ...problems("TIME_OFF_REQUEST_NOT_FOUND", "PRECONDITION_FAILED"),
    ...conflicts("POLICY_NOT_AVAILABLE", "INSUFFICIENT_BALANCE", "TIME_OFF_OVERLAP", "REQUEST_NOT_PENDING", "PAY_PERIOD_CLOSED"),
  },
});

export const cancel = defineRoute({
  method: "delete",
  path: `${path}/{id}`,
  operationId: "deleteTimeOffRequest",
  flags: { scope: "organization" },
  tags,
  summary: "Delete Time-Off Request",
  description:
    "Cancels a pending or approved request; an approved one's usage is given back by a reversal entry. A request " +
    "with hours on a date a closed pay period froze is 409 `PAY_PERIOD_CLOSED` naming `periodId`: reopen it " +
    `first. ${self}`,
  middleware: [authorize("TIMEOFF_WRITE", { asThemself: true })] as const,
  request: { params: RequestParams, headers: IfMatchHeaders },
  responses: {
    200: withETag(jsonContent(TimeOffRequest, "The cancelled request")),
    ...problems("TIME_OFF_REQUEST_NOT_FOUND", "PRECONDITION_FAILED"),
    ...conflicts("REQUEST_NOT_PENDING", "PAY_PERIOD_CLOSED"),
  },
});

export const approve = defineRoute({
  method: "post",
  path: `${path}/{id}/approve`,
  operationId: "approveTimeOffRequest",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Approve Time-Off Request",
  description:
    "The status change and the usage entry are one batch; the balance is checked again in it. Nobody approves their " +
    "own time off (403), whatever their permissions: another manager, or an organization token acting for the " +
    "organization, decides. A request is approved only while its policy is Active (409 POLICY_NOT_AVAILABLE on a " +
    "Draft or Inactive one, as for new requests): reactivate the policy, or decline. Time off over the worker's " +
    "published schedule is 409 SCHEDULE_CONFLICT naming the entries (`scheduleEntryIds`), unless the body says " +
    "`cancelConflictingEntries: true`: the approval then removes them in its own batch (a schedule_entry.deleted event " +
    "each), and ends the live shift requests naming them (CANCELLED with cancelReason ENTRY_DELETED, a " +
    "shift_request.cancelled event each). Drafts are left alone: publishing skips those on time off. A request with " +
    "hours on a date a closed pay period froze (every date of every workweek overlapping it) is 409 " +
    "`PAY_PERIOD_CLOSED` naming `periodId`.",
  middleware: [authorize("TIMEOFF_APPROVE")] as const,
  request: { params: RequestParams, body: { ...jsonBody(ApproveBody), required: false } },
  responses: {
    200: withETag(jsonContent(TimeOffRequest, "The approved request")),
    ...problems("TIME_OFF_REQUEST_NOT_FOUND"),
    ...conflicts("INSUFFICIENT_BALANCE", "REQUEST_NOT_PENDING", "POLICY_NOT_AVAILABLE", "SCHEDULE_CONFLICT", "PAY_PERIOD_CLOSED"),
  },
});

export const decline = defineRoute({
  method: "post",
  path: `${path}/{id}/decline`,
  operationId: "declineTimeOffRequest",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Decline Time-Off Request",
  description: "Pending → declined, with an optional reason; any other status is 409 `REQUEST_NOT_PENDING`.",
  middleware: [authorize("TIMEOFF_APPROVE")] as const,
  request: { params: RequestParams, body: { ...jsonBody(DeclineBody), required: false } },
  responses: {
    200: withETag(jsonContent(TimeOffRequest, "The declined request")),
    ...problems("TIME_OFF_REQUEST_NOT_FOUND"),
    ...conflicts("REQUEST_NOT_PENDING"),
  },
});

export type ListRoute = typeof list;
export type TimeOffsRoute = typeof timeOffs;
export type GetRoute = typeof get;
export type CreateRoute = typeof create;
export type UpdateRoute = typeof update;
export type CancelRoute = typeof cancel;
export type ApproveRoute = typeof approve;
export type DeclineRoute = typeof decline;
