import type { RouteConfig, RouteHandler } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import type { Database } from "@/data/client";
import { inOrganization } from "@/data/tenancy";
import type { Writer } from "@/data/write/guarded-batch";
import { expandPermissions, isPartnerLevel, type Permission, type Principal } from "@/domain/permissions";
import type { AppBindings } from "@/platform/http/env";
import { forbidden, invalidField, notFound, ProblemError } from "@/problems/problem";
import { locations, staffMembers } from "../../../drizzle/schema";

/** Whose schedule a request reads or writes, settled before the handler runs. */
export interface ScheduleScope {
  organizationId: string;
  locationId: string;
  /**
   * Set when the caller acts only as themself: a staff member without the route's permission, who sees only
   * published entries and open shifts of their own locations and claims and states preferences for themself.
   */
  ownStaffMemberId: string | null;
  principal: Principal;
}

export interface ScheduleEnv {
  Variables: { schedule: ScheduleScope };
}

/** Who writes for the scope: its principal on the request's database (guardedBatch takes it). */
export const writerOf = (db: Database, scope: ScheduleScope): Writer => ({ db, principal: scope.principal });

export type ScheduleHandler<R extends RouteConfig> = RouteHandler<R, AppBindings & ScheduleEnv>;

/**
 * The permission a schedule or open-shift operation needs, checked against the organization in its path (another
 * is 404). With `self`, a staff member without it may still act as themself (see ScheduleScope).
 */
export const scheduleAccess = (permission: Permission, options: { self?: boolean } = {}) =>
  createMiddleware<AppBindings & ScheduleEnv>(async (c, next) => {
    const principal = c.var.principal;
    const organizationId = c.req.param("organizationId")!;
    if (isPartnerLevel(principal)) {
      throw new ProblemError(403, "ORGANIZATION_SCOPE_REQUIRED", "Exchange a token that names an organization.");
    }
    if (principal.organizationId !== organizationId) throw new ProblemError(404, "ORGANIZATION_NOT_FOUND", "No organization with that id.");
    let ownStaffMemberId: string | null = null;
    if (!expandPermissions(principal.permissions).has(permission)) {
      if (!options.self || !principal.staffMemberId) throw forbidden(`This operation needs the ${permission} permission.`);
      ownStaffMemberId = principal.staffMemberId;
    }
    c.set("schedule", { organizationId, locationId: c.req.param("locationId")!, ownStaffMemberId, principal });
    await next();
  });

/** The scope's location; for a caller acting as themself, only one of their own locations (else 404). */
export async function loadLocation(db: Database, scope: ScheduleScope) {
  const { organizationId, locationId, ownStaffMemberId } = scope;
  const [location, own] = await db.batch([
    db
      .select()
      .from(locations)
      .where(and(inOrganization(locations, organizationId), eq(locations.id, locationId))),
    db
      .select({ locationIds: staffMembers.locationIds })
      .from(staffMembers)
      .where(and(inOrganization(staffMembers, organizationId), eq(staffMembers.id, ownStaffMemberId ?? ""))),
  ]);
  if (!location[0]) throw notFound("Location");
  if (ownStaffMemberId && !own[0]?.locationIds.includes(locationId)) throw notFound("Location");
  return location[0];
}

export type LocationRow = Awaited<ReturnType<typeof loadLocation>>;

/** The staff member a self-service request is about: the body's workerId, else the caller (who may act only as themself). */
export function workerOf(scope: ScheduleScope, workerId: string | undefined): string {
  if (scope.ownStaffMemberId) {
    if (workerId !== undefined && workerId !== scope.ownStaffMemberId) throw forbidden("A staff member may act only for themself here.");
    return scope.ownStaffMemberId;
  }
  const worker = workerId ?? scope.principal.staffMemberId;
  if (!worker) throw invalidField("workerId", "required when the token names no staff member");
  return worker;
}
