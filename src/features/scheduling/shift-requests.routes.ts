import { z } from "@hono/zod-openapi";
import { authorize } from "@/auth/authorize";
import { jsonBody, jsonContent, problems } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import { LocationParams } from "./schedules.schemas";
import { ShiftRequest, ShiftRequestApprove, ShiftRequestCreate, ShiftRequestListQuery, ShiftRequestParams } from "./shift-requests.schemas";

const tags = ["Shift requests"];
const path = "/api/organizations/{organizationId}/locations/{locationId}/shift-requests";
const selfOrManager = authorize("SCHEDULE_WRITE", { asThemself: true });
const manager = authorize("SCHEDULE_WRITE");
const visibility =
  " A staff member without SCHEDULE_WRITE sees their own requests, those naming them and open drops at their own " +
  "locations (others are 404).";
const stateNote =
  " A request that is not in the state the action needs (or whose entry has started: EXPIRED) is 409 " +
  "`SHIFT_REQUEST_NOT_PENDING`. A request is about its entries as they were when it was made: a change of either " +
  "entry's time or worker, or its deletion (schedule PATCH or DELETE, time off approved with " +
  "cancelConflictingEntries, another request's approval) cancels it in that change's own batch (`cancelReason`, a " +
  "`shift_request.cancelled` event), so GET never shows a status the actions contradict.";

export const list = defineRoute({
  method: "get",
  path,
  operationId: "listShiftRequests",
  flags: { scope: "organization", list: true },
  tags,
  summary: "List shift requests",
  description:
    "The location's drop and swap requests, newest first (by creation, then id), optionally by `status` (as the " +
    "request reads: `EXPIRED` finds live requests whose entry has started, `PENDING` and `ACCEPTED` only those " +
    'that have not). Paged like every list: `limit` (1–500, default 100) and `cursor`, with `Link: <…>; rel="next"` ' +
    `while more remain; every request is reachable, none is cut off.${visibility}`,
  middleware: [selfOrManager] as const,
  request: { params: LocationParams, query: ShiftRequestListQuery },
  responses: { 200: jsonContent(z.array(ShiftRequest), "The requests"), ...problems("LOCATION_NOT_FOUND") },
});

export const create = defineRoute({
  method: "post",
  path,
  operationId: "createShiftRequest",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Request a drop or a swap",
  description:
    "By the entry's worker (or a manager): a DROP gives a published entry that has not started to `targetEmployeeId`, " +
    "or without one to any colleague at the location who accepts; a SWAP names the colleague and optionally the " +
    "entry of theirs given back. The request expires when the entry (or the entry given back, if it starts earlier) " +
    "starts, and ends (CANCELLED, `cancelReason`) when either entry's time or worker changes or it is deleted. An " +
    "entry holds one live request at a time (409 `SHIFT_REQUEST_EXISTS`); a draft, a started entry, an unknown one, " +
    "an unknown target, or an entry that changed while the request was being made (checked by its insert) is 400 " +
    "naming the field." +
    visibility,
  middleware: [selfOrManager] as const,
  request: { params: LocationParams, body: jsonBody(ShiftRequestCreate) },
  responses: { 201: jsonContent(ShiftRequest, "The created request"), ...problems("LOCATION_NOT_FOUND", "SHIFT_REQUEST_EXISTS") },
});

export const getOne = defineRoute({
  method: "get",
  path: `${path}/{id}`,
  operationId: "getShiftRequest",
  flags: { scope: "organization" },
  tags,
  summary: "Retrieve a shift request",
  description: `One request.${visibility}`,
  middleware: [selfOrManager] as const,
  request: { params: ShiftRequestParams },
  responses: { 200: jsonContent(ShiftRequest, "The request"), ...problems("LOCATION_NOT_FOUND", "SHIFT_REQUEST_NOT_FOUND") },
});

const actionCodes = [
  "LOCATION_NOT_FOUND",
  "SHIFT_REQUEST_NOT_FOUND",
  "SHIFT_REQUEST_NOT_PENDING",
  "SCHEDULE_OVERLAP",
  "TIME_OFF_CONFLICT",
  "WORKER_UNAVAILABLE",
] as const;

const action = (name: "accept" | "decline" | "cancel", summary: string, description: string, who: typeof manager) =>
  defineRoute({
    method: "post",
    path: `${path}/{id}/${name}`,
    operationId: `${name}ShiftRequest`,
    flags: { scope: "organization", idempotency: "middleware" },
    tags,
    summary,
    description: description + stateNote,
    middleware: [who] as const,
    request: { params: ShiftRequestParams },
    responses: { 200: jsonContent(ShiftRequest, "The request"), ...problems(...actionCodes) },
  });

export const accept = action(
  "accept",
  "Accept a shift request",
  "PENDING → ACCEPTED, by the target, or for an open drop by any active colleague at the location other than the " +
    "requester, while its entries are live and have not started (checked by the write itself). Of two colleagues " +
    "accepting one drop at once, one is 200 and the other 409.",
  selfOrManager,
);
export const approve = defineRoute({
  method: "post",
  path: `${path}/{id}/approve`,
  operationId: "approveShiftRequest",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Approve a shift request",
  description:
    "ACCEPTED → APPROVED (SCHEDULE_WRITE): the entry goes to the acceptor (and a swap's entry given back to the " +
    "requester) in the same atomic batch, each re-checked for overlap (409 `SCHEDULE_OVERLAP`), approved time off " +
    "(409 `TIME_OFF_CONFLICT`) and availability (409 `WORKER_UNAVAILABLE`); a refusal writes nothing. Both entries " +
    "must be live, still with their workers, and not started (else 409 `SHIFT_REQUEST_NOT_PENDING`). The other live " +
    "requests naming either entry end in the same batch (CANCELLED, cancelReason ENTRY_CHANGED). Nobody " +
    "approves a request they made or accepted (403), whatever their permissions: another manager, or an " +
    "organization token, decides. Working time: at a location with a working-time pack each entry is judged as its " +
    "new worker's, with their published entries and worked shifts, as a schedule write is (rest, daily and weekly " +
    "maximums, a minor's hours): 409 `WORKING_TIME_CONFLICT` listing the `violations`, nothing written, unless the " +
    "optional body carries `workingTimeOverride: {reason}` from a caller with WORKING_TIME_OVERRIDE (403 without it); " +
    "each entry then keeps the reason, the caller and its own violations in `workingTimeOverride`, which its " +
    "`schedule_entry.updated` event carries. A worker's published time changed between the check and the write is " +
    "409 `WORKING_TIME_CONFLICT` too (judged again): retry." +
    stateNote,
  middleware: [manager] as const,
  request: { params: ShiftRequestParams, body: { ...jsonBody(ShiftRequestApprove), required: false } },
  responses: { 200: jsonContent(ShiftRequest, "The request"), ...problems(...actionCodes, "WORKING_TIME_CONFLICT") },
});
export const decline = action("decline", "Decline a shift request", "PENDING or ACCEPTED → DECLINED (SCHEDULE_WRITE).", manager);
export const cancel = action(
  "cancel",
  "Cancel a shift request",
  "PENDING or ACCEPTED → CANCELLED, by the requester (cancelReason REQUESTER_CANCELLED) or a manager " + "(MANAGER_CANCELLED).",
  selfOrManager,
);

export type ListRoute = typeof list;
export type CreateRoute = typeof create;
export type GetOneRoute = typeof getOne;
export type ActionRoute = typeof accept;
export type ApproveRoute = typeof approve;
