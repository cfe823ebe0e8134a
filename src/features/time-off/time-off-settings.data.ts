import { organizations, timeOffSettings } from "@db/schema";
import { eq } from "drizzle-orm";
import type { Database } from "@/data/client";
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
