import { ifMatchOf, setETag } from "@/platform/http/conditional";
import type { AppRouteHandler } from "@/platform/http/env";
import { pageOf } from "@/platform/http/pagination";
import {
  createAvailability,
  deleteAvailability,
  encodeOccurrenceCursor,
  encodeRuleCursor,
  expandRange,
  findAvailability,
  listOfStaff,
  patchAvailability,
} from "./availability.data";
import type * as routes from "./availability.routes";
import { serializeAvailability } from "./availability.schemas";

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const query = c.req.valid("query");
  const rows = await listOfStaff(c.var.db, organization_id, id, query);
  return c.json(pageOf(c, rows, query.limit, (last) => ({ cursor: encodeRuleCursor(last) })).map(serializeAvailability), 200);
};

export const create: AppRouteHandler<routes.CreateRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const row = await createAvailability(c.var, organization_id, id, c.req.valid("json"));
  setETag(c, row);
  return c.json(serializeAvailability(row), 201);
};

export const get: AppRouteHandler<routes.GetRoute> = async (c) => {
  const { organization_id, id, availabilityId } = c.req.valid("param");
  const row = await findAvailability(c.var.db, organization_id, id, availabilityId);
  setETag(c, row);
  return c.json(serializeAvailability(row), 200);
};

export const patch: AppRouteHandler<routes.PatchRoute> = async (c) => {
  const { organization_id, id, availabilityId } = c.req.valid("param");
  const row = await patchAvailability(c.var, organization_id, id, availabilityId, c.req.valid("json"), ifMatchOf(c));
  setETag(c, row);
  return c.json(serializeAvailability(row), 200);
};

export const remove: AppRouteHandler<routes.RemoveRoute> = async (c) => {
  const { organization_id, id, availabilityId } = c.req.valid("param");
  const row = await deleteAvailability(c.var, organization_id, id, availabilityId, ifMatchOf(c));
  setETag(c, row);
  return c.json(serializeAvailability(row), 200);
};

export const expand: AppRouteHandler<routes.ExpandRoute> = async (c) => {
  const query = c.req.valid("query");
  const { organizationId, ownStaffMemberId } = c.var.scope;
  const rows = await expandRange(c.var.db, organizationId, { ...query, employeeId: ownStaffMemberId ?? query.employeeId });
  return c.json(
    pageOf(c, rows, query.limit, (last) => ({ cursor: encodeOccurrenceCursor(last) })),
    200,
  );
};
