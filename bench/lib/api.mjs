// A small JSON client for a Worker under `wrangler dev`, and the development partner's tokens.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { importJWK, SignJWT } from "jose";

const DEV_PARTNER = "dev-partner";
const KEY_PATH = join(import.meta.dirname, "..", "..", "dev", "dev-partner.private.jwk.json");

/** `fetch` against one base URL (always loopback: see servers.mjs), answering status, headers and parsed JSON. */
export function client(baseUrl) {
  if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(baseUrl)) throw new Error(`bench targets 127.0.0.1 only, not ${baseUrl}`);
  return async function request(method, path, { token, body, headers = {}, timeoutMs = 30_000 } = {}) {
    const init = { method, headers: { ...headers } };
    if (token) init.headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await fetch(`${baseUrl}${path}`, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.text();
    let json;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, body: json, text };
  };
}

/** Answers the body when the status is the expected one, else throws with what the server said. */
export async function expectStatus(promise, status, what) {
  const res = await promise;
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${res.text.slice(0, 500)}`);
  return res.body;
}

let partnerKey;
/** A partner token signed with the committed development key, as `npm run token` does: a fresh `jti` each (one exchange each). */
export async function partnerToken(claims = {}, ttlSeconds = 300) {
  partnerKey ??= JSON.parse(readFileSync(KEY_PATH, "utf8"));
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "ES256", kid: partnerKey.kid, typ: "JWT" })
    .setIssuer(DEV_PARTNER)
    .setIssuedAt(now)
    .setJti(randomUUID())
    .setExpirationTime(now + ttlSeconds)
    .sign(await importJWK(partnerKey, "ES256"));
}

/** The Worker's own access token (valid one hour) for those partner claims. */
export async function accessToken(request, claims = {}) {
  const body = await expectStatus(
    request("POST", "/api/auth/exchangeToken", { body: { token: await partnerToken(claims) } }),
    200,
    "token exchange",
  );
  return body.accessToken;
}

/**
 * `count` access tokens of the organization (each exchange signs a new one): a load spread over them stays under the
 * API's per-token rate limit (600 a minute), as many users' requests do, where one token would be answered 429.
 */
export async function organizationTokens(request, organizationId, count) {
  const tokens = [];
  for (let i = 0; i < count; i++) tokens.push(await accessToken(request, { organizationId }));
  return tokens;
}

/** A new organization with its defaults, created through the API as a partner would, with its admin's token. */
export async function seedOrganization(request, body) {
  const partner = await accessToken(request);
  const org = await expectStatus(request("POST", "/api/organizations/with-defaults", { token: partner, body }), 201, "organization");
  return { org, admin: await accessToken(request, { organizationId: org.id }) };
}
