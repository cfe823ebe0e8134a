import { amountToCents, centsToAmount, lineAmountCents, roundTo } from "./pay-amounts";
import type { PayWarning } from "./pay-wage-warnings";

/* Pay lines and their totals: the shapes pay answers, and sums kept in cents so lines add up to grossPay. */

export type PayLineKind =
  | "REGULAR"
  | "OVERTIME"
  | "DOUBLE_TIME"
  | "MEAL_PENALTY"
  | "TIME_OFF"
  | "PREDICTABILITY"
  | "REST"
  /** An award's penalty rate or loading: the extra part of hours already paid as REGULAR or OVERTIME (not hours again). */
  | "PENALTY"
  /** A public holiday's extra part, as PENALTY. */
  | "HOLIDAY"
  /** The unworked minutes of an award's minimum engagement: paid, not worked. */
  | "MINIMUM_ENGAGEMENT"
  /** New York's spread-of-hours pay: an hour at the minimum wage for a workday spanning more than 10 hours. */
  | "SPREAD_OF_HOURS"
  /** California's split-shift premium: an hour at the minimum wage, less what the day's wages exceed it. */
  | "SPLIT_SHIFT"
  /** California's reporting-time pay: the minutes short of half the scheduled shift (2 to 4 hours), paid, not worked. */
  | "REPORTING_TIME"
  /** New York's call-in pay: the minutes short of 4 hours (or the scheduled shift if shorter), paid, not worked. */
  | "CALL_IN";

/**
 * An award's lines: the extra part of minutes already paid (PENALTY, HOLIDAY) or unworked minutes paid
 * (MINIMUM_ENGAGEMENT) — pay, not hours worked: no minute total counts them; they add to grossPay.
 */
export const AWARD_KINDS: readonly PayLineKind[] = [
  "PENALTY",
  "HOLIDAY",
  "MINIMUM_ENGAGEMENT",
  "SPREAD_OF_HOURS",
  "SPLIT_SHIFT",
  "REPORTING_TIME",
  "CALL_IN",
];

/** Fair Workweek premiums: pay, not hours worked (no minute total counts them; they add to grossPay). */
export const PREMIUM_KINDS: readonly PayLineKind[] = ["PREDICTABILITY", "REST"];
export type PayLineRule =
  | "DAILY_OVERTIME"
  | "DAILY_DOUBLE_TIME"
  | "WEEKLY_OVERTIME"
  /** A preset's second weekly band (FR_STATUTORY: from the 44th hour). */
  | "WEEKLY_DOUBLE_TIME"
  | "SEVENTH_DAY_OVERTIME"
  | "SEVENTH_DAY_DOUBLE_TIME"
  /** A preset's consecutive hours of one shift past its limit, across workdays (US_CO: 12 consecutive hours). */
  | "CONSECUTIVE_OVERTIME"
  | "MEAL_BREAK"
  /** A Fair Workweek pack's rule, `<PACK>.<RULE>` (e.g. NYC_FAST_FOOD.CHANGE_7_TO_13_DAYS_ADDED). */
  | `${string}.${string}`;

export interface PayLine {
  date: string;
  /** Null for meal penalties and time off. */
  shiftId: string | null;
  kind: PayLineKind;
  minutes: number;
  hours: number;
  rate: number | null;
  amount: number | null;
  /** The rule that made the line; null for regular time and time off. */
  rule: PayLineRule | null;
  /** The set whose rules made the line; null where no set governs, and for time off. */
  ruleSetId: string | null;
  /**
   * OVERTIME and DOUBLE_TIME only: the part of the amount FLSA section 7 requires (pay-qualified-overtime.ts), and
   * the line's minutes over 40 hours in the FLSA workweek it is paid on. Null without a wage.
   */
  qualifiedOvertimePremium?: number | null;
  qualifiedOvertimeMinutes?: number;
  /** TIME_OFF lines: the type of the policy they were taken on (Vacation, Sick, …). */
  policyType?: string;
}

export interface PayTotals {
  regularMinutes: number;
  overtimeMinutes: number;
  doubleTimeMinutes: number;
  penaltyHours: number;
  timeOffHours: number;
  grossPay: number;
}

/**
 * One workweek of an employee, whole even when the range cuts it: its regular rate (29 CFR 778.109/778.115: the
 * straight-time pay of every hour worked at its own wage ÷ the hours worked; null without an hourly wage), the
 * minutes worked in it and their straight-time pay (to the cent). Time off and penalties are not hours worked.
 */
export interface Workweek {
  startDate: string;
  endDate: string;
  regularRate: number | null;
  minutes: number;
  straightTimePay: number | null;
  /** Σ of its OVERTIME and DOUBLE_TIME lines' pay over straight time (amount − minutes at their own wage). */
  overtimePremium: number | null;
  /** Σ of their qualified overtime premiums, and the minutes over 40 hours they were paid on. */
  qualifiedOvertimePremium: number | null;
  qualifiedOvertimeMinutes: number;
}

export interface EmployeePay extends PayTotals {
  employeeId: string;
  /** Σ of the answered lines' qualifiedOvertimePremium, and of their qualifiedOvertimeMinutes. */
  qualifiedOvertimePremium: number;
  qualifiedOvertimeMinutes: number;
  workweeks: Workweek[];
  /** Shifts paid below their award's minimum (pay-wage-warnings.ts); absent when there is none. */
  warnings?: PayWarning[];
  lines: PayLine[];
}

export interface PayComputation {
  startDate: string;
  endDate: string;
  employees: EmployeePay[];
  totals: PayTotals;
}

export interface LineWithCents {
  line: PayLine;
  cents: number | null;
}

/**
 * A line from its minutes and its rate: amount = minutes ÷ 60 × `basis` (the exact rate; by default the rate as
 * shown), rounded to the currency's minor units (pay-amounts.ts).
 */
export function makeLine(
  fields: Omit<PayLine, "hours" | "rate" | "amount">,
  hours: number,
  rate: number | null,
  basis: number | null = rate,
  minorUnits = 2,
): LineWithCents {
  const cents = lineAmountCents(fields.minutes, basis, minorUnits);
  return { line: { ...fields, hours, rate, amount: cents === null ? null : centsToAmount(cents) }, cents };
}

const ZERO: PayTotals = { regularMinutes: 0, overtimeMinutes: 0, doubleTimeMinutes: 0, penaltyHours: 0, timeOffHours: 0, grossPay: 0 };

/** Totals of lines; grossPay sums the amounts there are (lines without an hourly wage add nothing). */
export function totalsOf(lines: readonly LineWithCents[]): PayTotals {
  const totals = { ...ZERO };
  let cents = 0;
  for (const { line, cents: lineCents } of lines) {
    if (line.kind === "REGULAR") totals.regularMinutes += line.minutes;
    else if (line.kind === "OVERTIME") totals.overtimeMinutes += line.minutes;
    else if (line.kind === "DOUBLE_TIME") totals.doubleTimeMinutes += line.minutes;
    else if (line.kind === "MEAL_PENALTY") totals.penaltyHours += line.hours;
    else if (line.kind === "TIME_OFF") totals.timeOffHours += line.hours;
    cents += lineCents ?? 0;
  }
  return {
    ...totals,
    penaltyHours: roundTo(totals.penaltyHours, 4),
    timeOffHours: roundTo(totals.timeOffHours, 4),
    grossPay: centsToAmount(cents),
  };
}

/** Sums employees' totals (grossPay through cents, so it equals the sum of every line's amount). */
export function sumPayTotals(items: readonly PayTotals[]): PayTotals {
  const sum = startPayTotalsSum();
  for (const item of items) sum.add(item);
  return sum.total();
}

/** A sum of PayTotals part way: the unrounded figures, the gross pay in cents, how many were added. */
export interface PayTotalsSumState {
  totals: PayTotals;
  cents: number;
  count: number;
}

/**
 * sumPayTotals one item at a time, in their order (the same figures, the same float additions), for items that are
 * never all in memory at once: a close job's employees, read part by part.
 */
export function startPayTotalsSum(from?: PayTotalsSumState) {
  const totals = { ...(from?.totals ?? ZERO) };
  let cents = from?.cents ?? 0;
  let count = from?.count ?? 0;
  return {
    /** The sum so far (JSON-safe: a close job carries it from one step to the next), to go on from. */
    state: (): PayTotalsSumState => ({ totals: { ...totals }, cents, count }),
    add(item: PayTotals) {
      totals.regularMinutes += item.regularMinutes;
      totals.overtimeMinutes += item.overtimeMinutes;
      totals.doubleTimeMinutes += item.doubleTimeMinutes;
      totals.penaltyHours += item.penaltyHours;
      totals.timeOffHours += item.timeOffHours;
      cents += amountToCents(item.grossPay);
      count++;
    },
    /** How many items were added. */
    count: () => count,
    total: (): PayTotals => ({
      ...totals,
      penaltyHours: roundTo(totals.penaltyHours, 4),
      timeOffHours: roundTo(totals.timeOffHours, 4),
      grossPay: centsToAmount(cents),
    }),
  };
}

/** Merges two date-ordered line lists by date, shift lines before time off on the same date. */
export function mergeByDate<T extends LineWithCents>(a: readonly T[], b: readonly T[]): T[] {
  const merged: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]!.line.date <= b[j]!.line.date)) merged.push(a[i++]!);
    else merged.push(b[j++]!);
  }
  return merged;
}
