import { z } from "@hono/zod-openapi";
import { authorize, authorizePartner } from "@/auth/authorize";
import { conditionalGet } from "@/platform/http/conditional";
import {
  IfMatchHeaders,
  IfNoneMatchHeaders,
  idParam,
  jsonBody,
  jsonContent,
  notModified,
  problems,
  withETag,
} from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import { ListQuery } from "@/platform/schemas/list-query";
import {
  ExternalIdParams,
  Organization,
  OrganizationCreate,
  OrganizationPatch,
  OrganizationWithDefaults,
  SandboxCreate,
  SandboxOrganization,
} from "./organizations.schemas";

const tags = ["Organizations"];
const OrganizationParams = z.object({ organization_id: idParam("organization_id", "Organization id") });
/**
 * Partner-level tokens reach every organization of their partner (a partner must be able to read, fix and retire
 * what it created, also by its own external id); organization tokens reach only their own organization.
 */
const member = authorize(null, { partnerLevel: true });
const admin = authorize("ORGANIZATION_ADMIN", { partnerLevel: true });

export const list = defineRoute({
  method: "get",
  path: "/api/organizations",
  operationId: "listOrganizations",
  flags: { scope: "partner", list: true },
  tags,
  summary: "List Organizations",
  description:
    "The partner's organizations (a partner-level token), or the caller's own organization (an organization token), " +
    "oldest first. A partner's listing reads the organization directory (which shard holds each organization) page " +
    "by page, then the organizations from their shards; the cursor is the last organization id of the page.",
  middleware: [member] as const,
  request: { query: ListQuery },
  responses: { 200: jsonContent(z.array(Organization), "Organizations, oldest first"), ...problems() },
});

export const getOne = defineRoute({
  method: "get",
  path: "/api/organizations/{organization_id}",
  operationId: "getOrganization",
  flags: { scope: "organization" },
  tags,
  summary: "Get Organization",
  description: "One organization of the partner (partner-level token) or the caller's own; any other is 404.",
  middleware: [member, conditionalGet] as const,
  request: { params: OrganizationParams, headers: IfNoneMatchHeaders },
  responses: { 200: withETag(jsonContent(Organization, "The organization")), ...notModified, ...problems() },
});

export const getByExternalId = defineRoute({
  method: "get",
  path: "/api/organizations/external/{externalId}",
  operationId: "getOrganizationByExternalId",
  flags: { scope: "partner" },
  tags,
  summary: "Get Organization by External ID",
  description: "The partner's organization with this `externalId` (the partner's own id for it); none is 404.",
  middleware: [member, conditionalGet] as const,
  request: { params: ExternalIdParams, headers: IfNoneMatchHeaders },
  responses: { 200: withETag(jsonContent(Organization, "The organization")), ...notModified, ...problems("ORGANIZATION_NOT_FOUND") },
});

export const create = defineRoute({
  method: "post",
  path: "/api/organizations",
  operationId: "createOrganization",
  flags: { scope: "partner", idempotency: "middleware" },
  tags,
  summary: "Create Organization",
  description:
    'Needs a partner-level token. `externalId` is unique per partner (409 `EXTERNAL_ID_TAKEN`). `dataRegion: "EU"` ' +
    "places the organization on a shard of the EU data region: its rows in a D1 database and its files (payroll " +
    "snapshots, exports, kiosk photos) in an R2 bucket both created with the EU jurisdiction; the directory entry that " +
    "routes to it holds its id, partner, externalId and shard, nothing personal. `dataRegion` is read-only afterwards " +
    "(PATCH: 400 `VALIDATION_FAILED`); an operator's shard move to another region's shard changes it.",
  middleware: [authorizePartner] as const,
  request: { body: jsonBody(OrganizationCreate) },
  responses: {
    201: withETag(jsonContent(Organization, "The created organization")),
    ...problems("PARTNER_SCOPE_REQUIRED", "EXTERNAL_ID_TAKEN"),
  },
});

export const createWithDefaults = defineRoute({
  method: "post",
  path: "/api/organizations/with-defaults",
  operationId: "createOrganizationWithDefaults",
  flags: { scope: "partner", idempotency: "middleware" },
  tags,
  summary: "Create Organization With Defaults",
  description:
    "Creates the organization with the access roles `Admin` (ORGANIZATION_ADMIN), `Manager` (LOCATION_ADMIN) and " +
    "`Employee` (no permissions), a `Default` role, the policy types Vacation, Sick, Personal, Bereavement and " +
    'Unpaid, and the default time-off settings, in one atomic write. `dataRegion: "EU"` keeps its data in the EU: ' +
    "it is placed on a shard of the EU data region (its D1 database and R2 bucket created with the EU jurisdiction; " +
    "the directory entry holds nothing personal); without it, `DEFAULT`. `dataRegion` is read-only afterwards (PATCH: " +
    "400 `VALIDATION_FAILED`); only an operator's shard move to another region's shard changes it.",
  middleware: [authorizePartner] as const,
  request: { body: jsonBody(OrganizationCreate) },
  responses: {
    201: withETag(jsonContent(OrganizationWithDefaults, "The created organization and its defaults")),
    ...problems("PARTNER_SCOPE_REQUIRED", "EXTERNAL_ID_TAKEN"),
  },
});

export const createSandbox = defineRoute({
  method: "post",
  path: "/api/organizations/sandbox",
  operationId: "createSandboxOrganization",
  flags: { scope: "partner", idempotency: "middleware" },
  tags,
  summary: "Create a Sandbox Organization",
  description:
    "Needs a partner-level token. A test organization (`sandbox: true`) with the defaults of Create Organization With " +
    "Defaults and, with `seed: true`, a location (in the organization's zone), three hourly staff members and their " +
    "published week of shifts, 09:00–17:00 local on each of the seven days from tomorrow. A sandbox has a test clock " +
    "(GET/POST …/test-clock): everything time-driven (punch times, no-shows, automatic clock-outs, accruals, webhook " +
    "retries) runs at its time, for it alone. Its webhooks go only to the endpoints registered on it. A sandbox never " +
    "becomes a live organization: no operation changes `sandbox` (409 `SANDBOX_PERMANENT`).",
  middleware: [authorizePartner] as const,
  request: { body: jsonBody(SandboxCreate) },
  responses: {
    201: withETag(jsonContent(SandboxOrganization, "The sandbox, its defaults and what was seeded")),
    ...problems("PARTNER_SCOPE_REQUIRED", "EXTERNAL_ID_TAKEN"),
  },
});

export const patch = defineRoute({
  method: "patch",
  path: "/api/organizations/{organization_id}",
  operationId: "updateOrganization",
  flags: { scope: "organization" },
  tags,
  summary: "Update Organization",
  description:
    "A partner-level token may update any of its partner's organizations; an organization token needs ORGANIZATION_ADMIN. " +
    "`sandbox` never changes: sending the other value is 409 `SANDBOX_PERMANENT`. `dataRegion` is read-only: a body " +
    "naming it, whatever its value, is 400 `VALIDATION_FAILED` and changes nothing (a shard move changes the region).",
  middleware: [admin] as const,
  request: { params: OrganizationParams, body: jsonBody(OrganizationPatch), headers: IfMatchHeaders },
  responses: {
    200: withETag(jsonContent(Organization, "The updated organization")),
    ...problems("EXTERNAL_ID_TAKEN", "PRECONDITION_FAILED", "SANDBOX_PERMANENT"),
  },
});

export const remove = defineRoute({
  method: "delete",
  path: "/api/organizations/{organization_id}",
  operationId: "deleteOrganization",
  flags: { scope: "organization" },
  tags,
  summary: "Delete Organization",
  description:
    "Soft delete: the organization answers 404 afterwards and its tokens can no longer be exchanged. A partner-level " +
    "token may delete any of its partner's organizations; an organization token needs ORGANIZATION_ADMIN. Its kiosk " +
    "photos are deleted with it: their files at once (their links answer 404), anything left by the hourly Cron.",
  middleware: [admin] as const,
  request: { params: OrganizationParams, headers: IfMatchHeaders },
  responses: { 200: withETag(jsonContent(Organization, "The deleted organization")), ...problems("PRECONDITION_FAILED") },
});

export const removeByExternalId = defineRoute({
  method: "delete",
  path: "/api/organizations/external/{externalId}",
  operationId: "deleteOrganizationByExternalId",
  flags: { scope: "partner" },
  tags,
  summary: "Delete Organization by External ID",
  description: "Deletes by the partner's own id for the organization (soft delete, as Delete Organization).",
  middleware: [admin] as const,
  request: { params: ExternalIdParams, headers: IfMatchHeaders },
  responses: {
    200: withETag(jsonContent(Organization, "The deleted organization")),
    ...problems("ORGANIZATION_NOT_FOUND", "PRECONDITION_FAILED"),
  },
});

export type ListRoute = typeof list;
export type GetOneRoute = typeof getOne;
export type GetByExternalIdRoute = typeof getByExternalId;
export type CreateRoute = typeof create;
export type CreateWithDefaultsRoute = typeof createWithDefaults;
export type CreateSandboxRoute = typeof createSandbox;
export type PatchRoute = typeof patch;
export type RemoveRoute = typeof remove;
export type RemoveByExternalIdRoute = typeof removeByExternalId;
export type CreateBody = z.infer<typeof OrganizationCreate>;
