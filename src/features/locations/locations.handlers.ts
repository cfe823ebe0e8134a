import { uniquely } from "@/data/write/constraint-problems";
import { getLive, insertRecord, listPage, softDeleteLive, updateLive } from "@/platform/crud/tenant-queries";
import type { AppRouteHandler } from "@/platform/http/env";
import { serializeLocation, toColumns } from "@/wire/location.schemas";
import { locationRecords, nameContains, withExternalId } from "./locations.data";
import type * as routes from "./locations.routes";
import { syncLocations } from "./locations-sync.data";

const EXTERNAL_ID_TAKEN = ["EXTERNAL_ID_TAKEN", "Another location of this organization has that externalId."] as const;

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const query = c.req.valid("query");
  const rows = await listPage(c, c.var.db, locationRecords, organization_id, query, query.name ? nameContains(query.name) : undefined);
  return c.json(rows.map(serializeLocation), 200);
};

export const getOne: AppRouteHandler<routes.GetOneRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  return c.json(serializeLocation(await getLive(c, locationRecords, organization_id, id, "Location")), 200);
};

export const getByExternalId: AppRouteHandler<routes.GetByExternalIdRoute> = async (c) => {
  const { organization_id, externalId } = c.req.valid("param");
  return c.json(serializeLocation(await getLive(c, locationRecords, organization_id, withExternalId(externalId), "Location")), 200);
};

export const create: AppRouteHandler<routes.CreateRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const body = c.req.valid("json");
  const values = { ...toColumns(body), name: body.name };
  const created = await uniquely(insertRecord(c, locationRecords, organization_id, values, "location.created"), ...EXTERNAL_ID_TAKEN);
  return c.json(serializeLocation(created), 201);
};

export const patch: AppRouteHandler<routes.PatchRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const changes = { ...toColumns(c.req.valid("json")) };
  const row = await uniquely(
    updateLive(c, locationRecords, organization_id, id, changes, "Location", "location.updated"),
    ...EXTERNAL_ID_TAKEN,
  );
  return c.json(serializeLocation(row), 200);
};

export const remove: AppRouteHandler<routes.RemoveRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  return c.json(serializeLocation(await softDeleteLive(c, locationRecords, organization_id, id, "Location", "location.deleted")), 200);
};

export const sync: AppRouteHandler<routes.SyncRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const result = await syncLocations(c.var, organization_id, c.req.valid("json"));
  return c.json({ ...result, records: result.records.map(serializeLocation) }, 200);
};
