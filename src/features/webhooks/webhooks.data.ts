import { webhookDeliveries, webhooks } from "@db/schema";
import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
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

/** A page of an endpoint's deliveries, newest first, read with its extra row (the handler's `pageResult`). */
export const deliveriesPage = (db: Database, webhookId: string, limit: number, cursor: string | undefined) =>
  db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.webhookId, webhookId), cursor ? lt(webhookDeliveries.id, decodeIdCursor(cursor)) : undefined))
    .orderBy(desc(webhookDeliveries.id))
    .limit(limit + 1);
