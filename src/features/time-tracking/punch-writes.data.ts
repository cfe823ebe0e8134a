import { photos, shiftBreaks, shiftEvents, shifts } from "@db/schema";
import { and, eq, is, isNull, SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { Database, Statement } from "@/data/client";
import { type Placeholders, prepared } from "@/data/prepared";
import { rowBinding } from "@/data/prepared-rows";
import { customFieldsAsRead } from "@/data/shifts/custom-field-values.data";
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
} from "@/data/shifts/shifts.guards";
import { type ConstraintProblems, whenDuplicate } from "@/data/write/constraint-problems";
import { guard } from "@/data/write/guard";
import { workedDates } from "@/domain/pay-period-freeze";
import { photoAlreadyAttached } from "@/problems/photos";
import { breakAlreadyOpen, noOpenShift, shiftAlreadyOpen } from "@/problems/shifts";
import type { ShiftBreakRow, ShiftEventRow, ShiftRow } from "@/wire/shift.schemas";
import type { ClosedShift } from "./punch-rows.data";

/*
 * The statements of each punch's one write batch. What the punch decided on its read must still hold when the
 * batch lands, so the batch re-checks it with guards (data/write/guard). A clock-in guards its shift row like a
 * manual shift (day not locked, pay not frozen, no overlapping shift). A punch on an open shift guards the event row
 * it inserts: the day still unlocked, the pay still open (shifts.guards), and the two below.
 * SQLite checks NOT NULL columns in table order, so the first failing guard in that order names the problem.
 */

const MINUTE_MS = 60_000;

/**
 * The local date of the last minute an event on the open shift changes: a clock-out or a break's end changes the
 * minutes before it (from the shift's start, which a close may have frozen since: every minute counts), a break's
 * start the minute it starts.
 */
const eventThrough = (shift: ShiftRow, event: Pick<ShiftEventRow, "kind" | "occurredAt">): string =>
  workedDates(shift.startAt, new Date(event.occurredAt.getTime() + (event.kind === "break_start" ? MINUTE_MS : 0)), shift.utcOffset)
    .through;

const dayOf = (shift: ShiftRow, events: readonly Pick<ShiftEventRow, "kind" | "occurredAt">[] = []) => [
  {
    locationId: shift.locationId,
    date: shift.businessDate,
    through: events.map((event) => eventThrough(shift, event)).reduce((a, b) => (a > b ? a : b), shift.businessDate),
  },
];

/** A shift as its event's guards name it: bound values, or a prepared statement's placeholders. */
type ShiftNamed = { id: Bound; organizationId: Bound };

/** A value a guard compares with: bound, or a prepared statement's placeholder (data/prepared). */
type Bound = string | SQLWrapper;

/** shift_events.shift_id: the shift's id while it is open, else NULL (clocked out or deleted meanwhile). */
const shiftStillOpen = guard({
  column: shiftEvents.shiftId,
  problem: noOpenShift,
  sql: (shift: ShiftNamed) =>
    sql`(SELECT id FROM shifts WHERE id = ${shift.id} AND organization_id = ${shift.organizationId}
    AND end_at IS NULL AND deleted_at IS NULL)`,
});

/** shift_events.employee_id: the shift's employee while the shift is the version the punch read (same updated_at). */
const shiftVersionRead = guard({
  column: shiftEvents.employeeId,
  problem: shiftChanged,
  sql: (shift: ShiftNamed, version: number | SQLWrapper) =>
    sql`(SELECT employee_id FROM shifts WHERE id = ${shift.id} AND organization_id = ${shift.organizationId}
    AND updated_at = ${version})`,
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

/** The open shift as its event's guards name it; `version`: the updated_at the punch read, in milliseconds. */
interface GuardedShift {
  id: Bound;
  organizationId: Bound;
  employeeId: Bound;
  locationId: Bound;
  businessDate: Bound;
  version: number | SQLWrapper;
}

const guardedShiftOf = (shift: ShiftRow): GuardedShift => ({ ...shift, version: shift.updatedAt.getTime() });

/**
 * The guarded columns of an event on an open shift (the built and the prepared statement alike); `through`: the
 * local date of the last minute it changes (eventThrough).
 */
const onShiftGuards = (shift: GuardedShift, verdict: Bound, through: Bound) => ({
  organizationId: eventDayUnlocked.sql(shift.organizationId, [{ locationId: shift.locationId, date: shift.businessDate }]),
  shiftId: shiftStillOpen.sql(shift),
  employeeId: shiftVersionRead.sql(shift, shift.version),
  verdict: eventPayUnfrozen.sql(verdict, shift.organizationId, shift.employeeId, [{ date: shift.businessDate, through }]),
});

const guardedEvent = (shift: ShiftRow, event: ShiftEventRow) => ({
  ...photoGuarded(shift, event, event),
  ...onShiftGuards(guardedShiftOf(shift), event.verdict, eventThrough(shift, event)),
});

/** The guarded columns of the shift a clock-in opens (the built and the prepared statement alike). */
const openingGuards = (
  shift: Record<"id" | "organizationId" | "employeeId" | "locationId" | "businessDate", Bound> & {
    startAt: Date | SQLWrapper;
  },
) => ({
  organizationId: shiftDayUnlocked.sql(shift.organizationId, [{ locationId: shift.locationId, date: shift.businessDate }]),
  locationId: shiftPayUnfrozen.sql(shift.locationId, shift.organizationId, shift.employeeId, [shift.businessDate]),
  employeeId: noShiftOverlap.sql({
    organizationId: shift.organizationId,
    employeeId: shift.employeeId,
    shiftId: shift.id,
    start: shift.startAt,
    end: null,
  }),
});

/** The shift row a write changes, by its key. */
const shiftKey = (shift: { id: Bound; organizationId: Bound }) =>
  and(eq(shifts.organizationId, shift.organizationId), eq(shifts.id, shift.id));

const updateShift = (db: Database, shift: ShiftRow, changes: Partial<ShiftRow>) => db.update(shifts).set(changes).where(shiftKey(shift));

const endBreak = (db: Database, ended: ShiftBreakRow) =>
  db
    .update(shiftBreaks)
    .set({ endAt: ended.endAt })
    .where(and(eq(shiftBreaks.organizationId, ended.organizationId), eq(shiftBreaks.id, ended.id)));

/**
 * Clock-in: the shift, open (it runs on for the overlap guard), and its event. `customFields`: what goes into the
 * column (the values, guarded when they were checked: custom-field-values). Built here; its commonest shape is
 * prepared (below).
 */
export const builtClockInWrites = (
  db: Database,
  shift: ShiftRow,
  event: ShiftEventRow,
  customFields: ShiftRow["customFields"] = shift.customFields,
): Statement[] => [
  db.insert(shifts).values({ ...shift, customFields, ...openingGuards(shift), roleId: chargedRole(shift) }),
  db.insert(shiftEvents).values(photoGuarded(shift, event, event)),
  ...attachPhotos(db, shift, [event]),
];

/** The days a punch's guards check, and where its pay guard's refusal reads which freeze it met. */
const guardedDays = (db: Database, shift: ShiftRow, events?: readonly ShiftEventRow[]) => ({
  db,
  organizationId: shift.organizationId,
  days: dayOf(shift, events),
});

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

/** Clock-out writes only what it changes: the open break's end and the shift's closing columns. */
export const builtClockOutWrites = (db: Database, shift: ShiftRow, closed: ClockOut) => [
  db.insert(shiftEvents).values(closed.events.map((event) => guardedEvent(shift, event))),
  ...attachPhotos(db, shift, closed.events),
  ...(closed.ended ? [endBreak(db, closed.ended)] : []),
  updateShift(db, shift, closed.changes),
];

type ClockOut = Omit<ClosedShift, "changes" | "notTaken"> & { changes: ShiftChanges; events: ShiftEventRow[] };

/*
 * The commonest clock-in and clock-out (a phone's, or a kiosk's without a photo; no cost code; at clock-in no custom
 * field given, at clock-out no break open and none added), prepared once per isolate (data/prepared): the statements
 * above, built with placeholders, each request binding its values. Building them per punch was most of drizzle's
 * share of a punch's CPU (docs/PERFORMANCE.md, issue 36). test/performance/punch-writes-prepared.test.ts checks each sends what
 * the built statement sends: the same SQL and values.
 */
type BoundValues<K extends string> = Record<K, string | number | null>;
/** The open shift as the guards of an event on it name it, prepared. */
type OnShift = BoundValues<
  "openShiftId" | "shiftOrganizationId" | "shiftEmployeeId" | "shiftLocationId" | "shiftBusinessDate" | "shiftVersion"
>;

const shiftColumns = rowBinding(shifts);
const eventColumns = rowBinding(shiftEvents);
const CLOSING = [
  "duration",
  "totalPaidBreaks",
  "totalUnpaidBreaks",
  "payableDuration",
  "endAt",
  "active",
  "clockOutSource",
  "clockOutDeviceId",
  "flags",
  "updatedAt",
  "customFields",
] as const;
const closingColumns = rowBinding(shifts, CLOSING);

const openingShift = prepared((db, p: Placeholders<BoundValues<keyof ShiftRow>>) =>
  db.insert(shifts).values({ ...shiftColumns.placeholders, ...openingGuards(p) }),
);

const clockInEvent = prepared((db, _: Placeholders<BoundValues<keyof ShiftEventRow>>) =>
  db.insert(shiftEvents).values(eventColumns.placeholders),
);

/** The open shift's placeholders as the shared guards take them. */
const onShiftPlaceholders = (p: Placeholders<OnShift>): GuardedShift => ({
  id: p.openShiftId,
  organizationId: p.shiftOrganizationId,
  employeeId: p.shiftEmployeeId,
  locationId: p.shiftLocationId,
  businessDate: p.shiftBusinessDate,
  version: p.shiftVersion,
});

const eventOnShift = prepared((db, p: Placeholders<BoundValues<keyof ShiftEventRow | "eventThrough"> & OnShift>) =>
  db.insert(shiftEvents).values({ ...eventColumns.placeholders, ...onShiftGuards(onShiftPlaceholders(p), p.verdict, p.eventThrough) }),
);

const closingShift = prepared((db, p: Placeholders<BoundValues<(typeof CLOSING)[number] | "fieldsFingerprint"> & OnShift>) =>
  db
    .update(shifts)
    .set({
      ...closingColumns.placeholders,
      customFields: customFieldsAsRead.sql(p.customFields, p.shiftOrganizationId, p.fieldsFingerprint),
    })
    .where(shiftKey(onShiftPlaceholders(p))),
);

const onShift = (shift: ShiftRow): OnShift => ({
  openShiftId: shift.id,
  shiftOrganizationId: shift.organizationId,
  shiftEmployeeId: shift.employeeId,
  shiftLocationId: shift.locationId,
  shiftBusinessDate: shift.businessDate,
  shiftVersion: shift.updatedAt.getTime(),
});

/** Clock-in's statements: prepared in the commonest shape, built otherwise. */
export const clockInWrites = (
  db: Database,
  shift: ShiftRow,
  event: ShiftEventRow,
  customFields: ShiftRow["customFields"] = shift.customFields,
): Statement[] =>
  event.photoId || shift.costCodeId !== null || is(customFields, SQL)
    ? builtClockInWrites(db, shift, event, customFields)
    : [openingShift(db, shiftColumns.values({ ...shift, customFields })), clockInEvent(db, eventColumns.values(event))];

/**
 * Clock-out's statements: prepared in the commonest shape, built otherwise. `fields`: the custom fields as checked
 * (custom-field-values' checkedValues), whose guard `closed.changes.customFields` holds.
 */
export function clockOutWrites(
  db: Database,
  shift: ShiftRow,
  closed: ClockOut,
  fields?: { values: ShiftRow["customFields"]; fingerprint: string | null },
): Statement[] {
  const [event, ...more] = closed.events;
  const { changes } = closed;
  const preparable =
    event &&
    more.length === 0 &&
    !event.photoId &&
    !closed.ended &&
    fields?.fingerprint &&
    Object.keys(changes).length === CLOSING.length &&
    CLOSING.every((key) => changes[key] !== undefined);
  if (!preparable) return builtClockOutWrites(db, shift, closed);
  const guarded = onShift(shift);
  return [
    eventOnShift(db, { ...eventColumns.values(event), eventThrough: eventThrough(shift, event), ...guarded }),
    closingShift(db, {
      ...closingColumns.values({ ...(changes as Pick<ShiftRow, (typeof CLOSING)[number]>), customFields: fields.values }),
      fieldsFingerprint: fields.fingerprint,
      ...guarded,
    }),
  ];
}

/** What a refused break or clock-out batch means; `events`: the batch's events on the shift (the dates they reach). */
export const onShiftProblems = (db: Database, shift: ShiftRow, events?: readonly ShiftEventRow[]): ConstraintProblems => [
  eventDayUnlocked.about(dayOf(shift)),
  shiftStillOpen,
  shiftVersionRead,
  eventPayUnfrozen.about(guardedDays(db, shift, events)),
  customFieldsAsRead,
  whenDuplicate(shiftBreaks, breakAlreadyOpen),
  photoUnattached,
  // Each event happens once; a repeat that got past the version guard is a change it did not see.
  whenDuplicate(shiftEvents, shiftChanged),
];

/**
 * The guards of the shift a switch ends, as a punch's, except that a shift no longer open is 409 SHIFT_CHANGED: the
 * request that ended it meanwhile was most often another switch, which leaves the staff member on shift, so
 * NO_OPEN_SHIFT would be untrue. Read the state again and retry (a retry with truly none is NO_OPEN_SHIFT).
 */
export const switchingProblems = (db: Database, shift: ShiftRow, events?: readonly ShiftEventRow[]): ConstraintProblems =>
  onShiftProblems(db, shift, events).map((problem) =>
    problem === shiftStillOpen ? { refusal: problem.refusal, problem: shiftChanged } : problem,
  );
