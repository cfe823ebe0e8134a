import { createMiddleware } from "hono/factory";
import type { AppBindings } from "../lib/types";
import { drainOutbox } from "../webhooks/drain";

/**
 * After a successful write of an organization, wakes its webhook endpoints that have events to deliver: off the
 * response's path (waitUntil), one read; the Cron Trigger drains everything as a safety net.
 */
export const drainAfterWrites = createMiddleware<AppBindings>(async (c, next) => {
  await next();
  if (c.req.method === "GET" || c.req.method === "HEAD" || c.res.status >= 400) return;
  const organizationId = c.var.principal?.organizationId;
  const queue = c.env.WEBHOOK_QUEUE;
  if (!organizationId || !queue) return;
  let ctx: { waitUntil(promise: Promise<unknown>): void };
  try {
    ctx = c.executionCtx;
  } catch {
    return;
  }
  ctx.waitUntil(drainOutbox(c.var.db, queue, organizationId).catch((error) => console.error(JSON.stringify({ drain: String(error) }))));
});
