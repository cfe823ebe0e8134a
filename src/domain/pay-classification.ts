import { addDays } from "./local-time";
import { centsToAmount, hoursOfMinutes, lineRate, roundHalfAwayFromZero } from "./pay-amounts";
import {
  type EmployeePay,
  type LineWithCents,
  makeLine,
  mergeByDate,
  type PayComputation,
  type PayLineKind,
  type PayLineRule,
  sumPayTotals,
  totalsOf,
} from "./pay-lines";

export type { EmployeePay, PayComputation, PayLine, PayLineKind, PayLineRule, PayTotals } from "./pay-lines";
export { sumPayTotals } from "./pay-lines";

import { type GoverningSet, governingRuleSets, type MealBreakRule, type PayRuleSet, type PunchRounding } from "./pay-rules";
import { workweekStart } from "./pay-workweek";
import { type BreakSpan, shiftTotals } from "./shift-totals";

/** A shift as stored, with its times (and its breaks') as local wall clock readings written with Z. */
export interface PayShift {
  id: string;
  employeeId: string;
  locationId: string;
  /** The local date the shift started on: the workday it counts on, whole, even when it runs past midnight. */
  businessDate: string;
  startTime: Date;
  /** Null while clocked in: an open shift is not paid until it is closed. */
  endTime: Date | null;
  /** Null when the employee is not paid by the hour (salary): lines then carry minutes but no rate or amount. */
  hourlyWage: number | null;
  breaks: readonly BreakSpan[];
}

/** Approved time off on a paid policy: its hours on one date. */
export interface PaidTimeOffDay {
  employeeId: string;
  date: string;
  hours: number;
  hourlyWage: number | null;
}

const MINUTE_MS = 60_000;

/** A punch (a local wall-clock reading) rounded for pay; increment 0 leaves it as punched, NEAREST rounds ties up. */
export function roundPunch(wallClock: Date, rounding: PunchRounding): Date {
  if (rounding.incrementMinutes === 0) return wallClock;
  const unit = rounding.incrementMinutes * MINUTE_MS;
  const steps = wallClock.getTime() / unit;
  const rounded = rounding.mode === "UP" ? Math.ceil(steps) : rounding.mode === "DOWN" ? Math.floor(steps) : Math.round(steps);
  return new Date(rounded * unit);
}

interface PreparedShift {
  shift: PayShift & { endTime: Date };
  governing: GoverningSet;
  start: Date;
  end: Date;
  payable: number;
}

/** A closed shift's start and end rounded under its set, and its payable minutes between them. */
function prepare(shift: PayShift & { endTime: Date }, governing: GoverningSet): PreparedShift {
  const { rounding } = governing.rules;
  const start = roundPunch(shift.startTime, rounding);
  const roundedEnd = roundPunch(shift.endTime, rounding);
  const end = roundedEnd < start ? start : roundedEnd;
  return { shift, governing, start, end, payable: shiftTotals({ start, end, breaks: shift.breaks }).payableDuration };
}

/** Payable minutes of a closed shift for pay: after its punches are rounded under its rules. */
export const payableMinutesForPay = (shift: PayShift & { endTime: Date }, governing: GoverningSet): number =>
  prepare(shift, governing).payable;

/**
 * The shift during which a workday passed `afterMinutes` of work without a qualifying meal break, or null. A meal
 * break qualifies when it is unpaid, taken (automatic deductions are not), at least `minimumMinutes` long, and
 * starts while work so far is at most `afterMinutes`; the time between two of the day's shifts counts as such a break.
 */
function mealPenaltyShift(day: readonly PreparedShift[], meal: MealBreakRule): PreparedShift | null {
  let workedBefore = 0;
  let crossing: PreparedShift | null = null;
  for (const [index, prepared] of day.entries()) {
    // Clocking out and back in is a break too (how many take their meal).
    const previous = day[index - 1];
    const gap = previous ? Math.floor((prepared.start.getTime() - previous.end.getTime()) / MINUTE_MS) : 0;
    if (gap >= meal.minimumMinutes && workedBefore <= meal.afterMinutes) return null;
    const taken = prepared.shift.breaks.filter((b) => !b.automatic);
    for (const b of taken) {
      if (b.paid) continue;
      const breakEnd = b.endTime ?? prepared.end;
      const length = Math.floor((breakEnd.getTime() - b.startTime.getTime()) / MINUTE_MS);
      if (length < meal.minimumMinutes) continue;
      const at = b.startTime < prepared.start ? prepared.start : b.startTime > prepared.end ? prepared.end : b.startTime;
      const workedAtBreak = workedBefore + shiftTotals({ start: prepared.start, end: at, breaks: taken }).payableDuration;
      if (workedAtBreak <= meal.afterMinutes) return null;
    }
    workedBefore += prepared.payable;
    if (!crossing && workedBefore > meal.afterMinutes) crossing = prepared;
  }
  return crossing;
}

/**
 * Whether one employee's workday of closed shifts passed its meal rule's `afterMinutes` of work without a qualifying
 * meal break (as the MEAL_PENALTY line reads it, whatever the penalty's hours): the shift during which the day passed
 * it, and the day's payable minutes beyond it; null when the rule is met or there is none.
 */
export function missedMealBreak(
  day: readonly (PayShift & { endTime: Date })[],
  governing: GoverningSet,
): { shiftId: string; minutesPast: number } | null {
  const meal = governing.rules.mealBreak;
  if (!meal) return null;
  const prepared = [...day].sort((a, b) => a.startTime.getTime() - b.startTime.getTime()).map((shift) => prepare(shift, governing));
  const payable = prepared.reduce((sum, p) => sum + p.payable, 0);
  if (payable <= meal.afterMinutes) return null;
  const crossing = mealPenaltyShift(prepared, meal);
  return crossing && { shiftId: crossing.shift.id, minutesPast: payable - meal.afterMinutes };
}

interface WorkweekState {
  regularMinutes: number;
  lastWorkedDate: string | null;
  consecutiveDays: number;
}

interface Segment {
  kind: PayLineKind;
  rule: PayLineRule | null;
  minutes: number;
}

/** Minutes of [from, to) that fall in [low, high). */
const overlap = (from: number, to: number, low: number, high: number) => Math.max(0, Math.min(to, high) - Math.max(from, low));

/**
 * One shift's minutes, at positions [from, from + minutes) of its workday, split by its set's rules. Regular
 * minutes then meet the weekly threshold against the workweek's regular minutes so far (overtime and double time
 * never count toward it), and the state is advanced.
 */
function classifyShift(from: number, minutes: number, governing: GoverningSet, seventhDay: boolean, week: WorkweekState): Segment[] {
  const rules = governing.rules;
  const to = from + minutes;
  if (seventhDay && rules.seventhConsecutiveDay) {
    return [
      { kind: "OVERTIME", rule: "SEVENTH_DAY_OVERTIME", minutes: overlap(from, to, 0, 480) },
      { kind: "DOUBLE_TIME", rule: "SEVENTH_DAY_DOUBLE_TIME", minutes: overlap(from, to, 480, Infinity) },
    ];
  }
  const doubleFrom = rules.dailyDoubleTimeAfterMinutes ?? Infinity;
  const overtimeFrom = Math.min(rules.dailyOvertimeAfterMinutes ?? Infinity, doubleFrom);
  const regular = overlap(from, to, 0, overtimeFrom);
  const weeklyRoom =
    rules.weeklyOvertimeAfterMinutes === null ? Infinity : Math.max(0, rules.weeklyOvertimeAfterMinutes - week.regularMinutes);
  const keptRegular = Math.min(regular, weeklyRoom);
  week.regularMinutes += keptRegular;
  return [
    { kind: "REGULAR", rule: null, minutes: keptRegular },
    { kind: "OVERTIME", rule: "DAILY_OVERTIME", minutes: overlap(from, to, overtimeFrom, doubleFrom) },
    { kind: "OVERTIME", rule: "WEEKLY_OVERTIME", minutes: regular - keptRegular },
    { kind: "DOUBLE_TIME", rule: "DAILY_DOUBLE_TIME", minutes: overlap(from, to, doubleFrom, Infinity) },
  ];
}

const multiplierOf = (kind: PayLineKind, governing: GoverningSet) =>
  kind === "OVERTIME" ? governing.rules.overtimeMultiplier : kind === "DOUBLE_TIME" ? governing.rules.doubleTimeMultiplier : 1;

/** Lines of one workday: its shifts in start order, then a meal penalty if one is due. */
function dayLines(day: readonly PreparedShift[], date: string, week: WorkweekState): LineWithCents[] {
  const dayPayable = day.reduce((sum, p) => sum + p.payable, 0);
  if (dayPayable > 0) {
    week.consecutiveDays = week.lastWorkedDate === addDays(date, -1) ? week.consecutiveDays + 1 : 1;
    week.lastWorkedDate = date;
  }
  const seventhDay = dayPayable > 0 && week.consecutiveDays >= 7;
  const lines: LineWithCents[] = [];
  let position = 0;
  for (const prepared of day) {
    for (const segment of classifyShift(position, prepared.payable, prepared.governing, seventhDay, week)) {
      if (segment.minutes === 0) continue;
      lines.push(
        makeLine(
          { date, shiftId: prepared.shift.id, ...segment, ruleSetId: prepared.governing.ruleSetId },
          hoursOfMinutes(segment.minutes),
          prepared.shift.hourlyWage,
          multiplierOf(segment.kind, prepared.governing),
        ),
      );
    }
    position += prepared.payable;
  }
  const meal = day[0]!.governing.rules.mealBreak;
  const missed = meal && meal.penaltyHours > 0 && dayPayable > meal.afterMinutes ? mealPenaltyShift(day, meal) : null;
  if (meal && missed) {
    const fields = { date, shiftId: null, kind: "MEAL_PENALTY" as const, rule: "MEAL_BREAK" as const };
    const minutes = Math.round(meal.penaltyHours * 60);
    lines.push(makeLine({ ...fields, minutes, ruleSetId: day[0]!.governing.ruleSetId }, meal.penaltyHours, missed.shift.hourlyWage, 1));
  }
  return lines;
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const compareShifts = (a: PayShift, b: PayShift) =>
  compareText(a.employeeId, b.employeeId) ||
  compareText(a.businessDate, b.businessDate) ||
  a.startTime.getTime() - b.startTime.getTime() ||
  compareText(a.id, b.id);

const isClosed = (shift: PayShift): shift is PayShift & { endTime: Date } => shift.endTime !== null;

/** Every closed shift's lines of one employee, workday by workday in date order, workweeks kept apart. */
function employeeShiftLines(
  shifts: readonly (PayShift & { endTime: Date })[],
  governing: ReturnType<typeof governingRuleSets>,
  endDate: string,
) {
  const weeks = new Map<string, WorkweekState>();
  const lines: LineWithCents[] = [];
  for (let i = 0; i < shifts.length; ) {
    const date = shifts[i]!.businessDate;
    if (date > endDate) break;
    const day: PreparedShift[] = [];
    for (; i < shifts.length && shifts[i]!.businessDate === date; i++) {
      day.push(prepare(shifts[i]!, governing(shifts[i]!.locationId, date)));
    }
    const weekKey = workweekStart(date, day[0]!.governing.rules.workweekStartsOn);
    let week = weeks.get(weekKey);
    if (!week) {
      week = { regularMinutes: 0, lastWorkedDate: null, consecutiveDays: 0 };
      weeks.set(weekKey, week);
    }
    lines.push(...dayLines(day, date, week));
  }
  return lines;
}

function timeOffLine(day: PaidTimeOffDay): LineWithCents {
  const minutes = Math.round(day.hours * 60);
  const fields = { date: day.date, shiftId: null, kind: "TIME_OFF" as const, minutes, rule: null, ruleSetId: null };
  const cents = day.hourlyWage === null ? null : roundHalfAwayFromZero(day.hours * day.hourlyWage * 100);
  return {
    line: { ...fields, hours: day.hours, rate: lineRate(day.hourlyWage, 1), amount: cents === null ? null : centsToAmount(cents) },
    cents,
  };
}

/**
 * Pay lines and totals of every employee for business dates [startDate, endDate]. `shifts` must hold every
 * shift of the workweeks the range touches (read from payReadStartDate(startDate, ruleSets) to endDate; more is
 * harmless): a workweek is computed whole and only the lines dated inside the range are answered, so no figure
 * depends on the window. Open shifts are left out. One sort, then one pass per employee.
 */
export function computePay(input: {
  startDate: string;
  endDate: string;
  shifts: readonly PayShift[];
  timeOff: readonly PaidTimeOffDay[];
  ruleSets: readonly PayRuleSet[];
}): PayComputation {
  const { startDate, endDate } = input;
  const governing = governingRuleSets(input.ruleSets);
  const closed = input.shifts.filter(isClosed).sort(compareShifts);
  const timeOff = input.timeOff
    .filter((d) => d.date >= startDate && d.date <= endDate && d.hours !== 0)
    .sort((a, b) => compareText(a.employeeId, b.employeeId) || compareText(a.date, b.date));
  const employeeIds = [...new Set([...closed.map((s) => s.employeeId), ...timeOff.map((d) => d.employeeId)])].sort(compareText);
  const employees: EmployeePay[] = [];
  let s = 0;
  let t = 0;
  for (const employeeId of employeeIds) {
    const from = s;
    while (s < closed.length && closed[s]!.employeeId === employeeId) s++;
    const fromTimeOff = t;
    while (t < timeOff.length && timeOff[t]!.employeeId === employeeId) t++;
    const shiftLines = employeeShiftLines(closed.slice(from, s), governing, endDate).filter((l) => l.line.date >= startDate);
    const lines = mergeByDate(shiftLines, timeOff.slice(fromTimeOff, t).map(timeOffLine));
    if (lines.length === 0) continue;
    employees.push({ employeeId, ...totalsOf(lines), lines: lines.map((l) => l.line) });
  }
  return { startDate, endDate, employees, totals: sumPayTotals(employees) };
}
