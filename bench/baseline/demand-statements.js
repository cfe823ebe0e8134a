// The SQL our Worker sends for PUT …/locations/{locationId}/demand (src/features/demand/demand.data.ts upsertDemand),
// copied from its trace (the labor-cost scenario compares both at every run): one batch of the principal guard,
// INSERT … ON CONFLICT DO UPDATE statements of 16 rows (6 bound values a row, the first row's organization guarded
// by the location: 2 more), the demand.updated event and the outbox's wake read.
//
// Plain JS with no Worker-only imports: the bench (Node) imports it too.
import { WAKE_SQL } from "./schedule-statements.js";

/** Rows a statement holds: ⌊(100 − 2) ÷ 6⌋ (src/data/chunk.ts rowsPerStatement(6, 2)). */
export const DEMAND_ROWS_PER_STATEMENT = 16;

const COLUMNS = '"organization_id", "location_id", "metric", "kind", "start_at", "value", "created_at", "updated_at"';
const ON_CONFLICT =
  'on conflict ("demand_intervals"."location_id", "demand_intervals"."metric", "demand_intervals"."kind", "demand_intervals"."start_at") do update set "value" = excluded.value, "updated_at" = excluded.updated_at';
const LIVE_LOCATION = "(SELECT organization_id FROM locations WHERE id = ? AND organization_id = ? AND deleted_at IS NULL)";
const EVENT_SQL =
  'insert into "events" ("id", "organization_id", "sequence", "type", "occurred_at", "form", "data") SELECT ?, ?, coalesce((SELECT max(sequence) FROM events WHERE organization_id = ?), 0) + 1, ?, ?, \'wire\', ? ';

/**
 * The round trips of an upload: [{call, pairs: [[sql, values]]}]. `now` is the instant written (epoch ms; the
 * scenario passes a placeholder to compare), `guard` the principal guard of the request's token (write-guard.js).
 */
export function demandTrips({ organizationId, locationId, upload, guard, now, eventId = crypto.randomUUID() }) {
  const stamp = String(now);
  const pairs = [[guard.sql, guard.params]];
  const starts = upload.intervals.map((i) => Date.parse(i.start));
  for (let i = 0; i < upload.intervals.length; i += DEMAND_ROWS_PER_STATEMENT) {
    const slice = upload.intervals.slice(i, i + DEMAND_ROWS_PER_STATEMENT);
    const values = [];
    const rows = slice.map((interval, k) => {
      const first = i + k === 0;
      values.push(
        ...(first ? [locationId, organizationId] : [organizationId]),
        locationId,
        upload.metric,
        upload.kind,
        starts[i + k],
        interval.value,
      );
      return `(${first ? LIVE_LOCATION : "?"}, ?, ?, ?, ?, ?, ${stamp}, ${stamp})`;
    });
    pairs.push([`insert into "demand_intervals" (${COLUMNS}) values ${rows.join(", ")} ${ON_CONFLICT}`, values]);
  }
  const data = {
    locationId,
    metric: upload.metric,
    kind: upload.kind,
    upserted: upload.intervals.length,
    startTime: new Date(Math.min(...starts)).toISOString(),
    endTime: new Date(Math.max(...starts) + 900_000).toISOString(),
  };
  pairs.push([EVENT_SQL, [eventId, organizationId, organizationId, "demand.updated", now, JSON.stringify(data)]]);
  pairs.push([WAKE_SQL, [organizationId, 1]]);
  return [{ call: "batch", pairs }];
}
