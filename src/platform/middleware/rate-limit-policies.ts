export const RATE_LIMIT_POLICIES = ["api", "punches", "exchange", "enroll", "mcp"] as const;
export type RateLimitPolicyName = (typeof RATE_LIMIT_POLICIES)[number];

export interface RateLimitPolicy {
  name: RateLimitPolicyName;
  /** Requests allowed per window: the `simple.limit` of the policy's [[ratelimits]] binding. */
  limit: number;
  /** Window in seconds: the binding's `simple.period` (10 or 60). */
  period: 10 | 60;
}

type Settings = Record<RateLimitPolicyName, Omit<RateLimitPolicy, "name">>;
let cached: { source: string | undefined; settings: Settings } | undefined;

const isSetting = (value: unknown): value is Omit<RateLimitPolicy, "name"> => {
  if (typeof value !== "object" || value === null) return false;
  const { limit, period } = value as Record<string, unknown>;
  return Number.isInteger(limit) && (limit as number) > 0 && (period === 10 || period === 60);
};

/**
 * Every policy's setting, checked by hand rather than by a zod schema: this runs on the first request of a cold isolate
 * (issue 45 item 7), where a schema's first parse costs more than the whole check.
 */
function settings(source: string | undefined): Settings {
  if (cached && cached.source === source) return cached.settings;
  let parsed: unknown;
  try {
    parsed = JSON.parse(source ?? "null");
  } catch {
    parsed = null;
  }
  const record = typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
  const invalid = RATE_LIMIT_POLICIES.filter((name) => !isSetting(record[name]));
  if (invalid.length > 0) {
    throw new Error(
      `RATE_LIMITS is missing or invalid: ${invalid.join(", ")} must each be { "limit": a positive integer, "period": 10 or 60 }.`,
    );
  }
  const checked = Object.fromEntries(
    RATE_LIMIT_POLICIES.map((name) => {
      const { limit, period } = record[name] as RateLimitPolicy;
      return [name, { limit, period }];
    }),
  ) as Settings;
  cached = { source, settings: checked };
  return checked;
}

/** The policy as `RATE_LIMITS` in wrangler.toml [vars] states it (parsed once per isolate). */
export const rateLimitPolicy = (source: string | undefined, name: RateLimitPolicyName): RateLimitPolicy => ({
  name,
  ...settings(source)[name],
});

/**
 * Header values in the format of draft-ietf-httpapi-ratelimit-headers-10 (structured-field lists of named
 * policies, unchanged since -08): `RateLimit-Policy: "api";q=600;w=60`, `RateLimit: "api";r=0;t=30`.
 */
export const policyHeader = (policy: RateLimitPolicy) => `"${policy.name}";q=${policy.limit};w=${policy.period}`;

export const exhaustedHeader = (policy: RateLimitPolicy, resetSeconds: number) => `"${policy.name}";r=0;t=${resetSeconds}`;

/**
 * Seconds until the current window closes, counting windows from the epoch as the local binding does; the
 * deployed binding reports no reset time, so there it is an estimate within one period.
 */
export const secondsToReset = (policy: RateLimitPolicy, nowMs = Date.now()) =>
  Math.max(1, Math.ceil(policy.period - ((nowMs / 1000) % policy.period)));

async function digestKey(credential: string) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(credential));
  return [...new Uint8Array(digest).slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Keys of the credentials this isolate has seen (a phone sends the same token all hour), the oldest out first. */
const keys = new Map<string, string>();
const MAX_KEYS = 1000;

/**
 * A bucket key that does not keep the credential itself: the first 128 bits of its SHA-256, hex. Keys are cached once
 * computed, never while being computed (no promise of one request awaited by another: see appFor in src/app.ts).
 */
export async function credentialKey(credential: string): Promise<string> {
  const cached = keys.get(credential);
  if (cached !== undefined) return cached;
  const key = await digestKey(credential);
  if (keys.size >= MAX_KEYS) keys.delete(keys.keys().next().value ?? "");
  keys.set(credential, key);
  return key;
}
