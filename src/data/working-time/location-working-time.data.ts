import { locations, locationWorkingTime, locationWorkingTimeVersions } from "@db/schema";
import { and, eq, getTableColumns, isNull, or, type SQL, sql } from "drizzle-orm";
import type { Database, Statement } from "@/data/client";
import { organizationNow } from "@/data/clock";
import { newId } from "@/data/ids";
import { guard } from "@/data/write/guard";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import { businessDate, offsetMinutesAt } from "@/domain/local-time";
import {
  applyWorkingTimeOverrides,
  type WorkingTimeOverrides,
  type WorkingTimePack,
  type WorkingTimePackId,
  workingTimePack,
} from "@/domain/working-time/packs";
import { notFound } from "@/problems/problem";

export type SchoolTerm = { startDate: string; endDate: string };
/** One dated version of a location's pack setting: from `effectiveFrom` (a local date) on. */
export type WorkingTimeVersion = { effectiveFrom: string; rulePack: string | null; overrides: WorkingTimeOverrides | null };
export type LocationWorkingTimeRow = typeof locationWorkingTime.$inferSelect & { versions: WorkingTimeVersion[] };

/** The location's versions, oldest first, as one JSON column of its setting's row (a few per location). */
export const versionsColumn = () =>
  sql<WorkingTimeVersion[]>`(SELECT json_group_array(json_object('effectiveFrom', v.effective_from,
    'rulePack', v.rule_pack, 'overrides', json(v.overrides)))
  FROM location_working_time_versions v WHERE v.location_id = location_working_time.location_id)`.mapWith(parseVersions);

/** The versions column as rows (a raw read may hand it over as its JSON text). */
export function parseVersions(value: unknown): WorkingTimeVersion[] {
  const list = (typeof value === "string" ? JSON.parse(value) : (value ?? [])) as WorkingTimeVersion[];
  return [...list].sort((a, b) => a.effectiveFrom.localeCompare(b.effectiveFrom));
}

/** A setting's row with its versions: what every reader of a location's pack selects. */
export const settingColumns = () => ({ ...getTableColumns(locationWorkingTime), versions: versionsColumn() });

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
    .select(settingColumns())
    .from(locationWorkingTime)
    .where(and(eq(locationWorkingTime.organizationId, organizationId), eq(locationWorkingTime.locationId, locationId)));

/** Every location's setting of the organization (a few rows a location): for the report. */
export const organizationSettingsStatement = (db: Database, organizationId: string) =>
  db.select(settingColumns()).from(locationWorkingTime).where(eq(locationWorkingTime.organizationId, organizationId));

type SettingLike = Pick<typeof locationWorkingTime.$inferSelect, "rulePack" | "overrides"> & { versions?: readonly WorkingTimeVersion[] };

/**
 * The setting in effect on `onDate` (YYYY-MM-DD): the newest version whose effectiveFrom is on or before it, the
 * earliest for a date before every version (the law applied before the location named it); a row read without
 * versions (or written before them) is its own setting.
 */
export function settingOn(row: SettingLike | undefined | null, onDate: string): WorkingTimeVersion | null {
  if (!row) return null;
  const versions = parseVersions(row.versions);
  if (versions.length === 0) return { effectiveFrom: "", rulePack: row.rulePack, overrides: row.overrides as WorkingTimeOverrides | null };
  let found = versions[0]!;
  for (const v of versions) if (v.effectiveFrom <= onDate && v.effectiveFrom >= found.effectiveFrom) found = v;
  return found;
}

/** The pack a stored setting names on `onDate` (its version then), in effect that day, with its overrides; null without one. */
export function effectiveWorkingTimePack(row: SettingLike | undefined | null, onDate: string): WorkingTimePack | null {
  const setting = settingOn(row, onDate);
  if (!setting?.rulePack) return null;
  const pack = workingTimePack(setting.rulePack as WorkingTimePackId, onDate);
  return pack ? applyWorkingTimeOverrides(pack, setting.overrides) : null;
}

/** The pack judging a location's date `onDate` (one read): for callers that have no batch to join. */
export async function workingTimePackOn(db: Database, organizationId: string, locationId: string, onDate: string) {
  const [row] = await workingTimeSettingStatement(db, organizationId, locationId);
  return effectiveWorkingTimePack(row, onDate);
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

type PackSetting = { rulePack: string | null; overrides: WorkingTimeOverrides | null; effectiveFrom: string };

const json = (value: unknown) => (value === null ? null : JSON.stringify(value));

/** The version of the setting's date, replacing one of the same date (the others stay as history). */
const versionUpsert = (writer: Writer, organizationId: string, locationId: string, set: PackSetting, now: Date) =>
  writer.db
    .insert(locationWorkingTimeVersions)
    .values({ id: newId(), organizationId, locationId, ...set, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [locationWorkingTimeVersions.locationId, locationWorkingTimeVersions.effectiveFrom],
      set: { rulePack: set.rulePack, overrides: set.overrides, updatedAt: now },
      setWhere: or(
        sql`${locationWorkingTimeVersions.rulePack} IS NOT ${set.rulePack}`,
        sql`${locationWorkingTimeVersions.overrides} IS NOT ${json(set.overrides)}`,
      ),
    });

/**
 * One upsert of the location's setting (the pack and overrides with the version of their date, or the school terms),
 * guarded by the location being live; records `location.working_time_updated` only when something changed.
 */
async function upsertSetting(
  writer: Writer,
  organizationId: string,
  locationId: string,
  set: PackSetting | { schoolTerms: SchoolTerm[] },
): Promise<LocationWorkingTimeRow> {
  const now = await organizationNow({ ...writer, organizationId });
  const differs: SQL =
    "schoolTerms" in set
      ? sql`${locationWorkingTime.schoolTerms} IS NOT ${json(set.schoolTerms)}`
      : or(
          sql`${locationWorkingTime.rulePack} IS NOT ${set.rulePack}`,
          sql`${locationWorkingTime.overrides} IS NOT ${json(set.overrides)}`,
          sql`${locationWorkingTime.effectiveFrom} IS NOT ${set.effectiveFrom}`,
        )!;
  const upsert = writer.db
    .insert(locationWorkingTime)
    .values({
      locationId,
      organizationId: locationLive.sql(organizationId, locationId) as unknown as string,
      rulePack: null,
      overrides: null,
      schoolTerms: [],
      effectiveFrom: null,
      ...set,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({ target: locationWorkingTime.locationId, set: { ...set, updatedAt: now }, setWhere: differs });
  const where = eq(locationWorkingTime.locationId, locationId);
  // The version goes first: the setting's own upsert, last, records the event only when it changed the setting.
  const versions: Statement[] = "schoolTerms" in set ? [] : [versionUpsert(writer, organizationId, locationId, set, now)];
  await guardedBatch(writer, [...versions, upsert] as unknown as [Statement, ...Statement[]], [locationLive], {
    events: [{ organizationId, type: "location.working_time_updated", row: { table: locationWorkingTime, where } }],
  });
  const [row] = await workingTimeSettingStatement(writer.db, organizationId, locationId);
  if (!row) throw notFound("Location");
  return row;
}

/** The location's local date at `now`; 404 for a location that is not the organization's live one. */
export async function locationToday(db: Database, organizationId: string, locationId: string, now: Date): Promise<string> {
  const [location] = await db
    .select({ timezone: locations.timezone })
    .from(locations)
    .where(and(eq(locations.organizationId, organizationId), eq(locations.id, locationId), isNull(locations.deletedAt)));
  if (!location) throw notFound("Location");
  return businessDate(now, offsetMinutesAt(location.timezone, now));
}

/**
 * Sets the location's pack from `effectiveFrom` (default: the location's today at `now`, the organization's clock):
 * dates before it keep the version they had, dates from it on are judged by this one.
 */
export async function putWorkingTimeSetting(
  writer: Writer,
  organizationId: string,
  locationId: string,
  body: { rulePack: WorkingTimePackId | null; overrides?: WorkingTimeOverrides | null | undefined; effectiveFrom?: string | undefined },
  now = new Date(),
) {
  const effectiveFrom = body.effectiveFrom ?? (await locationToday(writer.db, organizationId, locationId, now));
  return upsertSetting(writer, organizationId, locationId, { rulePack: body.rulePack, overrides: body.overrides ?? null, effectiveFrom });
}

export const putSchoolTerms = (writer: Writer, organizationId: string, locationId: string, schoolTerms: SchoolTerm[]) =>
  upsertSetting(writer, organizationId, locationId, { schoolTerms });
