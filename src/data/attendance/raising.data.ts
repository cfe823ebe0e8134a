import { attendanceExceptions } from "@db/schema";
import { inArray, sql } from "drizzle-orm";
import type { Database, Statement } from "@/data/client";
import { newId } from "@/data/ids";
import type { EventSpec } from "@/data/outbox/outbox";
import { type Placeholders, prepared } from "@/data/prepared";
import { rowBinding } from "@/data/prepared-rows";
import type { AttendanceFinding } from "@/domain/attendance";

/* Raising attendance exceptions inside another write's batch: a punch's, a manual shift's, an edit's. */

export type AttendanceExceptionRow = typeof attendanceExceptions.$inferSelect;

/** Where a finding happened: the shift (or, for NO_SHOW, the entry) it is about. */
export interface FindingPlace {
  organizationId: string;
  locationId: string;
  employeeId: string;
  businessDate: string;
  shiftId: string | null;
}

/** A finding as a new OPEN exception. */
export const exceptionRow = (place: FindingPlace, finding: AttendanceFinding, detectedAt: Date): AttendanceExceptionRow => ({
  id: newId(),
  ...place,
  ...finding,
  status: "OPEN",
  note: null,
  detectedAt,
  resolvedAt: null,
  resolvedBy: null,
  updatedAt: detectedAt,
});

/**
 * What raises `rows` inside another write's batch (a punch's): one insert that skips any exception already raised
 * (the unique indexes: once per shift or per entry), and `attendance_exception.raised` for each row that landed,
 * which are the rows still carrying the ids made here.
 */
export function raising(
  db: Database,
  organizationId: string,
  rows: readonly AttendanceExceptionRow[],
): { statements: Statement[]; events: EventSpec[] } {
  if (rows.length === 0) return { statements: [], events: [] };
  // A punch raises one at most: its statements are prepared (data/prepared), as the punch's own.
  if (rows.length === 1) {
    const [row] = rows as [AttendanceExceptionRow];
    return {
      statements: [insertingOne(db, exceptionColumns.values(row))],
      events: [{ organizationId, type: "attendance_exception.raised", rowById: { table: attendanceExceptions, id: row.id } }],
    };
  }
  return {
    statements: [
      db
        .insert(attendanceExceptions)
        .values([...rows])
        .onConflictDoNothing(),
    ],
    events: [
      {
        organizationId,
        rows: {
          table: attendanceExceptions,
          where: inArray(
            attendanceExceptions.id,
            rows.map((row) => row.id),
          ),
          typeOf: sql`'attendance_exception.raised'`,
        },
      },
    ],
  };
}

const exceptionColumns = rowBinding(attendanceExceptions);
const insertingOne = prepared((db, _: Placeholders<Record<keyof AttendanceExceptionRow, string | number | null>>) =>
  db.insert(attendanceExceptions).values(exceptionColumns.placeholders).onConflictDoNothing(),
);
