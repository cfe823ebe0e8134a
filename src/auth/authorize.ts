import { createMiddleware } from "hono/factory";
import { isPartnerLevel, mayAct, type Permission } from "@/domain/permissions";
import type { AppBindings } from "@/platform/http/env";
import { forbidden, ProblemError, unauthorized } from "@/problems/problem";
import { verifyAccessToken } from "./access-token";

/** Bearer access token -> c.var.principal. */
export const authenticate = createMiddleware<AppBindings>(async (c, next) => {
  const header = c.req.header("authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match?.[1]) throw unauthorized("MISSING_BEARER_TOKEN", "Send an access token as 'Authorization: Bearer <token>'.");
  const principal = await verifyAccessToken(match[1], c.env.TOKEN_SECRET);
  if (!principal) throw unauthorized("INVALID_ACCESS_TOKEN", "The access token is invalid or has expired.");
  c.set("principal", principal);
  await next();
});

interface AuthorizeOptions {
  /** Name of the path parameter holding a staff member id the caller may act on as themself. */
  self?: string;
  /** Partner-level tokens pass too (organization directory routes, whose queries are scoped by partner). */
  partnerLevel?: boolean;
}

/**
 * The permission a route needs, checked against the organization in its path: a record of another
 * organization answers 404, exactly as a missing one.
 */
export const authorize = (permission: Permission | null, options: AuthorizeOptions = {}) =>
  createMiddleware<AppBindings>(async (c, next) => {
    const principal = c.get("principal");
    if (options.partnerLevel && isPartnerLevel(principal)) return next();
    const organizationId = c.req.param("organization_id") ?? c.req.param("organizationId");
    if (organizationId !== undefined) {
      if (isPartnerLevel(principal)) {
        throw new ProblemError(403, "ORGANIZATION_SCOPE_REQUIRED", "Exchange a token that names an organization.");
      }
      if (principal.organizationId !== organizationId) {
        throw new ProblemError(404, "ORGANIZATION_NOT_FOUND", "No organization with that id.");
      }
    }
    const subject = options.self ? c.req.param(options.self) : undefined;
    if (permission && !mayAct(principal, permission, subject)) throw forbidden(`This operation needs the ${permission} permission.`);
    await next();
  });

/** Operations only a partner-level token may perform (creating organizations). */
export const authorizePartner = createMiddleware<AppBindings>(async (c, next) => {
  if (!isPartnerLevel(c.get("principal"))) {
    throw new ProblemError(403, "PARTNER_SCOPE_REQUIRED", "Use a partner-level token (one without organizationId).");
  }
  await next();
});
