import { uniquely } from "@/data/write/constraint-problems";
import { getLive, insertRecord, listPage, softDeleteLive, updateLive } from "@/platform/crud/tenant-queries";
import type { AppRouteHandler } from "@/platform/http/env";
import { roleRecords } from "./roles.data";
import type * as routes from "./roles.routes";
import { serializeRole } from "./roles.schemas";

const EXTERNAL_ID_TAKEN = ["EXTERNAL_ID_TAKEN", "Another role of this organization has that externalId."] as const;

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const query = c.req.valid("query");
  const rows = await listPage(c, c.var.db, roleRecords, organization_id, query);
  return c.json(rows.map(serializeRole), 200);
};

export const getOne: AppRouteHandler<routes.GetOneRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  return c.json(serializeRole(await getLive(c, roleRecords, organization_id, id, "Role")), 200);
};

export const create: AppRouteHandler<routes.CreateRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const body = c.req.valid("json");
  const values = { name: body.name, hourlyWage: body.hourlyWage ?? null, externalId: body.externalId ?? null };
  const created = await uniquely(insertRecord(c, roleRecords, organization_id, values, "role.created"), ...EXTERNAL_ID_TAKEN);
  return c.json(serializeRole(created), 201);
};

export const patch: AppRouteHandler<routes.PatchRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const changes = { ...c.req.valid("json") };
  const row = await uniquely(updateLive(c, roleRecords, organization_id, id, changes, "Role", "role.updated"), ...EXTERNAL_ID_TAKEN);
  return c.json(serializeRole(row), 200);
};

export const remove: AppRouteHandler<routes.RemoveRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  return c.json(serializeRole(await softDeleteLive(c, roleRecords, organization_id, id, "Role", "role.deleted")), 200);
};
