import { shiftBreaks, shiftEvents, shifts } from "@db/schema";
import { and, eq, sql } from "drizzle-orm";
import type { Database, Statement } from "@/data/client";
import { type ConstraintProblems, whenDuplicate, whenNull } from "@/data/write/constraint-problems";
import { insertBreakStatements } from "@/features/shifts/shift-rows.data";
import {
  dayLocked,
  guardProblems,
  shiftChanged,
  timesheetApproved,
  unlessFrozen,
  unlessLocked,
  unlessOverlapping,
} from "@/features/shifts/shifts.guards";
import type { ShiftBreakRow, ShiftEventRow, ShiftRow } from "@/features/shifts/shifts.schemas";
import { breakAlreadyOpen, noOpenShift, shiftAlreadyOpen } from "@/problems/shifts";
import type { ClosedShift } from "./punch-rows.data";

/*
 * The statements of each punch's one write batch. What the punch decided on its read must still hold when the
 * batch lands, so the batch re-checks it with guards (timesheets/shift-guards: a NOT NULL column whose value turns
 * NULL when the check fails, failing the whole batch). A clock-in guards its shift row like a manual shift
 * (day not locked, no overlapping shift). A punch on an open shift guards the event row it inserts:
 *   shift_events.organization_id NULL → the shift's business date got locked (DAY_LOCKED)
 *   shift_events.shift_id NULL        → the shift is no longer open: clocked out or deleted (NO_OPEN_SHIFT)
 *   shift_events.employee_id NULL     → the shift changed since the punch read it (SHIFT_CHANGED)
 *   shift_events.verdict NULL         → the staff member's timesheet got approved or its period closed (TIMESHEET_APPROVED)
 * SQLite checks NOT NULL columns in table order, so the first failing guard in that list names the problem.
 */

const dayOf = (shift: ShiftRow) => [{ locationId: shift.locationId, date: shift.businessDate }];

/** The shift's id while it is open, else NULL. */
const stillOpen = (shift: ShiftRow) =>
  sql`(SELECT id FROM shifts WHERE id = ${shift.id} AND organization_id = ${shift.organizationId}
    AND end_at IS NULL AND deleted_at IS NULL)`;

/** The shift's employee while the shift is the version the punch read (same updated_at), else NULL. */
const unchangedSince = (shift: ShiftRow) =>
  sql`(SELECT employee_id FROM shifts WHERE id = ${shift.id} AND organization_id = ${shift.organizationId}
    AND updated_at = ${shift.updatedAt.getTime()})`;

const guardedEvent = (shift: ShiftRow, event: ShiftEventRow) => ({
  ...event,
  organizationId: unlessLocked(shift.organizationId, dayOf(shift)),
  shiftId: stillOpen(shift),
  employeeId: unchangedSince(shift),
  verdict: unlessFrozen(event.verdict, shift.organizationId, shift.employeeId, [shift.businessDate]),
});

const updateShift = (db: Database, shift: ShiftRow, changes: Partial<ShiftRow>) =>
  db
    .update(shifts)
    .set(changes)
    .where(and(eq(shifts.organizationId, shift.organizationId), eq(shifts.id, shift.id)));

const endBreak = (db: Database, ended: ShiftBreakRow) =>
  db
    .update(shiftBreaks)
    .set({ endAt: ended.endAt })
    .where(and(eq(shiftBreaks.organizationId, ended.organizationId), eq(shiftBreaks.id, ended.id)));

/** Clock-in: the shift, open (it runs on for the overlap guard), and its event. */
export const clockInWrites = (db: Database, shift: ShiftRow, event: ShiftEventRow): Statement[] => [
  db.insert(shifts).values({
    ...shift,
    organizationId: unlessLocked(shift.organizationId, dayOf(shift)),
    locationId: unlessFrozen(shift.locationId, shift.organizationId, shift.employeeId, [shift.businessDate]),
    employeeId: unlessOverlapping({
      organizationId: shift.organizationId,
      employeeId: shift.employeeId,
      shiftId: shift.id,
      start: shift.startAt,
      end: null,
    }),
  }),
  db.insert(shiftEvents).values(event),
];

export const clockInProblems = (shift: ShiftRow): ConstraintProblems => [
  ...guardProblems(dayOf(shift)),
  whenDuplicate(shifts, shiftAlreadyOpen),
];

type ShiftChanges = Partial<ShiftRow>;

/** Break start. The break goes first: a concurrent start then fails on the one-open-break index (BREAK_ALREADY_OPEN). */
export const breakStartWrites = (
  db: Database,
  shift: ShiftRow,
  write: { started: ShiftBreakRow; event: ShiftEventRow; changes: ShiftChanges },
) => [
  db.insert(shiftBreaks).values(write.started),
  db.insert(shiftEvents).values(guardedEvent(shift, write.event)),
  updateShift(db, shift, write.changes),
];

export const breakEndWrites = (
  db: Database,
  shift: ShiftRow,
  write: { ended: ShiftBreakRow; event: ShiftEventRow; changes: ShiftChanges },
) => [db.insert(shiftEvents).values(guardedEvent(shift, write.event)), endBreak(db, write.ended), updateShift(db, shift, write.changes)];

/** Clock-out writes only what it changes: the open break's end, the automatic deductions, the shift's closing columns. */
export const clockOutWrites = (db: Database, shift: ShiftRow, closed: ClosedShift & { events: ShiftEventRow[] }) => [
  db.insert(shiftEvents).values(closed.events.map((event) => guardedEvent(shift, event))),
  ...(closed.ended ? [endBreak(db, closed.ended)] : []),
  ...insertBreakStatements(db, closed.automatic),
  updateShift(db, shift, closed.changes),
];

/** What a refused break or clock-out batch means. */
export const onShiftProblems = (shift: ShiftRow): ConstraintProblems => [
  whenNull(shiftEvents.organizationId, () => dayLocked(shift.businessDate)),
  whenNull(shiftEvents.shiftId, noOpenShift),
  whenNull(shiftEvents.employeeId, shiftChanged),
  whenNull(shiftEvents.verdict, () => timesheetApproved(shift.businessDate)),
  whenDuplicate(shiftBreaks, breakAlreadyOpen),
  // Each event happens once; a repeat that got past the version guard is a change it did not see.
  whenDuplicate(shiftEvents, shiftChanged),
];
