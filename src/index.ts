import { app } from "./app";
import { createDatabase } from "./lib/db";
import { purgeExpiredEvents } from "./lib/events";
import { purgeExpiredKeys } from "./lib/idempotency";

export default {
  fetch: app.fetch,
  /** Cron Trigger: drops Idempotency-Key records older than their 24 h window and events older than 30 days. */
  async scheduled(_controller, env, ctx) {
    const db = createDatabase(env.DB);
    ctx.waitUntil(Promise.all([purgeExpiredKeys(db), purgeExpiredEvents(db)]));
  },
} satisfies ExportedHandler<Env>;
