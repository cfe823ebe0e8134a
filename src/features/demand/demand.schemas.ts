import type { demandIntervals, laborTargets } from "@db/schema";
import { z } from "@hono/zod-openapi";
import {
  DEMAND_KINDS,
  DEMAND_METRICS,
  firstRepeatedStart,
  MAX_INTERVALS_PER_UPLOAD,
  METRIC_PATTERN,
  onIntervalBoundary,
} from "@/domain/demand";
import { parseTimestamp } from "@/domain/local-time";
import { idParam, OrganizationParams } from "@/platform/openapi/helpers";
import { PageQuery } from "@/platform/schemas/list-query";
import { iso } from "@/platform/schemas/time";
import { Instant, Timestamp, TimestampOrNull } from "@/platform/schemas/validation";

export const LocationDemandParams = OrganizationParams.extend({ locationId: idParam("locationId", "Location id") });

const Metric = z
  .string()
  .regex(METRIC_PATTERN, "must be SALES, TRANSACTIONS or a name of your own in upper snake case (A–Z, 0–9, _; ≤ 64)")
  .openapi({
    example: "SALES",
    description: `${DEMAND_METRICS.join(" or ")}, or a metric of your own in upper snake case (e.g. COVERS).`,
  });

const Kind = z.enum(DEMAND_KINDS).openapi({ example: "FORECAST" });

const IntervalInput = z.object({
  start: Instant.refine((value) => {
    const at = parseTimestamp(value);
    return at === null || onIntervalBoundary(at);
  }, "must be on a 15-minute boundary (:00, :15, :30 or :45, no seconds)").openapi({
    example: "2026-03-14T09:00:00Z",
    description: "The interval's start, on a 15-minute boundary; it lasts 15 minutes.",
  }),
  value: z.number().min(0).max(1e12).openapi({ example: 1250.5, description: "Sales (in the organization's currency) or a count." }),
});

export const DemandUpload = z
  .object({
    metric: Metric,
    kind: Kind,
    intervals: z
      .array(IntervalInput)
      .min(1)
      .max(MAX_INTERVALS_PER_UPLOAD)
      .openapi({ example: [{ start: "2026-03-14T09:00:00Z", value: 1250.5 }] }),
  })
  .superRefine((body, ctx) => {
    const starts = body.intervals.map((interval) => parseTimestamp(interval.start));
    if (starts.some((start) => start === null)) return;
    const index = firstRepeatedStart(starts as Date[]);
    if (index >= 0) ctx.addIssue({ code: "custom", path: ["intervals", index, "start"], message: "repeats an earlier interval's start" });
  })
  .openapi("DemandUpload");

export const DemandUpdate = z
  .object({
    locationId: z.string(),
    metric: z.string().openapi({ example: "SALES" }),
    kind: Kind,
    upserted: z.number().int().openapi({ example: 96, description: "Intervals written (new or overwritten)." }),
    startTime: Timestamp.openapi({ description: "The earliest interval's start." }),
    endTime: Timestamp.openapi({ description: "The end of the latest interval." }),
  })
  .openapi("DemandUpdate");

export const DemandInterval = z
  .object({
    locationId: z.string(),
    metric: z.string().openapi({ example: "SALES" }),
    kind: Kind,
    start: Timestamp,
    value: z.number().openapi({ example: 1250.5 }),
    updatedAt: Timestamp,
  })
  .openapi("DemandInterval");

export const DemandListQuery = z.object({
  ...PageQuery.shape,
  startTime: Instant.openapi({
    param: { name: "startTime", in: "query" },
    example: "2026-03-16T00:00:00Z",
    description: "Intervals starting at or after this instant.",
  }),
  endTime: Instant.openapi({
    param: { name: "endTime", in: "query" },
    example: "2026-03-23T00:00:00Z",
    description: "Intervals starting before this instant (at most 92 days after startTime).",
  }),
  metric: Metric.optional().openapi({ param: { name: "metric", in: "query" } }),
  kind: Kind.optional().openapi({ param: { name: "kind", in: "query" } }),
});

const targetFields = {
  laborPercent: z.number().min(0).max(100).openapi({ example: 25, description: "Target labor cost as a percent of sales." }),
  salesPerLaborHour: z.number().min(0).max(1e9).openapi({ example: 80, description: "Target sales per scheduled labor hour." }),
};

export const LaborTargetsInput = z.object(targetFields).openapi("LaborTargetsInput");

export const LaborTargets = z
  .object({
    locationId: z.string(),
    laborPercent: targetFields.laborPercent.nullable(),
    salesPerLaborHour: targetFields.salesPerLaborHour.nullable(),
    updatedAt: TimestampOrNull.openapi({ description: "Null until the targets are first set." }),
  })
  .openapi("LaborTargets");

export type DemandUploadInput = z.infer<typeof DemandUpload>;
export type DemandListInput = z.infer<typeof DemandListQuery>;
export type LaborTargetsValues = z.infer<typeof LaborTargetsInput>;
export type DemandIntervalRow = typeof demandIntervals.$inferSelect;
export type LaborTargetsRow = typeof laborTargets.$inferSelect;

export const serializeDemandInterval = (row: DemandIntervalRow) => ({
  locationId: row.locationId,
  metric: row.metric,
  kind: row.kind as (typeof DEMAND_KINDS)[number],
  start: iso(new Date(row.startAt)),
  value: row.value,
  updatedAt: iso(row.updatedAt),
});

export const serializeLaborTargets = (locationId: string, row: LaborTargetsRow | undefined) => ({
  locationId,
  laborPercent: row?.laborPercent ?? null,
  salesPerLaborHour: row?.salesPerLaborHour ?? null,
  updatedAt: row ? iso(row.updatedAt) : null,
});
