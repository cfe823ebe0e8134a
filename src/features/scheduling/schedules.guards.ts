import { openShiftPreferences, openShifts, scheduleEntries } from "@db/schema";
import { type SQL, sql } from "drizzle-orm";
import { unavailableDuring } from "@/data/availability/availability.guards";
import type { Database } from "@/data/client";
import { type DateRun, frozenByClose, frozenRunsProblem } from "@/data/closed-periods";
import { type ConstraintProblems, whenDuplicate } from "@/data/write/constraint-problems";
import { guard } from "@/data/write/guard";
import { workedDates } from "@/domain/pay-period-freeze";
import { MAX_ENTRY_SPAN_MINUTES } from "@/domain/shift-plan";
import { conflict, type ProblemError } from "@/problems/problem";
import { timeOffConflict } from "./time-off-conflicts.guards";

/**
 * Schedule invariants are checked by the write itself (as shifts.guards does for shifts): each guard
 * (data/write/guard) is the value of a NOT NULL column that turns NULL when the invariant would break, failing the
 * statement and its batch, answered by the guard's problem. A condition guards every row that can break it: a
 * schedule entry, an open shift's claim or assignment (open_shift_preferences), the open shift itself.
 */

export interface EntrySpan {
  organizationId: string;
  employeeId: string;
  /** The entry being written, which never overlaps itself. */
  entryId: string;
  /** Another entry the same batch takes from the staff member (a swap's other side): not an overlap either. */
  leavingEntryId?: string;
  start: Date;
  end: Date;
}

/** A SQL boolean: another live entry (draft or published) of the staff member overlaps [start, end). */
export const overlapsSchedule = (span: EntrySpan): SQL =>
  sql`EXISTS (SELECT 1 FROM schedule_entries WHERE employee_id = ${span.employeeId} AND +organization_id = ${span.organizationId}
    AND deleted_at IS NULL AND id <> ${span.entryId} AND id <> ${span.leavingEntryId ?? span.entryId}
    AND start_at < ${span.end.getTime()} AND end_at > ${span.start.getTime()})`;

/** Rest between shifts a pack requires consent for, and the consent a write names (Fair Workweek). */
export interface RestConsentSpan extends EntrySpan {
  rest: { minHours: number; consecutiveDays: boolean } | null;
  /** The local date the entry starts on (a CONSECUTIVE_DAYS pack counts only entries of other days). */
  startDate: string;
  consentId: string | null;
  /**
   * A write that can name no consent (a bulk copy) takes any standing REST consent of the worker (one given for no
   * entry in particular), as the publish does; the others take only the one they name.
   */
  takesStandingConsent?: boolean;
}

const localDateOf = (column: SQL) => sql`date((${column}) / 1000, 'unixepoch')`;

/**
 * A SQL boolean: another live entry `o` of the worker ends less than `window` ms before `start` or starts less than
 * `window` ms after `end` (for a CONSECUTIVE_DAYS pack, only one starting on an earlier, resp. later, local date than
 * `startDate`). ONE range of schedule_entries_employee_start (employee_id, start_at, end_at): the worker's entries
 * starting from the longest an entry lasts before the window to the end of the window after. Which of them end in
 * the window before or start in the window after is judged on the index's own columns first, so no table row is read
 * for the others (the entry itself among them); only a near one is read for the rest.
 */
const restNeighbour = (
  of: { organizationId: string; employeeId: SQL | string; entryId: SQL | string; start: SQL | number; end: SQL | number },
  startDate: SQL | string,
  window: number,
  consecutiveDays: boolean,
): SQL => {
  const { start, end } = of;
  const near = sql`(o.end_at <= ${start} AND o.end_at > ${start} - ${window} OR o.start_at >= ${end})`;
  const otherStartDate = localDateOf(sql`o.start_at + o.utc_offset * 60000`);
  const otherDay = consecutiveDays
    ? sql`AND CASE WHEN o.end_at <= ${start} THEN ${otherStartDate} < ${startDate} ELSE ${otherStartDate} > ${startDate} END`
    : sql``;
  return sql`EXISTS (SELECT 1 FROM schedule_entries o WHERE o.employee_id = ${of.employeeId}
      AND o.start_at > ${start} - ${window + MAX_ENTRY_SPAN_MINUTES * 60_000} AND o.start_at < ${end} + ${window} AND ${near}
      AND +o.organization_id = ${of.organizationId} AND o.deleted_at IS NULL AND o.id <> ${of.entryId} ${otherDay})`;
};

/**
 * A SQL boolean: another live entry of the worker ends less than minHours before the span starts, or starts less
 * than minHours after it ends (on another local day, for a CONSECUTIVE_DAYS pack), and the worker's REST consent
 * named by the write (theirs, live, for this entry or any) does not exist.
 */
const restWithoutConsent = (span: RestConsentSpan & { rest: NonNullable<RestConsentSpan["rest"]> }): SQL => {
  const window = Math.round(span.rest.minHours * 3_600_000);
  const of = { ...span, start: span.start.getTime(), end: span.end.getTime() };
  const consent = span.takesStandingConsent
    ? sql`c.schedule_entry_id IS NULL`
    : sql`c.id = ${span.consentId ?? ""} AND (c.schedule_entry_id IS NULL OR c.schedule_entry_id = ${span.entryId})`;
  return sql`${restNeighbour(of, span.startDate, window, span.rest.consecutiveDays)}
    AND NOT EXISTS (SELECT 1 FROM consents c WHERE c.employee_id = ${span.employeeId} AND c.kind = 'REST'
      AND c.deleted_at IS NULL AND ${consent})`;
};

/** `value`, or NULL when `refusal` holds. */
const unless = (value: SQL | string | number, refusal: SQL): SQL => sql`(SELECT ${value} WHERE NOT (${refusal}))`;

const unlessOverlapping = (span: EntrySpan): SQL => unless(span.employeeId, overlapsSchedule(span));

const unlessOnTimeOff = (value: string, span: EntrySpan): SQL => unless(value, timeOffConflict(span.employeeId, span.start, span.end));

/** `value`, or NULL when an UNAVAILABLE occurrence of the staff member overlaps the span; as is when ignored. */
const unlessUnavailable = <T extends string>(value: T, span: EntrySpan, ignoreAvailability = false): SQL | T =>
  ignoreAvailability ? value : unless(value, unavailableDuring(span.organizationId, span.employeeId, span.start, span.end));

/** `timezone`, or NULL when the span is inside a consent-requiring rest window without the worker's consent. */
const unlessRestWithoutConsent = (timezone: string, span: RestConsentSpan): SQL | string =>
  span.rest ? unless(timezone, restWithoutConsent({ ...span, rest: span.rest })) : timezone;

/** A column of the `schedule_entries` row a set-based UPDATE writes (the publish), inside its subqueries. */
const ownColumn = (column: string) => sql.raw(`"schedule_entries"."${column}"`);

/**
 * restWithoutConsent for every row of a set-based UPDATE of schedule entries (the publish of drafts): the row's own
 * worker, times and local start date in place of a span's, and — no write naming a consent — any live REST consent
 * of the worker given for that entry (POST …/consents with its scheduleEntryId) or for no entry in particular (a
 * general one, which create and PATCH accept when named by consentId: the publish cannot name one, so it takes any).
 */
const rowRestWithoutConsent = (organizationId: string, rest: NonNullable<RestConsentSpan["rest"]>): SQL => {
  const window = Math.round(rest.minHours * 3_600_000);
  const of = {
    organizationId,
    employeeId: ownColumn("employee_id"),
    entryId: ownColumn("id"),
    start: ownColumn("start_at"),
    end: ownColumn("end_at"),
  };
  const startDate = localDateOf(sql`${of.start} + ${ownColumn("utc_offset")} * 60000`);
  return sql`(${restNeighbour(of, startDate, window, rest.consecutiveDays)}
    AND NOT EXISTS (SELECT 1 FROM consents c WHERE c.employee_id = ${of.employeeId} AND c.kind = 'REST'
      AND c.deleted_at IS NULL AND (c.schedule_entry_id IS NULL OR c.schedule_entry_id = ${of.entryId})))`;
};

/** A SQL boolean over a `schedule_entries` row read or written: the publish would refuse it (REST_CONSENT_REQUIRED). */
export const needsRestConsent = (organizationId: string, rest: NonNullable<RestConsentSpan["rest"]>): SQL =>
  rowRestWithoutConsent(organizationId, rest);

/** The row's own timezone, or NULL when it is inside a consent-requiring rest window without its worker's consent. */
const unlessRowRestWithoutConsent = (organizationId: string, rest: NonNullable<RestConsentSpan["rest"]>): SQL =>
  sql`(SELECT ${ownColumn("timezone")} WHERE NOT (${rowRestWithoutConsent(organizationId, rest)}))`;

export const restConsentRequired = (): ProblemError =>
  conflict(
    "REST_CONSENT_REQUIRED",
    "The entry falls inside the worker's rest between shifts, and the location's Fair Workweek pack requires their consent: " +
      "name the worker's REST consent (POST …/staffmembers/{id}/consents) as consentId.",
  );

/** Approved places of an open shift, counted by the statement that would add one. */
export const approvedPlaces = (openShiftId: string): SQL =>
  sql`(SELECT COUNT(*) FROM open_shift_preferences WHERE open_shift_id = ${openShiftId} AND status = 'APPROVED' AND deleted_at IS NULL)`;

/** `openShiftId`, or NULL when its approved places already reach staffCountRequired. */
const unlessFull = (openShiftId: string): SQL =>
  sql`(SELECT ${openShiftId} WHERE ${approvedPlaces(openShiftId)} < (SELECT staff_count_required FROM open_shifts
    WHERE id = ${openShiftId} AND deleted_at IS NULL))`;

/** `organizationId`, or NULL unless the preference was approved with this entry by an earlier statement of the batch. */
const ifApprovedWith = (organizationId: string, preferenceId: string, entryId: string): SQL =>
  sql`(SELECT ${organizationId} WHERE EXISTS (SELECT 1 FROM open_shift_preferences WHERE id = ${preferenceId}
    AND schedule_shift_id = ${entryId} AND status = 'APPROVED'))`;

/** `count`, or NULL when fewer than the places already approved. */
const unlessBelowApproved = (openShiftId: string, count: number): SQL =>
  sql`(SELECT ${count} WHERE ${count} >= ${approvedPlaces(openShiftId)})`;

/** `status`, or NULL unless the open shift is still a live draft (a draft assignment must not land on a published shift). */
const ifStillDraft = (status: string, openShiftId: string): SQL =>
  sql`(SELECT ${status} WHERE EXISTS (SELECT 1 FROM open_shifts WHERE id = ${openShiftId} AND is_draft = 1 AND deleted_at IS NULL))`;

/**
 * For the publish of an open shift: its role id, or NULL when it has a draft assignment other than `appliedIds`
 * (one committed after publish read them, which would otherwise stay a draft with no entry on a published shift).
 */
const unlessUnreadAssignments = (appliedIds: readonly string[]): SQL =>
  sql`(SELECT "open_shifts"."role_id" WHERE NOT EXISTS (SELECT 1 FROM open_shift_preferences
    WHERE open_shift_id = "open_shifts"."id" AND is_draft = 1 AND status = 'APPROVED' AND deleted_at IS NULL
    AND id NOT IN (SELECT value FROM json_each(${JSON.stringify(appliedIds)}))))`;

export const openShiftChanged = (): ProblemError =>
  conflict(
    "OPEN_SHIFT_CHANGED",
    "The open shift was published, or given a draft assignment, meanwhile: nothing was written; read it again and retry.",
  );

export const scheduleOverlap = (): ProblemError =>
  conflict("SCHEDULE_OVERLAP", "The staff member already has a schedule entry that overlaps these times.");

export const timeOffConflictProblem = (): ProblemError =>
  conflict("TIME_OFF_CONFLICT", "The staff member has approved time off during these times.");

export const workerUnavailable = (): ProblemError =>
  conflict(
    "WORKER_UNAVAILABLE",
    "The staff member is unavailable during these times (their availability); a manager may pass ignoreAvailability.",
  );

export const openShiftFull = (): ProblemError => conflict("OPEN_SHIFT_FULL", "Every place on this open shift is taken.");

export const preferenceNotPending = (): ProblemError =>
  conflict("PREFERENCE_NOT_PENDING", "The preference is no longer pending: read it again.");

/** A run of local dates a schedule write touches: bound, or SQL over the written row's own columns. */
export interface EntryDates {
  first: SQL | string;
  last: SQL | string;
}

/**
 * The local dates of the minutes of the `schedule_entries` row a statement writes, from its own columns: in an
 * UPDATE's SET, the row as it was (the old times of a change, the dates a cancellation or publish touches).
 */
export const ownEntryDates: EntryDates = {
  first: localDateOf(sql`${ownColumn("start_at")} + ${ownColumn("utc_offset")} * 60000`),
  last: localDateOf(sql`max(${ownColumn("start_at")}, ${ownColumn("end_at")} - 60000) + ${ownColumn("utc_offset")} * 60000`),
};

/** The local dates of an entry's minutes (its start's through its last minute's), as the freeze guard takes them. */
export const entryDates = (entry: { start: Date; end: Date; utcOffset: number }): DateRun => {
  const { date, through } = workedDates(entry.start, entry.end, entry.utcOffset);
  return { first: date, last: through };
};

/** `value`, or NULL while a closed pay period froze a date of any run (data/closed-periods: frozen means every minute). */
const unlessFrozen = (value: SQL | number, organizationId: string, runs: readonly EntryDates[]): SQL =>
  unless(
    value,
    sql.join(
      runs.map((run) => frozenByClose(organizationId, run.first, run.last)),
      sql` OR `,
    ),
  );

/**
 * schedule_entries.start_at: the entry's start, NULL while a closed pay period froze a date it touches (its old or
 * new minutes): the change would add, move or cancel Fair Workweek premiums dated in the closed period.
 */
export const entryUnfrozen = guard({
  column: scheduleEntries.startAt,
  problem: ({ db, organizationId, runs }: { db: Database; organizationId: string; runs: readonly DateRun[] }) =>
    frozenRunsProblem(db, organizationId, runs),
  sql: unlessFrozen,
});

/** Guards of a schedule entry's row. */
export const entryGuards = {
  noOverlap: guard({ column: scheduleEntries.employeeId, problem: scheduleOverlap, sql: unlessOverlapping }),
  notOnTimeOff: guard({ column: scheduleEntries.locationId, problem: timeOffConflictProblem, sql: unlessOnTimeOff }),
  available: guard({ column: scheduleEntries.roleId, problem: workerUnavailable, sql: unlessUnavailable }),
  restConsent: guard({ column: scheduleEntries.timezone, problem: restConsentRequired, sql: unlessRestWithoutConsent }),
  /** The same check for each row of a set-based publish of drafts. */
  publishedRestConsent: guard({ column: scheduleEntries.timezone, problem: restConsentRequired, sql: unlessRowRestWithoutConsent }),
  /** The entry of an approved claim or assignment lands only with that approval. */
  approvedWith: guard({ column: scheduleEntries.organizationId, problem: preferenceNotPending, sql: ifApprovedWith }),
};

/** Guards of an open shift's claim, preference or assignment (an open_shift_preferences row). */
export const claimGuards = {
  noOverlap: guard({ column: openShiftPreferences.workerId, problem: scheduleOverlap, sql: unlessOverlapping }),
  notOnTimeOff: guard({ column: openShiftPreferences.organizationId, problem: timeOffConflictProblem, sql: unlessOnTimeOff }),
  available: guard({ column: openShiftPreferences.preference, problem: workerUnavailable, sql: unlessUnavailable }),
  placeLeft: guard({ column: openShiftPreferences.openShiftId, problem: openShiftFull, sql: unlessFull }),
  stillDraft: guard({ column: openShiftPreferences.status, problem: openShiftChanged, sql: ifStillDraft }),
};

/** Guards of the open shift's own row. */
export const openShiftGuards = {
  placesCoverApproved: guard({ column: openShifts.staffCountRequired, problem: openShiftFull, sql: unlessBelowApproved }),
  noUnreadAssignments: guard({ column: openShifts.roleId, problem: openShiftChanged, sql: unlessUnreadAssignments }),
};

/** What a refused schedule write means: every guard above, and a second claim of a worker on one open shift. */
export const scheduleGuardProblems: ConstraintProblems = [
  ...Object.values(entryGuards),
  ...Object.values(claimGuards),
  ...Object.values(openShiftGuards),
  whenDuplicate(openShiftPreferences, () =>
    conflict("ALREADY_CLAIMED", "This worker already has a claim or preference on this open shift."),
  ),
];
