import type { AppRouteHandler } from "@/platform/http/env";
import { pageResult } from "@/platform/http/pagination";
import { serializeConsent } from "@/wire/schedule-change.schemas";
import { createConsent, listConsents } from "./consents.data";
import type * as routes from "./consents.routes";

export const create: AppRouteHandler<routes.CreateRoute> = async (c) =>
  c.json(serializeConsent(await createConsent(c, c.var.scope, c.req.valid("param").id, c.req.valid("json"))), 201);

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const query = c.req.valid("query");
  const rows = await listConsents(c.var.db, c.var.scope, c.req.valid("param").id, query);
  return c.json(pageResult(c, rows, query.limit).map(serializeConsent), 200);
};
