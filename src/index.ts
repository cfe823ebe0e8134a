import { app } from "./app";
import { createDatabase } from "./lib/db";
import { purgeExpiredKeys } from "./lib/idempotency";

export default {
  fetch: app.fetch,
  /** Cron Trigger: drops Idempotency-Key records older than their 24 h window. */
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(purgeExpiredKeys(createDatabase(env.DB)));
  },
} satisfies ExportedHandler<Env>;
