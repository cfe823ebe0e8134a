import { breakTypes, roles, staffMembers } from "@db/schema";
import { and, eq } from "drizzle-orm";
import type { Database } from "@/data/client";
import { inOrganization } from "@/data/tenancy";
import { unknownBreakIds } from "@/domain/schedule-entry";
import { invalidField } from "@/problems/problem";

/**
 * What a schedule entry names, read in one batch: the staff member must be active and assigned to the location,
 * the role the organization's and each break a live break type of the location; otherwise a 400 naming the field.
 */
export async function checkEntryReferences(
  db: Database,
  organizationId: string,
  locationId: string,
  refs: { employeeId: string; roleId: string; breaks: readonly string[] },
) {
  const [staff, role, types] = await db.batch([
    db
      .select({ active: staffMembers.active, locationIds: staffMembers.locationIds })
      .from(staffMembers)
      .where(and(inOrganization(staffMembers, organizationId), eq(staffMembers.id, refs.employeeId))),
    db
      .select({ id: roles.id })
      .from(roles)
      .where(and(inOrganization(roles, organizationId), eq(roles.id, refs.roleId))),
    db
      .select({ id: breakTypes.id })
      .from(breakTypes)
      .where(and(inOrganization(breakTypes, organizationId), eq(breakTypes.locationId, locationId))),
  ]);
  if (!staff[0]) throw invalidField("employeeId", "no staff member with that id in this organization");
  if (!staff[0].active || !staff[0].locationIds.includes(locationId)) {
    throw invalidField("employeeId", "the staff member is not active and assigned to this location");
  }
  if (!role[0]) throw invalidField("roleId", "no role with that id in this organization");
  const unknown = unknownBreakIds(
    refs.breaks,
    types.map((t) => t.id),
  );
  if (unknown.length > 0) throw invalidField(`breaks.${refs.breaks.indexOf(unknown[0]!)}`, "not a break type of this location");
}
