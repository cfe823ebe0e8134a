import { z } from "@hono/zod-openapi";
import { authorize } from "@/auth/authorize";
import { MAX_DEMAND_RANGE_DAYS, MAX_INTERVALS_PER_UPLOAD } from "@/domain/demand";
import { jsonBody, jsonContent, problems } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import {
  DemandInterval,
  DemandListQuery,
  DemandUpdate,
  DemandUpload,
  LaborTargets,
  LaborTargetsInput,
  LocationDemandParams,
} from "./demand.schemas";

const tags = ["Demand"];
const location = "/api/organizations/{organization_id}/locations/{locationId}";

export const upload = defineRoute({
  method: "put",
  path: `${location}/demand`,
  operationId: "upsertDemand",
  flags: { scope: "organization" },
  tags,
  summary: "Upload demand intervals",
  description:
    "Sales or transactions (or a metric of your own) of the location per 15-minute interval, ACTUAL or FORECAST: " +
    `1–${MAX_INTERVALS_PER_UPLOAD} intervals, each written over any stored one of the same (metric, kind, start), so ` +
    "repeating an upload changes nothing but `updatedAt`. Every `start` is an instant on a 15-minute boundary; one " +
    "that is not, or that repeats an earlier start of the body, is a 400 naming `intervals.<index>.start`. All " +
    "intervals are written together with one `demand.updated` event (a summary: metric, kind, count and span), or none.",
  middleware: [authorize("SCHEDULE_WRITE")] as const,
  request: { params: LocationDemandParams, body: jsonBody(DemandUpload) },
  responses: { 200: jsonContent(DemandUpdate, "What was written"), ...problems("LOCATION_NOT_FOUND") },
});

export const list = defineRoute({
  method: "get",
  path: `${location}/demand`,
  operationId: "listDemand",
  flags: { scope: "organization", list: true },
  tags,
  summary: "List demand intervals",
  description:
    `The location's intervals starting in [startTime, endTime) (at most ${MAX_DEMAND_RANGE_DAYS} days; else 400 ` +
    "naming `endTime`), optionally of one `metric` and `kind`, by start, metric and kind, paged like every list: " +
    '`limit` (1–500, default 100) and `cursor`, with `Link: <…>; rel="next"` while more remain.',
  middleware: [authorize("SCHEDULE_READ")] as const,
  request: { params: LocationDemandParams, query: DemandListQuery },
  responses: { 200: jsonContent(z.array(DemandInterval), "The intervals"), ...problems("LOCATION_NOT_FOUND") },
});

export const getTargets = defineRoute({
  method: "get",
  path: `${location}/labor-targets`,
  operationId: "getLaborTargets",
  flags: { scope: "organization" },
  tags,
  summary: "Retrieve a location's labor targets",
  description: "The location's labor percent and sales per labor hour targets; null (and `updatedAt` null) until set.",
  middleware: [authorize("SCHEDULE_READ")] as const,
  request: { params: LocationDemandParams },
  responses: { 200: jsonContent(LaborTargets, "The targets"), ...problems("LOCATION_NOT_FOUND") },
});

export const putTargets = defineRoute({
  method: "put",
  path: `${location}/labor-targets`,
  operationId: "putLaborTargets",
  flags: { scope: "organization" },
  tags,
  summary: "Set a location's labor targets",
  description:
    "Sets both targets: `laborPercent` (0–100, labor cost as a percent of sales) and `salesPerLaborHour` (≥ 0). " +
    "Records `labor_targets.updated`.",
  middleware: [authorize("SCHEDULE_WRITE")] as const,
  request: { params: LocationDemandParams, body: jsonBody(LaborTargetsInput) },
  responses: { 200: jsonContent(LaborTargets, "The targets"), ...problems("LOCATION_NOT_FOUND") },
});

export type UploadRoute = typeof upload;
export type ListRoute = typeof list;
export type GetTargetsRoute = typeof getTargets;
export type PutTargetsRoute = typeof putTargets;
