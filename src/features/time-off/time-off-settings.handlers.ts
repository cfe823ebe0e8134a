import { timeOffSettings } from "@db/schema";
import type { z } from "@hono/zod-openapi";
import { eq, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { rawRun } from "@/data/raw-statement";
import { guardedBatch } from "@/data/write/guarded-batch";
import { DEFAULT_TIME_OFF_SETTINGS } from "@/domain/organization-defaults";
import type { AppRouteHandler } from "@/platform/http/env";
import { iso } from "@/platform/schemas/time";
import { readSettings } from "./time-off-settings.data";
import type * as routes from "./time-off-settings.routes";
import type { TimeOffSettings } from "./time-off-settings.schemas";

/** The stored settings were validated by the PATCH that wrote them. */
const answer = async (db: Database, organizationId: string) => {
  const { settings, updatedAt } = await readSettings(db, organizationId);
  return { ...settings, updatedAt: iso(updatedAt) } as z.infer<typeof TimeOffSettings>;
};

export const get: AppRouteHandler<routes.GetRoute> = async (c) => c.json(await answer(c.var.db, c.req.valid("param").organization_id), 200);

/** One upsert that merges the named settings into the stored ones (json_patch), so concurrent PATCHes of different settings both stick. */
export const patch: AppRouteHandler<routes.PatchRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const changes = JSON.stringify(c.req.valid("json"));
  const now = Date.now();
  const stored = c.var.db
    .select({ data: sql`json_object('settings', json(${timeOffSettings.settings}), 'updatedAt', ${timeOffSettings.updatedAt})`.as("data") })
    .from(timeOffSettings)
    .where(eq(timeOffSettings.organizationId, organization_id));
  await guardedBatch(
    c.var,
    [
      rawRun(
        c.var.db,
        sql`INSERT INTO time_off_settings (organization_id, settings, created_at, updated_at)
      VALUES (${organization_id}, json_patch(${JSON.stringify(DEFAULT_TIME_OFF_SETTINGS)}, ${changes}), ${now}, ${now})
      ON CONFLICT (organization_id) DO UPDATE SET settings = json_patch(time_off_settings.settings, ${changes}), updated_at = ${now}`,
      ),
    ],
    [],
    {
      events: [{ organizationId: organization_id, type: "time_off_settings.updated", read: { form: "time_off_settings", select: stored } }],
    },
  );
  return c.json(await answer(c.var.db, organization_id), 200);
};
