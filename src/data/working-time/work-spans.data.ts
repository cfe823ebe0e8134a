import { scheduleEntries, shifts } from "@db/schema";
import { and, eq, gte, inArray, isNotNull, isNull, lte, ne } from "drizzle-orm";
import type { Database } from "@/data/client";
import type { WorkSpan } from "@/domain/working-time/checks";

const MINUTE_MS = 60_000;

export type ShiftSpanRow = {
  id: string;
  employeeId: string;
  locationId: string;
  startAt: Date;
  endAt: Date | null;
  utcOffset: number;
  breaksJson: { startAt: number; endAt: number | null }[];
};

export const shiftSpanColumns = {
  id: shifts.id,
  employeeId: shifts.employeeId,
  locationId: shifts.locationId,
  startAt: shifts.startAt,
  endAt: shifts.endAt,
  utcOffset: shifts.utcOffset,
  breaksJson: shifts.breaksJson,
};

const entryColumns = {
  id: scheduleEntries.id,
  employeeId: scheduleEntries.employeeId,
  locationId: scheduleEntries.locationId,
  startAt: scheduleEntries.startAt,
  endAt: scheduleEntries.endAt,
  utcOffset: scheduleEntries.utcOffset,
};

/** A worked shift as the rules read it: its ended breaks as blocks of whole minutes. */
export const shiftSpan = (row: ShiftSpanRow, end = row.endAt): WorkSpan & { locationId: string; employeeId: string } => ({
  id: row.id,
  kind: "SHIFT",
  employeeId: row.employeeId,
  locationId: row.locationId,
  start: row.startAt,
  end: end ?? row.startAt,
  utcOffset: row.utcOffset,
  breakBlocks: row.breaksJson.flatMap((b) => (b.endAt === null ? [] : [Math.round((b.endAt - b.startAt) / MINUTE_MS)])),
});

export type EntrySpanRow = { id: string; employeeId: string; locationId: string; startAt: Date; endAt: Date; utcOffset: number };

/** A published entry as the rules read it (planned: no breaks known). */
export const entrySpan = (row: EntrySpanRow): WorkSpan & { locationId: string; employeeId: string } => ({
  id: row.id,
  kind: "ENTRY",
  employeeId: row.employeeId,
  locationId: row.locationId,
  start: row.startAt,
  end: row.endAt,
  utcOffset: row.utcOffset,
  breakBlocks: [],
});

/** The worker's closed, live shifts starting in [from, to]. */
export const workedShiftsStatement = (db: Database, organizationId: string, employeeIds: string[], from: Date, to: Date) =>
  db
    .select(shiftSpanColumns)
    .from(shifts)
    .where(
      and(
        inArray(shifts.employeeId, employeeIds),
        eq(shifts.organizationId, organizationId),
        gte(shifts.startAt, from),
        lte(shifts.startAt, to),
        isNotNull(shifts.endAt),
        isNull(shifts.deletedAt),
      ),
    );

/** The workers' live published entries starting in [from, to], but `exceptId` (the entry a write replaces). */
export const publishedEntriesStatement = (
  db: Database,
  organizationId: string,
  employeeIds: string[],
  from: Date,
  to: Date,
  exceptId = "",
) =>
  db
    .select(entryColumns)
    .from(scheduleEntries)
    .where(
      and(
        inArray(scheduleEntries.employeeId, employeeIds),
        eq(scheduleEntries.organizationId, organizationId),
        gte(scheduleEntries.startAt, from),
        lte(scheduleEntries.startAt, to),
        eq(scheduleEntries.isDraft, false),
        isNull(scheduleEntries.deletedAt),
        ne(scheduleEntries.id, exceptId),
      ),
    );

/** Planned and worked time together: an entry that a worked shift overlaps is that shift (counted once, as worked). */
export function mergeSpans<T extends WorkSpan>(entries: readonly T[], worked: readonly T[]): T[] {
  const overlapsWork = (entry: T) => worked.some((s) => s.start < entry.end && entry.start < s.end);
  return [...worked, ...entries.filter((e) => !overlapsWork(e))];
}
