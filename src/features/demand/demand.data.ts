import { demandIntervals, laborTargets, locations } from "@db/schema";
import { and, asc, eq, gt, gte, lt, or, type SQL, sql } from "drizzle-orm";
import { chunk, rowsPerStatement } from "@/data/chunk";
import type { Database, Statement } from "@/data/client";
import { organizationNow } from "@/data/clock";
import { decodeKeyCursor, encodeKeyCursor } from "@/data/key-cursor";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import { MAX_DEMAND_RANGE_DAYS, spanOf } from "@/domain/demand";
import { parseTimestamp } from "@/domain/local-time";
import { findLive } from "@/platform/crud/tenant-queries";
import { iso } from "@/platform/schemas/time";
import { invalidField } from "@/problems/problem";
import { demandLocationLive, targetsLocationLive } from "./demand.guards";
import type { DemandListInput, DemandUploadInput, LaborTargetsValues } from "./demand.schemas";

type Upload = DemandUploadInput;
type ListQuery = DemandListInput;

/** The live location of the organization, else 404 LOCATION_NOT_FOUND (another organization's is not found either). */
export const assertLocation = (db: Database, organizationId: string, locationId: string) =>
  findLive(db, locations, organizationId, locationId, "Location");

/** Bound parameters of one interval row: organization, location, metric, kind, start, value (the times are literals). */
const PARAMETERS_PER_ROW = 6;
/** Two more in the first row: its location guard. */
const ROWS_PER_STATEMENT = rowsPerStatement(PARAMETERS_PER_ROW, 2);

/**
 * The upload as one batch: multi-row INSERT … ON CONFLICT (location, metric, kind, start) DO UPDATE statements of at
 * most ROWS_PER_STATEMENT rows each, and one `demand.updated` event summing them up. Repeating it rewrites the same
 * values (only updatedAt moves). The location is checked by the batch itself (demandLocationLive): no read first.
 */
export async function upsertDemand(writer: Writer, organizationId: string, locationId: string, upload: Upload) {
  const now = await organizationNow({ ...writer, organizationId });
  const stamp = sql.raw(String(now.getTime()));
  const starts = upload.intervals.map((interval) => parseTimestamp(interval.start)!);
  const rows = upload.intervals.map((interval, index) => ({
    organizationId: index === 0 ? demandLocationLive.sql(organizationId, locationId) : organizationId,
    locationId,
    metric: upload.metric,
    kind: upload.kind,
    startAt: starts[index]!.getTime(),
    value: interval.value,
    createdAt: stamp,
    updatedAt: stamp,
  }));
  const statements = chunk(rows, ROWS_PER_STATEMENT).map((slice) =>
    writer.db
      .insert(demandIntervals)
      .values(slice)
      .onConflictDoUpdate({
        target: [demandIntervals.locationId, demandIntervals.metric, demandIntervals.kind, demandIntervals.startAt],
        set: { value: sql`excluded.value`, updatedAt: sql`excluded.updated_at` },
      }),
  ) as unknown as [Statement, ...Statement[]];
  const span = spanOf(starts);
  const summary = {
    locationId,
    metric: upload.metric,
    kind: upload.kind,
    upserted: rows.length,
    startTime: iso(span.start),
    endTime: iso(span.end),
  };
  await guardedBatch(writer, statements, [demandLocationLive], {
    events: [{ organizationId, type: "demand.updated", data: summary, occurredAt: now }],
  });
  return summary;
}

export const encodeDemandCursor = (row: { startAt: number; metric: string; kind: string }) =>
  encodeKeyCursor(row.startAt, row.metric, row.kind);

function decodeDemandCursor(cursor: string) {
  const [startAt, metric, kind] = decodeKeyCursor(cursor, /^(\d{1,15})\|([A-Z][A-Z0-9_]{0,63})\|(ACTUAL|FORECAST)$/);
  return { startAt: Number(startAt), metric: metric!, kind: kind! };
}

/** The range [startTime, endTime) of a read: an end after the start, at most MAX_DEMAND_RANGE_DAYS long, else 400. */
function rangeOf(query: ListQuery) {
  const start = parseTimestamp(query.startTime)!.getTime();
  const end = parseTimestamp(query.endTime)!.getTime();
  if (end <= start) throw invalidField("endTime", "must be after startTime");
  if (end - start > MAX_DEMAND_RANGE_DAYS * 86_400_000)
    throw invalidField("endTime", `must be at most ${MAX_DEMAND_RANGE_DAYS} days after startTime`);
  return { start, end };
}

/** One page of the location's intervals starting in the range, by start, metric, kind; limit + 1 rows. */
export function listDemand(db: Database, organizationId: string, locationId: string, query: ListQuery) {
  const { start, end } = rangeOf(query);
  const after = query.cursor ? decodeDemandCursor(query.cursor) : null;
  const t = demandIntervals;
  const conditions: (SQL | undefined)[] = [
    eq(t.organizationId, organizationId),
    eq(t.locationId, locationId),
    gte(t.startAt, start),
    lt(t.startAt, end),
    query.metric ? eq(t.metric, query.metric) : undefined,
    query.kind ? eq(t.kind, query.kind) : undefined,
    after
      ? or(
          gt(t.startAt, after.startAt),
          and(eq(t.startAt, after.startAt), gt(t.metric, after.metric)),
          and(eq(t.startAt, after.startAt), eq(t.metric, after.metric), gt(t.kind, after.kind)),
        )
      : undefined,
  ];
  return db
    .select()
    .from(t)
    .where(and(...conditions))
    .orderBy(asc(t.startAt), asc(t.metric), asc(t.kind))
    .limit(query.limit + 1);
}

export async function readLaborTargets(db: Database, organizationId: string, locationId: string) {
  const [row] = await db
    .select()
    .from(laborTargets)
    .where(and(eq(laborTargets.organizationId, organizationId), eq(laborTargets.locationId, locationId)));
  return row;
}

/** One upsert of both targets and its `labor_targets.updated` event, in one batch. */
export async function putLaborTargets(writer: Writer, organizationId: string, locationId: string, targets: LaborTargetsValues) {
  const now = await organizationNow({ ...writer, organizationId });
  const upsert = writer.db
    .insert(laborTargets)
    .values({ ...targets, organizationId: targetsLocationLive.sql(organizationId, locationId), locationId, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: laborTargets.locationId, set: { ...targets, updatedAt: now } });
  const data = { locationId, ...targets, updatedAt: iso(now) };
  await guardedBatch(writer, [upsert], [targetsLocationLive], {
    events: [{ organizationId, type: "labor_targets.updated", data, occurredAt: now }],
  });
  return data;
}
