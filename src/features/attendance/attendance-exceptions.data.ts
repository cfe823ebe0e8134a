import { attendanceExceptions } from "@db/schema";
import { and, asc, eq, gte, inArray, lte, type SQL, sql } from "drizzle-orm";
import type { Database, Statement } from "@/data/client";
import { newId } from "@/data/ids";
import type { EventSpec } from "@/data/outbox/outbox";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import type { AttendanceFinding } from "@/domain/attendance";
import { calendarRangeProblem } from "@/domain/calendar-range";
import { invalidField, notFound } from "@/problems/problem";
import type { AttendanceExceptionRow } from "./attendance.schemas";

/** The longest range one listing may span, in days (both dates counted). */
export const MAX_RANGE_DAYS = 92;

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

interface ListQuery {
  startDate: string;
  endDate: string;
  locationId?: string;
  employeeId?: string;
  type?: string;
  status?: string;
}

/** The organization's exceptions on the local dates [startDate, endDate], by date then id, filtered. */
export async function listExceptions(db: Database, organizationId: string, query: ListQuery) {
  const rangeProblem = calendarRangeProblem(query.startDate, query.endDate, MAX_RANGE_DAYS);
  if (rangeProblem) throw invalidField(rangeProblem.path, rangeProblem.message);
  const e = attendanceExceptions;
  return db
    .select()
    .from(e)
    .where(
      and(
        eq(e.organizationId, organizationId),
        gte(e.businessDate, query.startDate),
        lte(e.businessDate, query.endDate),
        query.locationId === undefined ? undefined : eq(e.locationId, query.locationId),
        query.employeeId === undefined ? undefined : eq(e.employeeId, query.employeeId),
        query.type === undefined ? undefined : eq(e.type, query.type),
        query.status === undefined ? undefined : eq(e.status, query.status),
      ),
    )
    .orderBy(asc(e.businessDate), asc(e.id));
}

const mine = (organizationId: string, id: string, ownStaffMemberId: string | null): SQL =>
  and(
    eq(attendanceExceptions.organizationId, organizationId),
    eq(attendanceExceptions.id, id),
    ownStaffMemberId === null ? undefined : eq(attendanceExceptions.employeeId, ownStaffMemberId),
  )!;

/** One exception; a staff member acting as themself sees only their own (another's is 404). */
export async function findException(db: Database, organizationId: string, id: string, ownStaffMemberId: string | null) {
  const [row] = await db
    .select()
    .from(attendanceExceptions)
    .where(mine(organizationId, id, ownStaffMemberId));
  if (!row) throw notFound("Attendance exception");
  return row;
}

/**
 * A manager's resolution: RESOLVED or EXCUSED, with the note (kept when none is sent), who and when; one update
 * that answers the row and records `attendance_exception.resolved` in its batch. Resolving again replaces it.
 */
export async function resolveException(
  writer: Writer,
  organizationId: string,
  id: string,
  resolution: { status: "RESOLVED" | "EXCUSED"; note?: string },
) {
  const now = new Date();
  const { principal } = writer;
  const [rows] = await guardedBatch(
    writer,
    [
      writer.db
        .update(attendanceExceptions)
        .set({
          status: resolution.status,
          note: resolution.note ?? sql`${attendanceExceptions.note}`,
          resolvedAt: now,
          resolvedBy: principal.staffMemberId ?? principal.partnerId,
          updatedAt: now,
        })
        .where(mine(organizationId, id, null))
        .returning(),
    ],
    [],
    {
      events: [
        {
          organizationId,
          type: "attendance_exception.resolved",
          row: { table: attendanceExceptions, where: mine(organizationId, id, null) },
        },
      ],
    },
  );
  if (!rows[0]) throw notFound("Attendance exception");
  return rows[0];
}
