import { rawRun } from "../../lib/raw-statement";
import { sql } from "drizzle-orm";
import { DEFAULT_TIME_OFF_SETTINGS } from "../../domain/organization-defaults";
import { iso } from "../../lib/time";
import type { AppRouteHandler } from "../../lib/types";
import { readSettings } from "../time-off/time-off-settings";
import type * as routes from "./time-off-settings.routes";

const answer = async (c: Parameters<AppRouteHandler<routes.GetRoute>>[0], organizationId: string) => {
  const { settings, updatedAt } = await readSettings(c.var.db, organizationId);
  return { ...settings, updatedAt: iso(updatedAt) } as typeof settings & { updatedAt: string; weekStartsOn: "Monday" };
};

export const get: AppRouteHandler<routes.GetRoute> = async (c) => c.json(await answer(c, c.req.valid("param").organization_id), 200);

/** One upsert that merges the named settings into the stored ones (json_patch), so concurrent PATCHes of different settings both stick. */
export const patch: AppRouteHandler<routes.PatchRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const changes = JSON.stringify(c.req.valid("json"));
  const now = Date.now();
  await rawRun(c.var.db, sql`INSERT INTO time_off_settings (organization_id, settings, created_at, updated_at)
    VALUES (${organization_id}, json_patch(${JSON.stringify(DEFAULT_TIME_OFF_SETTINGS)}, ${changes}), ${now}, ${now})
    ON CONFLICT (organization_id) DO UPDATE SET settings = json_patch(time_off_settings.settings, ${changes}), updated_at = ${now}`);
  return c.json(await answer(c, organization_id), 200);
};
