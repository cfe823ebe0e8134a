import { goodFaithEstimates, locationFairWorkweek, locationFairWorkweekVersions, locations, staffMembers } from "@db/schema";
import { and, asc, desc, eq, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { organizationNow } from "@/data/clock";
import { newId } from "@/data/ids";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import { applyOverrides, type RulePack, type RulePackId, type RulePackOverrides, rulePack } from "@/domain/fair-workweek/packs";
import { businessDate, offsetMinutesAt } from "@/domain/local-time";
import { notFound } from "@/problems/problem";
import { locationLive, staffMemberLive } from "./fair-workweek.guards";

export type LocationFairWorkweekRow = typeof locationFairWorkweek.$inferSelect;
export type GoodFaithEstimateRow = typeof goodFaithEstimates.$inferSelect;

const liveLocation = (db: Database, organizationId: string, locationId: string) =>
  db
    .select({ id: locations.id })
    .from(locations)
    .where(and(eq(locations.organizationId, organizationId), eq(locations.id, locationId), isNull(locations.deletedAt)));

/** The location's stored setting (no row: never set), a statement to run alone or inside another read's batch. */
export const storedSetting = (db: Database, organizationId: string, locationId: string) =>
  db
    .select()
    .from(locationFairWorkweek)
    .where(and(eq(locationFairWorkweek.organizationId, organizationId), eq(locationFairWorkweek.locationId, locationId)));

/** The pack a stored setting names, in effect on `onDate`, with its overrides laid over it; null without one. */
export function effectivePack(row: Pick<LocationFairWorkweekRow, "rulePack" | "overrides"> | undefined, onDate: string): RulePack | null {
  if (!row?.rulePack) return null;
  const pack = rulePack(row.rulePack as RulePackId, onDate);
  return pack ? applyOverrides(pack, row.overrides as RulePackOverrides | null) : null;
}

/** The location's stored setting (undefined: never set), 404 for a location that is not the organization's live one. */
export async function readLocationSetting(db: Database, organizationId: string, locationId: string) {
  const [[location], [row]] = await db.batch([liveLocation(db, organizationId, locationId), storedSetting(db, organizationId, locationId)]);
  if (!location) throw notFound("Location");
  return row;
}

export type PackVersionRow = typeof locationFairWorkweekVersions.$inferSelect;

/** The versions of the organization's settings (of one location, when named), oldest first: a few rows per location. */
export const packVersionsStatement = (db: Database, organizationId: string, locationId?: string) =>
  db
    .select()
    .from(locationFairWorkweekVersions)
    .where(
      and(
        eq(locationFairWorkweekVersions.organizationId, organizationId),
        locationId === undefined ? undefined : eq(locationFairWorkweekVersions.locationId, locationId),
      ),
    )
    .orderBy(asc(locationFairWorkweekVersions.locationId), asc(locationFairWorkweekVersions.effectiveFrom));

/** The location's setting in effect on `date`: the newest version whose effectiveFrom is on or before it (none before the first). */
export function versionOn(versions: readonly PackVersionRow[], locationId: string, date: string): PackVersionRow | undefined {
  let found: PackVersionRow | undefined;
  for (const v of versions)
    if (v.locationId === locationId && v.effectiveFrom <= date && (!found || v.effectiveFrom > found.effectiveFrom)) found = v;
  return found;
}

/** The pack each location had on each date, from its versions: for pay, schedule cost and the change log. */
export const packsOnDates =
  (versions: readonly PackVersionRow[]) =>
  (locationId: string, date: string): RulePack | null =>
    effectivePack(versionOn(versions, locationId, date), date);

/**
 * The rule pack in effect at a location on `onDate` (YYYY-MM-DD), its overrides applied — the setting's version in
 * effect that day: null where the location had no pack then (or the law had no version yet that day). For the
 * schedule-change and pay code.
 */
export async function readLocationPack(db: Database, organizationId: string, locationId: string, onDate: string): Promise<RulePack | null> {
  return packsOnDates(await packVersionsStatement(db, organizationId, locationId))(locationId, onDate);
}

/**
 * One upsert of the location's setting, guarded by the location being live. It records
 * `location.fair_workweek_updated` only when the pack or the overrides change.
 */
export async function putLocationSetting(
  writer: Writer,
  organizationId: string,
  locationId: string,
  body: { rulePack: RulePackId | null; overrides?: RulePackOverrides | null },
): Promise<LocationFairWorkweekRow> {
  const now = await organizationNow({ ...writer, organizationId });
  const [location] = await writer.db
    .select({ timezone: locations.timezone })
    .from(locations)
    .where(and(eq(locations.organizationId, organizationId), eq(locations.id, locationId), isNull(locations.deletedAt)));
  if (!location) throw notFound("Location");
  // Effective from the location's today: past dates keep the pack they had (their premiums with it).
  const today = businessDate(now, offsetMinutesAt(location.timezone, now));
  const overrides = body.overrides ?? null;
  const overridesJson = overrides === null ? null : JSON.stringify(overrides);
  const differs: SQL = or(
    sql`${locationFairWorkweek.rulePack} IS NOT ${body.rulePack}`,
    sql`${locationFairWorkweek.overrides} IS NOT ${overridesJson}`,
  )!;
  const upsert = writer.db
    .insert(locationFairWorkweek)
    .values({
      locationId,
      organizationId: locationLive.sql(organizationId, locationId) as unknown as string,
      rulePack: body.rulePack,
      overrides,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: locationFairWorkweek.locationId,
      set: { rulePack: body.rulePack, overrides, updatedAt: now },
      setWhere: differs,
    });
  const version = writer.db
    .insert(locationFairWorkweekVersions)
    .values({
      id: newId(),
      organizationId,
      locationId,
      effectiveFrom: today,
      rulePack: body.rulePack,
      overrides,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [locationFairWorkweekVersions.locationId, locationFairWorkweekVersions.effectiveFrom],
      set: { rulePack: body.rulePack, overrides, updatedAt: now },
      setWhere: or(
        sql`${locationFairWorkweekVersions.rulePack} IS NOT ${body.rulePack}`,
        sql`${locationFairWorkweekVersions.overrides} IS NOT ${overridesJson}`,
      ),
    });
  const where = eq(locationFairWorkweek.locationId, locationId);
  // The setting's own upsert goes last: its event is recorded only when it changed the setting.
  await guardedBatch(writer, [version, upsert], [locationLive], {
    events: [{ organizationId, type: "location.fair_workweek_updated", row: { table: locationFairWorkweek, where } }],
  });
  const [row] = await storedSetting(writer.db, organizationId, locationId);
  if (!row) throw notFound("Location");
  return row;
}

const estimatesOf = (db: Database, organizationId: string, employeeId: string) =>
  db
    .select()
    .from(goodFaithEstimates)
    .where(and(eq(goodFaithEstimates.organizationId, organizationId), eq(goodFaithEstimates.employeeId, employeeId)))
    .orderBy(desc(goodFaithEstimates.effectiveFrom));

/** Every estimate of the staff member, the newest effectiveFrom first; 404 for one not live in the organization. */
export async function readEstimates(db: Database, organizationId: string, employeeId: string): Promise<GoodFaithEstimateRow[]> {
  const [[staff], rows] = await db.batch([
    db
      .select({ id: staffMembers.id })
      .from(staffMembers)
      .where(and(eq(staffMembers.organizationId, organizationId), eq(staffMembers.id, employeeId), isNull(staffMembers.deletedAt))),
    estimatesOf(db, organizationId, employeeId),
  ]);
  if (!staff) throw notFound("Staff member");
  return rows;
}

/** The estimate in effect on `onDate`: the newest whose effectiveFrom is on or before it (for the report). */
export async function estimateOn(db: Database, organizationId: string, employeeId: string, onDate: string) {
  const [row] = await db
    .select()
    .from(goodFaithEstimates)
    .where(
      and(
        eq(goodFaithEstimates.organizationId, organizationId),
        eq(goodFaithEstimates.employeeId, employeeId),
        lte(goodFaithEstimates.effectiveFrom, onDate),
      ),
    )
    .orderBy(desc(goodFaithEstimates.effectiveFrom))
    .limit(1);
  return row ?? null;
}

/**
 * Stores the estimate effective from `effectiveFrom` (replacing one of the same date; the others stay as history),
 * guarded by the staff member being live; records `staff_member.good_faith_estimate_updated` when it changes.
 */
export async function putEstimate(
  writer: Writer,
  organizationId: string,
  employeeId: string,
  body: { weeklyHoursMin: number; weeklyHoursMax: number; effectiveFrom: string },
): Promise<GoodFaithEstimateRow> {
  const now = await organizationNow({ ...writer, organizationId });
  const upsert = writer.db
    .insert(goodFaithEstimates)
    .values({
      id: newId(),
      organizationId: staffMemberLive.sql(organizationId, employeeId) as unknown as string,
      employeeId,
      ...body,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [goodFaithEstimates.employeeId, goodFaithEstimates.effectiveFrom],
      set: { weeklyHoursMin: body.weeklyHoursMin, weeklyHoursMax: body.weeklyHoursMax, updatedAt: now },
      setWhere: or(
        sql`${goodFaithEstimates.weeklyHoursMin} IS NOT ${body.weeklyHoursMin}`,
        sql`${goodFaithEstimates.weeklyHoursMax} IS NOT ${body.weeklyHoursMax}`,
      ),
    });
  const where = and(eq(goodFaithEstimates.employeeId, employeeId), eq(goodFaithEstimates.effectiveFrom, body.effectiveFrom))!;
  await guardedBatch(writer, [upsert], [staffMemberLive], {
    events: [{ organizationId, type: "staff_member.good_faith_estimate_updated", row: { table: goodFaithEstimates, where } }],
  });
  const [row] = await writer.db
    .select()
    .from(goodFaithEstimates)
    .where(and(eq(goodFaithEstimates.organizationId, organizationId), where));
  if (!row) throw notFound("Staff member");
  return row;
}
