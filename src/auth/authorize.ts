import { organizations } from "@db/schema";
import { and, eq, isNull } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import { LATEST_API_VERSION } from "@/domain/api-versions";
import { isPartnerLevel, mayAct, type Permission, type Principal } from "@/domain/permissions";
import { scopesGrant } from "@/domain/token-scopes";
import type { AppBindings, AppContext } from "@/platform/http/env";
import { routeToOrganization } from "@/platform/middleware/database";
import { flagsOf, requiredScopeOf } from "@/platform/routes/define-route";
import { forbidden, invalidField, ProblemError, unauthorized } from "@/problems/problem";
import { verifyAccessToken } from "./access-token";
import { checkDeviceAfter, devicePrincipal, deviceToRead } from "./device-auth";
import { isDeviceToken } from "./device-token";

const insufficientScope = (scope: string) =>
  new ProblemError(403, "INSUFFICIENT_SCOPE", `This operation needs the '${scope}' scope, which the token's scopes do not grant.`, {
    requiredScope: scope,
  });

const deviceOnlyForKiosk = () => forbidden("A device token is good only for the kiosk operations (/api/kiosk/…) of its location.");

/**
 * Bearer token -> c.var.principal: an access token, or a kiosk's device token (`sld_…`), which only the kiosk
 * operations (flag scope `device`) accept; every other operation answers it 403 once the device is known. A kiosk
 * punch reads its device in its own read batch (device-auth: `deviceToRead`); answered before that read, it reads
 * the device after, so a revoked device is 401 DEVICE_REVOKED whatever else was wrong.
 */
export const authenticate = createMiddleware<AppBindings>(async (c, next) => {
  const header = c.req.header("authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match?.[1]) throw unauthorized("MISSING_BEARER_TOKEN", "Send an access token as 'Authorization: Bearer <token>'.");
  if (isDeviceToken(match[1])) {
    const flags = flagsOf(c);
    if (flags.scope === "device" && flags.punch) {
      const device = await deviceToRead(c, match[1]);
      c.set("principal", device);
      await next();
      return checkDeviceAfter(c, match[1], device);
    }
    const device = await devicePrincipal(c, match[1]);
    if (flags.scope !== "device") throw deviceOnlyForKiosk();
    c.set("principal", device);
    return next();
  }
  const principal = await verifyAccessToken(match[1], c.env.TOKEN_SECRET);
  if (!principal) throw unauthorized("INVALID_ACCESS_TOKEN", "The access token is invalid or has expired.");
  const needed = requiredScopeOf(c);
  if (needed !== null && !scopesGrant(principal.scopes, needed)) throw insufficientScope(needed);
  c.set("principal", principal);
  c.set("apiVersion", c.var.requestedVersion ?? principal.apiVersion ?? LATEST_API_VERSION);
  await next();
});

interface AuthorizeOptions {
  /** Name of the path parameter holding a staff member id the caller may act on as themself. */
  self?: string;
  /** Without the permission, a staff member may still act, only as themself (`scope.ownStaffMemberId`). */
  asThemself?: boolean;
  /** Partner-level tokens pass too (organization directory routes, whose queries are scoped by partner). */
  partnerLevel?: boolean;
  /**
   * Where the organization comes from when the path names none: the caller's token, or for a partner-level token
   * `?organizationId=` (one of the partner's, routed to its shard), the partner then acting as its admin.
   */
  organizationOfCaller?: boolean;
}

const organizationNotFound = () => new ProblemError(404, "ORGANIZATION_NOT_FOUND", "No organization with that id.");
const organizationScopeRequired = () =>
  new ProblemError(403, "ORGANIZATION_SCOPE_REQUIRED", "Exchange a token that names an organization.");

/**
 * The organization a request acts on: the one in its path (another's is 404, exactly as a missing one), else the
 * token's; with `organizationOfCaller`, a partner-level token names one of its own with `?organizationId=`.
 */
async function organizationOf(c: AppContext, principal: Principal, options: AuthorizeOptions): Promise<string | null> {
  const inPath = c.req.param("organization_id") ?? c.req.param("organizationId");
  if (inPath !== undefined) {
    if (isPartnerLevel(principal)) throw organizationScopeRequired();
    if (principal.organizationId !== inPath) throw organizationNotFound();
    return inPath;
  }
  if (!options.organizationOfCaller) return principal.organizationId;
  const named = c.req.query("organizationId");
  if (!isPartnerLevel(principal)) {
    if (named !== undefined && named !== principal.organizationId) throw organizationNotFound();
    return principal.organizationId;
  }
  if (!named) throw invalidField("organizationId", "required with a partner-level token");
  // Routed to that organization's shard here: the partner's request reads and writes there.
  const db = await routeToOrganization(c, named);
  if (!db) throw organizationNotFound();
  const [owned] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(and(eq(organizations.id, named), eq(organizations.partnerId, principal.partnerId), isNull(organizations.deletedAt)));
  if (!owned) throw organizationNotFound();
  return owned.id;
}

/**
 * The one authorization step: the permission a route needs, checked against the organization it acts on, which
 * leaves who acts on what in `c.var.scope` for the handler. A partner token naming an organization acts as its admin.
 */
export const authorize = (permission: Permission | null, options: AuthorizeOptions = {}) =>
  createMiddleware<AppBindings>(async (c, next) => {
    const principal = c.var.principal;
    if (options.partnerLevel && isPartnerLevel(principal)) return next();
    const organizationId = await organizationOf(c, principal, options);
    let ownStaffMemberId: string | null = null;
    const subject = options.self ? c.req.param(options.self) : undefined;
    const granted = permission === null || mayAct(principal, permission, subject) || (isPartnerLevel(principal) && organizationId !== null);
    if (!granted) {
      if (!options.asThemself || !principal.staffMemberId) throw forbidden(`This operation needs the ${permission} permission.`);
      ownStaffMemberId = principal.staffMemberId;
    }
    const locationId = c.req.param("locationId") ?? c.req.param("location_id") ?? null;
    // Only a partner's own directory routes act on no organization; they read `c.var.principal`.
    if (organizationId !== null) c.set("scope", { principal, organizationId, locationId, ownStaffMemberId });
    await next();
  });

/**
 * The kiosk operations' authorization: a device token only (an access token is 403), acting on its organization
 * and location (`scope.locationId` is the device's).
 */
export const authorizeDevice = createMiddleware<AppBindings>(async (c, next) => {
  const principal = c.var.principal;
  if (!principal.device || principal.organizationId === null) {
    throw forbidden("Kiosk operations take a device token (POST /api/devices/enroll), not an access token.");
  }
  c.set("scope", { principal, organizationId: principal.organizationId, locationId: principal.device.locationId, ownStaffMemberId: null });
  await next();
});

/** Operations only a partner-level token may perform (creating organizations). */
export const authorizePartner = createMiddleware<AppBindings>(async (c, next) => {
  if (!isPartnerLevel(c.get("principal"))) {
    throw new ProblemError(403, "PARTNER_SCOPE_REQUIRED", "Use a partner-level token (one without organizationId).");
  }
  await next();
});
