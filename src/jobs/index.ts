// What the scheduled and queue handlers run. src/worker.ts imports it on their first invocation: webhook delivery
// serializes events through the routes' serializers, which would otherwise build zod schemas at isolate startup.

export { createDatabase } from "@/data/client";
export { purgeExpiredKeys } from "@/data/idempotency";
export { purgeExpiredEvents } from "@/data/outbox/outbox";
export { purgeExpiredTokenUses } from "@/data/partner-token-uses";
export { DATA_REGIONS, directoryBinding, filesOf, shardBinding, shardConfig } from "@/data/shards";
export { drainOutbox } from "@/webhook-delivery/drain";
export { webhookShard } from "@/webhook-delivery/shard";
export { runCronAccrual } from "./accrual-job";
export { runAccrualPass } from "./accrual-pass";
export { runAttendancePass, STATEMENTS_PER_INVOCATION } from "./attendance-pass";
export { HORIZON_STATEMENTS, runAvailabilityHorizonPass } from "./availability-horizon";
export { resendStalledExports } from "./export-resend";
export { runSandboxesPass, runSandboxPasses } from "./sandbox-passes";
export { sweepOrphanFiles } from "./sweep-files";
export { sweepDeletedOrganizationPhotos } from "./sweep-photos";
export { deliverPending, newQueryBudget } from "./webhook-delivery";
