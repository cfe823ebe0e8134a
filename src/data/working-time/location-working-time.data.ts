import { locations, locationWorkingTime } from "@db/schema";
import { and, eq, isNull, or, type SQL, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { organizationNow } from "@/data/clock";
import { guard } from "@/data/write/guard";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import {
  applyWorkingTimeOverrides,
  type WorkingTimeOverrides,
  type WorkingTimePack,
  type WorkingTimePackId,
  workingTimePack,
} from "@/domain/working-time/packs";
import { notFound } from "@/problems/problem";

export type LocationWorkingTimeRow = typeof locationWorkingTime.$inferSelect;
export type SchoolTerm = { startDate: string; endDate: string };

/** location_working_time.organization_id: the organization, NULL once the location is deleted or is not its. */
const locationLive = guard({
  column: locationWorkingTime.organizationId,
  problem: () => notFound("Location"),
  sql: (organizationId: string, locationId: string): SQL =>
    sql`(SELECT organization_id FROM locations WHERE id = ${locationId} AND organization_id = ${organizationId}
      AND deleted_at IS NULL)`,
});

/** The location's stored setting (no row: never set), a statement to run alone or inside another read's batch. */
export const workingTimeSettingStatement = (db: Database, organizationId: string, locationId: string) =>
  db
    .select()
    .from(locationWorkingTime)
    .where(and(eq(locationWorkingTime.organizationId, organizationId), eq(locationWorkingTime.locationId, locationId)));

/** Every location's setting of the organization (a few rows a location): for the report. */
export const organizationSettingsStatement = (db: Database, organizationId: string) =>
  db.select().from(locationWorkingTime).where(eq(locationWorkingTime.organizationId, organizationId));

/** The pack a stored setting names, in effect on `onDate`, with its overrides laid over it; null without one. */
export function effectiveWorkingTimePack(
  row: Pick<LocationWorkingTimeRow, "rulePack" | "overrides"> | undefined | null,
  onDate: string,
): WorkingTimePack | null {
  if (!row?.rulePack) return null;
  const pack = workingTimePack(row.rulePack as WorkingTimePackId, onDate);
  return pack ? applyWorkingTimeOverrides(pack, row.overrides as WorkingTimeOverrides | null) : null;
}

const liveLocation = (db: Database, organizationId: string, locationId: string) =>
  db
    .select({ id: locations.id })
    .from(locations)
    .where(and(eq(locations.organizationId, organizationId), eq(locations.id, locationId), isNull(locations.deletedAt)));

/** The location's stored setting (undefined: never set); 404 for a location that is not the organization's live one. */
export async function readWorkingTimeSetting(db: Database, organizationId: string, locationId: string) {
  const [[location], [row]] = await db.batch([
    liveLocation(db, organizationId, locationId),
    workingTimeSettingStatement(db, organizationId, locationId),
  ]);
  if (!location) throw notFound("Location");
  return row;
}

/**
 * One upsert of the location's setting (the pack and overrides, or the school terms), guarded by the location being
 * live; records `location.working_time_updated` only when something changed.
 */
async function upsertSetting(
  writer: Writer,
  organizationId: string,
  locationId: string,
  set: { rulePack: string | null; overrides: WorkingTimeOverrides | null } | { schoolTerms: SchoolTerm[] },
): Promise<LocationWorkingTimeRow> {
  const now = await organizationNow({ ...writer, organizationId });
  const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
  const differs: SQL =
    "schoolTerms" in set
      ? sql`${locationWorkingTime.schoolTerms} IS NOT ${json(set.schoolTerms)}`
      : or(
          sql`${locationWorkingTime.rulePack} IS NOT ${set.rulePack}`,
          sql`${locationWorkingTime.overrides} IS NOT ${json(set.overrides)}`,
        )!;
  const upsert = writer.db
    .insert(locationWorkingTime)
    .values({
      locationId,
      organizationId: locationLive.sql(organizationId, locationId) as unknown as string,
      rulePack: null,
      overrides: null,
      schoolTerms: [],
      ...set,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({ target: locationWorkingTime.locationId, set: { ...set, updatedAt: now }, setWhere: differs });
  const where = eq(locationWorkingTime.locationId, locationId);
  await guardedBatch(writer, [upsert], [locationLive], {
    events: [{ organizationId, type: "location.working_time_updated", row: { table: locationWorkingTime, where } }],
  });
  const [row] = await workingTimeSettingStatement(writer.db, organizationId, locationId);
  if (!row) throw notFound("Location");
  return row;
}

export const putWorkingTimeSetting = (
  writer: Writer,
  organizationId: string,
  locationId: string,
  body: { rulePack: WorkingTimePackId | null; overrides?: WorkingTimeOverrides | null | undefined },
) => upsertSetting(writer, organizationId, locationId, { rulePack: body.rulePack, overrides: body.overrides ?? null });

export const putSchoolTerms = (writer: Writer, organizationId: string, locationId: string, schoolTerms: SchoolTerm[]) =>
  upsertSetting(writer, organizationId, locationId, { schoolTerms });
