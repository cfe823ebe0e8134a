import { staffMembers } from "@db/schema";
import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { inJsonList } from "@/data/json-list";
import { type ConstraintProblems, whenNull } from "@/data/write/constraint-problems";
import { conflict, forbidden } from "@/problems/problem";

/**
 * What a staff member write checks in the write itself, not in the read before it (the same mechanism as
 * timesheets/shift-guards): a NOT NULL column of staff_members turns NULL when the invariant would break, so the
 * statement — and the D1 batch it is in — fails as a whole, and the constraint's name says which invariant:
 *   staff_members.access_role_id NULL → the access role was deleted meanwhile (ACCESS_ROLE_DELETED, 409)
 *   staff_members.name NULL           → a synced member meanwhile got an access role the caller may not grant (403)
 */

/** The access role's id while it is live, else NULL: binds `access_role_id` in an insert or update. */
export const liveAccessRole = (organizationId: string, accessRoleId: string): SQL =>
  sql`(SELECT id FROM access_roles WHERE id = ${accessRoleId} AND organization_id = ${organizationId} AND deleted_at IS NULL)`;

/** Members holding one of these access roles: what a caller may update, delete or deactivate. */
export const holdingOneOf = (accessRoleIds: readonly string[]): SQL => inJsonList(staffMembers.accessRoleId, accessRoleIds);

/**
 * A statement that inserts nothing unless some staff member `offending` picks (over the alias `m`) exists; then
 * it tries a copy of that member with `nulled` set to NULL, which fails the batch. (INSERT … SELECT names every
 * column in declared order, so the copy lists them all.)
 */
function failIfAny(db: Database, nulled: "name" | "access_role_id", offending: SQL) {
  const copy = Object.values(getTableColumns(staffMembers)).map(({ name }) =>
    name === nulled ? "NULL" : name === "id" ? "'guard:' || m.id" : `m.${name}`,
  );
  return db.insert(staffMembers).select(sql`SELECT ${sql.raw(copy.join(", "))} FROM staff_members AS m WHERE ${offending} LIMIT 1`);
}

const namedBy = (organizationId: string, externalIds: readonly string[]) =>
  sql`m.organization_id = ${organizationId} AND m.external_id IN (SELECT value FROM json_each(${JSON.stringify(externalIds)}))`;

/** Fails the batch when a member with one of the externalIds, deleted ones too, holds an access role not in `grantable`. */
export const unlessAllManageable = (db: Database, organizationId: string, externalIds: readonly string[], grantable: readonly string[]) =>
  failIfAny(
    db,
    "name",
    sql`${namedBy(organizationId, externalIds)} AND m.access_role_id NOT IN (SELECT value FROM json_each(${JSON.stringify(grantable)}))`,
  );

/** Fails the batch when a live member with one of the externalIds holds an access role that is not live. */
export const unlessAccessRolesLive = (db: Database, organizationId: string, externalIds: readonly string[]) =>
  failIfAny(
    db,
    "access_role_id",
    sql`${namedBy(organizationId, externalIds)} AND m.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM access_roles AS a
      WHERE a.id = m.access_role_id AND a.organization_id = m.organization_id AND a.deleted_at IS NULL)`,
  );

export const accessRoleDeleted = () =>
  conflict("ACCESS_ROLE_DELETED", "The access role was deleted by another request meanwhile; pick a live one and retry.");

/** The problem each guard's failure means. */
export const guardProblems: ConstraintProblems = [
  whenNull(staffMembers.accessRoleId, accessRoleDeleted),
  whenNull(staffMembers.name, () =>
    forbidden("A staff member the payload names got an access role you may not grant meanwhile; nothing was written."),
  ),
];
