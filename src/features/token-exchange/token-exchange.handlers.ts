import { ACCESS_TOKEN_TTL_SECONDS, signAccessToken } from "@/auth/access-token";
import { type PartnerClaims, verifyPartnerToken } from "@/auth/partner-token";
import { recordTokenUseAndPin } from "@/data/partner-token-uses";
import { DIRECTORY_SHARD } from "@/data/shards";
import { LATEST_API_VERSION } from "@/domain/api-versions";
import type { Principal } from "@/domain/permissions";
import type { AppRouteHandler } from "@/platform/http/env";
import { databaseOf, routeToOrganization } from "@/platform/middleware/database";
import { unauthorized } from "@/problems/problem";
import { partnerOrganization, staffPrincipal } from "./token-exchange.data";
import type { ExchangeTokenRoute } from "./token-exchange.routes";

const unknownOrganization = () => unauthorized("UNKNOWN_ORGANIZATION", "The token's organization does not exist for this partner.");

/** The claims' organization is read on its shard, which the directory names. */
async function principalFor(c: Parameters<AppRouteHandler<ExchangeTokenRoute>>[0], claims: PartnerClaims): Promise<Principal> {
  if (!claims.organizationId) {
    return { partnerId: claims.partnerId, organizationId: null, staffMemberId: null, permissions: [] };
  }
  const db = await routeToOrganization(c, claims.organizationId);
  if (!db) throw unknownOrganization();
  const organization = await partnerOrganization(db, claims.organizationId, claims.partnerId);
  if (!organization) throw unknownOrganization();
  // A sandbox's tokens say so: its requests read its test clock (src/platform/http/clock.ts), a live one's read nothing.
  const sandbox = organization.sandbox ? { sandbox: true as const } : {};
  if (claims.employeeId || claims.externalEmployeeId) return { ...(await staffPrincipal(db, claims, organization.id)), ...sandbox };
  return {
    partnerId: claims.partnerId,
    organizationId: organization.id,
    staffMemberId: null,
    permissions: ["ORGANIZATION_ADMIN"],
    ...sandbox,
  };
}

export const exchangeToken: AppRouteHandler<ExchangeTokenRoute> = async (c) => {
  const { token } = c.req.valid("json");
  const claims = await verifyPartnerToken(token, c.env.PARTNER_KEYS);
  // The directory's database, where the exchange starts (principalFor may route the request to a shard).
  const directory = databaseOf(c, DIRECTORY_SHARD);
  const role = await principalFor(c, claims);
  // Only a token that would be exchanged is spent: a refused one (unknown organization or employee) may be retried.
  // The partner's first exchange pins it to the current API version (domain/api-versions).
  const use = { partnerId: claims.partnerId, jti: claims.jti, expiresAt: claims.usableUntil };
  const { first, apiVersion } = await recordTokenUseAndPin(directory, use, LATEST_API_VERSION);
  const principal = { ...role, ...(claims.scopes && { scopes: claims.scopes }), ...(apiVersion && { apiVersion }) };
  if (!first) {
    throw unauthorized("TOKEN_REPLAYED", "This partner token was exchanged already: sign a new one (with a new 'jti') for each exchange.");
  }
  const accessToken = await signAccessToken(principal, c.env.TOKEN_SECRET);
  return c.json({ accessToken, tokenType: "Bearer" as const, expiresIn: ACCESS_TOKEN_TTL_SECONDS }, 200);
};
