import { type CsvColumn, csvHeader, csvRecord } from "./csv";
import { hoursOfMinutes, roundTo } from "./pay-amounts";
import type { PayTotals } from "./pay-lines";

export interface EmployeeTotals extends PayTotals {
  employeeId: string;
}

export type PayrollAdjustment = EmployeeTotals;

const ZERO: PayTotals = { regularMinutes: 0, overtimeMinutes: 0, doubleTimeMinutes: 0, penaltyHours: 0, timeOffHours: 0, grossPay: 0 };

/**
 * What a new close changed against the previous version, per employee: each figure the signed difference
 * (current − previous; an employee missing on one side counts as zeros there). Employees whose figures are all
 * unchanged are left out. Ordered by employeeId.
 */
export function payrollAdjustments(previous: readonly EmployeeTotals[], current: readonly EmployeeTotals[]): PayrollAdjustment[] {
  const before = new Map(previous.map((e) => [e.employeeId, e]));
  const after = new Map(current.map((e) => [e.employeeId, e]));
  const ids = [...new Set([...before.keys(), ...after.keys()])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const adjustments: PayrollAdjustment[] = [];
  for (const employeeId of ids) {
    const was = before.get(employeeId) ?? ZERO;
    const is = after.get(employeeId) ?? ZERO;
    const difference = {
      employeeId,
      regularMinutes: is.regularMinutes - was.regularMinutes,
      overtimeMinutes: is.overtimeMinutes - was.overtimeMinutes,
      doubleTimeMinutes: is.doubleTimeMinutes - was.doubleTimeMinutes,
      penaltyHours: roundTo(is.penaltyHours - was.penaltyHours, 4),
      timeOffHours: roundTo(is.timeOffHours - was.timeOffHours, 4),
      grossPay: (Math.round(is.grossPay * 100) - Math.round(was.grossPay * 100)) / 100,
    };
    const { employeeId: _, ...figures } = difference;
    if (Object.values(figures).some((value) => value !== 0)) adjustments.push(difference);
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
  { header: "grossPay", value: (r) => r.grossPay.toFixed(2) },
  { header: "currencyCode", value: (r) => r.currencyCode },
];

/** The payroll CSV (RFC 4180, header first), one row per employee in the order given. */
export const payrollCsv = (rows: readonly PayrollRow[]): string =>
  csvHeader(PAYROLL_COLUMNS) + rows.map((row) => csvRecord(PAYROLL_COLUMNS, row)).join("");
