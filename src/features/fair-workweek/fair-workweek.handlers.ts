import {
  effectivePack,
  putEstimate,
  putLocationSetting,
  readEstimates,
  readLocationSetting,
} from "@/data/fair-workweek/fair-workweek.data";
import { allRulePacks, RULE_PACK_IDS, rulePack } from "@/domain/fair-workweek/packs";
import { requestNow } from "@/platform/http/clock";
import type { AppContext, AppRouteHandler } from "@/platform/http/env";
import type * as routes from "./fair-workweek.routes";
import { serializeGoodFaithEstimate, serializeLocationFairWorkweek } from "./fair-workweek.schemas";

/** Today (UTC) by the organization's clock: a sandbox's runs ahead (src/data/clock.ts). */
const today = async (c: AppContext) => (await requestNow(c)).toISOString().slice(0, 10);

export const listRulePacks: AppRouteHandler<routes.ListRulePacksRoute> = async (c) => {
  const { date } = c.req.valid("query");
  const packs = date === undefined ? allRulePacks() : RULE_PACK_IDS.flatMap((id) => rulePack(id, date) ?? []);
  return c.json([...packs], 200);
};

export const getLocationFairWorkweek: AppRouteHandler<routes.GetLocationFairWorkweekRoute> = async (c) => {
  const { locationId } = c.req.valid("param");
  const row = await readLocationSetting(c.var.db, c.var.scope.organizationId, locationId);
  return c.json(serializeLocationFairWorkweek(locationId, row, effectivePack(row, await today(c))), 200);
};

export const putLocationFairWorkweek: AppRouteHandler<routes.PutLocationFairWorkweekRoute> = async (c) => {
  const { locationId } = c.req.valid("param");
  const row = await putLocationSetting(c.var, c.var.scope.organizationId, locationId, c.req.valid("json"));
  return c.json(serializeLocationFairWorkweek(locationId, row, effectivePack(row, await today(c))), 200);
};

export const getGoodFaithEstimate: AppRouteHandler<routes.GetGoodFaithEstimateRoute> = async (c) => {
  const { id } = c.req.valid("param");
  const date = c.req.valid("query").date ?? (await today(c));
  const rows = await readEstimates(c.var.db, c.var.scope.organizationId, id);
  const current = rows.find((row) => row.effectiveFrom <= date) ?? null;
  return c.json(
    { employeeId: id, current: current && serializeGoodFaithEstimate(current), history: rows.map(serializeGoodFaithEstimate) },
    200,
  );
};

export const putGoodFaithEstimate: AppRouteHandler<routes.PutGoodFaithEstimateRoute> = async (c) => {
  const row = await putEstimate(c.var, c.var.scope.organizationId, c.req.valid("param").id, c.req.valid("json"));
  return c.json(serializeGoodFaithEstimate(row), 200);
};
