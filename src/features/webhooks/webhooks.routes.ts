import { z } from "@hono/zod-openapi";
import { authorize } from "@/auth/authorize";
import { conditionalGet } from "@/platform/http/conditional";
import {
  IfMatchHeaders,
  IfNoneMatchHeaders,
  idParam,
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
  description:
    "Needs ORGANIZATION_ADMIN. `enabled: true` re-enables an endpoint disabled after 3 days of failures (and starts its " +
    "count of failing time again): its events from where it stopped are delivered.",
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
    "and answers it as a delivery of one attempt (listed with the others; it cannot be replayed).",
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
  summary: "Retrieve an endpoint's deliveries",
  description:
    "Needs ORGANIZATION_ADMIN. One delivery per event sent to the endpoint, newest first: its status (PENDING while a " +
    "retry or a replay is to come), the attempts made, the last attempt's response code, time, duration and error, and " +
    "when the next attempt is due. Events go in sequence order; a failed attempt is retried on the schedule of the " +
    "Standard Webhooks specification's example (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), then twice more after 24 h: " +
    "10 attempts over 75 h 35 min. Statuses 5xx, 408 and 429 and no answer (timeout 10 s, network error) are retried; " +
    "another 4xx fails the delivery at once. An endpoint whose attempts have failed for 3 days without a success is " +
    "disabled (`enabled: false`, `disabledReason: failures`), and `webhook.disabled` goes to the organization's other " +
    "endpoints; PATCH `enabled: true` re-enables it. In a sandbox every time here is its test clock's, and retries " +
    "fall due by it. Paged by `cursor` (the `Link` header).",
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

export const replay = defineRoute({
  method: "post",
  path: `${path}/{id}/deliveries/{deliveryId}/replay`,
  operationId: "replayWebhookDelivery",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Replay a delivery",
  description:
    "Needs ORGANIZATION_ADMIN. Sends the delivery's event to the endpoint once more, soon (on its next wake-up, which " +
    "this request starts), with the same `webhook-id` (receivers de-duplicate on it): 202 with the delivery PENDING. " +
    "A replay is one attempt: it moves nothing of the endpoint's order and is not retried. A delivery already PENDING " +
    "(a retry or a replay to come) is answered as it is. An endpoint that is disabled, or holding a retry's backoff, " +
    "sends it once enabled or once the backoff ends. 409 `WEBHOOK_EVENT_GONE` when the event is no longer in the feed " +
    "(30 days) or was a `webhook.test`.",
  middleware: [admin] as const,
  request: { params: OrganizationRecordParams.extend({ deliveryId: idParam("deliveryId", "Delivery id") }) },
  responses: {
    202: jsonContent(WebhookDelivery, "The delivery, its replay to come"),
    ...problems("WEBHOOK_NOT_FOUND", "WEBHOOK_DELIVERY_NOT_FOUND", "WEBHOOK_EVENT_GONE"),
  },
});

export type ListRoute = typeof list;
export type CreateRoute = typeof create;
export type GetOneRoute = typeof getOne;
export type PatchRoute = typeof patch;
export type RemoveRoute = typeof remove;
export type TestRoute = typeof test;
export type DeliveriesRoute = typeof deliveries;
export type ReplayRoute = typeof replay;
