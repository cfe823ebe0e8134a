import type { Database } from "@/data/client";
import { type PayFilter, readPayInputsPage } from "@/data/pay/pay-inputs.data";
import { MAX_PAY_RANGE_DAYS } from "@/data/pay/pay-lines.data";
import { calendarRangeProblem } from "@/domain/calendar-range";
import { laborCostAccumulator, parseGroupBy } from "@/domain/labor-cost";
import { computeChargedPay } from "@/domain/pay-classification";
import { invalidField } from "@/problems/problem";

/** Staff members a page reads (pay lines' largest page). */
export const LABOR_COST_PAGE = 500;
/** Pages one answer reads: each is two round trips of at most 3 + 2 × ⌈500 ÷ 90⌉ = 15 queries, far within D1's 1,000. */
export const MAX_LABOR_COST_PAGES = 40;

/**
 * GET /timesheets/labor-cost: pay computed page by page of employees (readPayInputsPage, as pay lines page them,
 * with each shift's role and cost code), each page's charged lines added to the groups, then dropped.
 */
export async function readLaborCost(db: Database, filter: PayFilter, groupByText: string | undefined) {
  const { startDate, endDate } = filter;
  const rangeProblem = calendarRangeProblem(startDate, endDate, MAX_PAY_RANGE_DAYS);
  if (rangeProblem) throw invalidField(rangeProblem.path, rangeProblem.message);
  const parsed = parseGroupBy(groupByText);
  if ("invalid" in parsed) {
    throw invalidField("groupBy", `unknown key "${parsed.invalid}": any of date, location, role, costCode, employee`);
  }
  const accumulator = laborCostAccumulator(parsed.keys);
  let afterId: string | undefined;
  for (let page = 0; ; page++) {
    if (page === MAX_LABOR_COST_PAGES) {
      throw invalidField(
        "locationId",
        `more than ${MAX_LABOR_COST_PAGES * LABOR_COST_PAGE} staff members: narrow by location or staff member`,
      );
    }
    const { inputs, employeeIds, more, charges } = await readPayInputsPage(
      db,
      filter,
      { limit: LABOR_COST_PAGE, afterId },
      { charges: true },
    );
    for (const employee of computeChargedPay({ startDate, endDate, ...inputs })) {
      accumulator.add(employee.pay.employeeId, employee.lines, charges);
    }
    if (!more) break;
    afterId = employeeIds[employeeIds.length - 1];
  }
  return { startDate, endDate, groupBy: parsed.keys, ...accumulator.result() };
}
