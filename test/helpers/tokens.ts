import { importJWK, type JWK, SignJWT } from "jose";
import devPartnerKey from "../../dev/dev-partner.private.jwk.json";
import { api } from "./api";
import secondPartnerKey from "./second-partner.private.jwk.json";

export const DEV_PARTNER = "dev-partner";

/** A partner configured for tests (vitest.config.ts's PARTNER_KEYS): its id and signing key. */
export interface Partner {
  id: string;
  key: JWK & { kid: string };
}

/** Another partner than the development one, for tests that one partner's tokens reach nothing of another's. */
export const SECOND_PARTNER: Partner = { id: "second-partner", key: secondPartnerKey };

export interface PartnerClaimsInput {
  organizationId?: string;
  employeeId?: string;
  externalEmployeeId?: string;
  [claim: string]: unknown;
}

/**
 * Signs a partner token with the committed development key, as `npm run token` does, or with another partner's: each
 * with a fresh random `jti` (the exchange takes each token once), unless `jti` names one (null: none at all).
 */
export async function partnerToken(
  claims: PartnerClaimsInput = {},
  options: { ttl?: number; iss?: string; iat?: number; jti?: string | null; partner?: Partner } = {},
) {
  const partner = options.partner ?? { id: DEV_PARTNER, key: devPartnerKey };
  const key = await importJWK(partner.key, "ES256");
  const now = Math.floor(Date.now() / 1000);
  const token = new SignJWT(claims)
    .setProtectedHeader({ alg: "ES256", kid: partner.key.kid })
    .setIssuer(options.iss ?? partner.id)
    .setIssuedAt(options.iat ?? now)
    .setExpirationTime(now + (options.ttl ?? 300));
  if (options.jti !== null) token.setJti(options.jti ?? crypto.randomUUID());
  return token.sign(key);
}

export async function accessToken(claims: PartnerClaimsInput = {}, partner?: Partner) {
  const response = await api("POST", "/api/auth/exchangeToken", { body: { token: await partnerToken(claims, { partner }) } });
  if (response.status !== 200) throw new Error(`exchange failed: ${response.status} ${response.text}`);
  return response.body.accessToken as string;
}
