import { findLocation } from "@/data/tenant-records";
import { insertRecord, listPage, softDeleteLive, updateLive } from "@/platform/crud/tenant-queries";
import type { AppRouteHandler } from "@/platform/http/env";
import { atLocation, breakTypeAt, breakTypeRecords } from "./break-types.data";
import type * as routes from "./break-types.routes";
import { serializeBreakType } from "./break-types.schemas";

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const query = c.req.valid("query");
  await findLocation(c.var.db, organization_id, id);
  const rows = await listPage(c, c.var.db, breakTypeRecords, organization_id, query, atLocation(id));
  return c.json(rows.map(serializeBreakType), 200);
};

export const create: AppRouteHandler<routes.CreateRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  await findLocation(c.var.db, organization_id, id);
  const row = await insertRecord(c, breakTypeRecords, organization_id, { locationId: id, ...c.req.valid("json") }, "break_type.created");
  return c.json(serializeBreakType(row), 201);
};

export const patch: AppRouteHandler<routes.PatchRoute> = async (c) => {
  const { organization_id, id, breakId } = c.req.valid("param");
  const changes = { ...c.req.valid("json") };
  const row = await updateLive(c, breakTypeRecords, organization_id, breakTypeAt(id, breakId), changes, "Break type", "break_type.updated");
  return c.json(serializeBreakType(row), 200);
};

export const remove: AppRouteHandler<routes.RemoveRoute> = async (c) => {
  const { organization_id, id, breakId } = c.req.valid("param");
  const row = await softDeleteLive(c, breakTypeRecords, organization_id, breakTypeAt(id, breakId), "Break type", "break_type.deleted");
  return c.json(serializeBreakType(row), 200);
};
