import type { AppRouteHandler } from "@/platform/http/env";
import { readMealWaivers, putMealWaiver as storeMealWaiver } from "./meal-waivers.data";
import type * as routes from "./meal-waivers.routes";
import { serializeMealWaivers } from "./meal-waivers.schemas";

export const getMealWaivers: AppRouteHandler<routes.GetMealWaiversRoute> = async (c) => {
  const { id } = c.req.valid("param");
  return c.json(serializeMealWaivers(id, await readMealWaivers(c.var.db, c.var.scope.organizationId, id)), 200);
};

export const putMealWaiver: AppRouteHandler<routes.PutMealWaiverRoute> = async (c) => {
  const { id } = c.req.valid("param");
  const waivers = await storeMealWaiver(c.var, c.var.scope.organizationId, id, c.req.valid("json"));
  return c.json(serializeMealWaivers(id, waivers), 200);
};
