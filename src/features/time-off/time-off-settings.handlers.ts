import type { z } from "@hono/zod-openapi";
import type { Database } from "@/data/client";
import type { AppRouteHandler } from "@/platform/http/env";
import { iso } from "@/platform/schemas/time";
import { mergeSettings, readSettings } from "./time-off-settings.data";
import type * as routes from "./time-off-settings.routes";
import type { TimeOffSettings } from "./time-off-settings.schemas";

/** The stored settings were validated by the PATCH that wrote them. */
const answer = async (db: Database, organizationId: string) => {
  const { settings, updatedAt } = await readSettings(db, organizationId);
  return { ...settings, updatedAt: iso(updatedAt) } as z.infer<typeof TimeOffSettings>;
};

export const get: AppRouteHandler<routes.GetRoute> = async (c) => c.json(await answer(c.var.db, c.req.valid("param").organization_id), 200);

export const patch: AppRouteHandler<routes.PatchRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const changes = JSON.stringify(c.req.valid("json"));
  await mergeSettings(c.var, organization_id, changes);
  return c.json(await answer(c.var.db, organization_id), 200);
};
