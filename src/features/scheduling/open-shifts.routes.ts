import { z } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import { authorize } from "@/auth/authorize";
import { conditionalGet } from "@/platform/http/conditional";
import type { AppBindings } from "@/platform/http/env";
import { IfMatchHeaders, IfNoneMatchHeaders, jsonBody, jsonContent, notModified, problems, withETag } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import {
  BulkAssignBody,
  ClaimBody,
  OpenShift,
  OpenShiftCreate,
  OpenShiftListQuery,
  OpenShiftParams,
  OpenShiftPatch,
  Preference,
  PreferenceCreate,
  PreferenceParams,
  PreferencePatch,
  WorkerBody,
} from "./open-shifts.schemas";
import { LocationParams } from "./schedules.schemas";

const conditional = createMiddleware<AppBindings>((c, next) => conditionalGet(c, next));
const tags = ["Open shifts"];
const path = "/api/organizations/{organizationId}/locations/{locationId}/open-shifts";
const read = authorize("SCHEDULE_READ", { asThemself: true });
const write = authorize("SCHEDULE_WRITE");
const selfWrite = authorize("SCHEDULE_WRITE", { asThemself: true });
const selfNote =
  " A staff member without the permission acts for themself only (workerId omitted or their own): on published open " +
  "shifts of their own locations, seeing only their own preferences.";
const claimCodes =
  " 409 `OPEN_SHIFT_NOT_PUBLISHED` (a draft), `WORKER_NOT_ASSIGNED` (not active and assigned to the location), " +
  "`ALREADY_CLAIMED` (a live claim or preference exists), `SCHEDULE_OVERLAP`, `TIME_OFF_CONFLICT`, `WORKER_UNAVAILABLE` " +
  "(an UNAVAILABLE occurrence of the worker's availability overlaps the shift).";

const workingTimeNote =
  " Working time: on a published open shift at a location with a working-time pack, each entry an approval creates " +
  "is judged with its worker's published entries and worked shifts as a schedule create is (rest, daily and weekly " +
  "maximums, a minor's hours): 409 `WORKING_TIME_CONFLICT` listing the `violations`, nothing written, unless the body " +
  "carries `workingTimeOverride: {reason}` from a caller with WORKING_TIME_OVERRIDE (403 without it), the entry then " +
  "keeping it. A worker's published time changed between the check and the write is 409 `WORKING_TIME_CONFLICT` too " +
  "(judged again): retry. A draft assignment (on a draft open shift) is judged when the publish applies it " +
  "(POST …/schedules/publish), with the publish's drafts.";

const frozenNote =
  " An approval whose entry would fall on a date a closed pay period froze (any minute of the open shift, in its " +
  "local dates) is 409 `PAY_PERIOD_CLOSED` naming `periodId`, and nothing is written: its Fair Workweek premium " +
  "would change the closed period's pay.";

export const list = defineRoute({
  method: "get",
  path,
  operationId: "listOpenShifts",
  flags: { scope: "organization", list: true },
  tags,
  summary: "List open shifts",
  description:
    "A bare array of the location's open shifts starting in [startDate, endDate] (local dates, inclusive, or ISO " +
    'instants), keyset-paged by id with `limit`/`cursor` and `Link: rel="next"`. `breaks` is an array of ids and ' +
    "`utcOffset` a number. Needs SCHEDULE_READ; staff without it see the published open shifts of their own locations.",
  middleware: [read] as const,
  request: { params: LocationParams, query: OpenShiftListQuery },
  responses: { 200: jsonContent(z.array(OpenShift), "A page of open shifts"), ...problems("LOCATION_NOT_FOUND") },
});

export const getOne = defineRoute({
  method: "get",
  path: `${path}/{id}`,
  operationId: "getOpenShift",
  flags: { scope: "organization" },
  tags,
  summary: "Get details for an open shift",
  description: `The open shift with its preferences and draft assignments, and its ETag.${selfNote}`,
  middleware: [read, conditional] as const,
  request: { params: OpenShiftParams, headers: IfNoneMatchHeaders },
  responses: {
    200: withETag(jsonContent(OpenShift, "The open shift")),
    ...notModified,
    ...problems("LOCATION_NOT_FOUND", "OPEN_SHIFT_NOT_FOUND"),
  },
});

export const create = defineRoute({
  method: "post",
  path,
  operationId: "createOpenShift",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Create open shift",
  description:
    "A draft (`isDraft: true`) unless `publish` is true. `breaks` is an array of break type ids of the location or a " +
    "JSON-encoded string of one; `utcOffset` a number or an integer string; startDate/endDate local wall-clock times " +
    "with Z (read in `timezone`, default the location's, when utcOffset is omitted). `roleName` names an existing role " +
    "or creates it. Answers the whole open shift.",
  middleware: [write] as const,
  request: { params: LocationParams, body: jsonBody(OpenShiftCreate) },
  responses: { 201: jsonContent(OpenShift, "The created open shift"), ...problems("LOCATION_NOT_FOUND") },
});

export const patch = defineRoute({
  method: "patch",
  path: `${path}/{id}`,
  operationId: "updateOpenShift",
  flags: { scope: "organization" },
  tags,
  summary: "Update open shift",
  description:
    "Changes only the named fields. Fewer places than already approved is 409 `OPEN_SHIFT_FULL`. Schedule entries " +
    "already created by approvals keep their times: edit them under /schedules.",
  middleware: [write] as const,
  request: { params: OpenShiftParams, body: jsonBody(OpenShiftPatch), headers: IfMatchHeaders },
  responses: {
    200: withETag(jsonContent(OpenShift, "The updated open shift")),
    ...problems("LOCATION_NOT_FOUND", "OPEN_SHIFT_NOT_FOUND", "OPEN_SHIFT_FULL", "PRECONDITION_FAILED"),
  },
});

export const remove = defineRoute({
  method: "delete",
  path: `${path}/{id}`,
  operationId: "deleteOpenShift",
  flags: { scope: "organization" },
  tags,
  summary: "Remove open shift",
  description: "Soft delete; schedule entries its approvals created stay.",
  middleware: [write] as const,
  request: { params: OpenShiftParams, headers: IfMatchHeaders },
  responses: {
    200: withETag(jsonContent(OpenShift, "The removed open shift")),
    ...problems("LOCATION_NOT_FOUND", "OPEN_SHIFT_NOT_FOUND", "PRECONDITION_FAILED"),
  },
});

export const claim = defineRoute({
  method: "post",
  path: `${path}/{id}/claim`,
  operationId: "claimOpenShift",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Claim open shift",
  description:
    "A PREFERRED claim. Without `requireApproval` it is APPROVED at once while places remain, with a published schedule " +
    "entry (`scheduleShiftId`); capacity is checked by the approving statement itself, so concurrent claims never " +
    "exceed `staffCountRequired` (409 `OPEN_SHIFT_FULL`). With it, the claim stays PENDING until a manager assigns or " +
    "declines it (a PENDING claim is judged by the working-time rules when assigned)." +
    claimCodes +
    selfNote +
    frozenNote +
    workingTimeNote,
  middleware: [selfWrite] as const,
  request: { params: OpenShiftParams, body: jsonBody(ClaimBody) },
  responses: {
    201: jsonContent(Preference, "The claim"),
    ...problems(
      "PAY_PERIOD_CLOSED",
      "LOCATION_NOT_FOUND",
      "OPEN_SHIFT_NOT_FOUND",
      "OPEN_SHIFT_NOT_PUBLISHED",
      "WORKER_NOT_ASSIGNED",
      "ALREADY_CLAIMED",
      "OPEN_SHIFT_FULL",
      "SCHEDULE_OVERLAP",
      "TIME_OFF_CONFLICT",
      "WORKER_UNAVAILABLE",
      "PREFERENCE_NOT_PENDING",
      "WORKING_TIME_CONFLICT",
    ),
  },
});

export const retract = defineRoute({
  method: "post",
  path: `${path}/{id}/retract`,
  operationId: "retractOpenShiftClaim",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Retract open shift submission",
  description: `The worker's PENDING claim or preference becomes RETRACTED; none pending is 409 \`PREFERENCE_NOT_PENDING\`, and a \`workerId\` that is no staff member of the organization is 400 naming it.${selfNote}`,
  middleware: [selfWrite] as const,
  request: { params: OpenShiftParams, body: jsonBody(WorkerBody) },
  responses: {
    200: jsonContent(Preference, "The retracted claim"),
    ...problems("LOCATION_NOT_FOUND", "OPEN_SHIFT_NOT_FOUND", "PREFERENCE_NOT_PENDING"),
  },
});

export const createPreference = defineRoute({
  method: "post",
  path: `${path}/{id}/preferences`,
  operationId: "createOpenShiftPreference",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Create open shift preference",
  description: `A PENDING PREFERRED or NOT_PREFERRED preference; managers may state one on a draft open shift.${claimCodes}${selfNote}`,
  middleware: [selfWrite] as const,
  request: { params: OpenShiftParams, body: jsonBody(PreferenceCreate) },
  responses: {
    201: jsonContent(Preference, "The preference"),
    ...problems(
      "LOCATION_NOT_FOUND",
      "OPEN_SHIFT_NOT_FOUND",
      "WORKER_NOT_ASSIGNED",
      "ALREADY_CLAIMED",
      "SCHEDULE_OVERLAP",
      "TIME_OFF_CONFLICT",
      "WORKER_UNAVAILABLE",
    ),
  },
});

export const bulkAssign = defineRoute({
  method: "post",
  path: `${path}/{id}/preferences/bulk-assign`,
  operationId: "bulkAssignOpenShiftPreferences",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Bulk assign or accept open shift preferences",
  description:
    "Assigns every named PENDING preference in one atomic batch, or none: more than the places left is 409 " +
    "`OPEN_SHIFT_FULL`, one not pending 409 `PREFERENCE_NOT_PENDING`, one overlapping its worker's schedule 409 " +
    "`SCHEDULE_OVERLAP`, one on an UNAVAILABLE occurrence of its worker's availability 409 `WORKER_UNAVAILABLE` " +
    "(unless `ignoreAvailability`). On a draft open shift they become draft assignments (`draftPreferences`), " +
    "applied at publish." +
    frozenNote +
    workingTimeNote +
    " The assigned workers' entries are judged together; one override covers them all.",
  middleware: [write] as const,
  request: { params: OpenShiftParams, body: jsonBody(BulkAssignBody) },
  responses: {
    200: jsonContent(z.array(Preference), "The assigned preferences"),
    ...problems(
      "PAY_PERIOD_CLOSED",
      "OPEN_SHIFT_NOT_FOUND",
      "PREFERENCE_NOT_FOUND",
      "PREFERENCE_NOT_PENDING",
      "OPEN_SHIFT_FULL",
      "SCHEDULE_OVERLAP",
      "TIME_OFF_CONFLICT",
      "WORKER_UNAVAILABLE",
      "OPEN_SHIFT_CHANGED",
      "WORKING_TIME_CONFLICT",
    ),
  },
});

export const retractPreference = defineRoute({
  method: "post",
  path: `${path}/{id}/preferences/{preferenceId}/retract`,
  operationId: "retractOpenShiftPreference",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Retract open shift preference",
  description: `PENDING → RETRACTED, by its worker or a manager; otherwise 409 \`PREFERENCE_NOT_PENDING\`.${selfNote}`,
  middleware: [selfWrite] as const,
  request: { params: PreferenceParams },
  responses: {
    200: jsonContent(Preference, "The retracted preference"),
    ...problems("LOCATION_NOT_FOUND", "OPEN_SHIFT_NOT_FOUND", "PREFERENCE_NOT_FOUND", "PREFERENCE_NOT_PENDING"),
  },
});

export const patchPreference = defineRoute({
  method: "patch",
  path: `${path}/{id}/preferences/{preferenceId}`,
  operationId: "updateOpenShiftPreference",
  flags: { scope: "organization" },
  tags,
  summary: "Update open shift preference",
  description: `Changes \`preference\` while PENDING; otherwise 409 \`PREFERENCE_NOT_PENDING\`.${selfNote}`,
  middleware: [selfWrite] as const,
  request: { params: PreferenceParams, body: jsonBody(PreferencePatch) },
  responses: {
    200: jsonContent(Preference, "The updated preference"),
    ...problems("LOCATION_NOT_FOUND", "OPEN_SHIFT_NOT_FOUND", "PREFERENCE_NOT_FOUND", "PREFERENCE_NOT_PENDING"),
  },
});

export const removePreference = defineRoute({
  method: "patch",
  path: `${path}/{id}/preferences/{preferenceId}/remove`,
  operationId: "removeOpenShiftPreference",
  flags: { scope: "organization" },
  tags,
  summary: "Remove open shift preference",
  description:
    "A manager declines a PENDING preference (DECLINED) or withdraws a draft assignment; otherwise 409 `PREFERENCE_NOT_PENDING`.",
  middleware: [write] as const,
  request: { params: PreferenceParams },
  responses: {
    200: jsonContent(Preference, "The declined preference"),
    ...problems("OPEN_SHIFT_NOT_FOUND", "PREFERENCE_NOT_FOUND", "PREFERENCE_NOT_PENDING"),
  },
});

export const assign = defineRoute({
  method: "post",
  path: `${path}/{id}/preferences/{preferenceId}/assign`,
  operationId: "assignOpenShiftPreference",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Assign or accept open shift preference",
  description:
    "PENDING → APPROVED with a published schedule entry (`scheduleShiftId`); on a draft open shift, a draft assignment " +
    "applied at publish. 409 `OPEN_SHIFT_FULL` when no place remains, `PREFERENCE_NOT_PENDING`, `SCHEDULE_OVERLAP`." +
    frozenNote +
    " Working time: on a published open shift at a location with a working-time pack, the entry is judged with its " +
    "worker's published entries and worked shifts as a schedule create is: 409 `WORKING_TIME_CONFLICT` listing the " +
    "`violations`, nothing written (this operation has no body: to override, assign the one id through " +
    "…/preferences/bulk-assign with `workingTimeOverride: {reason}`).",
  middleware: [write] as const,
  request: { params: PreferenceParams },
  responses: {
    200: jsonContent(Preference, "The approved preference"),
    ...problems(
      "PAY_PERIOD_CLOSED",
      "OPEN_SHIFT_NOT_FOUND",
      "PREFERENCE_NOT_FOUND",
      "PREFERENCE_NOT_PENDING",
      "OPEN_SHIFT_FULL",
      "SCHEDULE_OVERLAP",
      "TIME_OFF_CONFLICT",
      "WORKER_UNAVAILABLE",
      "OPEN_SHIFT_CHANGED",
      "WORKING_TIME_CONFLICT",
    ),
  },
});

export type ListRoute = typeof list;
export type GetOneRoute = typeof getOne;
export type CreateRoute = typeof create;
export type PatchRoute = typeof patch;
export type RemoveRoute = typeof remove;
export type ClaimRoute = typeof claim;
export type RetractRoute = typeof retract;
export type CreatePreferenceRoute = typeof createPreference;
export type BulkAssignRoute = typeof bulkAssign;
export type RetractPreferenceRoute = typeof retractPreference;
export type PatchPreferenceRoute = typeof patchPreference;
export type RemovePreferenceRoute = typeof removePreference;
export type AssignRoute = typeof assign;
