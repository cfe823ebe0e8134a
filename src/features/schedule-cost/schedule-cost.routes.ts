import { authorize } from "@/auth/authorize";
import { MAX_SCHEDULE_COST_DAYS } from "@/domain/schedule-cost";
import { jsonContent, problems } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import { ScheduleCost, ScheduleCostParams, ScheduleCostQuery } from "./schedule-cost.schemas";

export const get = defineRoute({
  method: "get",
  path: "/api/organizations/{organizationId}/locations/{locationId}/schedules/cost",
  operationId: "getScheduleCost",
  flags: { scope: "organization" },
  tags: ["Schedules"],
  summary: "Project the cost of a schedule",
  description:
    "The location's labor cost per local date of [startDate, endDate] and in total, as it will be paid: the pay engine " +
    "(the rules of `GET /timesheets/pay`) run over each whole workweek the range touches of every staff member with an " +
    "entry starting at the location in the range, or a shift there: the shifts already worked plus the schedule entries " +
    "still to come, so projected overtime, double time and meal penalties show before they happen. An entry counts as " +
    "the shift it plans until a shift represents it: its planned start and end, each break type it names taken where " +
    "that type is due (start + frequencyMinutes, moved earlier to end by the entry's end and later to follow the " +
    "previous break) — a mandatory break type it does not name is not deducted, as a clock-out deducts none — and " +
    "the wage a clock-in on its start date would resolve (the most specific wage rate effective that day, else the " +
    "role's wage, else the staff member's; none for a salaried staff member). A closed shift of the staff member " +
    "overlapping the entry represents it (worked shifts count as worked); an open shift (clocked in now) represents the " +
    "entries it overlaps so far and is counted as closing at the later of now and their planned end (an open break " +
    "ending after its planned length). An entry under way without a clock-in still counts whole until its planned " +
    "end; one that ended without a shift counts nothing. Only the lines dated in the range of this location's shifts " +
    "and entries are reported (a meal penalty where the day passed the meal rule, as labor cost charges it), but " +
    "their hours at other locations, and their entries there, still count toward their daily and weekly overtime " +
    "thresholds. Fair Workweek premiums are labor cost (`premiumAmount`, inside laborCost): the PREDICTABILITY premiums " +
    "recorded for the location's changed entries dated in the range (the change log), and the REST premiums that the " +
    "projected shifts (worked, and entries to come) starting at the location inside its pack's rest window earn, both " +
    "priced as pay prices them (hours at the workweek's regular rate, or flat amounts), every line rounded to the " +
    "minor units of the organization's `currencyCode` (whole yen for JPY, thousandths for BHD) as pay lines round it. Paid time off is not labor cost here. `includeDrafts=true` counts draft entries too (the staff " +
    "members' drafts everywhere); by default only published entries count. `sales` is the sum of the location's " +
    "FORECAST `SALES` demand intervals starting on the date (local), null when there are none; `laborPercent` = " +
    "laborCost ÷ sales × 100 and `salesPerLaborHour` = sales ÷ scheduled hours, null without sales; `overTarget` " +
    "compares them with the location's labor targets. When the entries are then worked exactly as planned, the pay " +
    "lines of the range equal this projection to the cent, per date and in total. Dates are YYYY-MM-DD (400 naming " +
    `the field otherwise); endDate before startDate, or a range over ${MAX_SCHEDULE_COST_DAYS} days, is 400 naming ` +
    "endDate. Read in one round trip of the database whatever the size of the location. Needs SCHEDULE_READ.",
  middleware: [authorize("SCHEDULE_READ")] as const,
  request: { params: ScheduleCostParams, query: ScheduleCostQuery },
  responses: { 200: jsonContent(ScheduleCost, "The projected cost"), ...problems("LOCATION_NOT_FOUND") },
});

export type GetRoute = typeof get;
