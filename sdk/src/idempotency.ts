import type { Middleware } from "openapi-fetch";

export const IDEMPOTENCY_KEY = "Idempotency-Key";

/**
 * Every POST carries an `Idempotency-Key`: the caller's when it passes one (`headers: { "Idempotency-Key": … }`), else a
 * random UUID, so a retry of the same call (by this client after a 429/503, or by the caller with the same key) is
 * answered once. The API takes keys on POSTs; PATCH, PUT and DELETE name the record they change.
 */
export const idempotencyKeys: Middleware = {
  onRequest({ request }) {
    if (request.method !== "POST" || request.headers.has(IDEMPOTENCY_KEY)) return undefined;
    request.headers.set(IDEMPOTENCY_KEY, crypto.randomUUID());
    return request;
  },
};
