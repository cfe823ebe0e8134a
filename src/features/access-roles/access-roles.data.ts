import { accessRoles, staffMembers } from "@db/schema";
import { and, eq, notExists, sql } from "drizzle-orm";
import { inOrganization, softDeleted } from "@/data/tenancy";
import { findLive } from "@/data/tenant-records";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import { type IfMatch, matchesVersion, nextVersion, versionCondition } from "@/platform/http/conditional";
import { conflict, preconditionFailed } from "@/problems/problem";
import type { AccessRoleRow } from "./access-roles.schemas";

/** The organization's access roles, as the crud helpers (platform/crud) list, read and write them. */
export const accessRoleRecords = accessRoles;

/** Tokens issued against the old permissions stop writing (data/write/guarded-batch); a rename leaves them be. */
export const permissionsVersionAfter = (granted: string[]) =>
  sql`CASE WHEN ${accessRoles.permissions} = ${JSON.stringify(granted)}
      THEN ${accessRoles.permissionsVersion} ELSE ${accessRoles.permissionsVersion} + 1 END`;

/**
 * Soft-deletes the access role while no staff member holds it: one conditional statement, so a staff member assigned
 * concurrently cannot be left on a deleted access role. Else 404, 412 (If-Match) or 409 ACCESS_ROLE_IN_USE.
 */
export async function removeUnusedAccessRole(writer: Writer, organizationId: string, id: string, ifMatch: IfMatch): Promise<AccessRoleRow> {
  const { db } = writer;
  const [[row]] = await guardedBatch(
    writer,
    [
      db
        .update(accessRoles)
        .set({ ...softDeleted(), updatedAt: nextVersion(accessRoles.updatedAt) })
        .where(
          and(
            inOrganization(accessRoles, organizationId),
            eq(accessRoles.id, id),
            versionCondition(accessRoles.updatedAt, ifMatch),
            notExists(
              db
                .select({ one: sql`1` })
                .from(staffMembers)
                .where(and(inOrganization(staffMembers, organizationId), eq(staffMembers.accessRoleId, id))),
            ),
          ),
        )
        .returning(),
    ],
    [],
    {
      events: [
        {
          type: "access_role.deleted",
          organizationId,
          row: { table: accessRoles, where: and(eq(accessRoles.organizationId, organizationId), eq(accessRoles.id, id))! },
        },
      ],
    },
  );
  if (row) return row;
  const current = await findLive(db, accessRoles, organizationId, id, "Access role");
  if (!matchesVersion(ifMatch, current)) throw preconditionFailed();
  throw conflict("ACCESS_ROLE_IN_USE", "Staff members still hold this access role; assign them another one first.");
}
