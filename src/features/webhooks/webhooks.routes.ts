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
import { DEFAULT_LIMIT, ListQuery, MAX_LIMIT, queryInteger } from "@/platform/schemas/list-query";
import { Webhook, WebhookCreate, WebhookDelivery, WebhookPatch, WebhookWithSecret } from "./webhooks.schemas";

const tags = ["Webhooks"];
/** Endpoints receive every area's records, wages included: the organization's admins only. */
const admin = authorize("ORGANIZATION_ADMIN");
const path = "/api/organizations/{organization_id}/webhooks";

export const list = defineRoute({
  method: "get",
  path,
  operationId: "listWebhooks",
  flags: { scope: "organization", list: true },
  tags,
  summary: "Retrieve all webhook endpoints",
  description: "Needs ORGANIZATION_ADMIN. Secrets are never listed.",
  middleware: [admin] as const,
  request: { params: OrganizationParams, query: ListQuery },
  responses: { 200: jsonContent(z.array(Webhook), "Webhook endpoints, oldest first"), ...problems() },
});

export const create = defineRoute({
  method: "post",
  path,
  operationId: "createWebhook",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Create a webhook endpoint",
  description:
    "Needs ORGANIZATION_ADMIN. Deliveries start with the events after this moment, signed per Standard Webhooks with " +
    "the `secret` answered here, once. An unacceptable `url` is a 400 naming `url`.",
  middleware: [admin] as const,
  request: { params: OrganizationParams, body: jsonBody(WebhookCreate) },
  responses: { 201: withETag(jsonContent(WebhookWithSecret, "The endpoint, with its signing secret")), ...problems() },
});

export const getOne = defineRoute({
  method: "get",
  path: `${path}/{id}`,
  operationId: "getWebhook",
  flags: { scope: "organization" },
  tags,
  summary: "Retrieve a webhook endpoint",
  description: "Needs ORGANIZATION_ADMIN.",
  middleware: [admin, conditionalGet] as const,
  request: { params: OrganizationRecordParams, headers: IfNoneMatchHeaders },
  responses: { 200: withETag(jsonContent(Webhook, "The endpoint")), ...notModified, ...problems("WEBHOOK_NOT_FOUND") },
});

export const patch = defineRoute({
  method: "patch",
  path: `${path}/{id}`,
  operationId: "updateWebhook",
  flags: { scope: "organization" },
  tags,
  summary: "Update a webhook endpoint",
  description: "Needs ORGANIZATION_ADMIN. `enabled: true` re-enables an endpoint disabled after failures (and resets its count).",
  middleware: [admin] as const,
  request: { params: OrganizationRecordParams, body: jsonBody(WebhookPatch), headers: IfMatchHeaders },
  responses: { 200: withETag(jsonContent(Webhook, "The updated endpoint")), ...problems("WEBHOOK_NOT_FOUND", "PRECONDITION_FAILED") },
});

export const remove = defineRoute({
  method: "delete",
  path: `${path}/{id}`,
  operationId: "deleteWebhook",
  flags: { scope: "organization" },
  tags,
  summary: "Delete a webhook endpoint",
  description: "Needs ORGANIZATION_ADMIN. Nothing more is delivered to it.",
  middleware: [admin] as const,
  request: { params: OrganizationRecordParams, headers: IfMatchHeaders },
  responses: { 200: withETag(jsonContent(Webhook, "The deleted endpoint")), ...problems("WEBHOOK_NOT_FOUND", "PRECONDITION_FAILED") },
});

export const test = defineRoute({
  method: "post",
  path: `${path}/{id}/test`,
  operationId: "testWebhook",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Send a test event",
  description:
    "Needs ORGANIZATION_ADMIN. POSTs a signed `webhook.test` event (not part of the feed) to the endpoint now, once, " +
    "and answers the attempt as recorded.",
  middleware: [admin] as const,
  request: { params: OrganizationRecordParams },
  responses: { 200: jsonContent(WebhookDelivery, "The attempt"), ...problems("WEBHOOK_NOT_FOUND") },
});

export const deliveries = defineRoute({
  method: "get",
  path: `${path}/{id}/deliveries`,
  operationId: "listWebhookDeliveries",
  flags: { scope: "organization", list: true },
  tags,
  summary: "Retrieve an endpoint's delivery attempts",
  description: "Needs ORGANIZATION_ADMIN. Every attempt, newest first: status, response code, duration and the next retry.",
  middleware: [admin] as const,
  request: {
    params: OrganizationRecordParams,
    query: z.object({
      limit: queryInteger(1, MAX_LIMIT, DEFAULT_LIMIT, `Page size, 1–${MAX_LIMIT} (decimal digits).`),
      cursor: ListQuery.shape.cursor,
    }),
  },
  responses: { 200: jsonContent(z.array(WebhookDelivery), "Attempts, newest first"), ...problems("WEBHOOK_NOT_FOUND") },
});

export type ListRoute = typeof list;
export type CreateRoute = typeof create;
export type GetOneRoute = typeof getOne;
export type PatchRoute = typeof patch;
export type RemoveRoute = typeof remove;
export type TestRoute = typeof test;
export type DeliveriesRoute = typeof deliveries;
