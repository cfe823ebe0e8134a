import { describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";

const bindingOf = {
  api: "API_RATE_LIMITER",
  punches: "PUNCH_RATE_LIMITER",
  exchange: "EXCHANGE_RATE_LIMITER",
  enroll: "ENROLL_RATE_LIMITER",
  mcp: "MCP_RATE_LIMITER",
} as const;

/** Where the advertised limits (RATE_LIMITS) and the enforced ones ([[ratelimits]]) disagree. */
function drift(config: { vars: Record<string, unknown>; ratelimits: { name: string; simple: { limit: number; period?: number } }[] }) {
  const advertised = JSON.parse(String(config.vars.RATE_LIMITS)) as Record<string, { limit: number; period: number }>;
  return Object.entries(bindingOf).flatMap(([policy, name]) => {
    const binding = config.ratelimits.find((r) => r.name === name);
    const stated = advertised[policy];
    if (!binding || !stated) return [`${policy}: no ${name} binding or no RATE_LIMITS entry`];
    const enforced = { limit: binding.simple.limit, period: binding.simple.period ?? 60 };
    return enforced.limit === stated.limit && enforced.period === stated.period
      ? []
      : [`${policy}: RATE_LIMITS says ${JSON.stringify(stated)}, ${name} enforces ${JSON.stringify(enforced)}`];
  });
}

describe("wrangler.toml rate limits", () => {
  const config = unstable_readConfig({ config: "wrangler.toml" }) as unknown as Parameters<typeof drift>[0];

  it("advertises (RATE_LIMITS) exactly the limits its [[ratelimits]] bindings enforce", () => {
    expect(drift(config)).toEqual([]);
  });

  it("the comparison reports a binding changed without its advertised limit", () => {
    const changed = structuredClone(config);
    changed.ratelimits.find((r) => r.name === "PUNCH_RATE_LIMITER")!.simple.limit += 1;
    expect(drift(changed)).toEqual([expect.stringMatching(/^punches: RATE_LIMITS says/)]);
  });
});
