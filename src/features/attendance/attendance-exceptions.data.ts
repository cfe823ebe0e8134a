import { attendanceExceptions } from "@db/schema";
import { and, asc, eq, gte, lte, type SQL, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { decodeKeyCursor, encodeKeyCursor } from "@/data/key-cursor";
import { guard } from "@/data/write/guard";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import { calendarRangeProblem } from "@/domain/calendar-range";
import { forbidden, invalidField, notFound } from "@/problems/problem";
import type { AttendanceExceptionRow } from "./attendance.schemas";

/** The longest range one listing may span, in days (both dates counted). */
export const MAX_RANGE_DAYS = 92;

export { exceptionRow, type FindingPlace, raising } from "@/data/attendance/raising.data";

interface ListQuery {
  limit: number;
  cursor?: string;
  startDate: string;
  endDate: string;
  locationId?: string;
  employeeId?: string;
  type?: string;
  status?: string;
}

/** Pages follow (business_date, id), the order of the index attendance_exceptions_date. */
export const encodeExceptionCursor = (row: Pick<AttendanceExceptionRow, "businessDate" | "id">) =>
  encodeKeyCursor(row.businessDate, row.id);

function decodeExceptionCursor(cursor: string) {
  const [businessDate, id] = decodeKeyCursor(cursor, /^(\d{4}-\d{2}-\d{2})\|([0-9A-Za-z-]{1,64})$/);
  return { businessDate: businessDate!, id: id! };
}

/**
 * One page (limit + 1 rows, so the caller knows whether more remain) of the organization's exceptions on the local
 * dates [startDate, endDate], by date then id, filtered, after the cursor; a staff member acting as themself
 * (`ownStaffMemberId`) sees only their own, and nothing when naming a colleague.
 */
export async function listExceptions(db: Database, organizationId: string, query: ListQuery, ownStaffMemberId: string | null = null) {
  const rangeProblem = calendarRangeProblem(query.startDate, query.endDate, MAX_RANGE_DAYS);
  if (rangeProblem) throw invalidField(rangeProblem.path, rangeProblem.message);
  const after = query.cursor ? decodeExceptionCursor(query.cursor) : null;
  if (ownStaffMemberId !== null && query.employeeId !== undefined && query.employeeId !== ownStaffMemberId) return [];
  const employeeId = ownStaffMemberId ?? query.employeeId;
  const e = attendanceExceptions;
  return db
    .select()
    .from(e)
    .where(
      and(
        eq(e.organizationId, organizationId),
        gte(e.businessDate, query.startDate),
        lte(e.businessDate, query.endDate),
        after ? sql`(${e.businessDate}, ${e.id}) > (${after.businessDate}, ${after.id})` : undefined,
        query.locationId === undefined ? undefined : eq(e.locationId, query.locationId),
        employeeId === undefined ? undefined : eq(e.employeeId, employeeId),
        query.type === undefined ? undefined : eq(e.type, query.type),
        query.status === undefined ? undefined : eq(e.status, query.status),
      ),
    )
    .orderBy(asc(e.businessDate), asc(e.id))
    .limit(query.limit + 1);
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

const noteRequired = () => invalidField("note", "a note is required to excuse (none is stored)");
const ownException = () => forbidden("Nobody resolves, excuses or reopens their own attendance exception.");

/** attendance_exceptions.status: the new status, NULL when it is EXCUSED and no note is sent or stored. */
const excusedWithNote = guard({
  column: attendanceExceptions.status,
  problem: noteRequired,
  sql: (status: string, note: string | null) =>
    sql`CASE WHEN ${status} = 'EXCUSED' AND coalesce(${note}, ${attendanceExceptions.note}) IS NULL THEN NULL ELSE ${status} END`,
});

/** attendance_exceptions.updated_at: `now`, NULL when the caller is the exception's own staff member. */
const notOwnException = guard({
  column: attendanceExceptions.updatedAt,
  problem: ownException,
  sql: (caller: string, now: Date) => sql`CASE WHEN ${attendanceExceptions.employeeId} = ${caller} THEN NULL ELSE ${now.getTime()} END`,
});

/**
 * A manager's resolution: RESOLVED or EXCUSED (which needs a note, sent or stored), recording who and when, or OPEN
 * again (clearing them); the note is kept when none is sent. One update that answers the row and records
 * `attendance_exception.resolved` (or `.reopened`) in its batch. Its refusals are guards of the update itself: status
 * NULL when excusing without a note, updated_at NULL when the caller is the exception's staff member.
 */
export async function resolveException(
  writer: Writer,
  organizationId: string,
  id: string,
  resolution: { status: "OPEN" | "RESOLVED" | "EXCUSED"; note?: string },
  now: Date,
) {
  const { principal } = writer;
  const e = attendanceExceptions;
  const note = resolution.note ?? null;
  const open = resolution.status === "OPEN";
  const [rows] = await guardedBatch(
    writer,
    [
      writer.db
        .update(e)
        .set({
          status: excusedWithNote.sql(resolution.status, note),
          note: sql`coalesce(${note}, ${e.note})`,
          resolvedAt: open ? null : now,
          resolvedBy: open ? null : (principal.staffMemberId ?? principal.partnerId),
          updatedAt: principal.staffMemberId ? notOwnException.sql(principal.staffMemberId, now) : now,
        })
        .where(mine(organizationId, id, null))
        .returning(),
    ],
    [excusedWithNote, notOwnException],
    {
      events: [
        {
          organizationId,
          type: open ? "attendance_exception.reopened" : "attendance_exception.resolved",
          row: { table: e, where: mine(organizationId, id, null) },
        },
      ],
    },
  );
  if (!rows[0]) throw notFound("Attendance exception");
  return rows[0];
}
