// The SQL our Worker sends to D1 for GET /api/timesheets/labor-cost (src/features/pay/labor-cost.data.ts): pay lines'
// page reads (pay-statements.js) with pages of 500 staff members, whose shifts statement also reads each shift's
// role and cost code. `laborCostTrips` answers the round trips of a request, [sql, values] each, in drizzle's order;
// the labor-cost scenario compares them with a fresh trace of our Worker at every run.
//
// Plain JS with no Worker-only imports: the bench (Node) imports it too.
import { payLinesPageStatements, payLinesStatements, SQL } from "./pay-statements.js";

/** Staff members a page reads (src/features/pay/labor-cost.data.ts's LABOR_COST_PAGE). */
export const LABOR_COST_PAGE = 500;

const CHARGED_SHIFTS = (sql) => sql.replace('"breaks_json" from "shifts"', '"breaks_json", "role_id", "cost_code_id" from "shifts"');

/** The first round trip of a page: the rule sets, the currency and the page's staff members. */
export const laborCostPageRead = (range) => payLinesStatements({ ...range, limit: LABOR_COST_PAGE });

/** The second: the page's shifts (with role and cost code) and time off. */
export const laborCostShiftsRead = (range, ids) =>
  payLinesPageStatements(range, ids).map(([sql, values]) => [sql.startsWith('select "id"') ? CHARGED_SHIFTS(sql) : sql, values]);

/** Every round trip of a request whose pages held `pages` (each page's staff ids, in order). */
export function laborCostTrips(range, pages) {
  const trips = [];
  let afterId;
  for (const ids of pages) {
    trips.push({ call: "batch", pairs: laborCostPageRead({ ...range, afterId }) });
    if (ids.length) trips.push({ call: "batch", pairs: laborCostShiftsRead(range, ids) });
    afterId = ids.at(-1);
  }
  return trips;
}

export { SQL };
