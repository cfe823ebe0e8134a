import { newId } from "@/data/ids";
import { LATEST_API_VERSION } from "@/domain/api-versions";
import { findLive, getLive, listPage, softDeleteLive, updateLive } from "@/platform/crud/tenant-queries";
import { requestNow } from "@/platform/http/clock";
import { setETag } from "@/platform/http/conditional";
import type { AppRouteHandler } from "@/platform/http/env";
import { pageResult } from "@/platform/http/pagination";
import { conflict, invalidField, notFound } from "@/problems/problem";
import { encryptSecret, newSigningSecret } from "@/webhook-delivery/secret";
import { post } from "@/webhook-delivery/send";
import { webhookUrlProblem } from "@/webhook-delivery/url";
import { deliveriesPage, insertWebhook, recordDelivery, requestReplay, webhookRecords } from "./webhooks.data";
import type * as routes from "./webhooks.routes";
import { serializeDelivery, serializeWebhook } from "./webhooks.schemas";

const checkedUrl = (url: string, environment: string | undefined) => {
  const problem = webhookUrlProblem(url, environment === "production");
  if (problem) throw invalidField("url", problem);
  return url;
};

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const rows = await listPage(c, c.var.db, webhookRecords, organization_id, c.req.valid("query"));
  return c.json(rows.map(serializeWebhook), 200);
};

export const create: AppRouteHandler<routes.CreateRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const body = c.req.valid("json");
  const url = checkedUrl(body.url, c.env.ENVIRONMENT);
  const now = await requestNow(c);
  const id = newId(now.getTime());
  const secret = newSigningSecret();
  const row = {
    id,
    organizationId: organization_id,
    url,
    description: body.description ?? null,
    types: body.types,
    enabled: body.enabled,
    apiVersion: body.apiVersion ?? c.var.apiVersion ?? LATEST_API_VERSION,
    secret: await encryptSecret(c.env.WEBHOOK_SECRET_KEY, id, secret),
    createdAt: now,
    updatedAt: now,
  };
  const created = await insertWebhook(c.var, row);
  setETag(c, created);
  return c.json({ ...serializeWebhook(created), secret }, 201);
};

export const getOne: AppRouteHandler<routes.GetOneRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  return c.json(serializeWebhook(await getLive(c, webhookRecords, organization_id, id, "Webhook")), 200);
};

export const patch: AppRouteHandler<routes.PatchRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const body = c.req.valid("json");
  const changes = {
    ...(body.url !== undefined && { url: checkedUrl(body.url, c.env.ENVIRONMENT) }),
    ...(body.types !== undefined && { types: body.types }),
    ...(body.description !== undefined && { description: body.description }),
    ...(body.enabled !== undefined && { enabled: body.enabled }),
    ...(body.apiVersion !== undefined && { apiVersion: body.apiVersion }),
    ...(body.enabled === true && { consecutiveFailures: 0, disabledReason: null, failingSince: null }),
  };
  const row = await updateLive(c, webhookRecords, organization_id, id, changes, "Webhook", "webhook.updated");
  return c.json(serializeWebhook(row), 200);
};

export const remove: AppRouteHandler<routes.RemoveRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  return c.json(serializeWebhook(await softDeleteLive(c, webhookRecords, organization_id, id, "Webhook", "webhook.deleted")), 200);
};

export const test: AppRouteHandler<routes.TestRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const hook = await findLive(c.var.db, webhookRecords, organization_id, id, "Webhook");
  const now = await requestNow(c);
  // A real envelope, as every delivery is: sequence 0 (never in the feed), the endpoint as the API answers it.
  const event = {
    id: newId(now.getTime()),
    type: "webhook.test" as const,
    organizationId: organization_id,
    occurredAt: now.toISOString(),
    sequence: 0,
    data: serializeWebhook(hook),
  };
  const result = await post({ db: c.var.db, secretKey: c.env.WEBHOOK_SECRET_KEY, fetch: (request) => fetch(request) }, hook, event);
  const succeeded = result.status !== null && result.status >= 200 && result.status < 300;
  const delivery = {
    id: newId(),
    organizationId: organization_id,
    webhookId: id,
    eventId: event.id,
    eventType: event.type,
    sequence: null,
    attempt: 1,
    status: succeeded ? ("succeeded" as const) : ("failed" as const),
    responseStatus: result.status,
    durationMs: result.durationMs,
    error: result.error,
    nextRetryAt: null,
    createdAt: now,
  };
  await recordDelivery(c.var, delivery);
  const { status, nextRetryAt, responseStatus, createdAt, durationMs, error, ...named } = delivery;
  const read = {
    ...named,
    status,
    nextRetryAt,
    attempts: 1,
    lastStatusCode: responseStatus,
    lastAttemptAt: createdAt,
    lastDurationMs: durationMs,
    lastError: error,
  };
  return c.json(serializeDelivery(read), 200);
};

export const deliveries: AppRouteHandler<routes.DeliveriesRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const { limit, cursor } = c.req.valid("query");
  await findLive(c.var.db, webhookRecords, organization_id, id, "Webhook");
  const rows = await deliveriesPage(c.var.db, id, limit, cursor);
  return c.json(pageResult(c, rows, limit).map(serializeDelivery), 200);
};

export const replay: AppRouteHandler<routes.ReplayRoute> = async (c) => {
  const { organization_id, id, deliveryId } = c.req.valid("param");
  await findLive(c.var.db, webhookRecords, organization_id, id, "Webhook");
  const delivery = await requestReplay(c.var, id, deliveryId, await requestNow(c));
  if (!delivery) throw notFound("Webhook delivery");
  if (!delivery.eventKept) {
    throw conflict(
      "WEBHOOK_EVENT_GONE",
      "The delivery's event is no longer in the feed (30 days), or was a webhook.test: it cannot be replayed.",
    );
  }
  return c.json(serializeDelivery(delivery), 202);
};
