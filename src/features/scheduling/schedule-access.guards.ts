import { staffMembers } from "@db/schema";
import { and, eq } from "drizzle-orm";
import type { Database } from "@/data/client";
import { liveLocation } from "@/data/live-location";
import { type Placeholders, prepared } from "@/data/prepared";
import { inOrganization } from "@/data/tenancy";
import type { Writer } from "@/data/write/guarded-batch";
import type { Scope } from "@/domain/scope";
import type { AppContext } from "@/platform/http/env";
import { forbidden, invalidField, notFound } from "@/problems/problem";

/** Whose schedule a request reads or writes: the request's scope, whose path always names a location. */
export type ScheduleScope = Scope & { locationId: string };

/** The scope `authorize` settled, for a schedule or open-shift route (its path names the location). */
export function scheduleScope(c: AppContext): ScheduleScope {
  const scope = c.var.scope;
  if (scope.locationId === null) throw new Error("a schedule route without a location in its path");
  return scope as ScheduleScope;
}

/** Who writes for the scope: its principal on the request's database (guardedBatch takes it). */
export const writerOf = (db: Database, scope: ScheduleScope): Writer => ({ db, principal: scope.principal });

/** The locations of a staff member (none for the empty id: a caller acting for the organization). */
const locationsOf = prepared((db, p: Placeholders<{ organizationId: string; staffMemberId: string }>) =>
  db
    .select({ locationIds: staffMembers.locationIds })
    .from(staffMembers)
    .where(and(inOrganization(staffMembers, p.organizationId), eq(staffMembers.id, p.staffMemberId))),
);

/** The scope's location; for a caller acting as themself, only one of their own locations (else 404). */
export async function loadLocation(db: Database, scope: ScheduleScope) {
  const { organizationId, locationId, ownStaffMemberId } = scope;
  const [location, own] = await db.batch([
    liveLocation(db, { organizationId, locationId }),
    locationsOf(db, { organizationId, staffMemberId: ownStaffMemberId ?? "" }),
  ]);
  if (!location[0]) throw notFound("Location");
  if (ownStaffMemberId && !own[0]?.locationIds.includes(locationId)) throw notFound("Location");
  return location[0];
}

export type LocationRow = Awaited<ReturnType<typeof loadLocation>>;

/** The request's schedule scope with its location's row, read once (a location not the caller's to see is 404). */
export async function scopeAtLocation(c: AppContext): Promise<{ scope: ScheduleScope; location: LocationRow }> {
  const scope = scheduleScope(c);
  return { scope, location: await loadLocation(c.var.db, scope) };
}

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
