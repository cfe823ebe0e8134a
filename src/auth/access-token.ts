import { jwtVerify } from "jose";
import { type AccessRoleGrant, isPermission, type Principal } from "@/domain/permissions";

const ISSUER = "shiftline";
const AUDIENCE = "shiftline-api";
export const ACCESS_TOKEN_TTL_SECONDS = 3600;

const key = (secret: string) => new TextEncoder().encode(secret);

/** The header of every access token, base64url-encoded once: `{"alg":"HS256","typ":"JWT"}`. */
const HEADER = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9";

const base64url = (bytes: Uint8Array) => {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
};

/**
 * The access token carries everything authorisation needs, so requests read no database row to authorise. Signed with
 * WebCrypto directly: jose's SignJWT checks and copies what this builds itself, code a cold isolate's first exchange
 * would compile for nothing (issue 45 item 7); jose verifies these tokens (verifyAccessToken), and
 * test/auth/access-token.test.ts checks that it does.
 */
export async function signAccessToken(principal: Principal, secret: string, ttlSeconds = ACCESS_TOKEN_TTL_SECONDS) {
  const issuedAt = Math.floor(Date.now() / 1000);
  const claims = {
    pid: principal.partnerId,
    org: principal.organizationId,
    emp: principal.staffMemberId,
    perms: principal.permissions,
    ...(principal.grant && { ar: principal.grant.accessRoleId, arv: principal.grant.version }),
    ...(principal.scopes && { scp: principal.scopes }),
    ...(principal.apiVersion && { ver: principal.apiVersion }),
    ...(principal.sandbox && { sbx: true }),
    iss: ISSUER,
    aud: AUDIENCE,
    iat: issuedAt,
    // Its own id: two tokens exchanged in the same second differ, so per-token rate-limit buckets are never shared.
    jti: crypto.randomUUID(),
    exp: issuedAt + ttlSeconds,
  };
  const signingInput = `${HEADER}.${base64url(new TextEncoder().encode(JSON.stringify(claims)))}`;
  const signature = await crypto.subtle.sign("HMAC", await signingKey(secret), new TextEncoder().encode(signingInput));
  return `${signingInput}.${base64url(new Uint8Array(signature))}`;
}

const signingKeys = new Map<string, CryptoKey>();
const signingKey = async (secret: string) => {
  const cached = signingKeys.get(secret);
  if (cached) return cached;
  const imported = await crypto.subtle.importKey("raw", key(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  signingKeys.set(secret, imported);
  return imported;
};

/** The HMAC key of a secret, imported once per isolate (jose would import it from the bytes on every verification). */
const verifyingKeys = new Map<string, CryptoKey>();
const verifyingKey = async (secret: string) => {
  const cached = verifyingKeys.get(secret);
  if (cached) return cached;
  // Cached once imported, never while importing (no promise of one request awaited by another: appFor, src/app.ts).
  const imported = await crypto.subtle.importKey("raw", key(secret), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  verifyingKeys.set(secret, imported);
  return imported;
};

/**
 * Tokens this isolate verified, until they expire: a phone sends the same token for its hour, so its signature is
 * checked once per isolate, not on every punch. Keyed by secret and token (a new secret verifies anew); the oldest
 * entries go first past the capacity. A cached token still expires on time: its `exp` is checked on every use.
 */
const VERIFIED_CAPACITY = 2000;
const verified = new Map<string, { principal: Principal; expiresAt: number }>();

function remember(cacheKey: string, principal: Principal, expiresAt: number) {
  if (verified.size >= VERIFIED_CAPACITY) verified.delete(verified.keys().next().value!);
  verified.set(cacheKey, { principal, expiresAt });
}

/** Returns null for any token this service did not issue or that has expired. */
export async function verifyAccessToken(token: string, secret: string, now = Date.now()): Promise<Principal | null> {
  const cacheKey = `${secret.length}:${secret}\n${token}`;
  const known = verified.get(cacheKey);
  if (known) {
    if (now < known.expiresAt) return known.principal;
    verified.delete(cacheKey);
    return null;
  }
  try {
    const { payload } = await jwtVerify(token, await verifyingKey(secret), {
      algorithms: ["HS256"],
      issuer: ISSUER,
      audience: AUDIENCE,
      currentDate: new Date(now),
    });
    const perms = Array.isArray(payload.perms) ? payload.perms.filter((p): p is string => typeof p === "string") : [];
    if (typeof payload.pid !== "string" || typeof payload.exp !== "number") return null;
    const grant = grantOf(payload);
    const principal: Principal = {
      partnerId: payload.pid,
      organizationId: typeof payload.org === "string" ? payload.org : null,
      staffMemberId: typeof payload.emp === "string" ? payload.emp : null,
      permissions: perms.filter(isPermission),
      ...(grant && { grant }),
      ...(typeof payload.ver === "string" && { apiVersion: payload.ver }),
      ...(Array.isArray(payload.scp) && { scopes: payload.scp.filter((s): s is string => typeof s === "string") }),
      ...(payload.sbx === true && { sandbox: true as const }),
    };
    remember(cacheKey, principal, payload.exp * 1000);
    return principal;
  } catch {
    return null;
  }
}

function grantOf(payload: Record<string, unknown>): AccessRoleGrant | undefined {
  const { ar, arv } = payload;
  if (typeof ar !== "string" || !(arv === null || Number.isInteger(arv))) return undefined;
  return { accessRoleId: ar, version: arv as number | null };
}
