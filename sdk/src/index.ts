export type { components, operations, paths, webhooks } from "./api-types";
export { createShiftline, type Shiftline, type ShiftlineOptions } from "./client";
export { type Problem, ShiftlineError } from "./errors";
export { IDEMPOTENCY_KEY } from "./idempotency";
export { nextLink } from "./paginate";
export { type RetryOptions, retryDelayMs } from "./retry";
export { verifyWebhook, type WebhookEvent, WebhookVerificationError } from "./webhooks";
