import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { rateLimiter } from "hono-rate-limiter";
import { type AppBindings, setAnsweredHeader } from "@/platform/http/env";
import { flagsOf } from "@/platform/routes/define-route";
import { ProblemError, problemResponse } from "@/problems/problem";
import {
  credentialKey,
  exhaustedHeader,
  policyHeader,
  type RateLimitPolicyName,
  rateLimitPolicy,
  secondsToReset,
} from "./rate-limit-policies";

type AppContext = Context<AppBindings>;

const bearer = (c: AppContext) => /^Bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1] ?? "";

const whose: Record<RateLimitPolicyName, string> = {
  api: "this access token",
  punches: "punches with this access token",
  exchange: "token exchanges from this address",
  enroll: "device enrollments from this address",
  mcp: "/mcp with this access token",
};

function tooManyRequests(c: AppContext, name: RateLimitPolicyName) {
  const policy = rateLimitPolicy(c.env.RATE_LIMITS, name);
  const wait = secondsToReset(policy);
  const problem = new ProblemError(
    429,
    "RATE_LIMITED",
    `Too many requests for ${whose[name]}: at most ${policy.limit} every ${policy.period} s. Retry after ${wait} s.`,
  );
  return problemResponse(problem, {
    "Retry-After": String(wait),
    "RateLimit-Policy": policyHeader(policy),
    RateLimit: exhaustedHeader(policy, wait),
    "X-Request-Id": c.get("requestId") ?? "",
  });
}

/**
 * One bucket of the Workers Rate Limiting binding through hono-rate-limiter. The binding answers only
 * allowed-or-not, so every response advertises the policy (`RateLimit-Policy`) and a refusal adds `RateLimit`
 * with nothing remaining and `Retry-After`.
 */
function bucket(name: RateLimitPolicyName, binding: (env: Env) => RateLimit, key: (c: AppContext) => string | Promise<string>) {
  const limit = rateLimiter<AppBindings>({
    binding: (c) => binding(c.env),
    keyGenerator: key,
    handler: (c) => tooManyRequests(c, name),
  });
  return createMiddleware<AppBindings>(async (c, next) => {
    const response = await limit(c, next);
    if (response) return response;
    setAnsweredHeader(c, "RateLimit-Policy", policyHeader(rateLimitPolicy(c.env.RATE_LIMITS, name)));
  });
}

const isPunch = (c: AppContext) => flagsOf(c).punch === true;

/** Punches (routes flagged `punch`): their own, looser bucket, so a shift change is not refused by other traffic. */
const punchRateLimit = bucket(
  "punches",
  (env) => env.PUNCH_RATE_LIMITER,
  (c) => credentialKey(bearer(c)),
);

/** Every other authenticated request, per access token. */
const otherRateLimit = bucket(
  "api",
  (env) => env.API_RATE_LIMITER,
  (c) => credentialKey(bearer(c)),
);

/** Every authenticated request, per access token, in its route's bucket (after `authenticate`: only valid ones count). */
export const apiRateLimit = createMiddleware<AppBindings>((c, next) => (isPunch(c) ? punchRateLimit : otherRateLimit)(c, next));

/**
 * Route middleware of `/mcp`, per access token, after its token is checked: a bucket of its own, since one MCP message
 * may stand for an API call that the API's bucket counts too.
 */
export const mcpRateLimit = bucket(
  "mcp",
  (env) => env.MCP_RATE_LIMITER,
  (c) => credentialKey(bearer(c)),
);

/** Route middleware of `POST /api/auth/exchangeToken`, per client IP. */
export const exchangeRateLimit = bucket(
  "exchange",
  (env) => env.EXCHANGE_RATE_LIMITER,
  (c) => c.req.header("cf-connecting-ip") ?? "unknown",
);

/** Route middleware of `POST /api/devices/enroll`, per client IP: an enrollment code is not guessed at speed. */
export const enrollRateLimit = bucket(
  "enroll",
  (env) => env.ENROLL_RATE_LIMITER,
  (c) => c.req.header("cf-connecting-ip") ?? "unknown",
);
