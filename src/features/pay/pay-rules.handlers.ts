import { type IfMatch, ifMatchOf, setETag } from "@/platform/http/conditional";
import type { AppRouteHandler } from "@/platform/http/env";
import { serializePayRuleSet } from "@/wire/pay-rule-set.schemas";
import { createRuleSet, deleteRuleSet, findRuleSet, listRuleSets, patchRuleSet } from "./pay-rules.data";
import type * as routes from "./pay-rules.routes";

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const rows = await listRuleSets(c.var.db, c.req.valid("param").organization_id, c.req.valid("query").locationId);
  return c.json(rows.map(serializePayRuleSet), 200);
};

export const create: AppRouteHandler<routes.CreateRoute> = async (c) => {
  const row = await createRuleSet(c.var, c.req.valid("param").organization_id, c.req.valid("json"), serializePayRuleSet);
  setETag(c, row);
  return c.json(serializePayRuleSet(row), 201);
};

export const get: AppRouteHandler<routes.GetRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const row = await findRuleSet(c.var.db, organization_id, id);
  setETag(c, row);
  return c.json(serializePayRuleSet(row), 200);
};

export const patch: AppRouteHandler<routes.PatchRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const ifMatch: IfMatch = ifMatchOf(c);
  const row = await patchRuleSet(c.var, organization_id, id, c.req.valid("json"), ifMatch, serializePayRuleSet);
  setETag(c, row);
  return c.json(serializePayRuleSet(row), 200);
};

export const remove: AppRouteHandler<routes.RemoveRoute> = async (c) => {
  const { organization_id, id } = c.req.valid("param");
  const row = await deleteRuleSet(c.var, organization_id, id, ifMatchOf(c), serializePayRuleSet);
  setETag(c, row);
  return c.json(serializePayRuleSet(row), 200);
};
