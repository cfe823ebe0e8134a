import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { lifecycle, timestamp } from "./columns";

/**
 * Webhook endpoints. `deliveredSequence` is the endpoint's cursor: the last event sequence of its organization it is
 * done with (delivered, or failed for good). The consumer only ever delivers the next matching event after it, so an
 * endpoint sees its events in sequence order. `secret` is the signing secret AES-GCM encrypted (src/webhook-delivery/secret).
 */
export const webhooks = sqliteTable(
  "webhooks",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    url: text("url").notNull(),
    description: text("description"),
    types: text("types", { mode: "json" }).$type<string[]>().notNull(),
    /** The API version its deliveries are shaped for (domain/api-versions); null: the latest. */
    apiVersion: text("api_version"),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    secret: text("secret").notNull(),
    deliveredSequence: integer("delivered_sequence").notNull(),
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    disabledReason: text("disabled_reason"),
    /** When the endpoint's current run of failed attempts began (null after a success): 3 days of it disables it. */
    failingSince: timestamp("failing_since"),
    /**
     * The delivery lease: one wake-up at a time delivers an endpoint's events. A wake-up claims the endpoint with a
     * conditional UPDATE (no lease, or an expired one), moves the cursor only while it holds the lease, and clears it.
     */
    deliveryLease: text("delivery_lease"),
    deliveringUntil: timestamp("delivering_until"),
    ...lifecycle,
  },
  (t) => [index("webhooks_organization").on(t.organizationId)],
);

/**
 * Each attempt to deliver an event to an endpoint. A delivery (GET …/deliveries) is an endpoint's attempts at one
 * event, named by its first attempt's id. `pending`: a replay asked for (POST …/deliveries/{id}/replay), not yet made.
 */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    webhookId: text("webhook_id").notNull(),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    sequence: integer("sequence"),
    attempt: integer("attempt").notNull(),
    status: text("status", { enum: ["succeeded", "retrying", "failed", "pending"] }).notNull(),
    responseStatus: integer("response_status"),
    durationMs: integer("duration_ms").notNull(),
    error: text("error"),
    nextRetryAt: timestamp("next_retry_at"),
    createdAt: timestamp("created_at").notNull(),
  },
  (t) => [
    index("webhook_deliveries_webhook").on(t.webhookId, t.id),
    index("webhook_deliveries_event").on(t.webhookId, t.eventId),
    // The replays waiting: every write's wake-up looks for them (data/outbox/pending), so they are found by index.
    index("webhook_deliveries_pending").on(t.webhookId).where(sql`status = 'pending'`),
  ],
);
