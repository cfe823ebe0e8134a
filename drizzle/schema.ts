// The tables, one file per area; drizzle-kit reads them all through this file.
export * from "./schema/attendance";
export * from "./schema/availability";
export * from "./schema/directory";
export * from "./schema/events";
export * from "./schema/exports";
export * from "./schema/idempotency";
export * from "./schema/partner-tokens";
export * from "./schema/pay";
export * from "./schema/schedules";
export * from "./schema/shard-directory";
export * from "./schema/shard-moves";
export * from "./schema/shift-requests";
export * from "./schema/time-off";
export * from "./schema/time-tracking";
export * from "./schema/timesheets";
export * from "./schema/webhooks";
export * from "./schema/write-guards";
