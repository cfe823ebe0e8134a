import { describe, expect, it } from "vitest";
import { credentialKey, exhaustedHeader, policyHeader, rateLimitPolicy, secondsToReset } from "@/platform/middleware/rate-limit-policies";

const SOURCE = JSON.stringify({
  api: { limit: 600, period: 60 },
  punches: { limit: 1200, period: 60 },
  exchange: { limit: 30, period: 10 },
  enroll: { limit: 30, period: 60 },
  mcp: { limit: 300, period: 60 },
});

describe("rate limit policies", () => {
  it("reads a policy from RATE_LIMITS and writes the draft-10 header values", () => {
    const api = rateLimitPolicy(SOURCE, "api");
    expect(api).toEqual({ name: "api", limit: 600, period: 60 });
    expect(policyHeader(api)).toBe('"api";q=600;w=60');
    expect(exhaustedHeader(rateLimitPolicy(SOURCE, "exchange"), 7)).toBe('"exchange";r=0;t=7');
  });

  it("refuses a missing policy, a period the binding does not offer, or no RATE_LIMITS", () => {
    expect(() => rateLimitPolicy(JSON.stringify({ api: { limit: 1, period: 60 } }), "api")).toThrow(/RATE_LIMITS/);
    expect(() => rateLimitPolicy(SOURCE.replace('"period":10', '"period":30'), "api")).toThrow(/RATE_LIMITS/);
    expect(() => rateLimitPolicy(undefined, "api")).toThrow(/RATE_LIMITS/);
  });

  it("counts the seconds left in the clock-aligned window, at least one", () => {
    const api = rateLimitPolicy(SOURCE, "api");
    expect(secondsToReset(api, 60_000 * 1000)).toBe(60);
    expect(secondsToReset(api, 60_000 * 1000 + 45_500)).toBe(15);
    expect(secondsToReset(api, 60_000 * 1000 + 59_999)).toBe(1);
  });

  it("keys a bucket by a digest, never by the credential", async () => {
    const key = await credentialKey("secret.token.value");
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(key).not.toContain("secret");
    expect(await credentialKey("secret.token.value")).toBe(key);
    expect(await credentialKey("secret.token.valuf")).not.toBe(key);
  });
});
