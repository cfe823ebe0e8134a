import type { RouteConfig, RouteHandler } from "@hono/zod-openapi";
import { and, eq, isNull } from "drizzle-orm";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { expandPermissions, isPartnerLevel, type Permission, type Principal } from "@/domain/permissions";
import type { AppBindings } from "@/platform/http/env";
import { routeToOrganization } from "@/platform/middleware/database";
import { forbidden, invalidField, ProblemError } from "@/problems/problem";
import { organizations } from "../../../drizzle/schema";

/** Whose timesheets a request reads or writes, settled before the handler runs. */
export interface TimesheetScope {
  organizationId: string;
  /** Set when the caller may see only their own shifts: a staff member without SHIFT_READ. */
  ownStaffMemberId: string | null;
  principal: Principal;
}

export interface TimesheetEnv {
  Variables: { timesheets: TimesheetScope };
}

export type TimesheetHandler<R extends RouteConfig> = RouteHandler<R, AppBindings & TimesheetEnv>;

const organizationNotFound = () => new ProblemError(404, "ORGANIZATION_NOT_FOUND", "No organization with that id.");

/**
 * The organization of a timesheet request: the one in the path (…/organizations/{organization_id}/…), else
 * the token's. A partner-level token names it with `?organizationId=` and must own it; any other organization
 * is 404, as a missing one.
 */
async function organizationOf(c: Context<AppBindings & TimesheetEnv>): Promise<string> {
  const principal = c.var.principal;
  const pathOrganization = c.req.param("organization_id");
  const queryOrganization = c.req.query("organizationId");
  if (pathOrganization !== undefined) {
    if (isPartnerLevel(principal)) {
      throw new ProblemError(403, "ORGANIZATION_SCOPE_REQUIRED", "Exchange a token that names an organization.");
    }
    if (principal.organizationId !== pathOrganization) throw organizationNotFound();
    return pathOrganization;
  }
  if (!isPartnerLevel(principal)) {
    if (queryOrganization !== undefined && queryOrganization !== principal.organizationId) throw organizationNotFound();
    return principal.organizationId!;
  }
  if (!queryOrganization) throw invalidField("organizationId", "required with a partner-level token");
  // Routed to that organization's shard here: the partner's request reads and writes its timesheets there.
  const db = await routeToOrganization(c, queryOrganization);
  if (!db) throw organizationNotFound();
  const [owned] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(and(eq(organizations.id, queryOrganization), eq(organizations.partnerId, principal.partnerId), isNull(organizations.deletedAt)));
  if (!owned) throw organizationNotFound();
  return owned.id;
}

/**
 * The permission a timesheet operation needs. A partner token acts as the organization's admin. A staff member
 * without SHIFT_READ may still read: their own shifts only (listings are filtered to them, another's shift is 404).
 */
export const timesheetAccess = (permission: Permission) =>
  createMiddleware<AppBindings & TimesheetEnv>(async (c, next) => {
    const principal = c.var.principal;
    const organizationId = await organizationOf(c);
    let ownStaffMemberId: string | null = null;
    const granted = isPartnerLevel(principal) || expandPermissions(principal.permissions).has(permission);
    if (!granted) {
      if (permission !== "SHIFT_READ" || !principal.staffMemberId) {
        throw forbidden(`This operation needs the ${permission} permission.`);
      }
      ownStaffMemberId = principal.staffMemberId;
    }
    c.set("timesheets", { organizationId, ownStaffMemberId, principal });
    await next();
  });

/** Who a change is recorded against: the staff member acting, else the partner's backend. */
export const actorOf = (principal: Principal) => principal.staffMemberId ?? `partner:${principal.partnerId}`;
