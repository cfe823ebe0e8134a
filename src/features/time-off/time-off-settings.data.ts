import { organizations, timeOffSettings } from "@db/schema";
import { eq, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { organizationNow } from "@/data/clock";
import { rawRun } from "@/data/raw-statement";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import { DEFAULT_TIME_OFF_SETTINGS } from "@/domain/organization-defaults";

export type TimeOffSettingsValues = typeof DEFAULT_TIME_OFF_SETTINGS;

/** The organization's time-off settings (the defaults for an organization created without them) and its zone. */
export async function readSettings(db: Database, organizationId: string) {
  const [row] = await db
    .select({
      settings: timeOffSettings.settings,
      updatedAt: timeOffSettings.updatedAt,
      timezone: organizations.timezone,
      createdAt: organizations.createdAt,
    })
    .from(organizations)
    .leftJoin(timeOffSettings, eq(timeOffSettings.organizationId, organizations.id))
    .where(eq(organizations.id, organizationId));
  return {
    settings: { ...DEFAULT_TIME_OFF_SETTINGS, ...(row?.settings ?? {}) } as TimeOffSettingsValues,
    updatedAt: row?.updatedAt ?? row?.createdAt ?? new Date(0),
    timezone: row?.timezone ?? "UTC",
  };
}

/** One upsert that merges the named settings (`changes`: their JSON) into the stored ones (json_patch), so concurrent PATCHes of different settings both stick. */
export async function mergeSettings(writer: Writer, organizationId: string, changes: string) {
  const now = (await organizationNow({ ...writer, organizationId })).getTime();
  const stored = writer.db
    .select({ data: sql`json_object('settings', json(${timeOffSettings.settings}), 'updatedAt', ${timeOffSettings.updatedAt})`.as("data") })
    .from(timeOffSettings)
    .where(eq(timeOffSettings.organizationId, organizationId));
  await guardedBatch(
    writer,
    [
      rawRun(
        writer.db,
        sql`INSERT INTO time_off_settings (organization_id, settings, created_at, updated_at)
      VALUES (${organizationId}, json_patch(${JSON.stringify(DEFAULT_TIME_OFF_SETTINGS)}, ${changes}), ${now}, ${now})
      ON CONFLICT (organization_id) DO UPDATE SET settings = json_patch(time_off_settings.settings, ${changes}), updated_at = ${now}`,
      ),
    ],
    [],
    {
      events: [{ organizationId: organizationId, type: "time_off_settings.updated", read: { form: "time_off_settings", select: stored } }],
    },
  );
}
