import { and, or } from "drizzle-orm";
import { accessRoles, locations, roles } from "../../../drizzle/schema";
import { EMPLOYEE_ACCESS_ROLE } from "../../domain/organization-defaults";
import { expandPermissions, type Principal } from "../../domain/permissions";
import type { Database } from "../../lib/db";
import { inJsonList } from "../../lib/json-list";
import { badRequest, type FieldError, forbidden } from "../../lib/problem";
import { inOrganization } from "../../lib/tenancy";

export interface ReferenceInput {
  accessRoleId?: string;
  accessRoleName?: string;
  locationIds?: string[];
  roleIds?: string[];
}

export interface ResolvedReferences {
  /** Per input: the access role it names, or undefined when it names none. */
  accessRoleIds: (string | undefined)[];
  /** The organization's `Employee` access role, the default for new members (undefined if it has none). */
  employeeAccessRoleId: string | undefined;
  /** Throws 403 unless the caller holds every permission of that access role. */
  assertMayGrant: (accessRoleId: string) => void;
}

const unique = (values: Iterable<string>) => [...new Set(values)];

/** Nobody hands out more than they hold: a Manager (LOCATION_ADMIN) cannot make anyone, themself included, an Admin. */
const granting = (grantor: Principal, accessRoles: { id: string; name: string; permissions: string[] }[]) => {
  const held: ReadonlySet<string> = expandPermissions(grantor.permissions);
  return (accessRoleId: string) => {
    const role = accessRoles.find((r) => r.id === accessRoleId);
    const missing = role ? role.permissions.filter((p) => !held.has(p)) : [];
    if (role && missing.length) throw forbidden(`Assigning the access role ${role.name} needs the ${missing.join(", ")} permission.`);
  };
};

/**
 * Checks every access role, location and role the inputs reference against this organization's live records,
 * in one round trip, and throws one 400 naming each bad field. `pathOf(index, field)` names a field of input
 * `index` in the error (e.g. `records.3.locationIds`).
 */
export async function resolveReferences(
  db: Database,
  grantor: Principal,
  organizationId: string,
  inputs: readonly ReferenceInput[],
  pathOf: (index: number, field: string) => string,
): Promise<ResolvedReferences> {
  const roleIdsWanted = unique(inputs.flatMap((i) => (i.accessRoleId ? [i.accessRoleId] : [])));
  const roleNamesWanted = unique([EMPLOYEE_ACCESS_ROLE, ...inputs.flatMap((i) => (i.accessRoleName ? [i.accessRoleName] : []))]);
  const [foundAccessRoles, foundLocations, foundRoles] = await db.batch([
    db
      .select({ id: accessRoles.id, name: accessRoles.name, permissions: accessRoles.permissions })
      .from(accessRoles)
      .where(
        and(
          inOrganization(accessRoles, organizationId),
          or(inJsonList(accessRoles.id, roleIdsWanted), inJsonList(accessRoles.name, roleNamesWanted)),
        ),
      ),
    db
      .select({ id: locations.id })
      .from(locations)
      .where(and(inOrganization(locations, organizationId), inJsonList(locations.id, unique(inputs.flatMap((i) => i.locationIds ?? []))))),
    db
      .select({ id: roles.id })
      .from(roles)
      .where(and(inOrganization(roles, organizationId), inJsonList(roles.id, unique(inputs.flatMap((i) => i.roleIds ?? []))))),
  ]);

  const accessRoleById = new Set(foundAccessRoles.map((r) => r.id));
  const accessRoleByName = new Map(foundAccessRoles.map((r) => [r.name, r.id]));
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
      if (accessRoleById.has(input.accessRoleId)) return input.accessRoleId;
      errors.push({ path: pathOf(index, "accessRoleId"), message: `unknown access role id ${input.accessRoleId}` });
    } else if (input.accessRoleName !== undefined) {
      const id = accessRoleByName.get(input.accessRoleName);
      if (id) return id;
      errors.push({ path: pathOf(index, "accessRoleName"), message: `no access role named ${input.accessRoleName}` });
    }
    return undefined;
  });
  if (errors.length) throw badRequest("VALIDATION_FAILED", errors.map((e) => `${e.path}: ${e.message}`).join("; "), errors);
  const assertMayGrant = granting(grantor, foundAccessRoles);
  for (const id of resolved) if (id) assertMayGrant(id);
  return { accessRoleIds: resolved, employeeAccessRoleId: accessRoleByName.get(EMPLOYEE_ACCESS_ROLE), assertMayGrant };
}

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
