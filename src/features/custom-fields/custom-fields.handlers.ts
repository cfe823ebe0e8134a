import { softDeleted } from "@/data/tenancy";
import { findLive, getLive, insertRecord, listPage, updateLive } from "@/platform/crud/tenant-queries";
import type { AppRouteHandler } from "@/platform/http/env";
import { invalidField } from "@/problems/problem";
import { customFieldRecords, refusalsOfCustomField } from "./custom-fields.data";
import type * as routes from "./custom-fields.routes";
import { serializeCustomField } from "./custom-fields.schemas";

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const rows = await listPage(c, c.var.db, customFieldRecords, organization_id, c.req.valid("query"));
  return c.json(rows.map(serializeCustomField), 200);
};

export const getOne: AppRouteHandler<routes.GetOneRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  return c.json(serializeCustomField(await getLive(c, customFieldRecords, organization_id, id, "Custom field")), 200);
};

export const create: AppRouteHandler<routes.CreateRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const { options = null, pattern = null, ...fields } = c.req.valid("json");
  const values = { ...fields, options: fields.type === "LIST" ? options : null, pattern: fields.type === "TEXT" ? pattern : null };
  const row = await refusalsOfCustomField(insertRecord(c, customFieldRecords, organization_id, values, "custom_field.created"));
  return c.json(serializeCustomField(row), 201);
};

export const patch: AppRouteHandler<routes.PatchRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const changes = c.req.valid("json");
  // The type never changes, so what it allows can be read before the write.
  const { type } = await findLive(c.var.db, customFieldRecords, organization_id, id, "Custom field");
  if (type === "TEXT" && changes.options !== undefined) throw invalidField("options", "a TEXT field has no options");
  if (type === "LIST" && changes.pattern !== undefined && changes.pattern !== null)
    throw invalidField("pattern", "a LIST field has no pattern");
  const row = await refusalsOfCustomField(
    updateLive(c, customFieldRecords, organization_id, id, changes, "Custom field", "custom_field.updated"),
  );
  return c.json(serializeCustomField(row), 200);
};

export const remove: AppRouteHandler<routes.RemoveRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const row = await updateLive(c, customFieldRecords, organization_id, id, softDeleted(), "Custom field", "custom_field.deleted");
  return c.json(serializeCustomField(row), 200);
};
