import { staffMembers } from "@db/schema";
import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Database } from "@/data/client";
import { inJsonList } from "@/data/json-list";
import type { ConstraintProblems } from "@/data/write/constraint-problems";
import { guard } from "@/data/write/guard";
import { conflict, forbidden } from "@/problems/problem";

/*
 * What a staff member write checks in the write itself, not in the read before it: guards (data/write/guard) on
 * NOT NULL columns of staff_members, as a value of the row written or, for a sync, as a statement of its batch that
 * writes a NULL copy of an offending member.
 */

export const accessRoleDeleted = () =>
  conflict("ACCESS_ROLE_DELETED", "The access role was deleted by another request meanwhile; pick a live one and retry.");

/** staff_members.access_role_id: the access role's id while it is live. */
export const liveAccessRole = guard({
  column: staffMembers.accessRoleId,
  problem: accessRoleDeleted,
  sql: (organizationId: string, accessRoleId: string) =>
    sql`(SELECT id FROM access_roles WHERE id = ${accessRoleId} AND organization_id = ${organizationId} AND deleted_at IS NULL)`,
});

/** Members holding one of these access roles: what a caller may update, delete or deactivate. */
export const holdingOneOf = (accessRoleIds: readonly string[]): SQL => inJsonList(staffMembers.accessRoleId, accessRoleIds);

/**
 * A statement that inserts nothing unless some staff member `offending` picks (over the alias `m`) exists; then
 * it tries a copy of that member with `nulled` set to NULL, which fails the batch. (INSERT … SELECT names every
 * column in declared order, so the copy lists them all.)
 */
function failIfAny(db: Database, nulled: SQLiteColumn, offending: SQL) {
  const copy = Object.values(getTableColumns(staffMembers)).map(({ name }) =>
    name === nulled.name ? "NULL" : name === "id" ? "'guard:' || m.id" : `m.${name}`,
  );
  return db.insert(staffMembers).select(sql`SELECT ${sql.raw(copy.join(", "))} FROM staff_members AS m WHERE ${offending} LIMIT 1`);
}

const namedBy = (organizationId: string, externalIds: readonly string[]) =>
  sql`m.organization_id = ${organizationId} AND m.external_id IN (SELECT value FROM json_each(${JSON.stringify(externalIds)}))`;

/** A sync's statement failing the batch when a member with one of the externalIds, deleted ones too, holds an access role not in `grantable`. */
export const allManageable = guard({
  column: staffMembers.name,
  problem: () => forbidden("A staff member the payload names got an access role you may not grant meanwhile; nothing was written."),
  sql: (db: Database, organizationId: string, externalIds: readonly string[], grantable: readonly string[]) =>
    failIfAny(
      db,
      staffMembers.name,
      sql`${namedBy(organizationId, externalIds)} AND m.access_role_id NOT IN (SELECT value FROM json_each(${JSON.stringify(grantable)}))`,
    ),
});

/** A sync's statement failing the batch when a live member with one of the externalIds holds an access role that is not live. */
export const accessRolesLive = guard({
  column: staffMembers.accessRoleId,
  problem: accessRoleDeleted,
  sql: (db: Database, organizationId: string, externalIds: readonly string[]) =>
    failIfAny(
      db,
      staffMembers.accessRoleId,
      sql`${namedBy(organizationId, externalIds)} AND m.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM access_roles AS a
      WHERE a.id = m.access_role_id AND a.organization_id = m.organization_id AND a.deleted_at IS NULL)`,
    ),
});

/** What a refused staff member write means. */
export const staffGuardProblems: ConstraintProblems = [liveAccessRole, allManageable, accessRolesLive];
