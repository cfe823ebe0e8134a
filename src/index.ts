import { app } from "./app";
import { runAccrualPass } from "./jobs/accrual-pass";
import { createDatabase } from "./lib/db";
import { purgeExpiredKeys } from "./lib/idempotency";

export default {
  fetch: app.fetch,
  /** Cron Trigger: drops Idempotency-Key records older than their 24 h window and runs the time-off accrual pass. */
  async scheduled(controller, env, ctx) {
    const db = createDatabase(env.DB);
    ctx.waitUntil(purgeExpiredKeys(db));
    ctx.waitUntil(runAccrualPass(db, new Date(controller.scheduledTime)));
  },
} satisfies ExportedHandler<Env>;
