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
import { CustomField, CustomFieldCreate, CustomFieldParams, CustomFieldPatch } from "./custom-fields.schemas";

const tags = ["Custom fields"];
/** Anyone of the organization reads the fields (a worker fills them in at clock-in and clock-out); its admins keep them. */
const read = authorize(null);
const admin = authorize("ORGANIZATION_ADMIN");
const path = "/api/organizations/{organization_id}/custom-fields";

const RULES =
  "A field is TEXT (a value of 1 to 500 characters matching `pattern` as a whole, when set) or LIST (a value that is " +
  "one of `options`: 1 to 100 distinct strings); the type is fixed at creation. `pattern` is an RE2 regular " +
  "expression of at most 200 characters, matched in time linear in the value (no backtracking): one RE2 cannot " +
  "compile (lookarounds, back-references) or that compiles to more than 1200 instructions is a 400 naming `pattern`; " +
  "a field kept from before patterns were RE2, with a pattern RE2 refuses, refuses every value (400 naming " +
  "`customFields.<fieldId>`) until an admin replaces the pattern. Values are capped at 500 characters. `name` is " +
  "unique among the organization's active fields: 409 `CUSTOM_FIELD_NAME_TAKEN`. " +
  "Shifts carry `customFields: {<fieldId>: value}`, set at clock-in, clock-out and by managers (manual shifts and " +
  "shift edits); an active `required` field must have a value at clock-out. The timesheet CSV exports get one " +
  "column per active field, headed by its name, ordered by name then id. An inactive field (`active: false`) takes " +
  "no new values and is not exported; the values shifts hold stay.";

export const list = defineRoute({
  method: "get",
  path,
  operationId: "listCustomFields",
  flags: { scope: "organization", list: true },
  tags,
  summary: "Retrieve the organization's custom fields",
  description: `Oldest first, paged like every list. Any token of the organization (staff fill fields in at punches). ${RULES}`,
  middleware: [read] as const,
  request: { params: OrganizationParams, query: ListQuery },
  responses: { 200: jsonContent(z.array(CustomField), "Custom fields, oldest first"), ...problems() },
});

export const getOne = defineRoute({
  method: "get",
  path: `${path}/{id}`,
  operationId: "getCustomField",
  flags: { scope: "organization" },
  tags,
  summary: "Retrieve a specific custom field",
  description: "One live custom field of the organization (active or not); a deleted one or another organization's is 404.",
  middleware: [read, conditionalGet] as const,
  request: { params: CustomFieldParams, headers: IfNoneMatchHeaders },
  responses: { 200: withETag(jsonContent(CustomField, "The custom field")), ...notModified, ...problems("CUSTOM_FIELD_NOT_FOUND") },
});

export const create = defineRoute({
  method: "post",
  path,
  operationId: "createCustomField",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Create a custom field",
  description:
    "Needs ORGANIZATION_ADMIN. A LIST field needs `options` and takes no `pattern`; a TEXT field takes no `options` " +
    `(400 naming the field). Records \`custom_field.created\`. ${RULES}`,
  middleware: [admin] as const,
  request: { params: OrganizationParams, body: jsonBody(CustomFieldCreate) },
  responses: {
    201: withETag(jsonContent(CustomField, "The created custom field")),
    ...problems("CUSTOM_FIELD_NAME_TAKEN"),
  },
});

export const patch = defineRoute({
  method: "patch",
  path: `${path}/{id}`,
  operationId: "updateCustomField",
  flags: { scope: "organization" },
  tags,
  summary: "Update a custom field",
  description:
    "Needs ORGANIZATION_ADMIN. Changes only the fields it names: `options` of a LIST field, `pattern` of a TEXT field " +
    "(the other is a 400 naming it), `name`, `required`, `active`. New rules apply to values written from then on; " +
    `values shifts hold stay. Records \`custom_field.updated\`. ${RULES}`,
  middleware: [admin] as const,
  request: { params: CustomFieldParams, body: jsonBody(CustomFieldPatch), headers: IfMatchHeaders },
  responses: {
    200: withETag(jsonContent(CustomField, "The updated custom field")),
    ...problems("CUSTOM_FIELD_NOT_FOUND", "CUSTOM_FIELD_NAME_TAKEN", "PRECONDITION_FAILED"),
  },
});

export const remove = defineRoute({
  method: "delete",
  path: `${path}/{id}`,
  operationId: "deleteCustomField",
  flags: { scope: "organization" },
  tags,
  summary: "Delete a custom field",
  description:
    "Needs ORGANIZATION_ADMIN. Soft delete: the field becomes inactive (`active: false`, `deletedAt` set), takes no new " +
    "values, is no longer required or exported, and its name is free again; the values past shifts hold stay. " +
    "Records `custom_field.deleted`.",
  middleware: [admin] as const,
  request: { params: CustomFieldParams, headers: IfMatchHeaders },
  responses: {
    200: withETag(jsonContent(CustomField, "The deleted custom field")),
    ...problems("CUSTOM_FIELD_NOT_FOUND", "PRECONDITION_FAILED"),
  },
});

export type ListRoute = typeof list;
export type GetOneRoute = typeof getOne;
export type CreateRoute = typeof create;
export type PatchRoute = typeof patch;
export type RemoveRoute = typeof remove;
