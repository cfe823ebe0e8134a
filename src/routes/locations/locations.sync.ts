import { and, getTableColumns, isNotNull, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { z } from "@hono/zod-openapi";
import { locations } from "../../../drizzle/schema";
import { chunk, rowsPerStatement } from "../../lib/chunk";
import type { Database } from "../../lib/db";
import { newId } from "../../lib/ids";
import { inJsonList, notInJsonList } from "../../lib/json-list";
import { inOrganization, softDeleted } from "../../lib/tenancy";
import { type LocationInsert, type LocationRow, type LocationSyncRecord, toColumns } from "./locations.schemas";

type SyncRecord = z.infer<typeof LocationSyncRecord>;

/** Every column is bound explicitly, so a row binds exactly this many parameters. */
const PARAMETERS_PER_ROW = Object.keys(getTableColumns(locations)).length;
const ROWS_PER_STATEMENT = rowsPerStatement(PARAMETERS_PER_ROW);

/** The columns a sync record decides; id, organization and createdAt stay as first written. */
const CONTENT = [
  "name",
  "website",
  "country",
  "state",
  "city",
  "addressLine1",
  "addressLine2",
  "zipCode",
  "externalId",
  "longitude",
  "latitude",
  "clockInDistanceCentimeters",
  "clockOutDistanceCentimeters",
  "breakStartDistanceCentimeters",
  "breakEndDistanceCentimeters",
  "timezone",
  "geofenceMode",
] as const satisfies readonly (keyof LocationRow)[];

const REPLACED = [...CONTENT, "active", "deletedAt", "updatedAt"] as const;

const excluded = (column: SQLiteColumn) => sql.raw(`excluded."${column.name}"`);

const replaceFromPayload = Object.fromEntries(REPLACED.map((key) => [key, excluded(locations[key])])) as Record<
  (typeof REPLACED)[number],
  SQL
>;

/** Only rows that differ (or are deleted) are rewritten: an identical payload changes nothing, updatedAt included. */
const differsFromPayload = or(
  isNotNull(locations.deletedAt),
  ...[...CONTENT, "active" as const].map((key) => sql`${locations[key]} IS NOT ${excluded(locations[key])}`),
)!;

/** Required: every column is bound, so PARAMETERS_PER_ROW is exact. */
function storedRow(organizationId: string, record: SyncRecord, now: Date): Required<LocationInsert> {
  const columns = toColumns(record);
  return {
    id: newId(now.getTime()),
    organizationId,
    name: record.name,
    website: columns.website ?? null,
    country: columns.country ?? null,
    state: columns.state ?? null,
    city: columns.city ?? null,
    addressLine1: columns.addressLine1 ?? null,
    addressLine2: columns.addressLine2 ?? null,
    zipCode: columns.zipCode ?? null,
    externalId: record.externalId,
    longitude: columns.longitude ?? null,
    latitude: columns.latitude ?? null,
    clockInDistanceCentimeters: columns.clockInDistanceCentimeters ?? null,
    clockOutDistanceCentimeters: columns.clockOutDistanceCentimeters ?? null,
    breakStartDistanceCentimeters: columns.breakStartDistanceCentimeters ?? null,
    breakEndDistanceCentimeters: columns.breakEndDistanceCentimeters ?? null,
    timezone: record.timezone,
    geofenceMode: record.geofenceMode,
    active: true,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
}

/** Multi-row upserts by (organization, externalId), chunked under D1's bound-parameter limit. */
export function upsertStatements(db: Database, organizationId: string, records: SyncRecord[], now: Date) {
  const rows = records.map((record) => storedRow(organizationId, record, now));
  const statements = chunk(rows, ROWS_PER_STATEMENT).map((part) =>
    db
      .insert(locations)
      .values(part)
      .onConflictDoUpdate({
        target: [locations.organizationId, locations.externalId],
        set: replaceFromPayload,
        setWhere: differsFromPayload,
      })
      .returning({ id: locations.id }),
  );
  return { statements, proposedIds: new Set(rows.map((row) => row.id)) };
}

export interface SyncOptions {
  records: SyncRecord[];
  deactivateMissing: boolean;
}

/** Soft-deletes the live, externally managed locations the payload does not name (a no-op unless asked). */
const deactivation = (db: Database, organizationId: string, externalIds: string[], enabled: boolean, now: Date) =>
  db
    .update(locations)
    .set(softDeleted(now))
    .where(
      and(
        inOrganization(locations, organizationId),
        isNotNull(locations.externalId),
        enabled ? notInJsonList(locations.externalId, externalIds) : sql`0`,
      ),
    )
    .returning({ id: locations.id });

export async function syncLocations(db: Database, organizationId: string, { records, deactivateMissing }: SyncOptions) {
  const now = new Date();
  const externalIds = records.map((record) => record.externalId);
  const { statements, proposedIds } = upsertStatements(db, organizationId, records, now);
  // One atomic batch. The deactivation touches only externalIds the upserts do not, so it may run first.
  const [deactivated, ...upserted] = await db.batch([
    deactivation(db, organizationId, externalIds, deactivateMissing, now),
    ...statements,
  ]);
  const changedIds = upserted.flat().map((row) => row.id);
  // The read-back needs no atomicity: it reports the payload's locations as they now stand.
  const stored = await db
    .select()
    .from(locations)
    .where(and(inOrganization(locations, organizationId), inJsonList(locations.externalId, externalIds)));
  const byExternalId = new Map(stored.map((row) => [row.externalId, row]));
  const created = changedIds.filter((id) => proposedIds.has(id)).length;
  return {
    created,
    updated: changedIds.length - created,
    deactivated: deactivated.length,
    records: externalIds.map((externalId) => byExternalId.get(externalId)).filter((row) => row !== undefined),
  };
}
