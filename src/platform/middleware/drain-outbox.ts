import { createMiddleware } from "hono/factory";
import { takeEndpointsToWake } from "@/data/outbox/wake";
import type { AppBindings } from "@/platform/http/env";
import { drainOutbox, wakeEndpoints } from "@/webhook-delivery/drain";

/**
 * After a successful write of an organization, wakes its webhook endpoints that have events to deliver, off the
 * response's path (waitUntil). A write that recorded events read them in its own batch (data/outbox/wake: no round
 * trip); any other write reads them (one read, e.g. an endpoint re-enabled). The Cron Trigger drains everything as a
 * safety net.
 */
export const drainAfterWrites = createMiddleware<AppBindings>(async (c, next) => {
  await next();
  const found = c.var.db ? takeEndpointsToWake(c.var.db) : undefined;
  const organizationId = c.var.principal?.organizationId;
  const queue = c.env.WEBHOOK_QUEUE;
  if (!queue) return;
  const wrote = c.req.method !== "GET" && c.req.method !== "HEAD" && c.res.status < 400;
  if (found === undefined && !(wrote && organizationId)) return;
  if (found?.length === 0) return;
  let ctx: { waitUntil(promise: Promise<unknown>): void };
  try {
    ctx = c.executionCtx;
  } catch {
    return;
  }
  const wake = found === undefined ? drainOutbox(c.var.db, queue, organizationId!) : wakeEndpoints(queue, found);
  ctx.waitUntil(wake.catch((error) => console.error(JSON.stringify({ drain: String(error) }))));
});
