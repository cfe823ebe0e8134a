// What the scheduled and queue handlers run. src/worker.ts imports it on their first invocation: webhook delivery
// serializes events through the routes' serializers, which would otherwise build zod schemas at isolate startup.
export { runAccrualPass } from "./accrual-pass";
export { createDatabase } from "@/data/client";
export { purgeExpiredEvents } from "@/data/outbox/outbox";
export { purgeExpiredKeys } from "@/data/idempotency";
export { deliverPending } from "./webhook-delivery";
export { drainOutbox } from "@/webhooks/drain";
export { shardBinding, shardConfig } from "@/data/shards";
export { webhookShard } from "@/webhooks/shard";
