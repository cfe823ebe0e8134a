import type { Database } from "@/data/client";
import { decodeKeyCursor, encodeKeyCursor } from "@/data/key-cursor";
import { calendarRangeProblem } from "@/domain/calendar-range";
import { type EmployeePay, type PayTotals, payByEmployee, sumPayTotals } from "@/domain/pay-classification";
import { invalidField } from "@/problems/problem";
import { type PayEmployee, type PayFilter, readPayInputsPage } from "./pay-inputs.data";

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

/** A pay lines cursor: the range it was handed out for and the last employee id of its page. */
const CURSOR = /^(\d{4}-\d{2}-\d{2})\|(\d{4}-\d{2}-\d{2})\|([0-9A-Za-z-]{1,64})$/;

export const payLinesCursor = (filter: PayFilter, lastEmployeeId: string) =>
  encodeKeyCursor(filter.startDate, filter.endDate, lastEmployeeId);

/** The employee id a cursor pages after; one handed out for another range is a 400 naming `cursor`. */
function afterIdOf(filter: PayFilter, cursor: string | undefined) {
  if (cursor === undefined) return undefined;
  const [startDate, endDate, afterId] = decodeKeyCursor(cursor, CURSOR);
  if (startDate !== filter.startDate || endDate !== filter.endDate) {
    throw invalidField("cursor", "a cursor of another range: follow the Link of this range's previous page");
  }
  return afterId;
}

/**
 * GET /timesheets/pay: one page of employees in id order, in two round trips (readPayInputsPage), then pure
 * classification of theirs alone; `totals` are the page's. `next` is the cursor of the next page, if any. The
 * answer comes as the pieces of its JSON text, one employee at a time (`pieces`, computed as they are pulled):
 * together exactly JSON.stringify({ startDate, endDate, employees, totals }), while only one employee's lines are
 * held at a time.
 */
export async function payLines(db: Database, filter: PayFilter, page: { limit: number; cursor?: string }) {
  const { startDate, endDate } = filter;
  const rangeProblem = calendarRangeProblem(startDate, endDate, MAX_PAY_RANGE_DAYS);
  if (rangeProblem) throw invalidField(rangeProblem.path, rangeProblem.message);
  const afterId = afterIdOf(filter, page.cursor);
  const { inputs, employeeIds, more } = await readPayInputsPage(db, filter, { limit: page.limit, afterId });
  return { pieces: payLinesJson({ startDate, endDate, ...inputs }), next: more ? payLinesCursor(filter, employeeIds.at(-1)!) : null };
}

/** The pay lines' JSON text, employee by employee; the page's totals (sumPayTotals of theirs) close it. */
function* payLinesJson(input: Parameters<typeof payByEmployee>[0] & { employees: ReadonlyMap<string, PayEmployee> }) {
  yield `{"startDate":${JSON.stringify(input.startDate)},"endDate":${JSON.stringify(input.endDate)},"employees":[`;
  const totals: PayTotals[] = [];
  for (const pay of payByEmployee(input)) {
    const { regularMinutes, overtimeMinutes, doubleTimeMinutes, penaltyHours, timeOffHours, grossPay } = pay;
    yield `${totals.length === 0 ? "" : ","}${JSON.stringify(employeePayWire(pay, input.employees))}`;
    totals.push({ regularMinutes, overtimeMinutes, doubleTimeMinutes, penaltyHours, timeOffHours, grossPay });
  }
  yield `],"totals":${JSON.stringify(sumPayTotals(totals))}}`;
}
