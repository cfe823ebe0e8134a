import { accessRoles, staffMembers } from "@db/schema";
import { and, eq, notExists, sql } from "drizzle-orm";
import { inOrganization, softDeleted } from "@/data/tenancy";
import { uniquely } from "@/data/write/constraint-problems";
import { guardedBatch } from "@/data/write/guarded-batch";
import { findLive, getLive, insertRecord, listPage, updateLive } from "@/platform/crud/tenant-queries";
import { ifMatchOf, matchesVersion, nextVersion, setETag, versionCondition } from "@/platform/http/conditional";
import type { AppRouteHandler } from "@/platform/http/env";
import { conflict, preconditionFailed } from "@/problems/problem";
import type * as routes from "./access-roles.routes";
import { distinctPermissions, serializeAccessRole } from "./access-roles.schemas";

const NAME_TAKEN = ["ACCESS_ROLE_NAME_TAKEN", "Another access role of this organization has that name."] as const;

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const query = c.req.valid("query");
  const rows = await listPage(c, c.var.db, accessRoles, organization_id, query);
  return c.json(rows.map(serializeAccessRole), 200);
};

export const getOne: AppRouteHandler<routes.GetOneRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  return c.json(serializeAccessRole(await getLive(c, accessRoles, organization_id, id, "Access role")), 200);
};

export const create: AppRouteHandler<routes.CreateRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const body = c.req.valid("json");
  const values = { name: body.name, permissions: distinctPermissions(body.permissions) };
  const created = await uniquely(insertRecord(c, accessRoles, organization_id, values, "access_role.created"), ...NAME_TAKEN);
  return c.json(serializeAccessRole(created), 201);
};

export const patch: AppRouteHandler<routes.PatchRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const { name, permissions } = c.req.valid("json");
  const granted = permissions && distinctPermissions(permissions);
  const changes = {
    name,
    permissions: granted,
    // Tokens issued against the old permissions stop writing (data/write/guarded-batch); a rename leaves them be.
    permissionsVersion:
      granted &&
      sql`CASE WHEN ${accessRoles.permissions} = ${JSON.stringify(granted)}
      THEN ${accessRoles.permissionsVersion} ELSE ${accessRoles.permissionsVersion} + 1 END`,
    updatedAt: new Date(),
  };
  const row = await uniquely(updateLive(c, accessRoles, organization_id, id, changes, "Access role", "access_role.updated"), ...NAME_TAKEN);
  return c.json(serializeAccessRole(row), 200);
};

export const remove: AppRouteHandler<routes.RemoveRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const db = c.var.db;
  const ifMatch = ifMatchOf(c);
  // One conditional statement, so a staff member assigned concurrently cannot be left on a deleted access role.
  const [[row]] = await guardedBatch(
    c.var,
    [
      db
        .update(accessRoles)
        .set({ ...softDeleted(), updatedAt: nextVersion(accessRoles.updatedAt) })
        .where(
          and(
            inOrganization(accessRoles, organization_id),
            eq(accessRoles.id, id),
            versionCondition(accessRoles.updatedAt, ifMatch),
            notExists(
              db
                .select({ one: sql`1` })
                .from(staffMembers)
                .where(and(inOrganization(staffMembers, organization_id), eq(staffMembers.accessRoleId, id))),
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
          organizationId: organization_id,
          row: { table: accessRoles, where: and(eq(accessRoles.organizationId, organization_id), eq(accessRoles.id, id))! },
        },
      ],
    },
  );
  if (row) {
    setETag(c, row);
    return c.json(serializeAccessRole(row), 200);
  }
  const current = await findLive(db, accessRoles, organization_id, id, "Access role");
  if (!matchesVersion(ifMatch, current)) throw preconditionFailed();
  throw conflict("ACCESS_ROLE_IN_USE", "Staff members still hold this access role; assign them another one first.");
};
