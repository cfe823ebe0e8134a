import { authorize } from "@/auth/authorize";
import { jsonContent, problems } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import { LABOR_COST_PAGE, MAX_LABOR_COST_PAGES } from "./labor-cost.data";
import { LaborCost, LaborCostQuery } from "./labor-cost.schemas";

export const laborCost = defineRoute({
  method: "get",
  path: "/api/timesheets/labor-cost",
  operationId: "getLaborCost",
  flags: { scope: "caller" },
  tags: ["Pay"],
  summary: "Labor cost",
  description:
    "The pay lines of the range (GET /timesheets/pay, the same engine and the same filters) grouped by `groupBy`: any " +
    "comma-separated subset of date, location, role, costCode, employee (an unknown key is a 400 naming `groupBy`; " +
    "none: one row). Each line is charged to its shift's location, role and cost code: overtime and double time to " +
    "the shifts whose minutes became overtime — the last minutes of the workday or workweek, a shift switched to " +
    "another cost code mid-day charges its own minutes — a meal penalty to the shift during which the day passed the " +
    "meal rule, a Fair Workweek premium (PREDICTABILITY, REST) to the location of the entry or shift that earned it " +
    "(role and cost code null), and paid time off to a row of its own (location, role and cost code null). " +
    "`premiumAmount` is the " +
    "amount of the premium lines (every kind but REGULAR, OVERTIME, DOUBLE_TIME and TIME_OFF: meal penalties, " +
    "scheduling premiums). Every amount is in the organization's currency, each line rounded to its ISO 4217 minor " +
    "units as pay lines round it (whole yen for JPY, thousandths for BHD or KWD), and summed exactly: Σ rows' " +
    "laborCost = totals.laborCost = the pay lines' totals.grossPay for the same range and filters, to the minor unit. Rows are ordered by their keys in groupBy's order " +
    "(null keys last). `locationId` keeps staff members with a shift or a Fair Workweek premium there in the range " +
    "(their figures count every shift, as pay lines do); `employeeId` one staff member. Not paged: the staff members are read " +
    `${LABOR_COST_PAGE} at a time, as pay lines pages them, and aggregated; an answer covers at most ` +
    `${MAX_LABOR_COST_PAGES * LABOR_COST_PAGE} staff members with input in the range (more is a 400 naming ` +
    "`locationId`: narrow by location or staff member). The range is at most 93 days. The organization is the " +
    "token's; a partner-level token names it with `organizationId`. Needs SHIFT_READ, except that a staff member " +
    "without it sees only their own labor cost (another `employeeId` is 403).",
  middleware: [authorize("SHIFT_READ", { organizationOfCaller: true, asThemself: true })] as const,
  request: { query: LaborCostQuery },
  responses: { 200: jsonContent(LaborCost, "The labor cost"), ...problems("ORGANIZATION_SCOPE_REQUIRED", "ORGANIZATION_NOT_FOUND") },
});

export type LaborCostRoute = typeof laborCost;
