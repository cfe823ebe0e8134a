import type { locations } from "@db/schema";
import { z } from "@hono/zod-openapi";
import { idParam, OrganizationParams } from "@/platform/openapi/helpers";
import { ListQuery } from "@/platform/schemas/list-query";
import { iso, isoOrNull } from "@/platform/schemas/time";
import { CountryCode, ExternalId, Name, recordLifecycle, TimeZone } from "@/platform/schemas/validation";

export const MAX_SYNC_RECORDS = 1000;
export const MAX_DISTANCE_CENTIMETERS = 10_000_000;
export const GEOFENCE_MODES = ["block", "flag"] as const;

/** The contract's coordinates are text: a JSON number is refused rather than silently converted. */
const decimalDegrees = (axis: "latitude" | "longitude", limit: number, example: string) =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined ? undefined : `must be decimal degrees as a string such as "${example}", not a ${typeof issue.input}`,
    })
    .regex(/^[+-]?\d{1,3}(\.\d{1,15})?$/, `must be decimal degrees such as "${example}"`)
    .refine((value) => Math.abs(Number(value)) <= limit, `must be between -${limit} and ${limit}`)
    .openapi({ example, description: `${axis} in decimal degrees, -${limit} to ${limit}, as a string` });

const Latitude = decimalDegrees("latitude", 90, "40.748817");
const Longitude = decimalDegrees("longitude", 180, "-73.985428");

const Distance = z
  .number()
  .int()
  .min(0)
  .max(MAX_DISTANCE_CENTIMETERS)
  .openapi({ example: 10000, description: "Geofence radius in centimetres; 0 or null means no fence for this event" });

const AddressText = z.string().trim().max(200);

const GeofenceMode = z
  .enum(GEOFENCE_MODES)
  .openapi({ description: "`block` refuses a punch outside the fence (422); `flag` accepts it and flags the shift" });

/** Writable fields, each as it is when present. */
const fields = {
  name: Name.openapi({ example: "Main Street Store" }),
  website: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .openapi({ example: "https://example.com" }),
  country: CountryCode,
  state: AddressText.openapi({ example: "NY" }),
  city: AddressText.openapi({ example: "New York" }),
  addressLine1: AddressText.openapi({ example: "1 Main St" }),
  addressLine2: AddressText.openapi({ example: "Suite 200" }),
  zipCode: z.number().int().min(0).max(9_999_999_999).openapi({ example: 10001 }),
  externalId: ExternalId,
  longitude: Longitude,
  latitude: Latitude,
  clock_in_distance_centimeters: Distance,
  clock_out_distance_centimeters: Distance,
  break_start_distance_centimeters: Distance,
  break_end_distance_centimeters: Distance,
  timezone: TimeZone,
  geofenceMode: GeofenceMode,
  kioskPhotoRequired: z.boolean().openapi({
    description:
      "Kiosk punches here need a photo: POST /api/kiosk/punches without a photoId is 422 PHOTO_REQUIRED. Phones' punches are unaffected.",
  }),
};

/** Optional on create, and clearable with null on update. */
const nullableFields = {
  website: fields.website.nullable(),
  country: fields.country.nullable(),
  state: fields.state.nullable(),
  city: fields.city.nullable(),
  addressLine1: fields.addressLine1.nullable(),
  addressLine2: fields.addressLine2.nullable(),
  zipCode: fields.zipCode.nullable(),
  externalId: fields.externalId.nullable(),
  longitude: fields.longitude.nullable(),
  latitude: fields.latitude.nullable(),
  clock_in_distance_centimeters: fields.clock_in_distance_centimeters.nullable(),
  clock_out_distance_centimeters: fields.clock_out_distance_centimeters.nullable(),
  break_start_distance_centimeters: fields.break_start_distance_centimeters.nullable(),
  break_end_distance_centimeters: fields.break_end_distance_centimeters.nullable(),
};

/** A location either has both coordinates or neither, so a geofence always has a centre. */
const coordinatesTogether = (value: { latitude?: string | null; longitude?: string | null }, ctx: z.RefinementCtx) => {
  const { latitude, longitude } = value;
  if ((latitude === undefined) !== (longitude === undefined) || (latitude === null) !== (longitude === null)) {
    const path = latitude === undefined || latitude === null ? "latitude" : "longitude";
    ctx.addIssue({ code: "custom", path: [path], message: "latitude and longitude must be set (or cleared) together" });
  }
};

/** Create and sync bodies: only `name` is required; `timezone` and `geofenceMode` have defaults. */
const CreateFields = z.object({
  name: fields.name,
  ...z.object(nullableFields).partial().shape,
  timezone: fields.timezone.default("UTC"),
  geofenceMode: fields.geofenceMode.default("block"),
  kioskPhotoRequired: fields.kioskPhotoRequired.optional(),
});

export const LocationCreate = CreateFields.superRefine(coordinatesTogether).openapi("LocationCreate", {
  example: {
    name: "Main Street Store",
    website: "https://example.com",
    country: "US",
    state: "NY",
    city: "New York",
    addressLine1: "1 Main St",
    addressLine2: null,
    zipCode: 10001,
    externalId: "store-1001",
    longitude: "-73.985428",
    latitude: "40.748817",
    clock_in_distance_centimeters: 10000,
    clock_out_distance_centimeters: 10000,
    break_start_distance_centimeters: 10000,
    break_end_distance_centimeters: 10000,
    timezone: "America/New_York",
    geofenceMode: "block",
  },
});

export const LocationPatch = z
  .object({
    name: fields.name,
    ...nullableFields,
    timezone: fields.timezone,
    geofenceMode: fields.geofenceMode,
    kioskPhotoRequired: fields.kioskPhotoRequired,
  })
  .partial()
  .superRefine(coordinatesTogether)
  .openapi("LocationPatch", { example: { name: "Main Street Store", addressLine2: null } });

/**
 * A sync record merges into the stored location: a field it omits keeps its value (a new location gets the
 * default), null clears it. Coordinates still come as a pair, so a merge never leaves a half-set centre.
 */
export const LocationSyncRecord = CreateFields.extend({
  externalId: fields.externalId,
  timezone: fields.timezone.optional().openapi({ description: "IANA time zone; `UTC` for a new location when omitted" }),
  geofenceMode: fields.geofenceMode.optional().openapi({
    description:
      "`block` refuses a punch outside the fence (422); `flag` accepts it and flags the shift. `block` for a new location when omitted",
  }),
})
  .superRefine(coordinatesTogether)
  .openapi("LocationSyncRecord");

export const LocationSync = z
  .object({
    records: z.array(LocationSyncRecord).min(1).max(MAX_SYNC_RECORDS),
    deactivateMissing: z.boolean().default(false).openapi({
      description: "Soft-delete the organization's live locations with an externalId that `records` does not name",
    }),
  })
  .superRefine((value, ctx) => {
    const seen = new Set<string>();
    value.records.forEach((record, index) => {
      if (seen.has(record.externalId)) {
        ctx.addIssue({
          code: "custom",
          path: ["records", index, "externalId"],
          message: `duplicate externalId '${record.externalId}' in this payload`,
        });
      }
      seen.add(record.externalId);
    });
  })
  .openapi("LocationSync");

export const Location = z
  .object({
    id: z.string().openapi({ example: "0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d6e" }),
    name: z.string().openapi({ example: "Main Street Store" }),
    website: z.string().nullable().openapi({ example: "https://example.com" }),
    country: z.string().nullable().openapi({ example: "US" }),
    state: z.string().nullable().openapi({ example: "NY" }),
    city: z.string().nullable().openapi({ example: "New York" }),
    addressLine1: z.string().nullable().openapi({ example: "1 Main St" }),
    addressLine2: z.string().nullable().openapi({ example: null }),
    zipCode: z.number().int().nullable().openapi({ example: 10001 }),
    externalId: z.string().nullable().openapi({ example: "store-1001" }),
    longitude: z.string().nullable().openapi({ example: "-73.985428" }),
    latitude: z.string().nullable().openapi({ example: "40.748817" }),
    clock_in_distance_centimeters: z.number().int().nullable().openapi({ example: 10000 }),
    clock_out_distance_centimeters: z.number().int().nullable().openapi({ example: 10000 }),
    break_start_distance_centimeters: z.number().int().nullable().openapi({ example: 10000 }),
    break_end_distance_centimeters: z.number().int().nullable().openapi({ example: 10000 }),
    timezone: z.string().openapi({ example: "America/New_York", description: "IANA time zone" }),
    geofenceMode: GeofenceMode.openapi({ example: "block" }),
    kioskPhotoRequired: z.boolean().openapi({ description: "Kiosk punches here need a photo (422 PHOTO_REQUIRED without one)." }),
    organizationId: z.string().openapi({ example: "0193a5a0-6b0d-7a19-8c3d-0e1f2a3b4c5d" }),
    ...recordLifecycle,
  })
  .openapi("Location");

export const LocationSyncResult = z
  .object({
    created: z.number().int().openapi({ example: 1 }),
    updated: z.number().int().openapi({ example: 0 }),
    deactivated: z.number().int().openapi({ example: 0 }),
    records: z.array(Location).openapi({ description: "The payload's locations as stored, in payload order" }),
  })
  .openapi("LocationSyncResult");

export const LocationListQuery = ListQuery.extend({
  name: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .openapi({
      description:
        "Only locations whose name contains this text, taken literally (`%` and `_` too), ignoring case for A–Z only: " +
        "other letters must match as sent.",
      example: "main",
    }),
});

export const LocationParams = OrganizationParams.extend({ id: idParam("id", "Location id") });

export const LocationExternalIdParams = OrganizationParams.extend({
  externalId: ExternalId.openapi({ param: { name: "externalId", in: "path" } }),
});

export type LocationRow = typeof locations.$inferSelect;
export type LocationInsert = typeof locations.$inferInsert;
export type LocationFields = z.infer<typeof LocationPatch>;
export type LocationSyncInput = z.infer<typeof LocationSync>;
export type LocationSyncRecordInput = z.infer<typeof LocationSyncRecord>;

/** Wire field names to columns: only the four distances differ. */
export function toColumns(body: LocationFields): Partial<LocationInsert> {
  const {
    clock_in_distance_centimeters,
    clock_out_distance_centimeters,
    break_start_distance_centimeters,
    break_end_distance_centimeters,
    ...same
  } = body;
  return {
    ...same,
    clockInDistanceCentimeters: clock_in_distance_centimeters,
    clockOutDistanceCentimeters: clock_out_distance_centimeters,
    breakStartDistanceCentimeters: break_start_distance_centimeters,
    breakEndDistanceCentimeters: break_end_distance_centimeters,
  };
}

export const serializeLocation = (row: LocationRow): z.infer<typeof Location> => ({
  id: row.id,
  name: row.name,
  website: row.website,
  country: row.country,
  state: row.state,
  city: row.city,
  addressLine1: row.addressLine1,
  addressLine2: row.addressLine2,
  zipCode: row.zipCode,
  externalId: row.externalId,
  longitude: row.longitude,
  latitude: row.latitude,
  clock_in_distance_centimeters: row.clockInDistanceCentimeters,
  clock_out_distance_centimeters: row.clockOutDistanceCentimeters,
  break_start_distance_centimeters: row.breakStartDistanceCentimeters,
  break_end_distance_centimeters: row.breakEndDistanceCentimeters,
  timezone: row.timezone,
  geofenceMode: row.geofenceMode,
  kioskPhotoRequired: row.kioskPhotoRequired,
  organizationId: row.organizationId,
  active: row.active,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
  deletedAt: isoOrNull(row.deletedAt),
});
