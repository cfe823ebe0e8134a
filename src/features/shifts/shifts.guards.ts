import { shiftAudits, shifts } from "@db/schema";
import { type SQL, sql } from "drizzle-orm";
import { type ConstraintProblems, whenNull } from "@/data/write/constraint-problems";
import { conflict, type ProblemError } from "@/problems/problem";

/**
 * Invariants of shift writes are checked by the write itself, not by a read before it: each guard is the value
 * of a NOT NULL column that turns NULL when the invariant would break, so the statement — and the D1 batch it
 * is in — fails as a whole, and the constraint's name says which invariant it was.
 *   shifts.organization_id NULL → the business date is locked (DAY_LOCKED)
 *   shifts.employee_id NULL     → the staff member has an overlapping shift (SHIFT_OVERLAP)
 *   shifts.location_id NULL     → the staff member's timesheet there is approved or its pay period closed (TIMESHEET_APPROVED)
 *   shift_audits.shift_id NULL  → the shift changed since it was read (SHIFT_CHANGED)
 * Guards only compare with bound values, so they read the same in INSERT and UPDATE statements.
 */

export interface DayAtLocation {
  locationId: string;
  date: string;
}

const lockedAnyOf = (days: readonly DayAtLocation[]): SQL =>
  sql.join(
    days.map((d) => sql`EXISTS (SELECT 1 FROM locked_days WHERE location_id = ${d.locationId} AND date = ${d.date})`),
    sql` OR `,
  );

/** `organizationId`, or NULL when any of the days is locked. */
export const unlessLocked = (organizationId: string, days: readonly DayAtLocation[]): SQL =>
  sql`(SELECT ${organizationId} WHERE NOT (${lockedAnyOf(days)}))`;

/**
 * True while the employee's timesheet of the pay period holding `date` is approved, or that period is closed
 * (features/pay). `employee` is a bound id, or the updated row's own column (`sql\`shifts.employee_id\``).
 */
const frozenOn = (organizationId: string, employee: SQL | string, date: string): SQL =>
  sql`(EXISTS (SELECT 1 FROM timesheet_approvals WHERE employee_id = ${employee} AND period_end_date >= ${date}
      AND period_start_date <= ${date} AND organization_id = ${organizationId})
    OR EXISTS (SELECT 1 FROM pay_periods WHERE organization_id = ${organizationId} AND end_date >= ${date}
      AND start_date <= ${date} AND status = 'CLOSED'))`;

/** `value`, or NULL when the employee's pay is frozen on any of the dates. */
export const unlessFrozen = (value: string, organizationId: string, employee: SQL | string, dates: readonly string[]): SQL =>
  sql`(SELECT ${value} WHERE NOT (${sql.join(
    [...new Set(dates)].map((date) => frozenOn(organizationId, employee, date)),
    sql` OR `,
  )}))`;

export interface ShiftSpan {
  organizationId: string;
  employeeId: string;
  /** The shift being written, which never overlaps itself. */
  shiftId: string;
  start: Date;
  end: Date | null;
}

/**
 * `employeeId`, or NULL when another live shift of the staff member overlaps [start, end): each starts before
 * the other ends, an open shift running on for ever (domain/shift-overlap's rule). An open span meets another
 * open shift only where the one-open-shift index refuses it anyway, so that case is left to the index
 * (SHIFT_ALREADY_OPEN for a racing clock-in). Served by the staff member's index (`+organization_id` keeps
 * the planner off the organization's).
 */
export function unlessOverlapping(span: ShiftSpan): SQL {
  const start = span.start.getTime();
  const otherEndsAfterStart = span.end ? sql`(end_at IS NULL OR end_at > ${start})` : sql`end_at > ${start}`;
  const endsBefore = span.end ? sql` AND start_at < ${span.end.getTime()}` : sql``;
  return sql`(SELECT ${span.employeeId} WHERE NOT EXISTS (SELECT 1 FROM shifts
    WHERE +organization_id = ${span.organizationId} AND employee_id = ${span.employeeId} AND deleted_at IS NULL
      AND id <> ${span.shiftId} AND ${otherEndsAfterStart}${endsBefore}))`;
}

export const dayLocked = (date: string): ProblemError => conflict("DAY_LOCKED", `${date} is locked for this location's timesheets.`);

export const timesheetApproved = (dates: string): ProblemError =>
  conflict(
    "TIMESHEET_APPROVED",
    `The staff member's timesheet for ${dates} is approved, or its pay period is closed: withdraw the approval or reopen the period first.`,
  );

export const shiftOverlap = (): ProblemError =>
  conflict("SHIFT_OVERLAP", "The staff member already has a shift that overlaps these times.");

export const shiftChanged = (): ProblemError =>
  conflict("SHIFT_CHANGED", "The shift was changed or deleted by another request meanwhile; read it again and retry.");

const datesOf = (days: readonly DayAtLocation[]) => [...new Set(days.map((d) => d.date))].join(" or ");

/** The problem each guard's failure means; `days` are the dates the lock guard checked, named in the detail. */
export const guardProblems = (days: readonly DayAtLocation[]): ConstraintProblems => [
  whenNull(shifts.organizationId, () => dayLocked(datesOf(days))),
  whenNull(shifts.employeeId, shiftOverlap),
  whenNull(shifts.locationId, () => timesheetApproved(datesOf(days))),
  whenNull(shiftAudits.shiftId, shiftChanged),
];
