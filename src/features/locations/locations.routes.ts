import { z } from "@hono/zod-openapi";
import { authorize } from "@/auth/authorize";
import { conditionalGet } from "@/platform/http/conditional";
import {
  IfMatchHeaders,
  IfNoneMatchHeaders,
  jsonBody,
  jsonContent,
  notModified,
  OrganizationParams,
  problems,
  withETag,
} from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import {
  Location,
  LocationCreate,
  LocationExternalIdParams,
  LocationListQuery,
  LocationParams,
  LocationPatch,
  LocationSync,
  LocationSyncResult,
  MAX_SYNC_RECORDS,
} from "@/wire/location.schemas";

const tags = ["Locations"];
const read = authorize("LOCATION_READ");
const admin = authorize("LOCATION_ADMIN");

const EXTRA_FIELDS =
  "Besides the brief's fields a location carries `timezone` (IANA, default `UTC`) and `geofenceMode` " +
  "(`block`, the default, or `flag`). `latitude` and `longitude` are decimal strings and are set or cleared together. " +
  "`kioskPhotoRequired` (default false) makes every kiosk punch at the location need a photo (POST /api/kiosk/photos " +
  "first, then the punch with its photoId; without one 422 `PHOTO_REQUIRED`); managers see the photos with " +
  "GET /api/timesheets/{id}/photos.";

export const list = defineRoute({
  method: "get",
  path: "/api/organizations/{organization_id}/locations",
  operationId: "listLocations",
  flags: { scope: "organization", list: true },
  tags,
  summary: "Retrieve all locations",
  description: "Oldest first. `name` matches locations whose name contains the text, ignoring (ASCII) case.",
  middleware: [read] as const,
  request: { params: OrganizationParams, query: LocationListQuery },
  responses: { 200: jsonContent(z.array(Location), "Locations, oldest first"), ...problems() },
});

export const getOne = defineRoute({
  method: "get",
  path: "/api/organizations/{organization_id}/locations/{id}",
  operationId: "getLocation",
  flags: { scope: "organization" },
  tags,
  summary: "Retrieve a specific location",
  description: "One live location of the organization; a deleted one or one of another organization is 404.",
  middleware: [read, conditionalGet] as const,
  request: { params: LocationParams, headers: IfNoneMatchHeaders },
  responses: { 200: withETag(jsonContent(Location, "The location")), ...notModified, ...problems("LOCATION_NOT_FOUND") },
});

export const getByExternalId = defineRoute({
  method: "get",
  path: "/api/organizations/{organization_id}/locations/external/{externalId}",
  operationId: "getLocationByExternalId",
  flags: { scope: "organization" },
  tags,
  summary: "Retrieve a specific location by external ID",
  description: "The live location whose `externalId` (the integrator's own id) matches; none is 404.",
  middleware: [read, conditionalGet] as const,
  request: { params: LocationExternalIdParams, headers: IfNoneMatchHeaders },
  responses: { 200: withETag(jsonContent(Location, "The location")), ...notModified, ...problems("LOCATION_NOT_FOUND") },
});

export const create = defineRoute({
  method: "post",
  path: "/api/organizations/{organization_id}/locations",
  operationId: "createLocation",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Create a new location",
  description:
    `${EXTRA_FIELDS} \`externalId\` is unique within the organization, deleted locations included ` +
    "(409 `EXTERNAL_ID_TAKEN`; sync restores a deleted location by its externalId).",
  middleware: [admin] as const,
  request: { params: OrganizationParams, body: jsonBody(LocationCreate) },
  responses: { 201: withETag(jsonContent(Location, "The created location")), ...problems("EXTERNAL_ID_TAKEN") },
});

export const patch = defineRoute({
  method: "patch",
  path: "/api/organizations/{organization_id}/locations/{id}",
  operationId: "updateLocation",
  flags: { scope: "organization" },
  tags,
  summary: "Update a specific location",
  description: `Changes only the fields sent; \`null\` clears a nullable field. ${EXTRA_FIELDS}`,
  middleware: [admin] as const,
  request: { params: LocationParams, body: jsonBody(LocationPatch), headers: IfMatchHeaders },
  responses: {
    200: withETag(jsonContent(Location, "The location with its new values and updatedAt")),
    ...problems("LOCATION_NOT_FOUND", "EXTERNAL_ID_TAKEN", "PRECONDITION_FAILED"),
  },
});

export const remove = defineRoute({
  method: "delete",
  path: "/api/organizations/{organization_id}/locations/{id}",
  operationId: "deleteLocation",
  flags: { scope: "organization" },
  tags,
  summary: "Delete a specific location",
  description:
    "Soft delete: `deletedAt` is set and `active` becomes false; reads answer 404 afterwards, lists show it with `includeDeleted=true`.",
  middleware: [admin] as const,
  request: { params: LocationParams, headers: IfMatchHeaders },
  responses: { 200: withETag(jsonContent(Location, "The deleted location")), ...problems("LOCATION_NOT_FOUND", "PRECONDITION_FAILED") },
});

export const sync = defineRoute({
  method: "post",
  path: "/api/organizations/{organization_id}/locations/sync",
  operationId: "syncLocations",
  flags: { scope: "organization", idempotency: "middleware" },
  tags: ["Organizations", "Locations"],
  summary: "Sync Locations",
  description:
    `Upserts 1–${MAX_SYNC_RECORDS} locations by \`externalId\` in one atomic write. A new externalId creates a ` +
    "location (omitted fields get their defaults: null, `timezone` `UTC`, `geofenceMode` `block`); a known one is " +
    "merged: a field the record omits keeps its stored value, an explicit null clears it, `name` is always given. " +
    "`latitude` and `longitude` are given (or cleared) together, a record naming only one is a 400. A record that " +
    "changes nothing leaves the location untouched (its `updatedAt` does not move), so syncing the same payload " +
    "twice changes nothing; a deleted location named again is restored. With `deactivateMissing: true`, live " +
    "locations whose externalId the payload does not name are soft-deleted; locations without an externalId are " +
    "never touched by sync. `created`, `updated` and `deactivated` count the rows this call changed. Staff member " +
    "sync merges the same way.",
  middleware: [admin] as const,
  request: { params: OrganizationParams, body: jsonBody(LocationSync) },
  responses: { 200: jsonContent(LocationSyncResult, "What the sync changed, and the payload's locations"), ...problems() },
});

export type ListRoute = typeof list;
export type GetOneRoute = typeof getOne;
export type GetByExternalIdRoute = typeof getByExternalId;
export type CreateRoute = typeof create;
export type PatchRoute = typeof patch;
export type RemoveRoute = typeof remove;
export type SyncRoute = typeof sync;
