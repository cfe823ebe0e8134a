import { jwtVerify, SignJWT } from "jose";
import { type AccessRoleGrant, isPermission, type Principal } from "@/domain/permissions";

const ISSUER = "shiftline";
const AUDIENCE = "shiftline-api";
export const ACCESS_TOKEN_TTL_SECONDS = 3600;

const key = (secret: string) => new TextEncoder().encode(secret);

/** The access token carries everything authorisation needs, so requests read no database row to authorise. */
export async function signAccessToken(principal: Principal, secret: string, ttlSeconds = ACCESS_TOKEN_TTL_SECONDS) {
  return (
    new SignJWT({
      pid: principal.partnerId,
      org: principal.organizationId,
      emp: principal.staffMemberId,
      perms: principal.permissions,
      ...(principal.grant && { ar: principal.grant.accessRoleId, arv: principal.grant.version }),
    })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      // Its own id: two tokens exchanged in the same second differ, so per-token rate-limit buckets are never shared.
      .setJti(crypto.randomUUID())
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
      .sign(key(secret))
  );
}

/** Returns null for any token this service did not issue or that has expired. */
export async function verifyAccessToken(token: string, secret: string): Promise<Principal | null> {
  try {
    const { payload } = await jwtVerify(token, key(secret), {
      algorithms: ["HS256"],
      issuer: ISSUER,
      audience: AUDIENCE,
    });
    const perms = Array.isArray(payload.perms) ? payload.perms.filter((p): p is string => typeof p === "string") : [];
    if (typeof payload.pid !== "string") return null;
    const grant = grantOf(payload);
    return {
      partnerId: payload.pid,
      organizationId: typeof payload.org === "string" ? payload.org : null,
      staffMemberId: typeof payload.emp === "string" ? payload.emp : null,
      permissions: perms.filter(isPermission),
      ...(grant && { grant }),
    };
  } catch {
    return null;
  }
}

function grantOf(payload: Record<string, unknown>): AccessRoleGrant | undefined {
  const { ar, arv } = payload;
  if (typeof ar !== "string" || !(arv === null || Number.isInteger(arv))) return undefined;
  return { accessRoleId: ar, version: arv as number | null };
}
