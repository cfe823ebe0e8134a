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
import { CostCode, CostCodeAssignments, CostCodeAssignmentsPut, CostCodeCreate, CostCodeParams, CostCodePatch } from "./cost-codes.schemas";

const tags = ["Cost codes"];
/** Anyone of the organization reads the codes (a worker picks one at clock-in); the organization's admins keep the tree. */
const read = authorize(null);
const admin = authorize("ORGANIZATION_ADMIN");
const path = "/api/organizations/{organization_id}/cost-codes";

const TREE =
  "Cost codes form a tree of at most 5 levels (`parentId` null for a root). `code` is unique among the live codes " +
  "under the same parent (roots among roots): 409 `COST_CODE_TAKEN`; `externalId` is unique per organization, " +
  "deleted codes included: 409 `EXTERNAL_ID_TAKEN`. A `parentId` that is not a live code of the organization is 404 " +
  "`COST_CODE_NOT_FOUND`; a placement deeper than 5 levels (counting the codes under a moved code) is 422 " +
  "`COST_CODE_TOO_DEEP`, under the code itself or one of its descendants 422 `COST_CODE_CYCLE`. " +
  "An inactive code (`active: false`) stays in the tree but cannot be charged.";

export const list = defineRoute({
  method: "get",
  path,
  operationId: "listCostCodes",
  flags: { scope: "organization", list: true },
  tags,
  summary: "Retrieve the organization's cost codes",
  description: `Oldest first, paged like every list. Any token of the organization (staff pick codes at clock-in). ${TREE}`,
  middleware: [read] as const,
  request: { params: OrganizationParams, query: ListQuery },
  responses: { 200: jsonContent(z.array(CostCode), "Cost codes, oldest first"), ...problems() },
});

export const getOne = defineRoute({
  method: "get",
  path: `${path}/{id}`,
  operationId: "getCostCode",
  flags: { scope: "organization" },
  tags,
  summary: "Retrieve a specific cost code",
  description: "One live cost code of the organization; a deleted one or one of another organization is 404.",
  middleware: [read, conditionalGet] as const,
  request: { params: CostCodeParams, headers: IfNoneMatchHeaders },
  responses: { 200: withETag(jsonContent(CostCode, "The cost code")), ...notModified, ...problems("COST_CODE_NOT_FOUND") },
});

export const create = defineRoute({
  method: "post",
  path,
  operationId: "createCostCode",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Create a cost code",
  description: `Needs ORGANIZATION_ADMIN. Records \`cost_code.created\`. ${TREE}`,
  middleware: [admin] as const,
  request: { params: OrganizationParams, body: jsonBody(CostCodeCreate) },
  responses: {
    201: withETag(jsonContent(CostCode, "The created cost code")),
    ...problems("COST_CODE_NOT_FOUND", "COST_CODE_TAKEN", "EXTERNAL_ID_TAKEN", "COST_CODE_TOO_DEEP"),
  },
});

export const patch = defineRoute({
  method: "patch",
  path: `${path}/{id}`,
  operationId: "updateCostCode",
  flags: { scope: "organization" },
  tags,
  summary: "Update a cost code",
  description:
    "Needs ORGANIZATION_ADMIN. Changes only the fields it names; a new `parentId` moves the code with every code " +
    `under it, in one batch. Records \`cost_code.updated\`. Shifts already charged to it keep it. ${TREE}`,
  middleware: [admin] as const,
  request: { params: CostCodeParams, body: jsonBody(CostCodePatch), headers: IfMatchHeaders },
  responses: {
    200: withETag(jsonContent(CostCode, "The updated cost code")),
    ...problems(
      "COST_CODE_NOT_FOUND",
      "COST_CODE_TAKEN",
      "EXTERNAL_ID_TAKEN",
      "COST_CODE_TOO_DEEP",
      "COST_CODE_CYCLE",
      "PRECONDITION_FAILED",
    ),
  },
});

export const remove = defineRoute({
  method: "delete",
  path: `${path}/{id}`,
  operationId: "deleteCostCode",
  flags: { scope: "organization" },
  tags,
  summary: "Delete a cost code",
  description:
    "Needs ORGANIZATION_ADMIN. Soft delete: the code can no longer be charged and its `code` is free again among its " +
    "siblings; shifts charged to it keep it. A code with live codes under it is 409 `COST_CODE_HAS_CHILDREN`. " +
    "Records `cost_code.deleted`.",
  middleware: [admin] as const,
  request: { params: CostCodeParams, headers: IfMatchHeaders },
  responses: {
    200: withETag(jsonContent(CostCode, "The deleted cost code")),
    ...problems("COST_CODE_NOT_FOUND", "COST_CODE_HAS_CHILDREN", "PRECONDITION_FAILED"),
  },
});

export const getAssignments = defineRoute({
  method: "get",
  path: `${path}/{id}/assignments`,
  operationId: "getCostCodeAssignments",
  flags: { scope: "organization" },
  tags,
  summary: "Retrieve who may charge time to a cost code",
  description: "Any token of the organization. `all: true`, or the live staff members the code is assigned to, in id order.",
  middleware: [read] as const,
  request: { params: CostCodeParams },
  responses: { 200: jsonContent(CostCodeAssignments, "The assignment"), ...problems("COST_CODE_NOT_FOUND") },
});

export const putAssignments = defineRoute({
  method: "put",
  path: `${path}/{id}/assignments`,
  operationId: "replaceCostCodeAssignments",
  flags: { scope: "organization" },
  tags,
  summary: "Replace who may charge time to a cost code",
  description:
    "Needs ORGANIZATION_ADMIN. `{all: true}` assigns the code to every staff member, `{employeeIds}` to exactly those " +
    "(replacing the previous list; `[]` for nobody). Clock-in, manual shifts, shift edits and switch accept a " +
    "`costCodeId` only for an active code assigned to the worker (else 422 `COST_CODE_NOT_ASSIGNED`). An id that is " +
    "not a live staff member of the organization is 404 `STAFF_MEMBER_NOT_FOUND` and nothing is written. Records " +
    "`cost_code.assignments_updated` with the new assignment.",
  middleware: [admin] as const,
  request: { params: CostCodeParams, body: jsonBody(CostCodeAssignmentsPut) },
  responses: {
    200: jsonContent(CostCodeAssignments, "The new assignment"),
    ...problems("COST_CODE_NOT_FOUND", "STAFF_MEMBER_NOT_FOUND"),
  },
});

export type ListRoute = typeof list;
export type GetOneRoute = typeof getOne;
export type CreateRoute = typeof create;
export type PatchRoute = typeof patch;
export type RemoveRoute = typeof remove;
export type GetAssignmentsRoute = typeof getAssignments;
export type PutAssignmentsRoute = typeof putAssignments;
