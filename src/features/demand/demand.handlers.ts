import type { AppRouteHandler } from "@/platform/http/env";
import { pageOf } from "@/platform/http/pagination";
import { assertLocation, encodeDemandCursor, listDemand, putLaborTargets, readLaborTargets, upsertDemand } from "./demand.data";
import type * as routes from "./demand.routes";
import { serializeDemandInterval, serializeLaborTargets } from "./demand.schemas";

export const upload: AppRouteHandler<routes.UploadRoute> = async (c) => {
  const { organizationId } = c.var.scope;
  const { locationId } = c.req.valid("param");
  return c.json(await upsertDemand(c.var, organizationId, locationId, c.req.valid("json")), 200);
};

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const { organizationId } = c.var.scope;
  const { locationId } = c.req.valid("param");
  const query = c.req.valid("query");
  await assertLocation(c.var.db, organizationId, locationId);
  const rows = await listDemand(c.var.db, organizationId, locationId, query);
  const page = pageOf(c, rows, query.limit, (last) => ({ cursor: encodeDemandCursor(last) }));
  return c.json(page.map(serializeDemandInterval), 200);
};

export const getTargets: AppRouteHandler<routes.GetTargetsRoute> = async (c) => {
  const { organizationId } = c.var.scope;
  const { locationId } = c.req.valid("param");
  await assertLocation(c.var.db, organizationId, locationId);
  return c.json(serializeLaborTargets(locationId, await readLaborTargets(c.var.db, organizationId, locationId)), 200);
};

export const putTargets: AppRouteHandler<routes.PutTargetsRoute> = async (c) => {
  const { organizationId } = c.var.scope;
  const { locationId } = c.req.valid("param");
  return c.json(await putLaborTargets(c.var, organizationId, locationId, c.req.valid("json")), 200);
};
