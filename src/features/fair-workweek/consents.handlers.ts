import type { AppRouteHandler } from "@/platform/http/env";
import { serializeConsent } from "@/wire/schedule-change.schemas";
import { createConsent, listConsents } from "./consents.data";
import type * as routes from "./consents.routes";

export const create: AppRouteHandler<routes.CreateRoute> = async (c) =>
  c.json(serializeConsent(await createConsent(c, c.var.scope, c.req.valid("param").id, c.req.valid("json"))), 201);

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const rows = await listConsents(c, c.var.db, c.var.scope, c.req.valid("param").id, c.req.valid("query"));
  return c.json(rows.map(serializeConsent), 200);
};
