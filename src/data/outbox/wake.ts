import { webhooks } from "@db/schema";
import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "@/data/client";
import { type Placeholders, prepared } from "@/data/prepared";
import { pendingEvents } from "./pending";

export interface WakeUp {
  webhookId: string;
  /** Whose endpoint: the consumer finds its shard through the directory. Absent in messages sent before sharding. */
  organizationId?: string;
}

const endpointsWithEvents = prepared((db, p: Placeholders<{ organizationId: string }>) =>
  db
    .select({ webhookId: webhooks.id, organizationId: webhooks.organizationId })
    .from(webhooks)
    .where(and(eq(webhooks.organizationId, p.organizationId), isNull(webhooks.deletedAt), eq(webhooks.enabled, true), pendingEvents())),
);

/**
 * The endpoints of an organization with events to deliver, read as the last statement of the write batch that
 * records events: the drain after the request then needs no D1 round trip of its own.
 */
export const pendingEndpoints = (db: Database, organizationId: string) => endpointsWithEvents(db, { organizationId });

/** What a request's write batches found, keyed by the request's database (one per request, platform/middleware/database). */
const found = new WeakMap<Database, Map<string, WakeUp>>();

export function noteEndpointsToWake(db: Database, wakeUps: WakeUp[]) {
  const byId = found.get(db) ?? new Map<string, WakeUp>();
  for (const wakeUp of wakeUps) byId.set(wakeUp.webhookId, wakeUp);
  found.set(db, byId);
}

/** The endpoints to wake, or undefined if no write batch of the request recorded an event. */
export function takeEndpointsToWake(db: Database): WakeUp[] | undefined {
  const byId = found.get(db);
  found.delete(db);
  return byId && [...byId.values()];
}
