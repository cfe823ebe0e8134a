// The SQL our Worker sends for PUT …/locations/{locationId}/demand (src/features/demand/demand.data.ts upsertDemand),
// from this run's recording of ours (recording.js; the labor-cost scenario compares both at every run): one batch of
// the principal guard (write-guard.js), INSERT … ON CONFLICT DO UPDATE statements of 16 rows (6 bound values a row, the
// first row's organization guarded by the location: 2 more; the instant written inline), the demand.updated event and
// the outbox's wake read. The statements' rows are taken apart from the recording: a statement is rebuilt for any
// number of rows and the baseline's own instant.
//
// Plain JS with no Worker-only imports: the bench (Node) imports it too.
import { fromRecording, statement, trip } from "./recording.js";

/** Rows a statement holds: ⌊(100 − 2) ÷ 6⌋ (src/data/chunk.ts rowsPerStatement(6, 2)), checked against the recording. */
export const DEMAND_ROWS_PER_STATEMENT = 16;

/** The instant ours wrote inline (epoch ms, 13 digits), replaced by the baseline's own. */
const INSTANT = /\b\d{13}\b/g;

/** Filled from the recording of an upload of more than 16 intervals: the statement's parts, the event and the wake read. */
const SQL = {};

/** `statement` taken apart: its head up to `values `, its rows (each `row` after the first), and what follows them. */
function rowsOf(sql, row) {
  const at = sql.indexOf(" values ") + " values ".length;
  const rest = sql.slice(at);
  const first = rest.startsWith(row) ? row : rest.slice(0, rest.indexOf(`, ${row}`));
  let end = first.length;
  let count = 1;
  while (rest.startsWith(`, ${row}`, end)) {
    end += row.length + 2;
    count++;
  }
  return { head: sql.slice(0, at), first, count, tail: rest.slice(end) };
}

fromRecording(["demand"], (r) => {
  const statements = trip(r, "demand", 0);
  if (statements.length < 6)
    throw new Error("recording: the demand upload needs two INSERTs of intervals, the event, its audit entry and the wake read");
  // The second INSERT holds only plain rows: its first row is the row of every statement after the first's first.
  const second = statement(r, "demand", 0, 2, 'insert into "demand_intervals"');
  const secondRest = second.slice(second.indexOf(" values ") + " values ".length);
  const row = secondRest.slice(0, secondRest.indexOf("), (") + 1);
  const plain = rowsOf(second, row);
  const opening = rowsOf(statement(r, "demand", 0, 1, 'insert into "demand_intervals"'), row);
  if (plain.count !== DEMAND_ROWS_PER_STATEMENT || opening.count !== DEMAND_ROWS_PER_STATEMENT)
    throw new Error(`recording: ours now writes ${plain.count} intervals a statement, the baseline binds ${DEMAND_ROWS_PER_STATEMENT}`);
  if (opening.head !== plain.head || opening.tail !== plain.tail)
    throw new Error("recording: the demand's INSERTs differ beyond their rows");
  const instant = (text) => (now) => text.replace(INSTANT, String(now));
  Object.assign(SQL, {
    head: plain.head,
    tail: plain.tail,
    firstRow: instant(opening.first),
    row: instant(row),
    event: statement(r, "demand", 0, statements.length - 3, 'insert into "events"'),
    audit: statement(r, "demand", 0, statements.length - 2, 'insert into "audit_log"'),
    wake: statement(r, "demand", 0, statements.length - 1, 'select "id", "organization_id" from "webhooks"'),
  });
});

/**
 * The round trips of an upload: [{call, pairs: [[sql, values]]}]. `now` is the instant written (epoch ms; the
 * scenario passes a placeholder to compare), `guard` the principal guard of the request's token (write-guard.js).
 */
export function demandTrips({ organizationId, locationId, upload, guard, now, ipCountry = null, eventId = crypto.randomUUID() }) {
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
      return first ? SQL.firstRow(now) : SQL.row(now);
    });
    pairs.push([`${SQL.head}${rows.join(", ")}${SQL.tail}`, values]);
  }
  const data = {
    locationId,
    metric: upload.metric,
    kind: upload.kind,
    upserted: upload.intervals.length,
    startTime: new Date(Math.min(...starts)).toISOString(),
    endTime: new Date(Math.max(...starts) + 900_000).toISOString(),
  };
  pairs.push([SQL.event, [eventId, organizationId, organizationId, "demand.updated", now, JSON.stringify(data)]]);
  // The event's audit entry (src/data/audit/audit-entries.ts): the actor, the operation, the caller's country, the event.
  pairs.push([SQL.audit, [...guard.actor, null, "upsertDemand", ipCountry, JSON.stringify([eventId])]]);
  pairs.push([SQL.wake, [organizationId, 1]]);
  return [{ call: "batch", pairs }];
}
