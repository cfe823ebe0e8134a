import type { HonoRequest } from "hono";
import { createMiddleware } from "hono/factory";
import { claimKey, type IdempotentRequest, releaseKey, requestHash, storeResponse } from "@/data/idempotency";
import type { AppBindings } from "@/platform/http/env";
import { flagsOf } from "@/platform/routes/define-route";
import { badRequest, ProblemError } from "@/problems/problem";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";

export const keyReused = () => new ProblemError(422, "IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was used with a different request.");

export const requestInProgress = () =>
  new ProblemError(409, "IDEMPOTENCY_REQUEST_IN_PROGRESS", "The first request with this Idempotency-Key is still running.");

/** The query belongs to the request: a partner token's `?organizationId=` names what the POST acts on. */
const pathWithQuery = (url: string) => {
  const { pathname, search } = new URL(url);
  return pathname + search;
};

/**
 * What the hash covers of the body: its text, or for a binary body (a kiosk photo) its SHA-256 — read as bytes, so
 * the handler reads the very bytes sent (text would have replaced what is not UTF-8).
 */
async function bodyForHash(req: HonoRequest): Promise<string> {
  if (/^application\/([\w.-]+\+)?json/i.test(req.header("content-type") ?? "") || !req.header("content-type")) return req.text();
  const digest = await crypto.subtle.digest("SHA-256", await req.arrayBuffer());
  return `sha256:${Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * Exactly-once POSTs for retrying clients (phones on bad networks): the first successful response for a key,
 * per organization and caller, is stored for 24 h and replayed; the same key with another body is refused.
 */
export const idempotency = createMiddleware<AppBindings>(async (c, next) => {
  const key = c.req.header(IDEMPOTENCY_HEADER);
  const { idempotency: handling } = flagsOf(c);
  if (handling === undefined || key === undefined) return next();
  if (key.length < 1 || key.length > 255) {
    throw badRequest("INVALID_IDEMPOTENCY_KEY", "Idempotency-Key must be 1 to 255 characters.");
  }
  const { partnerId, organizationId, staffMemberId, device } = c.var.principal;
  const request: IdempotentRequest = {
    // A kiosk's keys are its own: never those of an admin token of its organization.
    scope: `${partnerId}:${organizationId ?? ""}:${staffMemberId ?? (device ? `device:${device.deviceId}` : "")}`,
    key,
    hash: await requestHash(c.req.method, pathWithQuery(c.req.url), await bodyForHash(c.req)),
  };
  // The route looks the key up and records it inside its own batches (data/idempotency `recordStatements`).
  if (handling === "in-batches") {
    c.set("idempotency", request);
    return next();
  }
  const { scope } = request;
  // The key lives in the request's database before any routing by the handler: DB for a partner-level token.
  const db = c.var.db;
  const claim = await claimKey(db, request);
  if (claim.outcome === "reused") throw keyReused();
  if (claim.outcome === "in_progress") throw requestInProgress();
  if (claim.outcome === "replay") {
    const { status, body, contentType } = claim.response;
    return c.body(body, status as 200, { "Content-Type": contentType, "Idempotent-Replayed": "true" });
  }
  await next();
  // Only successes are kept: a refusal (validation, permission, state) changed nothing, so a retry is judged afresh.
  if (!c.res.ok) {
    await releaseKey(db, scope, key);
    return;
  }
  const answer = {
    status: c.res.status,
    body: await c.res.clone().text(),
    contentType: c.res.headers.get("Content-Type") ?? "application/json",
  };
  try {
    await storeResponse(db, scope, key, answer);
  } catch (error) {
    // The write is done and its answer goes out; the unanswered claim is reclaimable after ABANDONED_CLAIM_MS.
    console.error(JSON.stringify({ requestId: c.get("requestId"), idempotencyStoreFailed: String(error) }));
  }
});
