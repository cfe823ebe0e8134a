import { z } from "@hono/zod-openapi";
import { authorize } from "@/auth/authorize";
import { IfMatchHeaders, jsonBody, jsonContent, OrganizationParams, problems, withETag } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import { PageQuery } from "@/platform/schemas/list-query";
import {
  Availability,
  AvailabilityCreate,
  AvailabilityOccurrence,
  AvailabilityParams,
  AvailabilityPatch,
  AvailabilityRangeQuery,
  StaffAvailabilityParams,
} from "./availability.schemas";

const tags = ["Availability"];
const path = "/api/organizations/{organization_id}/staffmembers/{id}/availability";
const readerOrSelf = authorize("EMPLOYEE_READ", { self: "id" });
const writerOrSelf = authorize("EMPLOYEE_WRITE", { self: "id" });
const selfNote = " A staff member manages their own; EMPLOYEE_WRITE (EMPLOYEE_READ to read) anyone's.";
const guardNote =
  " UNAVAILABLE occurrences refuse schedule entries, assignments and claims that overlap them (409 " +
  "`WORKER_UNAVAILABLE`) and make eligibility answer UNAVAILABLE; a manager may pass `ignoreAvailability: true`. " +
  "Scheduling and eligibility see the same occurrences as `GET …/availability` from 31 days before the write to at " +
  "least two years ahead of now: the Cron writes a recurring rule's next occurrences out before fewer than two years " +
  "remain, however long ago its first occurrence was.";
const rulesNote =
  "An occurrence lasts at most 7 days (endTime − startTime); the end must be after the start. The RRULE is read " +
  "strictly (see `recurrence`): anything it refuses is 400 naming `recurrence`, never a 500, and an accepted one is " +
  'stored and answered in its canonical upper-case form. `exdates` lists local dates the rule skips ("every Monday ' +
  'except the 14th"), honoured by the expansion, eligibility and the scheduling guards alike. The time zone ' +
  "defaults to the organization's.";

export const list = defineRoute({
  method: "get",
  path,
  operationId: "listStaffAvailability",
  flags: { scope: "organization", list: true },
  tags,
  summary: "List a staff member's availability",
  description:
    "Every live rule of the staff member, by first occurrence (startTime, then id), paged like every list: `limit` " +
    `(1–500, default 100) and \`cursor\`, with \`Link: <…>; rel="next"\` while more remain.${selfNote}`,
  middleware: [readerOrSelf] as const,
  request: { params: StaffAvailabilityParams, query: PageQuery },
  responses: { 200: jsonContent(z.array(Availability), "The rules"), ...problems("STAFF_MEMBER_NOT_FOUND") },
});

export const create = defineRoute({
  method: "post",
  path,
  operationId: "createAvailability",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Add availability",
  description: rulesNote + guardNote + selfNote,
  middleware: [writerOrSelf] as const,
  request: { params: StaffAvailabilityParams, body: jsonBody(AvailabilityCreate) },
  responses: { 201: withETag(jsonContent(Availability, "The created rule")), ...problems("STAFF_MEMBER_NOT_FOUND") },
});

export const get = defineRoute({
  method: "get",
  path: `${path}/{availabilityId}`,
  operationId: "getAvailability",
  flags: { scope: "organization" },
  tags,
  summary: "Retrieve an availability rule",
  description: `One live rule.${selfNote}`,
  middleware: [readerOrSelf] as const,
  request: { params: AvailabilityParams },
  responses: { 200: withETag(jsonContent(Availability, "The rule")), ...problems("AVAILABILITY_NOT_FOUND") },
});

export const patch = defineRoute({
  method: "patch",
  path: `${path}/{availabilityId}`,
  operationId: "updateAvailability",
  flags: { scope: "organization" },
  tags,
  summary: "Update an availability rule",
  description: `Changes the fields named (\`exdates\` replaces the list); its occurrences are written again. ${rulesNote}${guardNote}${selfNote}`,
  middleware: [writerOrSelf] as const,
  request: { params: AvailabilityParams, body: jsonBody(AvailabilityPatch), headers: IfMatchHeaders },
  responses: { 200: withETag(jsonContent(Availability, "The updated rule")), ...problems("AVAILABILITY_NOT_FOUND", "PRECONDITION_FAILED") },
});

export const remove = defineRoute({
  method: "delete",
  path: `${path}/{availabilityId}`,
  operationId: "deleteAvailability",
  flags: { scope: "organization" },
  tags,
  summary: "Delete an availability rule",
  description: `The rule and its occurrences stop counting.${selfNote}`,
  middleware: [writerOrSelf] as const,
  request: { params: AvailabilityParams, headers: IfMatchHeaders },
  responses: { 200: withETag(jsonContent(Availability, "The deleted rule")), ...problems("AVAILABILITY_NOT_FOUND", "PRECONDITION_FAILED") },
});

export const expand = defineRoute({
  method: "get",
  path: "/api/organizations/{organization_id}/availability",
  operationId: "listAvailabilityOccurrences",
  flags: { scope: "organization", list: true },
  tags,
  summary: "Expand availability over a range",
  description:
    "Every occurrence overlapping the local dates [startDate, endDate] (at most 92 days; read in each rule's own " +
    "zone), ordered by instant then availabilityId: a weekly 09:00–17:00 stays 09:00 local across DST, its UTC " +
    'instants move. Paged like every list: `limit` (1–500, default 100) and `cursor`, with `Link: <…>; rel="next"` ' +
    "while more remain, so an organization's whole expansion is reachable. An occurrence starting on one of its " +
    "rule's `exdates` is left out, as scheduling and eligibility leave it out. `locationId` keeps " +
    "staff members assigned to that location. Needs SCHEDULE_READ, except that a staff member without it sees only " +
    "their own.",
  middleware: [authorize("SCHEDULE_READ", { asThemself: true })] as const,
  request: { params: OrganizationParams, query: AvailabilityRangeQuery },
  responses: { 200: jsonContent(z.array(AvailabilityOccurrence), "The occurrences"), ...problems("ORGANIZATION_NOT_FOUND") },
});

export type ListRoute = typeof list;
export type CreateRoute = typeof create;
export type GetRoute = typeof get;
export type PatchRoute = typeof patch;
export type RemoveRoute = typeof remove;
export type ExpandRoute = typeof expand;
