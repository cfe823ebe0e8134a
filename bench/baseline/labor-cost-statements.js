// The SQL our Worker sends to D1 for GET /api/timesheets/labor-cost (src/features/pay/labor-cost.data.ts), from this
// run's recording of ours (recording.js): pay lines' page reads (pay-statements.js) with pages of 500 staff members,
// whose shifts statement also reads each shift's role and cost code. `laborCostTrips` answers the round trips of a
// request, [sql, values] each, with the values pay lines bind; the labor-cost scenario compares them with its trace of
// our Worker.
//
// Plain JS with no Worker-only imports: the bench (Node) imports it too.
import { pageReadsOf, payLinesPageStatements, payLinesStatements } from "./pay-statements.js";
import { fromRecording } from "./recording.js";

/** Staff members a page reads (src/features/pay/labor-cost.data.ts's LABOR_COST_PAGE). */
export const LABOR_COST_PAGE = 500;

/** Filled from the recording of a labor cost request of ours whose first page holds more than 90 staff members. */
const SQL = {};
fromRecording(["labor cost"], (r) => Object.assign(SQL, pageReadsOf(r, "labor cost")));

/** The first round trip of a page: the rule sets, the currency, the page's staff members and the packs. */
export const laborCostPageRead = (range) => payLinesStatements({ ...range, limit: LABOR_COST_PAGE }, SQL);

/** The second: the page's shifts (with role and cost code), time off and premiums owed. */
export const laborCostShiftsRead = (range, ids) => payLinesPageStatements(range, ids, SQL);

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
