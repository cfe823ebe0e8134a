import { accessRoles, organizations, staffMembers } from "@db/schema";
import { and, eq, isNull } from "drizzle-orm";
import type { PartnerClaims } from "@/auth/partner-token";
import type { Database } from "@/data/client";
import { isPermission, type Principal } from "@/domain/permissions";
import { unauthorized } from "@/problems/problem";

/** The partner's live organization of this id (its id and whether it is a sandbox), or undefined. */
export async function partnerOrganization(db: Database, organizationId: string, partnerId: string) {
  const [organization] = await db
    .select({ id: organizations.id, sandbox: organizations.sandbox })
    .from(organizations)
    .where(and(eq(organizations.id, organizationId), eq(organizations.partnerId, partnerId), isNull(organizations.deletedAt)));
  return organization;
}

/** The principal of the claims' staff member: active, with their access role's permissions (401 UNKNOWN_EMPLOYEE otherwise). */
export async function staffPrincipal(db: Database, claims: PartnerClaims, organizationId: string): Promise<Principal> {
  const byId = claims.employeeId ? eq(staffMembers.id, claims.employeeId) : eq(staffMembers.externalId, claims.externalEmployeeId!);
  const [member] = await db
    .select({
      id: staffMembers.id,
      active: staffMembers.active,
      accessRoleId: staffMembers.accessRoleId,
      permissions: accessRoles.permissions,
      version: accessRoles.permissionsVersion,
    })
    .from(staffMembers)
    // A deleted access role grants nothing: the member keeps only the self rule.
    .leftJoin(accessRoles, and(eq(accessRoles.id, staffMembers.accessRoleId), isNull(accessRoles.deletedAt)))
    .where(and(eq(staffMembers.organizationId, organizationId), byId, isNull(staffMembers.deletedAt)));
  if (!member?.active) throw unauthorized("UNKNOWN_EMPLOYEE", "No active staff member matches the token's employee claim.");
  return {
    partnerId: claims.partnerId,
    organizationId,
    staffMemberId: member.id,
    permissions: (member.permissions ?? []).filter(isPermission),
    grant: { accessRoleId: member.accessRoleId, version: member.version },
  };
}
