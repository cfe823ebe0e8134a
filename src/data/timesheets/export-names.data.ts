import { locations, roles, staffMembers } from "@db/schema";
import type { Database } from "@/data/client";
import { inOrganization } from "@/data/tenancy";

/**
 * The names an export writes beside each shift's ids, read once per export for the whole organization (deleted
 * rows too: a shift keeps its staff member, location and role), so no page joins them per shift.
 */
export const exportNamesQueries = (db: Database, organizationId: string) =>
  [
    db
      .select({
        id: staffMembers.id,
        name: staffMembers.name,
        externalId: staffMembers.externalId,
        externalPayrollId: staffMembers.externalPayrollId,
      })
      .from(staffMembers)
      .where(inOrganization(staffMembers, organizationId, { includeDeleted: true })),
    db
      .select({ id: locations.id, name: locations.name, externalId: locations.externalId })
      .from(locations)
      .where(inOrganization(locations, organizationId, { includeDeleted: true })),
    db
      .select({ id: roles.id, name: roles.name, externalId: roles.externalId })
      .from(roles)
      .where(inOrganization(roles, organizationId, { includeDeleted: true })),
  ] as const;

type Rows<K extends 0 | 1 | 2> = Awaited<ReturnType<typeof exportNamesQueries>[K]>;

export interface ExportNames {
  staff: Map<string, Rows<0>[number]>;
  locations: Map<string, Rows<1>[number]>;
  roles: Map<string, Rows<2>[number]>;
}

const byId = <T extends { id: string }>(rows: readonly T[]) => new Map(rows.map((r) => [r.id, r]));

export const exportNames = (staff: Rows<0>, locationRows: Rows<1>, roleRows: Rows<2>): ExportNames => ({
  staff: byId(staff),
  locations: byId(locationRows),
  roles: byId(roleRows),
});
