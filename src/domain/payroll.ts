import { type CsvColumn, csvHeader, csvRecord } from "./csv";
import { minorUnitsOf } from "./currency-minor-units";
import { amountToCents, centsToAmount, hoursOfMinutes, MAX_MINOR_UNITS, roundTo } from "./pay-amounts";
import type { PayTotals, Workweek } from "./pay-lines";

/** What a re-close compares of a workweek (a payroll closed before its overtime figures were recorded has these). */
export type WorkweekFigures = Pick<Workweek, "startDate" | "endDate" | "regularRate" | "minutes" | "straightTimePay">;

export interface EmployeeTotals extends PayTotals {
  employeeId: string;
  /** Absent in a payroll closed before workweeks were recorded: its weeks are then not compared. */
  workweeks?: readonly WorkweekFigures[];
}

/** A workweek's signed differences: its regular rate, minutes worked and straight-time pay (a missing side is 0). */
export interface WorkweekAdjustment {
  startDate: string;
  endDate: string;
  regularRate: number;
  minutes: number;
  straightTimePay: number;
}

export interface PayrollAdjustment extends PayTotals {
  employeeId: string;
  workweeks: WorkweekAdjustment[];
}

const cents = (amount: number | null) => amountToCents(amount ?? 0);

/** The workweeks whose regular rate, minutes or straight-time pay changed, by start date. */
function workweekAdjustments(
  previous: readonly WorkweekFigures[] | undefined,
  current: readonly WorkweekFigures[] | undefined,
): WorkweekAdjustment[] {
  if (!previous || !current) return [];
  const key = (w: WorkweekFigures) => `${w.startDate}/${w.endDate}`;
  const before = new Map(previous.map((w) => [key(w), w]));
  const after = new Map(current.map((w) => [key(w), w]));
  const changed: WorkweekAdjustment[] = [];
  for (const id of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const was = before.get(id);
    const is = after.get(id);
    const week = (is ?? was)!;
    const difference = {
      startDate: week.startDate,
      endDate: week.endDate,
      regularRate: roundTo((is?.regularRate ?? 0) - (was?.regularRate ?? 0), 4),
      minutes: (is?.minutes ?? 0) - (was?.minutes ?? 0),
      straightTimePay: centsToAmount(cents(is?.straightTimePay ?? null) - cents(was?.straightTimePay ?? null)),
    };
    if (difference.regularRate !== 0 || difference.minutes !== 0 || difference.straightTimePay !== 0) changed.push(difference);
  }
  return changed;
}

const ZERO: EmployeeTotals = {
  employeeId: "",
  regularMinutes: 0,
  overtimeMinutes: 0,
  doubleTimeMinutes: 0,
  penaltyHours: 0,
  timeOffHours: 0,
  grossPay: 0,
};

/**
 * What a new close changed against the previous version, per employee: each figure the signed difference
 * (current − previous; an employee missing on one side counts as zeros there), and each workweek whose regular
 * rate, minutes or straight-time pay changed. Employees with no difference are left out. Ordered by employeeId.
 */
export function payrollAdjustments(previous: readonly EmployeeTotals[], current: readonly EmployeeTotals[]): PayrollAdjustment[] {
  const before = new Map(previous.map((e) => [e.employeeId, e]));
  const after = new Map(current.map((e) => [e.employeeId, e]));
  const ids = [...new Set([...before.keys(), ...after.keys()])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const adjustments: PayrollAdjustment[] = [];
  for (const employeeId of ids) {
    const was: EmployeeTotals = before.get(employeeId) ?? ZERO;
    const is: EmployeeTotals = after.get(employeeId) ?? ZERO;
    const difference = {
      employeeId,
      regularMinutes: is.regularMinutes - was.regularMinutes,
      overtimeMinutes: is.overtimeMinutes - was.overtimeMinutes,
      doubleTimeMinutes: is.doubleTimeMinutes - was.doubleTimeMinutes,
      penaltyHours: roundTo(is.penaltyHours - was.penaltyHours, 4),
      timeOffHours: roundTo(is.timeOffHours - was.timeOffHours, 4),
      grossPay: centsToAmount(cents(is.grossPay) - cents(was.grossPay)),
    };
    const workweeks = workweekAdjustments(before.has(employeeId) ? was.workweeks : [], after.has(employeeId) ? is.workweeks : []);
    const { employeeId: _, ...figures } = difference;
    if (workweeks.length || Object.values(figures).some((value) => value !== 0)) adjustments.push({ ...difference, workweeks });
  }
  return adjustments;
}

/** One payroll CSV row: an employee's totals with who they are. */
export interface PayrollRow extends EmployeeTotals {
  externalId: string | null;
  externalPayrollId: string | null;
  name: string;
  currencyCode: string;
}

export const PAYROLL_COLUMNS: readonly CsvColumn<PayrollRow>[] = [
  { header: "employeeId", value: (r) => r.employeeId },
  { header: "externalId", value: (r) => r.externalId, text: true },
  { header: "externalPayrollId", value: (r) => r.externalPayrollId, text: true },
  { header: "name", value: (r) => r.name, text: true },
  { header: "regularHours", value: (r) => hoursOfMinutes(r.regularMinutes) },
  { header: "overtimeHours", value: (r) => hoursOfMinutes(r.overtimeMinutes) },
  { header: "doubleTimeHours", value: (r) => hoursOfMinutes(r.doubleTimeMinutes) },
  { header: "penaltyHours", value: (r) => r.penaltyHours },
  { header: "timeOffHours", value: (r) => r.timeOffHours },
  // As many decimals as the currency has (USD 2, JPY 0, BHD 3): BD 9.851 is not 9.85.
  { header: "grossPay", value: (r) => r.grossPay.toFixed(Math.min(MAX_MINOR_UNITS, minorUnitsOf(r.currencyCode))) },
  { header: "currencyCode", value: (r) => r.currencyCode },
];

/** The payroll CSV (RFC 4180, header first), one row per employee in the order given. */
export const payrollCsv = (rows: readonly PayrollRow[]): string =>
  csvHeader(PAYROLL_COLUMNS) + rows.map((row) => csvRecord(PAYROLL_COLUMNS, row)).join("");
