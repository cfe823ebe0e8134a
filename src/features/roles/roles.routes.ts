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
  OrganizationRecordParams,
  problems,
  withETag,
} from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import { ListQuery } from "@/platform/schemas/list-query";
import { Role, RoleCreate, RolePatch } from "./roles.schemas";

const tags = ["Roles"];
/** Roles and their wages are location setup: reading them needs LOCATION_READ (Manager and up, or a custom access role). */
const reader = authorize("LOCATION_READ");
const writer = authorize("LOCATION_ADMIN");

export const list = defineRoute({
  method: "get",
  path: "/api/organizations/{organization_id}/roles",
  operationId: "listRoles",
  flags: { scope: "organization", list: true },
  tags,
  summary: "Retrieve all roles",
  description:
    "The organization's job roles, oldest first. Needs LOCATION_READ, since roles carry wages: the default " +
    "`Employee` access role cannot list them; grant LOCATION_READ through a custom access role if staff should.",
  middleware: [reader] as const,
  request: { params: OrganizationParams, query: ListQuery },
  responses: { 200: jsonContent(z.array(Role), "Roles, oldest first"), ...problems() },
});

export const getOne = defineRoute({
  method: "get",
  path: "/api/organizations/{organization_id}/roles/{id}",
  operationId: "getRole",
  flags: { scope: "organization" },
  tags,
  summary: "Retrieve a specific role",
  description: "Needs LOCATION_READ. A deleted role answers 404.",
  middleware: [reader, conditionalGet] as const,
  request: { params: OrganizationRecordParams, headers: IfNoneMatchHeaders },
  responses: { 200: withETag(jsonContent(Role, "The role")), ...notModified, ...problems("ROLE_NOT_FOUND") },
});

export const create = defineRoute({
  method: "post",
  path: "/api/organizations/{organization_id}/roles",
  operationId: "createRole",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Create a new role",
  description:
    "Needs LOCATION_ADMIN. `hourlyWage` is the role's default pay rate (null: none). `externalId` is unique per " +
    "organization, deleted roles included (409 `EXTERNAL_ID_TAKEN`).",
  middleware: [writer] as const,
  request: { params: OrganizationParams, body: jsonBody(RoleCreate) },
  responses: { 201: withETag(jsonContent(Role, "The created role")), ...problems("EXTERNAL_ID_TAKEN") },
});

export const patch = defineRoute({
  method: "patch",
  path: "/api/organizations/{organization_id}/roles/{id}",
  operationId: "updateRole",
  flags: { scope: "organization" },
  tags,
  summary: "Update a specific role",
  description: "Needs LOCATION_ADMIN. Only the fields sent change; send null to clear `hourlyWage` or `externalId`.",
  middleware: [writer] as const,
  request: { params: OrganizationRecordParams, body: jsonBody(RolePatch), headers: IfMatchHeaders },
  responses: {
    200: withETag(jsonContent(Role, "The updated role")),
    ...problems("ROLE_NOT_FOUND", "EXTERNAL_ID_TAKEN", "PRECONDITION_FAILED"),
  },
});

export const remove = defineRoute({
  method: "delete",
  path: "/api/organizations/{organization_id}/roles/{id}",
  operationId: "deleteRole",
  flags: { scope: "organization" },
  tags,
  summary: "Delete a specific role",
  description:
    "Needs LOCATION_ADMIN. Soft delete: the role answers 404 afterwards and is listed only with " +
    "`includeDeleted=true`; shifts already worked keep their `roleId`.",
  middleware: [writer] as const,
  request: { params: OrganizationRecordParams, headers: IfMatchHeaders },
  responses: { 200: withETag(jsonContent(Role, "The deleted role")), ...problems("ROLE_NOT_FOUND", "PRECONDITION_FAILED") },
});

export type ListRoute = typeof list;
export type GetOneRoute = typeof getOne;
export type CreateRoute = typeof create;
export type PatchRoute = typeof patch;
export type RemoveRoute = typeof remove;
