import { photos, shiftBreaks, shiftEvents, shifts } from "@db/schema";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Database, Statement } from "@/data/client";
import { type ConstraintProblems, whenDuplicate } from "@/data/write/constraint-problems";
import { guard } from "@/data/write/guard";
import { customFieldsAsRead } from "@/features/shifts/custom-field-values.data";
import { insertBreakStatements } from "@/features/shifts/shift-rows.data";
import {
  chargedRole,
  costCodeAssigned,
  eventDayUnlocked,
  eventPayUnfrozen,
  noShiftOverlap,
  shiftChanged,
  shiftDayUnlocked,
  shiftGuardProblems,
  shiftPayUnfrozen,
} from "@/features/shifts/shifts.guards";
import type { ShiftBreakRow, ShiftEventRow, ShiftRow } from "@/features/shifts/shifts.schemas";
import { photoAlreadyAttached } from "@/problems/photos";
import { breakAlreadyOpen, noOpenShift, shiftAlreadyOpen } from "@/problems/shifts";
import type { ClosedShift } from "./punch-rows.data";

/*
 * The statements of each punch's one write batch. What the punch decided on its read must still hold when the
 * batch lands, so the batch re-checks it with guards (data/write/guard). A clock-in guards its shift row like a
 * manual shift (day not locked, pay not frozen, no overlapping shift). A punch on an open shift guards the event row
 * it inserts: the day still unlocked, the pay still open (shifts.guards), and the two below.
 * SQLite checks NOT NULL columns in table order, so the first failing guard in that order names the problem.
 */

const dayOf = (shift: ShiftRow) => [{ locationId: shift.locationId, date: shift.businessDate }];

/** shift_events.shift_id: the shift's id while it is open, else NULL (clocked out or deleted meanwhile). */
const shiftStillOpen = guard({
  column: shiftEvents.shiftId,
  problem: noOpenShift,
  sql: (shift: ShiftRow) =>
    sql`(SELECT id FROM shifts WHERE id = ${shift.id} AND organization_id = ${shift.organizationId}
    AND end_at IS NULL AND deleted_at IS NULL)`,
});

/** shift_events.employee_id: the shift's employee while the shift is the version the punch read (same updated_at). */
const shiftVersionRead = guard({
  column: shiftEvents.employeeId,
  problem: shiftChanged,
  sql: (shift: ShiftRow) =>
    sql`(SELECT employee_id FROM shifts WHERE id = ${shift.id} AND organization_id = ${shift.organizationId}
    AND updated_at = ${shift.updatedAt.getTime()})`,
});

/**
 * shift_events.source of an event with a kiosk photo: its source while the photo is the organization's, of the
 * shift's location and not taken by another punch yet, else NULL (two punches naming one photo: one lands).
 */
const photoUnattached = guard({
  column: shiftEvents.source,
  problem: photoAlreadyAttached,
  sql: (shift: ShiftRow, event: ShiftEventRow) =>
    sql`(SELECT ${event.source} FROM photos WHERE id = ${event.photoId} AND organization_id = ${shift.organizationId}
    AND location_id = ${shift.locationId} AND shift_id IS NULL)`,
});

/** The event's photo, guarded, and attached to the shift after the event (in the same batch). */
const photoGuarded = <T extends object>(shift: ShiftRow, event: ShiftEventRow, values: T) =>
  event.photoId ? { ...values, source: photoUnattached.sql(shift, event) } : values;

const attachPhotos = (db: Database, shift: ShiftRow, events: readonly ShiftEventRow[]) =>
  events.flatMap((event) =>
    event.photoId
      ? [
          db
            .update(photos)
            .set({ shiftId: shift.id, employeeId: shift.employeeId })
            .where(and(eq(photos.id, event.photoId), eq(photos.organizationId, shift.organizationId), isNull(photos.shiftId))),
        ]
      : [],
  );

const guardedEvent = (shift: ShiftRow, event: ShiftEventRow) => ({
  ...photoGuarded(shift, event, event),
  organizationId: eventDayUnlocked.sql(shift.organizationId, dayOf(shift)),
  shiftId: shiftStillOpen.sql(shift),
  employeeId: shiftVersionRead.sql(shift),
  verdict: eventPayUnfrozen.sql(event.verdict, shift.organizationId, shift.employeeId, [shift.businessDate]),
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

/**
 * Clock-in: the shift, open (it runs on for the overlap guard), and its event. `customFields`: what goes into the
 * column (the values, guarded when they were checked: custom-field-values).
 */
export const clockInWrites = (
  db: Database,
  shift: ShiftRow,
  event: ShiftEventRow,
  customFields: ShiftRow["customFields"] = shift.customFields,
): Statement[] => [
  db.insert(shifts).values({
    ...shift,
    customFields,
    organizationId: shiftDayUnlocked.sql(shift.organizationId, dayOf(shift)),
    locationId: shiftPayUnfrozen.sql(shift.locationId, shift.organizationId, shift.employeeId, [shift.businessDate]),
    roleId: chargedRole(shift),
    employeeId: noShiftOverlap.sql({
      organizationId: shift.organizationId,
      employeeId: shift.employeeId,
      shiftId: shift.id,
      start: shift.startAt,
      end: null,
    }),
  }),
  db.insert(shiftEvents).values(photoGuarded(shift, event, event)),
  ...attachPhotos(db, shift, [event]),
];

/** The days a punch's guards check, and where its pay guard's refusal reads which freeze it met. */
const guardedDays = (db: Database, shift: ShiftRow) => ({ db, organizationId: shift.organizationId, days: dayOf(shift) });

export const clockInProblems = (db: Database, shift: ShiftRow): ConstraintProblems => [
  ...shiftGuardProblems(guardedDays(db, shift)),
  costCodeAssigned,
  customFieldsAsRead,
  whenDuplicate(shifts, shiftAlreadyOpen),
  photoUnattached,
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
  ...attachPhotos(db, shift, [write.event]),
  updateShift(db, shift, write.changes),
];

export const breakEndWrites = (
  db: Database,
  shift: ShiftRow,
  write: { ended: ShiftBreakRow; event: ShiftEventRow; changes: ShiftChanges },
) => [
  db.insert(shiftEvents).values(guardedEvent(shift, write.event)),
  ...attachPhotos(db, shift, [write.event]),
  endBreak(db, write.ended),
  updateShift(db, shift, write.changes),
];

/** Clock-out writes only what it changes: the open break's end, the automatic deductions, the shift's closing columns. */
export const clockOutWrites = (
  db: Database,
  shift: ShiftRow,
  closed: Omit<ClosedShift, "changes"> & { changes: ShiftChanges; events: ShiftEventRow[] },
) => [
  db.insert(shiftEvents).values(closed.events.map((event) => guardedEvent(shift, event))),
  ...attachPhotos(db, shift, closed.events),
  ...(closed.ended ? [endBreak(db, closed.ended)] : []),
  ...insertBreakStatements(db, closed.automatic),
  updateShift(db, shift, closed.changes),
];

/** What a refused break or clock-out batch means. */
export const onShiftProblems = (db: Database, shift: ShiftRow): ConstraintProblems => [
  eventDayUnlocked.about(dayOf(shift)),
  shiftStillOpen,
  shiftVersionRead,
  eventPayUnfrozen.about(guardedDays(db, shift)),
  customFieldsAsRead,
  whenDuplicate(shiftBreaks, breakAlreadyOpen),
  photoUnattached,
  // Each event happens once; a repeat that got past the version guard is a change it did not see.
  whenDuplicate(shiftEvents, shiftChanged),
];
