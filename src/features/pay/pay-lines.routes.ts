import { authorize } from "@/auth/authorize";
import { jsonContent, problems } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import { PayLines, PayLinesQuery } from "./pay-lines.schemas";

export const payLines = defineRoute({
  method: "get",
  path: "/api/timesheets/pay",
  operationId: "getPayLines",
  flags: { scope: "caller", list: true },
  tags: ["Pay"],
  summary: "Compute pay lines",
  description:
    "Every shift of the range classified under the rule sets in force: one line per (workday, shift, kind, rule), each " +
    "naming the rule that made it and its rule set, approved time off on a paid policy as TIME_OFF lines, meal " +
    "penalties, and totals per staff member and overall. Minutes count in the workday and workweek in which they were " +
    "worked: a shift crossing the set's workdayStartsAt (default 00:00) or the workweek's start is split there, a line " +
    "per part dated by its workday. Overtime and double time are paid at the shift's own wage + (multiplier − 1) × the " +
    "workweek's regular rate, and a meal penalty at the regular rate (29 CFR 778.115; Cal. Labor Code 510, 226.7); each " +
    "staff member carries `workweeks` with each regularRate. Meal periods are judged on the actual punches, never the " +
    "rounded ones. A line's amount = minutes ÷ 60 × rate, rounded once, half away from zero, to the minor units of " +
    "the organization's `currencyCode` (ISO 4217: JPY and KRW whole units, USD, EUR, AUD, CAD and GBP cents, BHD, " +
    "JOD, KWD, OMR and TND thousandths; CLF's 4 decimals round to 3), and every total is the sum of its lines: in yen, " +
    "¥1,000 an hour for 7 h 59 min is ¥7,983 (not 7,983.33); in dinars, BD 1.234 an hour for 7 h 59 min is BD 9.851. A staff member whose shift under an AU_GENERAL_RETAIL " +
    "rule set was paid below the General Retail Industry Award's minimum hourly rate (Retail Employee Level 1, $26.55 " +
    "from 1 July 2025, cl. 17.1; a casual's wage with its 25 % loading against $33.19, cl. 11.2) carries " +
    "`warnings: [{code: WAGE_BELOW_AWARD_MINIMUM, date, shiftId, wage, minimum, source}]`; the lines still pay the " +
    "wage paid, never the minimum. A shift answering a published schedule entry is judged against it: the entry of " +
    "the same staff member at the same location whose span, opened 2 hours early, holds the shift's start, the one " +
    "starting nearest to it (as attendance's LATE_CLOCK_IN and EARLY_CLOCK_OUT read it; a draft entry never counts). " +
    "Its scheduled minutes are the entry's length less the unpaid break types it plans; every shift answering one " +
    "entry counts toward it, judged once on the first. Under CALIFORNIA, worked less than half of them pays " +
    "REPORTING_TIME up to half (at least 2 h, at most 4 h) at the regular rate (IWC Wage Orders §5(A): 8 h scheduled, " +
    "3 h worked at $20 → $60.00 + 1 h $20.00 = $80.00; exactly half, none); under US_NY, CALL_IN up to 4 hours or the " +
    "scheduled length if shorter at $17.00 (12 NYCRR 142-2.3). Labor cost and payroll carry the same lines. A " +
    "workweek the range cuts is computed whole (its regular rate too) and only its lines inside the range are " +
    "answered, so a figure never depends on the window; until a workweek ends, a later shift in it can still change " +
    "the rate of its earlier overtime. Open shifts count nothing until clocked out. Paged by staff member, in id " +
    "order, like every list: `limit` (1–500, default 100) staff members a page and `cursor`, with " +
    '`Link: <…>; rel="next"` while more remain; a page holds the staff members with a shift in its workweeks or ' +
    "approved paid time off in the range (deleted staff members too), and may answer fewer than `limit` (one whose " +
    "inputs make no line in the range is left out), so only the Link says whether more remain. `totals` cover the " +
    "page's staff members alone: the organization's totals are the sums of every page's. A cursor is good only for " +
    "the range it was handed out for (another is a 400 naming `cursor`). `locationId` keeps staff members " +
    "with a shift or a Fair Workweek premium there in the range (their figures count every shift). The range is at " +
    "most 93 days. The " +
    "organization is the token's; a partner-level token names it with `organizationId`. Needs SHIFT_READ, except that " +
    "a staff member without it sees only their own pay (another `employeeId` is 403). The answer is written staff " +
    "member by staff member as it is computed (chunked, without Content-Length); its bytes are the same JSON.",
  middleware: [authorize("SHIFT_READ", { organizationOfCaller: true, asThemself: true })] as const,
  request: { query: PayLinesQuery },
  responses: { 200: jsonContent(PayLines, "The pay lines"), ...problems("ORGANIZATION_SCOPE_REQUIRED", "ORGANIZATION_NOT_FOUND") },
});

export type PayLinesRoute = typeof payLines;
