import { requestNow } from "@/platform/http/clock";
import type { AppRouteHandler } from "@/platform/http/env";
import { assertRange, readScheduleCost } from "./schedule-cost.data";
import { loadLocation } from "./schedule-cost.guards";
import type { GetRoute } from "./schedule-cost.routes";

export const get: AppRouteHandler<GetRoute> = async (c) => {
  const { locationId } = c.req.valid("param");
  const { startDate, endDate, includeDrafts } = c.req.valid("query");
  const { organizationId } = c.var.scope;
  assertRange(startDate, endDate);
  const location = await loadLocation(c.var.db, organizationId, locationId);
  const request = { organizationId, location, startDate, endDate, includeDrafts: includeDrafts ?? false, now: await requestNow(c) };
  return c.json(await readScheduleCost(c.var.db, request), 200);
};
