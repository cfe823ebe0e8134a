import { locations } from "@db/schema";
import { organizationNow } from "@/data/clock";
import { newId } from "@/data/ids";
import type { Writer } from "@/data/write/guarded-batch";
import { type ContentKey, type SyncEntry, syncByExternalId } from "@/data/write/sync-by-external-id";
import { type LocationSyncInput, type LocationSyncRecordInput, toColumns } from "@/wire/location.schemas";

type SyncRecord = LocationSyncRecordInput;
type Entry = SyncEntry<typeof locations>;

/** The columns a record may give; one it omits keeps its stored value (or its default on a new location). */
const OPTIONAL = [
  "website",
  "country",
  "state",
  "city",
  "addressLine1",
  "addressLine2",
  "zipCode",
  "longitude",
  "latitude",
  "clockInDistanceCentimeters",
  "clockOutDistanceCentimeters",
  "breakStartDistanceCentimeters",
  "breakEndDistanceCentimeters",
  "timezone",
  "geofenceMode",
  "kioskPhotoRequired",
] as const satisfies readonly ContentKey<typeof locations>[];

/** The insert for a new externalId, and the columns the record decides for a known one. */
export function locationEntry(organizationId: string, record: SyncRecord, now: Date): Entry {
  const columns = toColumns(record);
  const row: Entry["row"] = {
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
    timezone: record.timezone ?? "UTC",
    geofenceMode: record.geofenceMode ?? "block",
    kioskPhotoRequired: record.kioskPhotoRequired ?? false,
    active: true,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
  return { row, given: ["name", ...OPTIONAL.filter((key) => columns[key] !== undefined)] };
}

export async function syncLocations(writer: Writer, organizationId: string, { records, deactivateMissing }: LocationSyncInput) {
  const now = await organizationNow({ ...writer, organizationId });
  const entries = records.map((record) => locationEntry(organizationId, record, now));
  return syncByExternalId(writer, locations, organizationId, { entries, deactivateMissing, now, events: { resource: "location" } });
}
