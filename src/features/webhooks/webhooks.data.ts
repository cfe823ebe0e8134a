import { webhookDeliveries, webhooks } from "@db/schema";
import { and, desc, eq, lt, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Database } from "@/data/client";
import { newId } from "@/data/ids";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import { decodeIdCursor } from "@/platform/http/pagination";

type WebhookInsert = typeof webhooks.$inferInsert;
type DeliveryInsert = typeof webhookDeliveries.$inferInsert;

/** The organization's webhook endpoints, as the crud helpers (platform/crud) list, read and write them. */
export const webhookRecords = webhooks;

/** Stores a new endpoint with its `webhook.created` event; its deliveries start after the organization's events so far. */
export async function insertWebhook(writer: Writer, row: Omit<WebhookInsert, "deliveredSequence">) {
  const values = {
    ...row,
    deliveredSequence: sql`coalesce((SELECT max(sequence) FROM events WHERE organization_id = ${row.organizationId}), 0)`,
  };
  const [[created]] = await guardedBatch(writer, [writer.db.insert(webhooks).values(values).returning()], [], {
    events: [
      {
        type: "webhook.created",
        organizationId: row.organizationId,
        occurredAt: row.createdAt as Date,
        row: { table: webhooks, where: eq(webhooks.id, row.id) },
      },
    ],
  });
  return created!;
}

/** Stores the record of a delivery (a test's). */
export const recordDelivery = (writer: Writer, delivery: DeliveryInsert) =>
  guardedBatch(writer, [writer.db.insert(webhookDeliveries).values(delivery)]);

const latest = alias(webhookDeliveries, "latest");
const made = alias(webhookDeliveries, "made");
/** The id of the endpoint's attempt at the delivery's event with the highest number (`made`: of those made). */
const lastAttempt = (onlyMade: boolean) =>
  sql`(SELECT a.id FROM webhook_deliveries a WHERE a.webhook_id = ${webhookDeliveries.webhookId} AND a.event_id = ${webhookDeliveries.eventId}
    ${onlyMade ? sql`AND a.status <> 'pending'` : sql``} ORDER BY a.attempt DESC LIMIT 1)`;

/** A delivery's fields: its first attempt (its id), its latest (its status, a retry's time) and its last made. */
const deliveryFields = {
  id: webhookDeliveries.id,
  webhookId: webhookDeliveries.webhookId,
  eventId: webhookDeliveries.eventId,
  eventType: webhookDeliveries.eventType,
  sequence: webhookDeliveries.sequence,
  status: latest.status,
  nextRetryAt: latest.nextRetryAt,
  attempts: sql<number>`(SELECT count(*) FROM webhook_deliveries a WHERE a.webhook_id = ${webhookDeliveries.webhookId}
    AND a.event_id = ${webhookDeliveries.eventId} AND a.status <> 'pending')`.mapWith(Number),
  lastStatusCode: made.responseStatus,
  lastAttemptAt: made.createdAt,
  lastDurationMs: made.durationMs,
  lastError: made.error,
};

const deliveries = (db: Database) =>
  db
    .select(deliveryFields)
    .from(webhookDeliveries)
    .innerJoin(latest, sql`${latest.id} = ${lastAttempt(false)}`)
    .innerJoin(made, sql`${made.id} = ${lastAttempt(true)}`);

/** A page of an endpoint's deliveries (one per event), newest first, read with its extra row (the handler's `pageResult`). */
export const deliveriesPage = (db: Database, webhookId: string, limit: number, cursor: string | undefined) =>
  deliveries(db)
    .where(
      and(
        eq(webhookDeliveries.webhookId, webhookId),
        eq(webhookDeliveries.attempt, 1),
        cursor ? lt(webhookDeliveries.id, decodeIdCursor(cursor)) : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.id))
    .limit(limit + 1);

/** One delivery of the endpoint, with whether its event is still in the feed (a replay needs it). */
const deliveryOf = (db: Database, webhookId: string, deliveryId: string) =>
  db
    .select({ ...deliveryFields, eventKept: sql<number>`EXISTS (SELECT 1 FROM events e WHERE e.id = ${webhookDeliveries.eventId})` })
    .from(webhookDeliveries)
    .innerJoin(latest, sql`${latest.id} = ${lastAttempt(false)}`)
    .innerJoin(made, sql`${made.id} = ${lastAttempt(true)}`)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.webhookId, webhookId), eq(webhookDeliveries.attempt, 1)));

/**
 * Asks for a replay of a delivery: its next attempt, `pending`, for the endpoint's next wake-up (the drain after the
 * request), only if its latest attempt is done (succeeded or failed) and its event still in the feed; else nothing.
 * Answers the delivery as it is after, and whether it existed at all (the second statement of the same batch).
 */
export async function requestReplay(writer: Writer, webhookId: string, deliveryId: string, now: Date) {
  const { db } = writer;
  const insert = db.insert(webhookDeliveries).select(
    sql`SELECT ${newId()}, f.organization_id, f.webhook_id, f.event_id, f.event_type, f.sequence,
        (SELECT max(a.attempt) + 1 FROM webhook_deliveries a WHERE a.webhook_id = f.webhook_id AND a.event_id = f.event_id),
        'pending', NULL, 0, NULL, ${now.getTime()}, ${now.getTime()}
      FROM webhook_deliveries f
      WHERE f.id = ${deliveryId} AND f.webhook_id = ${webhookId} AND f.attempt = 1
        AND (SELECT a.status FROM webhook_deliveries a WHERE a.webhook_id = f.webhook_id AND a.event_id = f.event_id
          ORDER BY a.attempt DESC LIMIT 1) IN ('succeeded', 'failed')
        AND EXISTS (SELECT 1 FROM events e WHERE e.id = f.event_id)`,
  );
  const [, [delivery]] = await guardedBatch(writer, [insert, deliveryOf(db, webhookId, deliveryId)]);
  return delivery;
}
