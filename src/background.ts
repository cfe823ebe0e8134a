// What the scheduled and queue handlers run. src/index.ts imports it on their first invocation: webhook delivery
// serializes events through the routes' serializers, which would otherwise build zod schemas at isolate startup.
export { runAccrualPass } from "./jobs/accrual-pass";
export { createDatabase } from "./lib/db";
export { purgeExpiredEvents } from "./lib/events";
export { purgeExpiredKeys } from "./lib/idempotency";
export { deliverPending } from "./webhooks/deliver";
export { drainOutbox } from "./webhooks/drain";
export { shardBinding, shardConfig } from "./lib/shards";
export { webhookShard } from "./webhooks/shard";
