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
import { AccessRole, AccessRoleCreate, AccessRolePatch } from "./access-roles.schemas";

const tags = ["Access roles"];
/** Access roles grant permissions, so even reading them is an organization admin's business. */
const admin = authorize("ORGANIZATION_ADMIN");

const TOKENS_NOTE =
  "Access tokens carry the permissions they were exchanged with (for at most an hour): a changed permission set " +
  "applies to tokens exchanged afterwards.";

export const list = defineRoute({
  method: "get",
  path: "/api/organizations/{organization_id}/access-roles",
  operationId: "listAccessRoles",
  flags: { scope: "organization", list: true },
  tags,
  summary: "List Access Roles",
  description: "The organization's access roles, oldest first (the defaults Admin, Manager, Employee lead). Needs ORGANIZATION_ADMIN.",
  middleware: [admin] as const,
  request: { params: OrganizationParams, query: ListQuery },
  responses: { 200: jsonContent(z.array(AccessRole), "Access roles, oldest first"), ...problems() },
});

export const getOne = defineRoute({
  method: "get",
  path: "/api/organizations/{organization_id}/access-roles/{id}",
  operationId: "getAccessRole",
  flags: { scope: "organization" },
  tags,
  summary: "Get Access Role",
  description: "Needs ORGANIZATION_ADMIN. A deleted access role answers 404.",
  middleware: [admin, conditionalGet] as const,
  request: { params: OrganizationRecordParams, headers: IfNoneMatchHeaders },
  responses: { 200: withETag(jsonContent(AccessRole, "The access role")), ...notModified, ...problems("ACCESS_ROLE_NOT_FOUND") },
});

export const create = defineRoute({
  method: "post",
  path: "/api/organizations/{organization_id}/access-roles",
  operationId: "createAccessRole",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Create Access Role",
  description:
    "Needs ORGANIZATION_ADMIN. `name` is unique among the organization's live access roles (409 " +
    "`ACCESS_ROLE_NAME_TAKEN`, case-sensitive); an unknown permission is 400.",
  middleware: [admin] as const,
  request: { params: OrganizationParams, body: jsonBody(AccessRoleCreate) },
  responses: { 201: withETag(jsonContent(AccessRole, "The created access role")), ...problems("ACCESS_ROLE_NAME_TAKEN") },
});

export const patch = defineRoute({
  method: "patch",
  path: "/api/organizations/{organization_id}/access-roles/{id}",
  operationId: "updateAccessRole",
  flags: { scope: "organization" },
  tags,
  summary: "Update Access Role",
  description: `Needs ORGANIZATION_ADMIN. \`permissions\`, when sent, replaces the whole set. ${TOKENS_NOTE}`,
  middleware: [admin] as const,
  request: { params: OrganizationRecordParams, body: jsonBody(AccessRolePatch), headers: IfMatchHeaders },
  responses: {
    200: withETag(jsonContent(AccessRole, "The updated access role")),
    ...problems("ACCESS_ROLE_NOT_FOUND", "ACCESS_ROLE_NAME_TAKEN", "PRECONDITION_FAILED"),
  },
});

export const remove = defineRoute({
  method: "delete",
  path: "/api/organizations/{organization_id}/access-roles/{id}",
  operationId: "deleteAccessRole",
  flags: { scope: "organization" },
  tags,
  summary: "Delete Access Role",
  description:
    "Needs ORGANIZATION_ADMIN. Soft delete, refused with 409 `ACCESS_ROLE_IN_USE` while a staff member who is not " +
    `deleted holds it: move them to another access role first. The name becomes free again. ${TOKENS_NOTE}`,
  middleware: [admin] as const,
  request: { params: OrganizationRecordParams, headers: IfMatchHeaders },
  responses: {
    200: withETag(jsonContent(AccessRole, "The deleted access role")),
    ...problems("ACCESS_ROLE_NOT_FOUND", "ACCESS_ROLE_IN_USE", "PRECONDITION_FAILED"),
  },
});

export type ListRoute = typeof list;
export type GetOneRoute = typeof getOne;
export type CreateRoute = typeof create;
export type PatchRoute = typeof patch;
export type RemoveRoute = typeof remove;
