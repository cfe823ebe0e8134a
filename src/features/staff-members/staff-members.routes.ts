import { z } from "@hono/zod-openapi";
import { authorize } from "@/auth/authorize";
import { conditionalGet } from "@/platform/http/conditional";
import {
  IfMatchHeaders,
  IfNoneMatchHeaders,
  jsonBody,
  jsonContent,
  notModified,
  OrganizationParams,
  problems,
  withETag,
} from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import { ListQuery } from "@/platform/schemas/list-query";
import { Job } from "@/wire/job.schemas";
import { Location } from "@/wire/location.schemas";
import {
  LocationRecordParams,
  MAX_SYNC_JOB_RECORDS,
  MAX_SYNC_RECORDS,
  StaffMember,
  StaffMemberCreate,
  StaffMemberExternalIdParams,
  StaffMemberListQuery,
  StaffMemberParams,
  StaffMemberPatch,
  StaffMemberSync,
  StaffMemberSyncResult,
} from "./staff-members.schemas";

const tags = ["Staff members"];
const reader = authorize("EMPLOYEE_READ");
/** A staff member may read their own record and locations without EMPLOYEE_READ. */
const readerOrSelf = authorize("EMPLOYEE_READ", { self: "id" });
const writer = authorize("EMPLOYEE_WRITE");

const REFERENCES =
  "`accessRoleId` or `accessRoleName` (not both) picks the access role; `locationIds` and `roleIds` must be live " +
  "records of this organization. An unknown reference is a 400 naming the field. Assigning an access role with a " +
  "permission the caller lacks is a 403 (a Manager cannot make anyone an Admin). An access role deleted by another " +
  "request between the check and the write is a 409 `ACCESS_ROLE_DELETED`, and nothing is written.";

/** The rule for acting on an existing member, as Deputy and 7shifts apply it: nobody manages someone above them. */
const MANAGE =
  "A caller may change, delete or deactivate only members whose current access role they could grant themselves " +
  "(they hold every permission of it: ORGANIZATION_ADMIN implies LOCATION_ADMIN implies the rest), else 403 " +
  "and nothing changes — a Manager cannot touch an Admin. The rule is checked again by the write itself, so a " +
  "member promoted meanwhile is refused too.";

/** What the reads add: the wage warnings of StaffWageWarning. */
const WARNINGS =
  "A member with a current wage below the award's minimum under the rule set of a location (AU_GENERAL_RETAIL: $26.55 " +
  "an hour from 1 July 2025 for full- and part-time, $33.19 for a casual with the loading) carries `warnings: [{code: " +
  "WAGE_BELOW_AWARD_MINIMUM, locationId, wageRateId, wage, minimum, source}]`, as pay lines warn on the shifts paid; at " +
  "or above it, or for a salaried member, no `warnings`.";

export const list = defineRoute({
  method: "get",
  path: "/api/organizations/{organization_id}/staffmembers",
  operationId: "listStaffMembers",
  flags: { scope: "organization", list: true },
  tags,
  summary: "Retrieve all staff members",
  description: `Needs EMPLOYEE_READ. Filters combine: \`locationId\`, \`roleId\`, \`email\` (exact, case-insensitive), \`active\`. ${WARNINGS}`,
  middleware: [reader] as const,
  request: { params: OrganizationParams, query: StaffMemberListQuery },
  responses: { 200: jsonContent(z.array(StaffMember), "Staff members, oldest first"), ...problems() },
});

export const getOne = defineRoute({
  method: "get",
  path: "/api/organizations/{organization_id}/staffmembers/{id}",
  operationId: "getStaffMember",
  flags: { scope: "organization" },
  tags,
  summary: "Retrieve a specific staff member",
  description: `Needs EMPLOYEE_READ, or the token of that staff member. A deleted member answers 404. ${WARNINGS}`,
  middleware: [readerOrSelf, conditionalGet] as const,
  request: { params: StaffMemberParams, headers: IfNoneMatchHeaders },
  responses: { 200: withETag(jsonContent(StaffMember, "The staff member")), ...notModified, ...problems("STAFF_MEMBER_NOT_FOUND") },
});

export const getByExternalId = defineRoute({
  method: "get",
  path: "/api/organizations/{organization_id}/staffmembers/external/{externalId}",
  operationId: "getStaffMemberByExternalId",
  flags: { scope: "organization" },
  tags,
  summary: "Retrieve a staff member by external ID",
  description: `Needs EMPLOYEE_READ. A deleted member answers 404. ${WARNINGS}`,
  middleware: [reader, conditionalGet] as const,
  request: { params: StaffMemberExternalIdParams, headers: IfNoneMatchHeaders },
  responses: { 200: withETag(jsonContent(StaffMember, "The staff member")), ...notModified, ...problems("STAFF_MEMBER_NOT_FOUND") },
});

export const listLocations = defineRoute({
  method: "get",
  path: "/api/organizations/{organization_id}/staffmembers/{id}/locations",
  operationId: "listStaffMemberLocations",
  flags: { scope: "organization" },
  tags,
  summary: "Retrieve staff member locations",
  description:
    "The live locations in the member's `locationIds`, as a bare array in assignment order. Not paged: a member is " +
    "assigned to at most 200 locations. Needs EMPLOYEE_READ, or the token of that staff member.",
  middleware: [readerOrSelf] as const,
  request: { params: StaffMemberParams },
  responses: { 200: jsonContent(z.array(Location), "The member's locations"), ...problems("STAFF_MEMBER_NOT_FOUND") },
});

export const listForLocation = defineRoute({
  method: "get",
  path: "/api/organizations/{organization_id}/locations/{id}/staffmembers",
  operationId: "listLocationStaffMembers",
  flags: { scope: "organization", list: true },
  tags: ["Locations"],
  summary: "Retrieve staff members for a specific location",
  description: `Staff members whose \`locationIds\` include the location, oldest first. Needs EMPLOYEE_READ. ${WARNINGS}`,
  middleware: [reader] as const,
  request: { params: LocationRecordParams, query: ListQuery },
  responses: { 200: jsonContent(z.array(StaffMember), "Staff members of the location"), ...problems("LOCATION_NOT_FOUND") },
});

export const create = defineRoute({
  method: "post",
  path: "/api/organizations/{organization_id}/staffmembers",
  operationId: "createStaffMember",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Create a new staff member",
  description:
    `Needs EMPLOYEE_WRITE. ${REFERENCES} Without an access role the member gets the organization's \`Employee\` ` +
    "role. `externalId` is unique per organization, deleted members included (409 `EXTERNAL_ID_TAKEN`; sync " +
    "restores a deleted member instead).",
  middleware: [writer] as const,
  request: { params: OrganizationParams, body: jsonBody(StaffMemberCreate) },
  responses: {
    201: withETag(jsonContent(StaffMember, "The created staff member")),
    ...problems("EXTERNAL_ID_TAKEN", "ACCESS_ROLE_DELETED"),
  },
});

export const sync = defineRoute({
  method: "post",
  path: "/api/organizations/{organization_id}/staffmembers/sync",
  operationId: "syncStaffMembers",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Synchronize staff members",
  description:
    `Needs EMPLOYEE_WRITE. Upserts 1–${MAX_SYNC_RECORDS} records by \`externalId\` in one atomic write within the ` +
    "request (200; the deployment's STAFF_SYNC_IN_REQUEST_MAX may lower that limit). A larger payload, up to " +
    `${MAX_SYNC_JOB_RECORDS.toLocaleString("en-US")} records (and 12 MiB), is checked in the request as a smaller one is — ` +
    "every 400 and 403 below answered before anything is written — then answers **202 with a job** (`Location`: " +
    "`GET …/jobs/{id}`, kind BULK, subject `staff-sync`, and the event `job.created`): a durable job (a Cloudflare " +
    "Workflow) writes it in pages of 1,000 records in payload order (`page-1`, `page-2`, …), each page one atomic " +
    "batch with its records' `staff_member.*` events, then with `deactivateMissing` deactivates the members the " +
    "payload does not name a page of 1,000 members at a time (`deactivate-1`, …), then ends SUCCEEDED " +
    "(`job.succeeded`). Each step is retried and the job resumes after a failure at any step; a page redelivered " +
    "changes and records nothing twice (its records are upserted by externalId). The job is not atomic as a whole: " +
    "the pages written before a refusal found while it runs (e.g. `ACCESS_ROLE_DELETED`, or a 403 for a member " +
    "promoted meanwhile) stay written and the job ends FAILED (`job.failed`, `error.code` the refusal's); send the " +
    "sync again. Following the job (`GET …/jobs/{id}`) needs ORGANIZATION_ADMIN. A new " +
    "externalId creates a member (default access role `Employee`, omitted fields null or empty); a known one is " +
    "merged: a field the record omits keeps its stored value, an explicit null clears it, `name` is always " +
    "given, and a deleted member is restored. `active` defaults to true. Location sync merges the same way. " +
    "A record that changes nothing leaves the member untouched (its `updatedAt` does not move), so syncing the same " +
    "payload twice reports no updates. `deactivateMissing: true` soft-deletes live members with an externalId " +
    "the payload does not name (members without an externalId are never touched), except those whose access " +
    `role the caller could not grant, which it leaves alone. ${REFERENCES} ${MANAGE} A record whose externalId ` +
    "belongs to such a member, live or deleted, is a 403 naming each (`records.N.externalId`). A record that omits " +
    "the access role of a member whose access role was deleted is a 400 naming `records.N.accessRoleId`. A " +
    "duplicate externalId in one payload is a 400.",
  middleware: [writer] as const,
  request: { params: OrganizationParams, body: jsonBody(StaffMemberSync) },
  responses: {
    200: jsonContent(StaffMemberSyncResult, "Counts and the synced records, in payload order"),
    202: {
      description: "A sync larger than one request writes, started as a BULK job",
      headers: z.object({ Location: z.string().openapi({ description: "The job's URL" }) }),
      content: { "application/json": { schema: Job } },
    },
    ...problems("EXTERNAL_ID_TAKEN", "ACCESS_ROLE_DELETED"),
  },
});

export const patch = defineRoute({
  method: "patch",
  path: "/api/organizations/{organization_id}/staffmembers/{id}",
  operationId: "updateStaffMember",
  flags: { scope: "organization" },
  tags,
  summary: "Update a specific staff member",
  description:
    `Needs EMPLOYEE_WRITE. Only the fields given change; null clears an optional field. ${REFERENCES} ${MANAGE} ` +
    "`active: false` deactivates the member (their partner tokens no longer exchange) without deleting them.",
  middleware: [writer] as const,
  request: { params: StaffMemberParams, body: jsonBody(StaffMemberPatch), headers: IfMatchHeaders },
  responses: {
    200: withETag(jsonContent(StaffMember, "The updated staff member")),
    ...problems("STAFF_MEMBER_NOT_FOUND", "EXTERNAL_ID_TAKEN", "ACCESS_ROLE_DELETED", "PRECONDITION_FAILED"),
  },
});

export const remove = defineRoute({
  method: "delete",
  path: "/api/organizations/{organization_id}/staffmembers/{id}",
  operationId: "deleteStaffMember",
  flags: { scope: "organization" },
  tags,
  summary: "Delete a specific staff member",
  description: `Needs EMPLOYEE_WRITE. Soft delete: reads answer 404 afterwards; lists show it with \`includeDeleted=true\`. ${MANAGE}`,
  middleware: [writer] as const,
  request: { params: StaffMemberParams, headers: IfMatchHeaders },
  responses: {
    200: withETag(jsonContent(StaffMember, "The deleted staff member")),
    ...problems("STAFF_MEMBER_NOT_FOUND", "PRECONDITION_FAILED"),
  },
});

export type ListRoute = typeof list;
export type GetOneRoute = typeof getOne;
export type GetByExternalIdRoute = typeof getByExternalId;
export type ListLocationsRoute = typeof listLocations;
export type ListForLocationRoute = typeof listForLocation;
export type CreateRoute = typeof create;
export type SyncRoute = typeof sync;
export type PatchRoute = typeof patch;
export type RemoveRoute = typeof remove;
