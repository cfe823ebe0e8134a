import { z } from "@hono/zod-openapi";
import { authorize } from "@/auth/authorize";
import { jsonContent, problems } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import { MAX_REPORT_DAYS } from "./fair-workweek-report.data";
import { FairWorkweekReportParams, FairWorkweekReportQuery, FairWorkweekReportRow } from "./fair-workweek-report.schemas";

export const report = defineRoute({
  method: "get",
  path: "/api/organizations/{organization_id}/fair-workweek/report",
  operationId: "getFairWorkweekReport",
  flags: { scope: "organization", list: true },
  tags: ["Fair Workweek"],
  summary: "Fair Workweek report: scheduled hours vs good-faith estimates, changes and premiums",
  description:
    "Per staff member (the organization's live staff, by id; `locationId`: those assigned to it, counting only its " +
    "entries and changes; `employeeId`: one) and per workweek touching [startDate, endDate] (at most " +
    `${MAX_REPORT_DAYS} days, else 400 naming endDate): the workweek is the organization's pay workweek ` +
    "(workweekStartsOn of its organization-wide pay rule set in force on each date; Monday without one), and every " +
    "workweek is reported whole, even where it runs past the range. `scheduledHours`: the published entries starting " +
    "(local date) in the workweek; `estimate`: the good-faith estimate in effect on its first day (null: none) and " +
    "`outsideEstimate` whether the hours fall below weeklyHoursMin or above weeklyHoursMax; `changes`: the schedule " +
    "changes recorded for the worker dated in it (GET …/schedule-changes), and `premiumHours`/`premiumAmount` the sum " +
    "of their predictability premiums. What the workweek owes in money follows the pay lines (GET /timesheets/pay, " +
    "the same engine: worked shifts, the workweek's regular rate), dated in it: `restPremiumHours` and " +
    "`restPremiumAmount` the hours and amount of its REST lines (a shift worked inside the rest window: Seattle the " +
    "extra half of the hours inside it, New York City $100), and `premiumsOwed` {predictability, rest, total} the " +
    "amounts of its PREDICTABILITY and REST lines and their sum, to the cent (predictability hours at the regular " +
    "rate, as their lines); zeros for a worker with none. With `locationId`, only the premiums owed there (a change's " +
    "entry, or the shift worked inside the rest, at that location), still at the regular rate of every shift worked. " +
    "Paged by staff member like every list: `limit` (1–500, default 100) and `cursor`, with " +
    '`Link: <…>; rel="next"` while more remain. Needs SCHEDULE_READ; a staff member without it sees only themself ' +
    "(naming a colleague answers an empty list).",
  middleware: [authorize("SCHEDULE_READ", { asThemself: true })] as const,
  request: { params: FairWorkweekReportParams, query: FairWorkweekReportQuery },
  responses: {
    200: jsonContent(z.array(FairWorkweekReportRow), "Per staff member, their workweeks"),
    ...problems("ORGANIZATION_NOT_FOUND"),
  },
});

export type ReportRoute = typeof report;
