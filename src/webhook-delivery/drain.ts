import { webhooks } from "@db/schema";
import { and, eq, isNull } from "drizzle-orm";
import { chunk } from "@/data/chunk";
import type { Database } from "@/data/client";
import { pendingEvents } from "@/data/outbox/pending";
import type { WakeUp } from "@/data/outbox/wake";

/**
 * The outbox drain: one queue message per enabled endpoint that has events past its cursor (of an organization,
 * or all of `db`'s shard). Messages carry no events: the consumer reads them from the outbox after the cursor, so a
 * drain that runs twice (after a request and from the cron) never sends an event twice, only wakes the endpoint twice.
 */
export async function drainOutbox(db: Database, queue: Queue<WakeUp>, organizationId?: string) {
  const pending = await db
    .select({ webhookId: webhooks.id, organizationId: webhooks.organizationId })
    .from(webhooks)
    .where(
      and(
        organizationId ? eq(webhooks.organizationId, organizationId) : undefined,
        isNull(webhooks.deletedAt),
        eq(webhooks.enabled, true),
        pendingEvents(),
      ),
    );
  return wakeEndpoints(queue, pending);
}

/** One wake-up message per endpoint (sendBatch takes at most 100). */
export async function wakeEndpoints(queue: Queue<WakeUp>, wakeUps: WakeUp[]) {
  for (const part of chunk(wakeUps, 100)) await queue.sendBatch(part.map((body) => ({ body })));
  return wakeUps.length;
}
