import { accessRoles, locations, roles, staffMembers } from "@db/schema";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { inJsonList } from "@/data/json-list";
import { inOrganization } from "@/data/tenancy";
import { EMPLOYEE_ACCESS_ROLE } from "@/domain/organization-defaults";
import { lackingToGrant, mayManage, type Principal } from "@/domain/permissions";
import { badRequest, type FieldError, forbidden, notFound, ProblemError, validationFailed } from "@/problems/problem";

export interface ReferenceInput {
  accessRoleId?: string;
  accessRoleName?: string;
  locationIds?: string[];
  roleIds?: string[];
  externalId?: string | null;
}

/** The staff members a write acts on, whose current access role the caller must be able to grant. */
export type Subjects =
  /** PATCH or DELETE of one member: 404 unless live. */
  | { memberId: string }
  /** Sync: the members (deleted ones too, which a sync restores) whose externalId an input names. */
  | { byExternalId: true };

export interface ResolvedReferences {
  /** Per input: the access role it names, or undefined when it names none. */
  accessRoleIds: (string | undefined)[];
  /** The organization's `Employee` access role, the default for new members (undefined if it has none). */
  employeeAccessRoleId: string | undefined;
  /** Throws 403 unless the caller holds every permission of that access role. */
  assertMayGrant: (accessRoleId: string) => void;
  /**
   * Every access role of the organization, deleted ones included, the caller may grant. A write acting on
   * existing members binds this list, so a member promoted meanwhile is out of the caller's reach.
   */
  grantableAccessRoleIds: string[];
}

interface AccessRoleRow {
  id: string;
  name: string;
  permissions: string[];
  live: boolean;
}

interface SubjectRow {
  id: string;
  externalId: string | null;
  accessRoleId: string;
  live: boolean;
}

const unique = (values: Iterable<string>) => [...new Set(values)];

const roleName = (role: AccessRoleRow | undefined) => role?.name ?? "(unknown)";

function subjectsQuery(db: Database, organizationId: string, inputs: readonly ReferenceInput[], subjects: Subjects | undefined) {
  const match = !subjects
    ? sql`0`
    : "memberId" in subjects
      ? eq(staffMembers.id, subjects.memberId)
      : inJsonList(staffMembers.externalId, unique(inputs.flatMap((i) => (i.externalId ? [i.externalId] : []))));
  return db
    .select({
      id: staffMembers.id,
      externalId: staffMembers.externalId,
      accessRoleId: staffMembers.accessRoleId,
      live: sql<boolean>`${staffMembers.deletedAt} IS NULL`.mapWith(Boolean),
    })
    .from(staffMembers)
    .where(and(inOrganization(staffMembers, organizationId, { includeDeleted: true }), match));
}

/**
 * Checks every access role, location and role the inputs reference against this organization's live records,
 * and the members the write acts on (`subjects`), in one round trip. Throws, in this order: one 400 naming each
 * bad field (`pathOf(index, field)`, e.g. `records.3.locationIds`); the 404 of a missing member; a 403 when the
 * caller may not manage a member as it stands (holds an access role with a permission the caller lacks); a 403
 * when an input assigns such an access role.
 */
export async function resolveReferences(
  db: Database,
  grantor: Principal,
  organizationId: string,
  inputs: readonly ReferenceInput[],
  pathOf: (index: number, field: string) => string,
  subjects?: Subjects,
): Promise<ResolvedReferences> {
  // Every access role, deleted ones too: a member to manage may hold one, and the grantable list covers all.
  const [allAccessRoles, foundLocations, foundRoles, members] = await db.batch([
    db
      .select({
        id: accessRoles.id,
        name: accessRoles.name,
        permissions: accessRoles.permissions,
        live: sql<boolean>`${accessRoles.deletedAt} IS NULL`.mapWith(Boolean),
      })
      .from(accessRoles)
      .where(inOrganization(accessRoles, organizationId, { includeDeleted: true })),
    db
      .select({ id: locations.id })
      .from(locations)
      .where(and(inOrganization(locations, organizationId), inJsonList(locations.id, unique(inputs.flatMap((i) => i.locationIds ?? []))))),
    db
      .select({ id: roles.id })
      .from(roles)
      .where(and(inOrganization(roles, organizationId), inJsonList(roles.id, unique(inputs.flatMap((i) => i.roleIds ?? []))))),
    subjectsQuery(db, organizationId, inputs, subjects),
  ]);

  const accessRoleById = new Map(allAccessRoles.map((r) => [r.id, r]));
  const liveById = new Set(allAccessRoles.filter((r) => r.live).map((r) => r.id));
  const liveByName = new Map(allAccessRoles.filter((r) => r.live).map((r) => [r.name, r.id]));
  const memberByExternalId = new Map(members.map((m) => [m.externalId, m]));
  const locationIds = new Set(foundLocations.map((l) => l.id));
  const roleIds = new Set(foundRoles.map((r) => r.id));
  const errors: FieldError[] = [];
  const unknownIn = (index: number, field: string, ids: string[] | undefined, known: Set<string>, what: string) => {
    const missing = unique((ids ?? []).filter((id) => !known.has(id)));
    if (missing.length) errors.push({ path: pathOf(index, field), message: `unknown ${what} id ${missing.join(", ")}` });
  };

  const resolved = inputs.map((input, index) => {
    unknownIn(index, "locationIds", input.locationIds, locationIds, "location");
    unknownIn(index, "roleIds", input.roleIds, roleIds, "role");
    if (input.accessRoleId !== undefined) {
      if (liveById.has(input.accessRoleId)) return input.accessRoleId;
      errors.push({ path: pathOf(index, "accessRoleId"), message: `unknown access role id ${input.accessRoleId}` });
    } else if (input.accessRoleName !== undefined) {
      const id = liveByName.get(input.accessRoleName);
      if (id) return id;
      errors.push({ path: pathOf(index, "accessRoleName"), message: `no access role named ${input.accessRoleName}` });
    } else {
      // A synced member that keeps its access role must still have a live one (a restored member may not).
      const kept = subjects && "byExternalId" in subjects && input.externalId ? memberByExternalId.get(input.externalId) : undefined;
      if (kept && !liveById.has(kept.accessRoleId)) {
        errors.push({ path: pathOf(index, "accessRoleId"), message: "the staff member's access role was deleted; name another one" });
      }
    }
    return undefined;
  });
  if (errors.length) throw validationFailed(errors);

  const lacking = (accessRoleId: string) => lackingToGrant(grantor.permissions, accessRoleById.get(accessRoleId)?.permissions ?? []);
  if (subjects) assertMayManageSubjects(subjects, members, inputs, pathOf, accessRoleById, lacking);

  const assertMayGrant = (accessRoleId: string) => {
    const missing = lacking(accessRoleId);
    const role = accessRoleById.get(accessRoleId);
    if (missing.length) throw forbidden(`Assigning the access role ${roleName(role)} needs the ${missing.join(", ")} permission.`);
  };
  for (const id of resolved) if (id) assertMayGrant(id);
  return {
    accessRoleIds: resolved,
    employeeAccessRoleId: liveByName.get(EMPLOYEE_ACCESS_ROLE),
    assertMayGrant,
    grantableAccessRoleIds: allAccessRoles.filter((r) => mayManage(grantor.permissions, r.permissions)).map((r) => r.id),
  };
}

/** 404 for a missing member; 403 listing every member the caller may not manage, as they stand now. */
function assertMayManageSubjects(
  subjects: Subjects,
  members: SubjectRow[],
  inputs: readonly ReferenceInput[],
  pathOf: (index: number, field: string) => string,
  accessRoleById: Map<string, AccessRoleRow>,
  lacking: (accessRoleId: string) => string[],
) {
  const why = (member: SubjectRow) => {
    const missing = lacking(member.accessRoleId);
    return missing.length
      ? `the staff member holds the access role ${roleName(accessRoleById.get(member.accessRoleId))}; acting on them needs the ${missing.join(", ")} permission`
      : undefined;
  };
  if ("memberId" in subjects) {
    const member = members.find((m) => m.id === subjects.memberId && m.live);
    if (!member) throw notFound("Staff member");
    const reason = why(member);
    if (reason) throw forbidden(`${reason[0]!.toUpperCase()}${reason.slice(1)}.`);
    return;
  }
  const byExternalId = new Map(members.map((m) => [m.externalId, m]));
  const errors: FieldError[] = inputs.flatMap((input, index) => {
    const member = input.externalId ? byExternalId.get(input.externalId) : undefined;
    const reason = member && why(member);
    return reason ? [{ path: pathOf(index, "externalId"), message: reason }] : [];
  });
  if (errors.length) {
    throw new ProblemError(403, "FORBIDDEN", errors.map((e) => `${e.path}: ${e.message}`).join("; "), { errors });
  }
}

/** The members a DELETE acts on: 404 unless live, 403 unless the caller may manage them. */
export const resolveMember = (db: Database, grantor: Principal, organizationId: string, memberId: string) =>
  resolveReferences(db, grantor, organizationId, [], (_, field) => field, { memberId });

/** The default access role for a new member, or a 400 when the organization has no `Employee` role. */
export function defaultAccessRole(resolved: ResolvedReferences, path: string): string {
  if (resolved.employeeAccessRoleId) {
    resolved.assertMayGrant(resolved.employeeAccessRoleId);
    return resolved.employeeAccessRoleId;
  }
  throw badRequest("VALIDATION_FAILED", `${path}: the organization has no ${EMPLOYEE_ACCESS_ROLE} access role; name one`, [
    { path, message: `the organization has no ${EMPLOYEE_ACCESS_ROLE} access role; give accessRoleId or accessRoleName` },
  ]);
}
