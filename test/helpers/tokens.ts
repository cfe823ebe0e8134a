import { importJWK, type JWK, SignJWT } from "jose";
import devPartnerKey from "../../dev/dev-partner.private.jwk.json";
import { api } from "./api";

export const DEV_PARTNER = "dev-partner";

export interface PartnerClaimsInput {
  organizationId?: string;
  employeeId?: string;
  externalEmployeeId?: string;
  [claim: string]: unknown;
}

/**
 * Signs a partner token with the committed development key, as `npm run token` does: each with a fresh random `jti`
 * (the exchange takes each token once), unless `jti` names one (null: none at all).
 */
export async function partnerToken(
  claims: PartnerClaimsInput = {},
  options: { ttl?: number; iss?: string; iat?: number; jti?: string | null } = {},
) {
  const key = await importJWK(devPartnerKey as JWK, "ES256");
  const now = Math.floor(Date.now() / 1000);
  const token = new SignJWT(claims)
    .setProtectedHeader({ alg: "ES256", kid: devPartnerKey.kid })
    .setIssuer(options.iss ?? DEV_PARTNER)
    .setIssuedAt(options.iat ?? now)
    .setExpirationTime(now + (options.ttl ?? 300));
  if (options.jti !== null) token.setJti(options.jti ?? crypto.randomUUID());
  return token.sign(key);
}

export async function accessToken(claims: PartnerClaimsInput = {}) {
  const response = await api("POST", "/api/auth/exchangeToken", { body: { token: await partnerToken(claims) } });
  if (response.status !== 200) throw new Error(`exchange failed: ${response.status} ${response.text}`);
  return response.body.accessToken as string;
}
