import { describe, expect, it } from "vitest";
import { api } from "../helpers/api";
import { clockIn, createWorkplace, HERE, punch } from "../helpers/workplace";

type Answer = Awaited<ReturnType<typeof api>>;

/** What every response carries, whoever answered it (a handler, a refusal thrown by a middleware, the 404). */
const SECURE_HEADERS = {
  "cross-origin-resource-policy": "cross-origin",
  "cross-origin-opener-policy": "same-origin",
  "origin-agent-cluster": "?1",
  "referrer-policy": "no-referrer",
  "strict-transport-security": "max-age=15552000; includeSubDomains",
  "x-content-type-options": "nosniff",
  "x-dns-prefetch-control": "off",
  "x-download-options": "noopen",
  "x-frame-options": "SAMEORIGIN",
  "x-permitted-cross-domain-policies": "none",
  "x-xss-protection": "0",
};

const EXPOSED =
  "Link,X-Request-Id,X-D1-Bookmark,Idempotent-Replayed,Content-Disposition,ETag,Retry-After,RateLimit,RateLimit-Policy,Shiftline-Version";

function expectPlatformHeaders(res: Answer, { api: underApi = true } = {}) {
  for (const [name, value] of Object.entries(SECURE_HEADERS)) expect(res.headers.get(name), name).toBe(value);
  expect(res.headers.get("x-powered-by")).toBeNull();
  expect(res.headers.get("x-request-id")).toMatch(/^[\w=-]{8,}$/);
  if (underApi) {
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-expose-headers")).toBe(EXPOSED);
    // The API version the answer was served in (domain/api-versions), on every answer, refusals included.
    expect(res.headers.get("shiftline-version")).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  } else {
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  }
}

/**
 * The platform's response headers (request id, CORS, secure headers, the rate-limit policy, the D1 bookmark) on every
 * kind of answer: pinned so that the middleware chain can be shortened without losing one (issue 36).
 */
describe("response headers", () => {
  it("a punch, its replay and the refusals of every layer carry the platform's headers", async () => {
    const w = await createWorkplace();
    const key = `headers-${crypto.randomUUID()}`;
    const first = await clockIn(w, {}, { "Idempotency-Key": key });
    expect(first.status).toBe(200);
    expectPlatformHeaders(first);
    expect(first.headers.get("ratelimit-policy")).toMatch(/^"punches";q=\d+;w=\d+$/);
    expect(first.headers.get("x-d1-bookmark")).toMatch(/:/);
    expect(first.headers.get("content-type")).toMatch(/^application\/json/);
    const replay = await clockIn(w, {}, { "Idempotency-Key": key });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expectPlatformHeaders(replay);
    expect(replay.headers.get("ratelimit-policy")).toMatch(/^"punches"/);

    // Refused by the route's validator, by the handler, by the idempotency check, by the bookmark check.
    const invalid = await punch(w, "clock-in", { roleId: 42, ...HERE });
    const conflict = await clockIn(w);
    const reused = await clockIn(w, { latitude: 1 }, { "Idempotency-Key": key });
    const badBookmark = await clockIn(w, {}, { "X-D1-Bookmark": "nope" });
    for (const [res, status] of [
      [invalid, 400],
      [conflict, 409],
      [reused, 422],
      [badBookmark, 400],
    ] as const) {
      expect(res.status).toBe(status);
      expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expectPlatformHeaders(res);
    }
    for (const res of [invalid, conflict, reused]) expect(res.headers.get("ratelimit-policy")).toMatch(/^"punches"/);
  });

  it("reads, 401, 404, the preflight and a static asset carry them too; a caller's request id is echoed", async () => {
    const w = await createWorkplace();
    const state = await api("GET", `${w.punchPath}/shift-state`, {
      token: w.token,
      headers: { "X-Request-Id": "trace-123" },
    });
    expect(state.status).toBe(200);
    expectPlatformHeaders(state);
    expect(state.headers.get("x-request-id")).toBe("trace-123");
    expect(state.headers.get("ratelimit-policy")).toMatch(/^"api"/);

    const unauthenticated = await api("GET", `/api/organizations/${w.org.id}/roles`);
    expect(unauthenticated.status).toBe(401);
    expectPlatformHeaders(unauthenticated);
    const unknown = await api("GET", "/api/no-such-thing", { token: w.token });
    expect(unknown.status).toBe(404);
    expectPlatformHeaders(unknown);
    const health = await api("GET", "/api/health", { headers: { "X-Request-Id": "bad id!" } });
    expectPlatformHeaders(health);
    expect(health.headers.get("x-request-id")).not.toBe("bad id!");

    const preflight = await api("OPTIONS", "/api/organizations", {
      headers: {
        Origin: "https://app.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization",
      },
    });
    expect(preflight.status).toBe(204);
    expectPlatformHeaders(preflight);
    expect(preflight.headers.get("access-control-allow-methods")).toBe("GET,HEAD,PUT,POST,DELETE,PATCH,QUERY");
    expect(preflight.headers.get("access-control-allow-headers")).toBe("authorization");

    const script = await api("GET", "/api/docs/scalar.js");
    expect(script.status).toBe(200);
    expectPlatformHeaders(script);
    const operator = await api("GET", "/operator/nothing-here");
    expectPlatformHeaders(operator, { api: false });
  });
});
