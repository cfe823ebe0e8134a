import { events } from "@db/schema";
import { and, asc, eq, gt, gte, lt } from "drizzle-orm";
import type { Database } from "@/data/client";
import { type CsvColumn, csvHeader, csvRecord } from "@/domain/csv";
import { addDays } from "@/domain/local-time";
import { lockedDayLookup } from "@/domain/locked-days";
import { type EventWire, serializeEvent } from "@/events/serializers";
import { exportNames, exportNamesQueries } from "@/features/timesheets/export-names.data";
import { CSV_COLUMNS, exportPageQuery, exportRecord } from "@/features/timesheets/timesheet-export.data";
import { lockedDaysQuery, type TimesheetFilter } from "@/features/timesheets/timesheet-query.data";
import type { ExportRow } from "./exports.schemas";

/** One chunk's rows, encoded, and where the next chunk reads from (null cursor with `last`: the export is complete). */
export interface Chunk {
  text: string;
  rows: number;
  cursor: string | null;
  last: boolean;
}

/** The shifts of a TIMESHEETS export: the synchronous export's filter, over dates of any span. */
const timesheetFilter = (row: ExportRow): TimesheetFilter => ({
  organizationId: row.organizationId,
  range: { start: { kind: "date", date: row.startDate }, end: { kind: "date", date: row.endDate } },
  locationId: row.locationId ?? undefined,
  employeeId: row.employeeId ?? undefined,
});

const EVENT_COLUMNS: CsvColumn<EventWire>[] = [
  { header: "id", value: (e) => e.id },
  { header: "sequence", value: (e) => e.sequence },
  { header: "type", value: (e) => e.type },
  { header: "organizationId", value: (e) => e.organizationId },
  { header: "occurredAt", value: (e) => e.occurredAt },
  { header: "data", value: (e) => JSON.stringify(e.data), text: true },
];

/**
 * The text of a chunk of records: the file's opening on the first chunk (CSV header or `[`), its closing on the last
 * (`]`), JSON records separated by commas across chunks (`before`: the records written by earlier chunks).
 */
function encode<T>(row: ExportRow, columns: CsvColumn<T>[], records: T[], last: boolean): string {
  const first = row.chunk === 0;
  if (row.format === "csv") return (first ? csvHeader(columns) : "") + records.map((r) => csvRecord(columns, r)).join("");
  const body = records.map((r, i) => (row.rowsWritten + i === 0 ? "" : ",") + JSON.stringify(r)).join("");
  return (first ? "[" : "") + body + (last ? "]" : "");
}

/** The next chunk of a TIMESHEETS export: one batch (names, locked days, a keyset page of shifts). */
async function timesheetsChunk(db: Database, row: ExportRow, size: number): Promise<Chunk> {
  const filter = timesheetFilter(row);
  const after = row.cursor ? (JSON.parse(row.cursor) as { businessDate: string; id: string }) : null;
  const [staff, locations, roles] = exportNamesQueries(db, row.organizationId);
  const [staffRows, locationRows, roleRows, locked, shifts] = await db.batch([
    staff,
    locations,
    roles,
    lockedDaysQuery(db, filter),
    exportPageQuery(db, filter, after, size),
  ]);
  const names = exportNames(staffRows, locationRows, roleRows);
  const isLocked = lockedDayLookup(locked);
  const records = shifts.map((shift) => exportRecord(shift, names, isLocked(shift)));
  const lastShift = shifts.at(-1);
  const last = shifts.length < size;
  const cursor = lastShift ? JSON.stringify({ businessDate: lastShift.businessDate, id: lastShift.id }) : row.cursor;
  return { text: encode(row, CSV_COLUMNS, records, last), rows: records.length, cursor, last };
}

/** The next chunk of an EVENTS export: the events that occurred on the range's UTC dates, by sequence. */
async function eventsChunk(db: Database, row: ExportRow, size: number): Promise<Chunk> {
  const after = row.cursor ? Number(row.cursor) : 0;
  const rows = await db
    .select()
    .from(events)
    .where(
      and(
        eq(events.organizationId, row.organizationId),
        gt(events.sequence, after),
        gte(events.occurredAt, new Date(`${row.startDate}T00:00:00Z`)),
        lt(events.occurredAt, new Date(`${addDays(row.endDate, 1)}T00:00:00Z`)),
      ),
    )
    .orderBy(asc(events.sequence))
    .limit(size);
  const last = rows.length < size;
  const cursor = rows.length ? String(rows.at(-1)!.sequence) : row.cursor;
  return { text: encode(row, EVENT_COLUMNS, rows.map(serializeEvent), last), rows: rows.length, cursor, last };
}

export const readChunk = (db: Database, row: ExportRow, size: number) =>
  row.kind === "TIMESHEETS" ? timesheetsChunk(db, row, size) : eventsChunk(db, row, size);
