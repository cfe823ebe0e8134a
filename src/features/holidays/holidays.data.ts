import { holidayOverrides, locations } from "@db/schema";
import { and, eq, isNull, or, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { organizationNow } from "@/data/clock";
import { datasetHolidays } from "@/data/holidays/holiday-dataset";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import { type Holiday, type HolidayOverrides, holidaysWithOverrides, NO_OVERRIDES } from "@/domain/public-holidays";
import { iso } from "@/platform/schemas/time";
import { notFound } from "@/problems/problem";
import { overridesLocationLive } from "./holidays.guards";

export type HolidayOverridesRow = typeof holidayOverrides.$inferSelect;

const storedOverrides = (db: Database, organizationId: string, locationId: string) =>
  db
    .select()
    .from(holidayOverrides)
    .where(and(eq(holidayOverrides.organizationId, organizationId), eq(holidayOverrides.locationId, locationId)));

const liveLocation = (db: Database, organizationId: string, locationId: string) =>
  db
    .select({ country: locations.country, state: locations.state })
    .from(locations)
    .where(and(eq(locations.organizationId, organizationId), eq(locations.id, locationId), isNull(locations.deletedAt)));

/** The location's overrides (undefined: never set); 404 for a location that is not the organization's live one. */
export async function readHolidayOverrides(db: Database, organizationId: string, locationId: string) {
  const [[location], [row]] = await db.batch([
    liveLocation(db, organizationId, locationId),
    storedOverrides(db, organizationId, locationId),
  ]);
  if (!location) throw notFound("Location");
  return row;
}

/** The location's holidays of `year`: the dataset's by its country and state, with the organization's overrides. */
export async function readLocationHolidays(db: Database, organizationId: string, locationId: string, year: number): Promise<Holiday[]> {
  const [[location], [row]] = await db.batch([
    liveLocation(db, organizationId, locationId),
    storedOverrides(db, organizationId, locationId),
  ]);
  if (!location) throw notFound("Location");
  const overrides: HolidayOverrides = row ? { added: row.added, removed: row.removed } : NO_OVERRIDES;
  return holidaysWithOverrides(await datasetHolidays(location.country, location.state, year), overrides, year);
}

/**
 * PUT: one upsert of the location's overrides, guarded by the location being live, recording
 * `location.holidays_updated` only when it changes them.
 */
export async function putHolidayOverrides(writer: Writer, organizationId: string, locationId: string, overrides: HolidayOverrides) {
  const now = await organizationNow({ ...writer, organizationId });
  const added = [...overrides.added].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const removed = [...new Set(overrides.removed)].sort();
  const upsert = writer.db
    .insert(holidayOverrides)
    .values({
      locationId,
      organizationId: overridesLocationLive.sql(organizationId, locationId) as unknown as string,
      added,
      removed,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: holidayOverrides.locationId,
      set: { added, removed, updatedAt: now },
      setWhere: or(
        sql`${holidayOverrides.added} IS NOT ${JSON.stringify(added)}`,
        sql`${holidayOverrides.removed} IS NOT ${JSON.stringify(removed)}`,
      ),
    });
  const data = { locationId, added, removed, updatedAt: iso(now) };
  await guardedBatch(writer, [upsert], [overridesLocationLive], {
    events: [{ organizationId, type: "location.holidays_updated", data, whenChanged: true }],
  });
  const [row] = await storedOverrides(writer.db, organizationId, locationId);
  if (!row) throw notFound("Location");
  return row;
}
