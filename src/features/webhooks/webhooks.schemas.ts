import type { webhookDeliveries, webhooks } from "@db/schema";
import { z } from "@hono/zod-openapi";
import { EVENT_TYPES } from "@/data/outbox/outbox";
import { LATEST_API_VERSION, resolveApiVersion } from "@/domain/api-versions";
import { iso, isoOrNull } from "@/platform/schemas/time";
import { recordLifecycle } from "@/platform/schemas/validation";

const Url = z.string().min(1).max(2000).openapi({
  example: "https://hooks.example.com/shiftline",
  description:
    "https only (production also refuses private and internal hosts); outside production http://localhost and http://127.0.0.1 too.",
});
const Types = z
  .array(z.enum(EVENT_TYPES))
  .max(EVENT_TYPES.length)
  .openapi({ description: "The event types delivered; empty: all of them.", example: ["shift.clocked_in", "shift.clocked_out"] });
const Description = z.string().max(500).nullable();
const ApiVersionInput = z
  .string()
  .max(10)
  .refine((date) => resolveApiVersion(date) !== null, "must be a date (YYYY-MM-DD) on or after the first API version")
  .transform((date) => resolveApiVersion(date)!)
  .openapi({
    type: "string",
    format: "date",
    example: LATEST_API_VERSION,
    description:
      "The API version its deliveries are shaped in (the latest on or before this date); default: the version of the " +
      "request creating it (its `Shiftline-Version`, else the partner's pinned version).",
  });

export const Webhook = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    url: z.string(),
    description: z.string().nullable(),
    types: z.array(z.enum(EVENT_TYPES)),
    enabled: z.boolean().openapi({ description: "False: nothing is delivered (set by you, or after repeated failures)." }),
    disabledReason: z.enum(["failures"]).nullable().openapi({ description: "`failures`: disabled after repeated failed deliveries." }),
    deliveredSequence: z.number().int().openapi({ description: "The last event sequence this endpoint is done with." }),
    apiVersion: z.string().openapi({
      format: "date",
      example: LATEST_API_VERSION,
      description:
        "The API version its deliveries are shaped in: an endpoint on a version before 2026-12-06 receives " +
        "`schedule.published` without the publish's changes and, after it, the `schedule_changes.recorded` that carries them.",
    }),
    ...recordLifecycle,
  })
  .openapi("Webhook");

export const WebhookWithSecret = Webhook.extend({
  secret: z.string().openapi({ example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", description: "The signing secret: shown this once." }),
}).openapi("WebhookWithSecret");

export const WebhookCreate = z
  .object({
    url: Url,
    types: Types.default([]),
    enabled: z.boolean().default(true),
    description: Description.optional(),
    apiVersion: ApiVersionInput.optional(),
  })
  .strict()
  .openapi("WebhookCreate");

export const WebhookPatch = z
  .object({ url: Url, types: Types, enabled: z.boolean(), description: Description, apiVersion: ApiVersionInput })
  .partial()
  .strict()
  .openapi("WebhookPatch");

export const WebhookDelivery = z
  .object({
    id: z.string().openapi({ description: "The delivery: the endpoint's attempts at one event (the id of its first attempt)." }),
    webhookId: z.string(),
    eventId: z.string(),
    eventType: z.string(),
    sequence: z.number().int().nullable().openapi({ description: "Null for `webhook.test`." }),
    status: z.enum(["PENDING", "SUCCEEDED", "FAILED"]).openapi({
      description:
        "PENDING: a retry or a replay is to come (`nextAttemptAt`); SUCCEEDED: the last attempt got a 2xx; FAILED: " +
        "the last attempt failed and none is to come.",
    }),
    attempts: z.number().int().openapi({ description: "Attempts made so far, replays included." }),
    lastStatusCode: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "The last attempt's response status; null: no response (network error or timeout)." }),
    lastAttemptAt: z.string().openapi({ description: "When the last attempt was made (the organization's time: a sandbox's test clock)." }),
    lastDurationMs: z.number().int(),
    lastError: z.string().nullable(),
    nextAttemptAt: z.string().nullable().openapi({ description: "When the next attempt is due, while PENDING; else null." }),
  })
  .openapi("WebhookDelivery");

type WebhookRow = typeof webhooks.$inferSelect;

export const serializeWebhook = (row: WebhookRow): z.infer<typeof Webhook> => ({
  id: row.id,
  organizationId: row.organizationId,
  url: row.url,
  description: row.description,
  types: row.types as z.infer<typeof Webhook>["types"],
  enabled: row.enabled,
  disabledReason: row.disabledReason as "failures" | null,
  deliveredSequence: row.deliveredSequence,
  apiVersion: row.apiVersion ?? LATEST_API_VERSION,
  active: row.active,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
  deletedAt: isoOrNull(row.deletedAt),
});

/** A delivery as the listing reads it (webhooks.data `deliveryFields`): its first, latest and last made attempts. */
export interface DeliveryRead {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  sequence: number | null;
  status: typeof webhookDeliveries.$inferSelect.status;
  nextRetryAt: Date | null;
  attempts: number;
  lastStatusCode: number | null;
  lastAttemptAt: Date;
  lastDurationMs: number;
  lastError: string | null;
}

const WIRE_STATUS = { succeeded: "SUCCEEDED", failed: "FAILED", retrying: "PENDING", pending: "PENDING" } as const;

export const serializeDelivery = (row: DeliveryRead): z.infer<typeof WebhookDelivery> => {
  const status = WIRE_STATUS[row.status];
  return {
    id: row.id,
    webhookId: row.webhookId,
    eventId: row.eventId,
    eventType: row.eventType,
    sequence: row.sequence,
    status,
    attempts: row.attempts,
    lastStatusCode: row.lastStatusCode,
    lastAttemptAt: iso(row.lastAttemptAt),
    lastDurationMs: row.lastDurationMs,
    lastError: row.lastError,
    nextAttemptAt: status === "PENDING" ? isoOrNull(row.nextRetryAt) : null,
  };
};
