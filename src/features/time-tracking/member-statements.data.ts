import { locations, shifts } from "@db/schema";
import { and, eq, isNull } from "drizzle-orm";
import { type Placeholders, prepared } from "@/data/prepared";
import { inOrganization } from "@/data/tenancy";

/*
 * What the punch read and the shift-state read share: a staff member's and a location's placeholders, the member's
 * open shift, the location's row (built once per isolate, data/prepared).
 */

export type Member = Placeholders<{ organizationId: string; staffMemberId: string }>;
export type AtLocation = Placeholders<{ organizationId: string; locationId: string }>;

/** The member's open shift (at most one: the one-open-shift index). */
export const openShiftOf = (p: Member) =>
  and(inOrganization(shifts, p.organizationId), eq(shifts.employeeId, p.staffMemberId), isNull(shifts.endAt));

/** The location, while it is live. */
export const liveLocation = prepared((db, p: AtLocation) =>
  db
    .select()
    .from(locations)
    .where(and(inOrganization(locations, p.organizationId), eq(locations.id, p.locationId))),
);
