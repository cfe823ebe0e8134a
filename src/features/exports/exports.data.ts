import { events, exports, shifts, staffMembers } from "@db/schema";
import { and, asc, count, eq, gt, gte, lt } from "drizzle-orm";
import type { Database } from "@/data/client";
import { insertJob } from "@/data/jobs/jobs.data";
import { readPayInputsPage } from "@/data/pay/pay-inputs.data";
import { employeePayWire } from "@/data/pay/pay-lines.data";
import { exportNames, exportNamesQueries } from "@/data/timesheets/export-names.data";
import { currencySelect, decimalsOfCurrency } from "@/data/timesheets/timesheet-currency.data";
import {
  csvColumnsWith,
  type ExportedField,
  exportedFieldsOf,
  exportedFieldsQuery,
  exportPageQuery,
  exportRecord,
} from "@/data/timesheets/timesheet-export.data";
import { lockedDaysQuery, shiftConditions, type TimesheetFilter } from "@/data/timesheets/timesheet-query.data";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import { type CsvColumn, csvHeader, csvRecord } from "@/domain/csv";
import { minorUnitsOf } from "@/domain/currency-minor-units";
import { addDays } from "@/domain/local-time";
import { lockedDayLookup } from "@/domain/locked-days";
import { computePay, type PayLine } from "@/domain/pay-classification";
import { amountDecimals, amountText } from "@/domain/timesheet-totals";
import { type EventWire, serializeEvent } from "@/event-forms/serializers";
import { type JobRow, serializeJob } from "@/wire/job.schemas";
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

/** Where a TIMESHEETS export goes on: after this shift, with the custom field columns its first chunk wrote. */
interface TimesheetsCursor {
  businessDate: string;
  id: string;
  fields?: ExportedField[];
}

/**
 * The next chunk of a TIMESHEETS export: one batch (names, locked days, the active custom fields, the currency
 * amounts round to, a keyset page of shifts). The custom field columns are those of the first chunk (its header names them), carried in the cursor, so
 * every record has the header's columns even when the fields change while the export runs.
 */
async function timesheetsChunk(db: Database, row: ExportRow, size: number): Promise<Chunk> {
  const filter = timesheetFilter(row);
  const after = row.cursor ? (JSON.parse(row.cursor) as TimesheetsCursor) : null;
  const [staff, locations, roles] = exportNamesQueries(db, row.organizationId);
  const [staffRows, locationRows, roleRows, locked, fieldRows, currency, shifts] = await db.batch([
    staff,
    locations,
    roles,
    lockedDaysQuery(db, filter),
    exportedFieldsQuery(db, row.organizationId),
    currencySelect(db, row.organizationId),
    exportPageQuery(db, filter, after, size),
  ]);
  const decimals = decimalsOfCurrency(currency);
  const names = exportNames(staffRows, locationRows, roleRows);
  const isLocked = lockedDayLookup(locked);
  const fields = row.chunk === 0 ? exportedFieldsOf(fieldRows) : (after?.fields ?? []);
  const records = shifts.map((shift) => exportRecord(shift, names, isLocked(shift), decimals));
  const lastShift = shifts.at(-1);
  const last = shifts.length < size;
  const cursor = lastShift ? JSON.stringify({ businessDate: lastShift.businessDate, id: lastShift.id, fields }) : row.cursor;
  return { text: encode(row, csvColumnsWith(fields, decimals), records, last), rows: records.length, cursor, last };
}

/** The events of an EVENTS export after `after` (a sequence): those that occurred on the range's UTC dates. */
const eventConditions = (row: ExportRow, after: number) =>
  and(
    eq(events.organizationId, row.organizationId),
    gt(events.sequence, after),
    gte(events.occurredAt, new Date(`${row.startDate}T00:00:00Z`)),
    lt(events.occurredAt, new Date(`${addDays(row.endDate, 1)}T00:00:00Z`)),
  );

/** The next chunk of an EVENTS export: the events that occurred on the range's UTC dates, by sequence. */
async function eventsChunk(db: Database, row: ExportRow, size: number): Promise<Chunk> {
  const after = row.cursor ? Number(row.cursor) : 0;
  const rows = await db.select().from(events).where(eventConditions(row, after)).orderBy(asc(events.sequence)).limit(size);
  const last = rows.length < size;
  const cursor = rows.length ? String(rows.at(-1)!.sequence) : row.cursor;
  return { text: encode(row, EVENT_COLUMNS, rows.map(serializeEvent), last), rows: rows.length, cursor, last };
}

/** Employees of a PAY_LINES chunk: an employee's lines are many rows (each shift's, over a range of any span). */
const payLinesEmployees = (size: number) => Math.max(1, Math.ceil(size / 20));

/** A pay line with the employee it pays, as payroll systems key them. */
type PayLineRecord = { employeeId: string; externalId: string | null; externalPayrollId: string | null; currencyCode: string } & PayLine;

const PAY_LINE_COLUMNS: CsvColumn<PayLineRecord>[] = [
  { header: "employeeId", value: (r) => r.employeeId },
  { header: "externalId", value: (r) => r.externalId, text: true },
  { header: "externalPayrollId", value: (r) => r.externalPayrollId, text: true },
  { header: "currencyCode", value: (r) => r.currencyCode },
  { header: "date", value: (r) => r.date },
  { header: "shiftId", value: (r) => r.shiftId },
  { header: "kind", value: (r) => r.kind },
  { header: "minutes", value: (r) => r.minutes },
  { header: "hours", value: (r) => r.hours },
  { header: "rate", value: (r) => r.rate },
  { header: "amount", value: (r) => (r.amount === null ? null : amountText(r.amount, amountDecimals(minorUnitsOf(r.currencyCode)))) },
  { header: "rule", value: (r) => r.rule },
  { header: "ruleSetId", value: (r) => r.ruleSetId },
];

/**
 * The next chunk of a PAY_LINES export: the pay lines of a page of employees (in id order), computed over the
 * whole range as GET /timesheets/pay computes them (without its 93-day cap: a chunk holds few employees), one
 * record per line.
 */
async function payLinesChunk(db: Database, row: ExportRow, size: number): Promise<Chunk> {
  const filter = {
    organizationId: row.organizationId,
    startDate: row.startDate,
    endDate: row.endDate,
    employeeId: row.employeeId ?? undefined,
    locationId: row.locationId ?? undefined,
  };
  const limit = payLinesEmployees(size);
  const { inputs, employeeIds, more } = await readPayInputsPage(db, filter, { limit, afterId: row.cursor ?? undefined });
  const pay = computePay({ startDate: row.startDate, endDate: row.endDate, ...inputs });
  const records = pay.employees.flatMap((e) => {
    const { lines, employeeId, externalId, externalPayrollId, currencyCode } = employeePayWire(e, inputs.employees);
    return lines.map((line) => ({ employeeId, externalId, externalPayrollId, currencyCode, ...line }));
  });
  const cursor = employeeIds.at(-1) ?? row.cursor;
  return { text: encode(row, PAY_LINE_COLUMNS, records, !more), rows: records.length, cursor, last: !more };
}

export function readChunk(db: Database, row: ExportRow, size: number) {
  if (row.kind === "TIMESHEETS") return timesheetsChunk(db, row, size);
  if (row.kind === "PAY_LINES") return payLinesChunk(db, row, size);
  return eventsChunk(db, row, size);
}

/**
 * The chunks an export will take, counted at its first chunk (the job's `steps`): its shifts or events in chunks of
 * `size`, the last one short (so one more when they divide evenly); PAY_LINES, its staff members in chunks of
 * employees, an upper bound (only those with pay in the range are written). One count query.
 */
export async function plannedChunks(db: Database, row: ExportRow, size: number): Promise<number> {
  if (row.kind === "PAY_LINES") {
    const [found] = await db
      .select({ n: count() })
      .from(staffMembers)
      .where(and(eq(staffMembers.organizationId, row.organizationId), row.employeeId ? eq(staffMembers.id, row.employeeId) : undefined));
    return Math.max(1, Math.ceil((found?.n ?? 0) / payLinesEmployees(size)));
  }
  const counted =
    row.kind === "TIMESHEETS"
      ? db
          .select({ n: count() })
          .from(shifts)
          .where(shiftConditions(timesheetFilter(row)))
      : db.select({ n: count() }).from(events).where(eventConditions(row, 0));
  const [found] = await counted;
  return Math.floor((found?.n ?? 0) / size) + 1;
}

/** The organization's export jobs, as the crud helpers (platform/crud) list and read them. */
export const exportRecords = exports;

/**
 * Stores a queued export with its job (the jobs row of the same id, kind EXPORT, QUEUED) and their events
 * `export.created` and `job.created` (each as the API answers it), in one batch.
 */
export const insertExport = (writer: Writer, row: typeof exports.$inferInsert, wire: object, job: JobRow) =>
  guardedBatch(writer, [writer.db.insert(exports).values(row), insertJob(writer.db, job)], [], {
    events: [
      { type: "export.created", organizationId: row.organizationId, occurredAt: job.createdAt, data: wire },
      { type: "job.created", organizationId: row.organizationId, occurredAt: job.createdAt, data: serializeJob(job) },
    ],
  });
