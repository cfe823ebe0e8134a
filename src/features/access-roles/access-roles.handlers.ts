import { uniquely } from "@/data/write/constraint-problems";
import { getLive, insertRecord, listPage, updateLive } from "@/platform/crud/tenant-queries";
import { ifMatchOf, setETag } from "@/platform/http/conditional";
import type { AppRouteHandler } from "@/platform/http/env";
import { accessRoleRecords, permissionsVersionAfter, removeUnusedAccessRole } from "./access-roles.data";
import type * as routes from "./access-roles.routes";
import { distinctPermissions, serializeAccessRole } from "./access-roles.schemas";

const NAME_TAKEN = ["ACCESS_ROLE_NAME_TAKEN", "Another access role of this organization has that name."] as const;

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const query = c.req.valid("query");
  const rows = await listPage(c, c.var.db, accessRoleRecords, organization_id, query);
  return c.json(rows.map(serializeAccessRole), 200);
};

export const getOne: AppRouteHandler<routes.GetOneRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  return c.json(serializeAccessRole(await getLive(c, accessRoleRecords, organization_id, id, "Access role")), 200);
};

export const create: AppRouteHandler<routes.CreateRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const body = c.req.valid("json");
  const values = { name: body.name, permissions: distinctPermissions(body.permissions) };
  const created = await uniquely(insertRecord(c, accessRoleRecords, organization_id, values, "access_role.created"), ...NAME_TAKEN);
  return c.json(serializeAccessRole(created), 201);
};

export const patch: AppRouteHandler<routes.PatchRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const { name, permissions } = c.req.valid("json");
  const granted = permissions && distinctPermissions(permissions);
  const changes = {
    name,
    permissions: granted,
    permissionsVersion: granted && permissionsVersionAfter(granted),
  };
  const row = await uniquely(
    updateLive(c, accessRoleRecords, organization_id, id, changes, "Access role", "access_role.updated"),
    ...NAME_TAKEN,
  );
  return c.json(serializeAccessRole(row), 200);
};

export const remove: AppRouteHandler<routes.RemoveRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const row = await removeUnusedAccessRole(c.var, organization_id, id, ifMatchOf(c));
  setETag(c, row);
  return c.json(serializeAccessRole(row), 200);
};
