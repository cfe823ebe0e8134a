import { and, eq, isNull } from "drizzle-orm";
import { webhooks } from "../../drizzle/schema";
import type { Database } from "../lib/db";
import { chunk } from "../lib/chunk";
import { pendingEvents } from "./pending";

export interface WakeUp {
  webhookId: string;
}

/**
 * The outbox drain: one queue message per enabled endpoint that has events past its cursor (of an organization,
 * or all). Messages carry no events: the consumer reads them from the outbox after the cursor, so a drain that runs
 * twice (after a request and from the cron) never sends an event twice, only wakes the endpoint twice.
 */
export async function drainOutbox(db: Database, queue: Queue<WakeUp>, organizationId?: string) {
  const pending = await db
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(
      and(
        organizationId ? eq(webhooks.organizationId, organizationId) : undefined,
        isNull(webhooks.deletedAt),
        eq(webhooks.enabled, true),
        pendingEvents(),
      ),
    );
  return wakeEndpoints(queue, pending.map(({ id }) => id));
}

/** One wake-up message per endpoint (sendBatch takes at most 100). */
export async function wakeEndpoints(queue: Queue<WakeUp>, webhookIds: string[]) {
  for (const part of chunk(webhookIds, 100)) await queue.sendBatch(part.map((webhookId) => ({ body: { webhookId } })));
  return webhookIds.length;
}
