import { shiftEvents, shifts } from "@db/schema";
import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { frozenByClose, periodFreezing } from "@/data/closed-periods";
import type { ConstraintProblems } from "@/data/write/constraint-problems";
import { guard } from "@/data/write/guard";
import { conflict, type ProblemError } from "@/problems/problem";
import { costCodeNotAssigned } from "@/problems/shifts";

/**
 * Invariants of shift writes are checked by the write itself, not by a read before it: each guard (data/write/guard)
 * is the value of a NOT NULL column that turns NULL when the invariant would break, so the statement — and the D1
 * batch it is in — fails as a whole, answered by the guard's problem. The conditions are built here once and guard
 * the shift row (below) and a punch's event row (time-tracking/punch-writes). They only compare with bound values,
 * so they read the same in INSERT and UPDATE statements.
 */

export interface DayAtLocation {
  locationId: string;
  date: string;
  /** The local date of the last minute the write touches on this day's shift, when later than `date`. */
  through?: string;
}

/** A value a condition compares with: bound, or a prepared statement's placeholder (data/prepared). */
type Bound = string | SQLWrapper;

const lockedAnyOf = (days: readonly { locationId: Bound; date: Bound }[]): SQL =>
  sql.join(
    days.map((d) => sql`EXISTS (SELECT 1 FROM locked_days WHERE location_id = ${d.locationId} AND date = ${d.date})`),
    sql` OR `,
  );

/** `organizationId`, or NULL when any of the days is locked. */
const unlessLocked = (organizationId: Bound, days: readonly { locationId: Bound; date: Bound }[]): SQL =>
  sql`(SELECT ${organizationId} WHERE NOT (${lockedAnyOf(days)}))`;

/**
 * The dates a shift write touches: its business date (an approval holds a shift by it), and `through`, the local date
 * of the last minute it adds, removes or moves (a shift crossing midnight reaches the next date: a close freezes
 * every minute, data/closed-periods). A bare date is a one-day span.
 */
export type PayDates = Bound | { date: Bound; through: Bound };

const spanOf = (dates: PayDates) => (typeof dates === "object" && "through" in dates ? dates : { date: dates, through: dates });

/**
 * True while the employee's timesheet of the pay period holding the business date is approved, or a closed period
 * froze a date from it through the last (every date of every workweek overlapping it, in any period:
 * data/closed-periods). `employee` is a bound id, or the updated row's own column (`sql\`shifts.employee_id\``).
 */
const frozenOn = (organizationId: Bound, employee: Bound, dates: PayDates): SQL => {
  const { date, through } = spanOf(dates);
  return sql`(EXISTS (SELECT 1 FROM timesheet_approvals WHERE employee_id = ${employee} AND period_end_date >= ${date}
      AND period_start_date <= ${date} AND organization_id = ${organizationId})
    OR ${frozenByClose(organizationId, date, through)})`;
};

/** `value`, or NULL when the employee's pay is frozen on any of the dates. */
const unlessFrozen = (value: Bound, organizationId: Bound, employee: Bound, dates: readonly PayDates[]): SQL =>
  sql`(SELECT ${value} WHERE NOT (${sql.join(
    dates.map((span) => frozenOn(organizationId, employee, span)),
    sql` OR `,
  )}))`;

export interface ShiftSpan {
  organizationId: Bound;
  employeeId: Bound;
  /** The shift being written, which never overlaps itself. */
  shiftId: Bound;
  /** An instant, or a placeholder bound to its milliseconds. */
  start: Date | SQLWrapper;
  end: Date | null;
}

/**
 * `employeeId`, or NULL when another live shift of the staff member overlaps [start, end): each starts before
 * the other ends, an open shift running on for ever (domain/shift-overlap's rule). An open span meets another
 * open shift only where the one-open-shift index refuses it anyway, so that case is left to the index
 * (SHIFT_ALREADY_OPEN for a racing clock-in). Served by the staff member's index (`+organization_id` keeps
 * the planner off the organization's).
 */
function unlessOverlapping(span: ShiftSpan): SQL {
  const start = span.start instanceof Date ? span.start.getTime() : span.start;
  const otherEndsAfterStart = span.end ? sql`(end_at IS NULL OR end_at > ${start})` : sql`end_at > ${start}`;
  const endsBefore = span.end ? sql` AND start_at < ${span.end.getTime()}` : sql``;
  return sql`(SELECT ${span.employeeId} WHERE NOT EXISTS (SELECT 1 FROM shifts
    WHERE +organization_id = ${span.organizationId} AND employee_id = ${span.employeeId} AND deleted_at IS NULL
      AND id <> ${span.shiftId} AND ${otherEndsAfterStart}${endsBefore}))`;
}

export const dayLocked = (date: string): ProblemError => conflict("DAY_LOCKED", `${date} is locked for this location's timesheets.`);

export const timesheetApproved = (dates: string): ProblemError =>
  conflict("TIMESHEET_APPROVED", `The staff member's timesheet for ${dates} is approved: withdraw the approval first.`);

export const shiftOverlap = (): ProblemError =>
  conflict("SHIFT_OVERLAP", "The staff member already has a shift that overlaps these times.");

export const shiftChanged = (): ProblemError =>
  conflict("SHIFT_CHANGED", "The shift was changed or deleted by another request meanwhile; read it again and retry.");

const datesOf = (days: readonly DayAtLocation[]) => [...new Set(days.map((d) => d.date))].join(" or ");

/** DAY_LOCKED naming the days the lock guard checked. */
const dayLockedOn = (days: readonly DayAtLocation[]) => dayLocked(datesOf(days));

/** The days a write's guards checked, and where to read which freeze refused it. */
export interface GuardedDays {
  db: Database;
  organizationId: string;
  days: readonly DayAtLocation[];
}

/** PAY_PERIOD_CLOSED naming the closed period that froze one of the days, else TIMESHEET_APPROVED naming them. */
const payFrozenOn = async ({ db, organizationId, days }: GuardedDays) =>
  (await periodFreezing(
    db,
    organizationId,
    days.map((d) => ({ first: d.date, last: d.through ?? d.date })),
  )) ?? timesheetApproved(datesOf(days));

/** shifts.organization_id: NULL when one of the days is locked. */
export const shiftDayUnlocked = guard({ column: shifts.organizationId, problem: dayLockedOn, sql: unlessLocked });

/** shifts.location_id: NULL when the staff member's timesheet is approved, or its pay period closed, on one of the dates. */
export const shiftPayUnfrozen = guard({ column: shifts.locationId, problem: payFrozenOn, sql: unlessFrozen });

/** shifts.employee_id: NULL when another live shift of the staff member overlaps. */
export const noShiftOverlap = guard({ column: shifts.employeeId, problem: shiftOverlap, sql: unlessOverlapping });

/** A punch's event row (shift_events.organization_id): NULL when the shift's day got locked. */
export const eventDayUnlocked = guard({ column: shiftEvents.organizationId, problem: dayLockedOn, sql: unlessLocked });

/** A punch's event row (shift_events.verdict): NULL when the staff member's pay got frozen on the shift's date. */
export const eventPayUnfrozen = guard({ column: shiftEvents.verdict, problem: payFrozenOn, sql: unlessFrozen });

/** The refusals of a shift row's guards; `days` are the days its lock and pay guards checked, named in the detail. */
export const shiftGuardProblems = (guarded: GuardedDays): ConstraintProblems => [
  shiftDayUnlocked.about(guarded.days),
  noShiftOverlap,
  shiftPayUnfrozen.about(guarded),
];

export interface CostCodeCharge {
  organizationId: string;
  employeeId: string;
  /** The shift's role id, the column's own value when the guard holds. */
  roleId: string;
  costCodeId: string;
}

/**
 * `roleId`, or NULL unless the cost code is a live, active code of the organization that the staff member may
 * charge: assigned to everyone, or to them (features/cost-codes).
 */
const ifCostCodeAssigned = ({ organizationId, employeeId, roleId, costCodeId }: CostCodeCharge): SQL =>
  sql`(SELECT ${roleId} WHERE EXISTS (SELECT 1 FROM cost_codes cc WHERE cc.id = ${costCodeId}
    AND cc.organization_id = ${organizationId} AND cc.active = 1 AND cc.deleted_at IS NULL
    AND (cc.assign_all = 1 OR EXISTS (SELECT 1 FROM cost_code_assignments a
      WHERE a.cost_code_id = cc.id AND a.employee_id = ${employeeId}))))`;

/** shifts.role_id: NULL when the shift's cost code is not one its staff member may charge. */
export const costCodeAssigned = guard({ column: shifts.roleId, problem: costCodeNotAssigned, sql: ifCostCodeAssigned });

/** The role_id value of a shift row written with `costCodeId`: guarded when it names a code, else the role as is. */
export const chargedRole = (charge: Omit<CostCodeCharge, "costCodeId"> & { costCodeId: string | null }): SQL | string =>
  charge.costCodeId === null ? charge.roleId : costCodeAssigned.sql({ ...charge, costCodeId: charge.costCodeId });
