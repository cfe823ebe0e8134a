import type { Database } from "@/data/client";
import { calendarRangeProblem } from "@/domain/calendar-range";
import { computePay, type EmployeePay } from "@/domain/pay-classification";
import { invalidField } from "@/problems/problem";
import { type PayEmployee, type PayFilter, readPayInputs } from "./pay-inputs.data";

/** The longest range one pay read computes: a quarter, so a read stays within one isolate's CPU and memory. */
export const MAX_PAY_RANGE_DAYS = 93;

/** An employee's pay with who they are, as payroll systems key them. */
export const employeePayWire = (pay: EmployeePay, employees: ReadonlyMap<string, PayEmployee>) => {
  const employee = employees.get(pay.employeeId);
  const { employeeId, lines, ...totals } = pay;
  return {
    employeeId,
    externalId: employee?.externalId ?? null,
    externalPayrollId: employee?.externalPayrollId ?? null,
    currencyCode: employee?.currencyCode ?? "USD",
    ...totals,
    lines,
  };
};

/** GET /timesheets/pay: one round trip (payInputStatements), then pure classification. */
export async function payLines(db: Database, filter: PayFilter) {
  const { startDate, endDate } = filter;
  const rangeProblem = calendarRangeProblem(startDate, endDate, MAX_PAY_RANGE_DAYS);
  if (rangeProblem) throw invalidField(rangeProblem.path, rangeProblem.message);
  const inputs = await readPayInputs(db, filter);
  const pay = computePay({ startDate, endDate, ...inputs });
  return { startDate, endDate, employees: pay.employees.map((e) => employeePayWire(e, inputs.employees)), totals: pay.totals };
}
