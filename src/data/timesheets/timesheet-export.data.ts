import { customFields, shifts } from "@db/schema";
import { and, asc, eq } from "drizzle-orm";
import type { Database } from "@/data/client";
import { readRows } from "@/data/row-mapping";
import { inOrganization } from "@/data/tenancy";
import { type CsvColumn, csvHeader, csvRecord } from "@/domain/csv";
import { exportedFields } from "@/domain/custom-fields";
import { localWallClock } from "@/domain/local-time";
import { lockedDayLookup } from "@/domain/locked-days";
import { wireWage } from "@/domain/shift-wage";
import { type AmountDecimals, amountText, hoursDecimal, shiftAmount } from "@/domain/timesheet-totals";
import { iso, isoOrNull } from "@/platform/schemas/time";
import type { ShiftRow } from "@/wire/shift.schemas";
import type { ExportRecord } from "@/wire/timesheet-export.schemas";
import { type ExportNames, exportNames, exportNamesQueries } from "./export-names.data";
import { currencySelect, decimalsOfCurrency } from "./timesheet-currency.data";
import { lockedDaysQuery, type ShiftCursor, shiftConditions, type TimesheetFilter } from "./timesheet-query.data";

/** Shifts per keyset page of an export: memory holds one page, however long the range. */
export const EXPORT_PAGE_SIZE = 500;

/** One keyset page of the export: the shifts alone, read as they are returned (names and locks are looked up). */
export const exportPageQuery = (db: Database, filter: TimesheetFilter, cursor: ShiftCursor | null, limit = EXPORT_PAGE_SIZE) =>
  readRows(
    db,
    db
      .select()
      .from(shifts)
      .where(shiftConditions(filter, { after: cursor }))
      .orderBy(asc(shifts.businessDate), asc(shifts.id))
      .limit(limit),
  );

const localTime = (instant: Date | null, offset: number) => (instant ? localWallClock(instant, offset).replace(/Z$/, "") : null);

/** A shift as the export writes it; its amount rounded to `decimals`, the organization's currency's minor units. */
export function exportRecord(s: ShiftRow, names: ExportNames, locked: boolean, decimals: AmountDecimals): ExportRecord {
  const employee = names.staff.get(s.employeeId);
  const location = names.locations.get(s.locationId);
  const role = names.roles.get(s.roleId);
  return {
    shiftId: s.id,
    businessDate: s.businessDate,
    employeeId: s.employeeId,
    employeeExternalId: employee?.externalId ?? null,
    employeePayrollId: employee?.externalPayrollId ?? null,
    employeeName: employee?.name ?? null,
    locationId: s.locationId,
    locationExternalId: location?.externalId ?? null,
    locationName: location?.name ?? null,
    roleId: s.roleId,
    roleExternalId: role?.externalId ?? null,
    roleName: role?.name ?? null,
    utcOffset: s.utcOffset,
    localStartTime: localTime(s.startAt, s.utcOffset)!,
    localEndTime: localTime(s.endAt, s.utcOffset),
    utcStartTime: iso(s.startAt),
    utcEndTime: isoOrNull(s.endAt),
    duration: s.duration,
    totalPaidBreaks: s.totalPaidBreaks,
    totalUnpaidBreaks: s.totalUnpaidBreaks,
    payableDuration: s.payableDuration,
    payableHours: Number(hoursDecimal(s.payableDuration)),
    hourlyWage: wireWage(s),
    amount: s.salaried ? null : shiftAmount(s.payableDuration, s.hourlyWage, decimals),
    flags: s.flags,
    manualEntry: s.manualEntry,
    clockInSource: s.clockInSource,
    clockInDeviceId: s.clockInDeviceId,
    clockOutSource: s.clockOutSource,
    clockOutDeviceId: s.clockOutDeviceId,
    locked,
    customFields: s.customFields,
  };
}

const text = true;
/**
 * One CSV column per ExportRecord field, in its order; free text from users is guarded against formulas. The amount
 * is written with exactly the currency's decimals ("9.851", "7983", "138.75").
 */
const csvColumns = (decimals: AmountDecimals): CsvColumn<ExportRecord>[] => [
  { header: "shiftId", value: (r) => r.shiftId },
  { header: "businessDate", value: (r) => r.businessDate },
  { header: "employeeId", value: (r) => r.employeeId },
  { header: "employeeExternalId", value: (r) => r.employeeExternalId, text },
  { header: "employeePayrollId", value: (r) => r.employeePayrollId, text },
  { header: "employeeName", value: (r) => r.employeeName, text },
  { header: "locationId", value: (r) => r.locationId },
  { header: "locationExternalId", value: (r) => r.locationExternalId, text },
  { header: "locationName", value: (r) => r.locationName, text },
  { header: "roleId", value: (r) => r.roleId },
  { header: "roleExternalId", value: (r) => r.roleExternalId, text },
  { header: "roleName", value: (r) => r.roleName, text },
  { header: "utcOffset", value: (r) => r.utcOffset },
  { header: "localStartTime", value: (r) => r.localStartTime },
  { header: "localEndTime", value: (r) => r.localEndTime },
  { header: "utcStartTime", value: (r) => r.utcStartTime },
  { header: "utcEndTime", value: (r) => r.utcEndTime },
  { header: "duration", value: (r) => r.duration },
  { header: "totalPaidBreaks", value: (r) => r.totalPaidBreaks },
  { header: "totalUnpaidBreaks", value: (r) => r.totalUnpaidBreaks },
  { header: "payableDuration", value: (r) => r.payableDuration },
  { header: "payableHours", value: (r) => hoursDecimal(r.payableDuration) },
  { header: "hourlyWage", value: (r) => r.hourlyWage },
  { header: "amount", value: (r) => (r.amount === null ? null : amountText(r.amount, decimals)) },
  { header: "flags", value: (r) => r.flags.join(";") },
  { header: "manualEntry", value: (r) => r.manualEntry },
  { header: "clockInSource", value: (r) => r.clockInSource },
  { header: "clockInDeviceId", value: (r) => r.clockInDeviceId },
  { header: "clockOutSource", value: (r) => r.clockOutSource },
  { header: "clockOutDeviceId", value: (r) => r.clockOutDeviceId },
  { header: "locked", value: (r) => r.locked },
];

/** The organization's active custom fields, read for the export's columns (domain/custom-fields orders them). */
export const exportedFieldsQuery = (db: Database, organizationId: string) =>
  db
    .select({ id: customFields.id, name: customFields.name, active: customFields.active })
    .from(customFields)
    .where(and(inOrganization(customFields, organizationId), eq(customFields.active, true)));

export interface ExportedField {
  id: string;
  name: string;
}

/**
 * The CSV columns of an export: the fixed ones, then one per active custom field (read once, when the export
 * starts: domain/custom-fields' exportedFields), headed by its name, holding the shift's value or nothing.
 */
export const csvColumnsWith = (fields: readonly ExportedField[], decimals: AmountDecimals): CsvColumn<ExportRecord>[] => [
  ...csvColumns(decimals),
  ...fields.map((f) => ({ header: f.name, value: (r: ExportRecord) => r.customFields[f.id] ?? null, text })),
];

export const exportedFieldsOf = (rows: readonly (ExportedField & { active: boolean })[]): ExportedField[] =>
  exportedFields(rows).map(({ id, name }) => ({ id, name }));

/**
 * The first page of an export, in one batch with what every page looks up: the organization's staff member,
 * location and role names, the range's locked days and the currency amounts round to (memory grows with the
 * organization, not the range).
 */
async function firstPage(db: Database, filter: TimesheetFilter) {
  const [staff, locations, roles] = exportNamesQueries(db, filter.organizationId);
  const [staffRows, locationRows, roleRows, locked, fields, currency, rows] = await db.batch([
    staff,
    locations,
    roles,
    lockedDaysQuery(db, filter),
    exportedFieldsQuery(db, filter.organizationId),
    currencySelect(db, filter.organizationId),
    exportPageQuery(db, filter, null),
  ]);
  const decimals = decimalsOfCurrency(currency);
  return {
    names: exportNames(staffRows, locationRows, roleRows),
    isLocked: lockedDayLookup(locked),
    columns: csvColumnsWith(exportedFieldsOf(fields), decimals),
    decimals,
    rows,
  };
}

/**
 * The export as a stream: each pull reads the next keyset page and encodes it, so the Worker holds one page at
 * a time and the client starts receiving before the last page is read.
 */
export function exportStream(db: Database, filter: TimesheetFilter, format: "csv" | "json"): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: ShiftCursor | null = null;
  let lookups: Pick<Awaited<ReturnType<typeof firstPage>>, "names" | "isLocked" | "columns" | "decimals"> | null = null;
  let written = 0;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (format === "json") controller.enqueue(encoder.encode("["));
    },
    async pull(controller) {
      const first = lookups === null;
      const page = lookups ? { ...lookups, rows: await exportPageQuery(db, filter, cursor) } : await firstPage(db, filter);
      const { names, isLocked, columns, decimals, rows } = page;
      lookups = { names, isLocked, columns, decimals };
      const records = rows.map((shift) => exportRecord(shift, names, isLocked(shift), decimals));
      // The CSV header names the custom fields, read with the first page.
      const chunk =
        format === "csv"
          ? (first ? csvHeader(columns) : "") + records.map((r) => csvRecord(columns, r)).join("")
          : records.map((r, i) => (written + i === 0 ? "" : ",") + JSON.stringify(r)).join("");
      written += records.length;
      if (chunk) controller.enqueue(encoder.encode(chunk));
      const last = rows[rows.length - 1];
      if (rows.length < EXPORT_PAGE_SIZE || !last) {
        if (format === "json") controller.enqueue(encoder.encode("]"));
        controller.close();
        return;
      }
      cursor = { businessDate: last.businessDate, id: last.id };
    },
  });
}
