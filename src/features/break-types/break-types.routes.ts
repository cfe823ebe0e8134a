import { z } from "@hono/zod-openapi";
import { authorize } from "@/auth/authorize";
import { IfMatchHeaders, jsonBody, jsonContent, problems, withETag } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import { ListQuery } from "@/platform/schemas/list-query";
import { BreakType, BreakTypeCreate, BreakTypeParams, BreakTypePatch, LocationParams } from "./break-types.schemas";

const tags = ["Break types"];
const path = "/api/organizations/{organization_id}/locations/{id}/breaks";

export const list = defineRoute({
  method: "get",
  path,
  operationId: "listBreakTypes",
  flags: { scope: "organization", list: true },
  tags,
  summary: "Retrieve break types for a specific location",
  description: "The location's live break types, paged like every list (`limit`, `cursor`, `Link`).",
  middleware: [authorize("LOCATION_READ")] as const,
  request: { params: LocationParams, query: ListQuery },
  responses: { 200: jsonContent(z.array(BreakType), "The location's break types"), ...problems("LOCATION_NOT_FOUND") },
});

export const create = defineRoute({
  method: "post",
  path,
  operationId: "createBreakType",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Create a new break type for a location",
  description:
    "Adds a break type to the location. `mandatory` defaults to false and `enabled` to true; a mandatory type not taken by a shift longer than `frequencyMinutes` is never deducted (every minute worked is paid): the clock-out raises the attendance exception MISSED_MEAL_BREAK instead, and the pay rules' meal periods decide any premium.",
  middleware: [authorize("LOCATION_ADMIN")] as const,
  request: { params: LocationParams, body: jsonBody(BreakTypeCreate) },
  responses: { 201: withETag(jsonContent(BreakType, "The created break type")), ...problems("LOCATION_NOT_FOUND") },
});

export const patch = defineRoute({
  method: "patch",
  path: `${path}/{breakId}`,
  operationId: "updateBreakType",
  flags: { scope: "organization" },
  tags,
  summary: "Update a specific break type",
  description: "Changes apply to breaks started afterwards; breaks already taken keep the settings they had.",
  middleware: [authorize("LOCATION_ADMIN")] as const,
  request: { params: BreakTypeParams, body: jsonBody(BreakTypePatch), headers: IfMatchHeaders },
  responses: {
    200: withETag(jsonContent(BreakType, "The updated break type")),
    ...problems("BREAK_TYPE_NOT_FOUND", "PRECONDITION_FAILED"),
  },
});

export const remove = defineRoute({
  method: "delete",
  path: `${path}/{breakId}`,
  operationId: "deleteBreakType",
  flags: { scope: "organization" },
  tags,
  summary: "Delete a specific break type",
  description: "Soft delete: the type can no longer be started; breaks already taken keep their name and settings.",
  middleware: [authorize("LOCATION_ADMIN")] as const,
  request: { params: BreakTypeParams, headers: IfMatchHeaders },
  responses: {
    200: withETag(jsonContent(BreakType, "The deleted break type")),
    ...problems("BREAK_TYPE_NOT_FOUND", "PRECONDITION_FAILED"),
  },
});

export type ListRoute = typeof list;
export type CreateRoute = typeof create;
export type PatchRoute = typeof patch;
export type RemoveRoute = typeof remove;
