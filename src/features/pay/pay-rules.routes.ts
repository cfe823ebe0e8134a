import { z } from "@hono/zod-openapi";
import { authorize } from "@/auth/authorize";
import { IfMatchHeaders, jsonBody, jsonContent, OrganizationParams, problems, withETag } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import { PayRuleSet, PayRuleSetCreate, PayRuleSetParams, PayRuleSetPatch } from "@/wire/pay-rule-set.schemas";

const tags = ["Pay"];
const path = "/api/organizations/{organization_id}/pay-rules";
const read = authorize("SHIFT_READ");
const write = authorize("ORGANIZATION_ADMIN");

const inUseNote =
  " A set that a closed pay period used (in force on one of its dates) can no longer change or be deleted, and no set " +
  "may take effect (or be moved from or to a date) on or before the last date a closed period froze (the end of " +
  "the last workweek overlapping it): 409 `PAY_RULES_IN_USE`; add a newer set instead.";

const mealNote =
  " Meal periods (`mealBreaks`, at most 4) are each due after 60 to 1440 minutes of work, each later than the one " +
  "before (400 naming `mealBreaks.<i>.afterMinutes`), their break no longer than that work (`…minimumMinutes`), a " +
  "waiver limit above afterMinutes (`…waivableUpToMinutes`); `mealPenaltyHours` 0 to 8. An old client's `mealBreak` " +
  "is checked under its own name (`mealBreak.afterMinutes`, `.minimumMinutes`, `.penaltyHours`) and sent beside " +
  "a `mealBreaks` saying otherwise is a 400 naming `mealBreak`. A workday earns one meal premium at most.";

const rulesNote =
  "A preset fills the fields the request leaves out (an explicit null is kept): FLSA = weekly overtime after 2400 " +
  "minutes; CALIFORNIA = daily overtime after 480 and double time after 720, weekly after 2400, the seventh " +
  "consecutive day, meal periods after 300 (waivable up to 360) and 600 (waivable up to 720) minutes of 30 each " +
  "with a 1-hour premium (Cal. Labor Code 512(a), 226.7(c)); NONE and CUSTOM = nothing. Beyond the US: " +
  "AU_GENERAL_RETAIL = General Retail Industry Award 2020 [MA000004]: daily overtime after 540 (cl. 15.7), double time " +
  "after 720 (150 % for the first 3 hours, 200 % after, cl. 21.3), weekly after 2280 (38 h), and by the staff member's " +
  "employmentType its penalty rates as PENALTY lines (cl. 22.1: Monday–Friday from 18:00 125 %, casual 150 %; Saturday " +
  "125 %, casual 150 %; Sunday 150 %, casual 175 %; overtime on a Sunday 200 %), HOLIDAY lines on the location's public " +
  "holidays (225 %, casual 250 %; overtime 250 %), the 25 % casual loading (cl. 11.2), MINIMUM_ENGAGEMENT lines (3 h " +
  "for casual and part_time, 1.5 h for a schoolStudent engaged 15:00–18:30 on a weekday, cl. 10.9, 11.3) and 200 % " +
  "for work begun less than 12 hours after the previous workday's (cl. 16.6); every percentage of the staff member's " +
  "hourly wage, read as the award's minimum hourly rate; not modelled: the one 11-hour day a week, the span of ordinary " +
  "hours, shiftwork and junior rates. CA_ON = weekly after 2640 (Ontario ESA 2000 s. 22). CA_BC = daily after 480, " +
  "double time after 720, weekly after 2400 (BC ESA s. 40). US_AK = daily after 480, weekly 2400 (AS 23.10.060). " +
  "US_NV = weekly after 2400, and daily after 480 only for a shift paid under $18.00, 1.5 × the $12.00 minimum wage " +
  "(NRS 608.018), the daily 480 counted in the 24 hours from when the employee begins work, not the calendar workday " +
  "(NRS 608.0126: a window opens at a shift's start and again at the first work at or after its end, mid-shift when " +
  "work goes on; after Monday 08:00–16:00 a Tuesday 06:00 start makes 06:00–08:00 DAILY_OVERTIME; lines keep the " +
  "calendar workday's date; shifts up to 16 days before the range asked are read for it). US_CO = daily after 720, weekly 2400, and a shift's minutes past 12 consecutive hours whatever " +
  "workday they fall in as CONSECUTIVE_OVERTIME lines (7 CCR 1103-1 Rule 4.1.1(C): unpaid meals not counted; a " +
  "20:00–09:00 shift is 1 h overtime though neither workday passes 12; two shifts are never joined into one run). FR_STATUTORY = weekly after 2100 at 1.25, WEEKLY_DOUBLE_TIME from the 44th hour at 1.5 (Code du " +
  "travail L3121-27, L3121-36; a collective agreement may set other rates: CUSTOM). JP_STATUTORY = daily 480, weekly " +
  "2400 at 1.25, late night 22:00–05:00 + 25 % and the statutory rest day (Sunday) 135 % as PENALTY lines, stacking " +
  "per Labour Standards Act art. 37 (late-night overtime 150 %, late-night rest day 160 %), and overtime past 60 hours " +
  "in a calendar month + 50 % (art. 37(1) proviso: an extra + 25 % PENALTY line " +
  "JP_STATUTORY.OVERTIME_PAST_60_HOURS_A_MONTH, late night then 175 %; counted from the month's first day, by the " +
  "workday worked, rest-day work not counted; pay reads the month from its first day whatever range is asked). US_NY = weekly after 2400 and a SPREAD_OF_HOURS line of one hour at $17.00 (the " +
  "New York City, Long Island and Westchester minimum wage of 2026) for a workday spanning more than 10 hours (12 " +
  "NYCRR 142-2.4), and CALL_IN pay (142-2.3: at least 4 hours, or the scheduled shift if shorter, at $17.00) for a " +
  "shift answering a published schedule entry. CALIFORNIA adds a SPLIT_SHIFT line (IWC Wage Orders §4(C): one hour at the $16.90 " +
  "state minimum wage when a workday's shifts are more than an hour apart, less the day's wages above the minimum " +
  "wage; DLSE Manual 45.2.1) and REPORTING_TIME pay (§5(A)) for a shift answering a published schedule entry. Multipliers default to 1.5 and 2 (1 to 10, " +
  "double time never below overtime); rounding defaults to none. A location's own set wins over the organization's; " +
  "a set governs workdays from effectiveFrom until the next set's of the same scope, and two sets of one scope " +
  "cannot share a date (409 `PAY_RULES_VERSION_TAKEN`). Workdays start at workdayStartsAt (default 00:00) and minutes " +
  "count in the workday and workweek they were worked in; a set with another workweekStartsOn or workdayStartsAt " +
  "changes the workweek at the end of the old workweek holding its effectiveFrom (at once on that week's first day), " +
  "the days until the first new workweek forming one short workweek. The old week as it was and the first new week " +
  "overlap there (29 CFR 778.301): each employee who worked in the overlap is paid the greater of the two " +
  "computations of 29 CFR 778.302 (the overlap counted in the old week only, then in the new week only; the new " +
  "week's on a tie). One workweek and one workday per employee, at every location (29 CFR 778.103–778.105): the " +
  "boundaries (workweekStartsOn, workdayStartsAt) are the organization's — its set in force on each date. A " +
  "location's own set changes rates and rules, never the boundaries: left out, they are filled with those of the " +
  "organization's set in force on the location set's effectiveFrom (Monday and 00:00 without one); named otherwise, " +
  "the write is a 422 `PAY_RULES_NOT_ORGANIZATIONS_WORKWEEK` whose `errors` name the field, and nothing is written. " +
  "A later change of the organization's workweek applies at every location (a location set keeps the copy it took).";

export const list = defineRoute({
  method: "get",
  path,
  operationId: "listPayRuleSets",
  flags: { scope: "organization" },
  tags,
  summary: "List pay rule sets",
  description:
    "Every live rule set of the organization (and of its locations), by scope then effectiveFrom. Not paged: an " +
    "organization keeps a handful of versions.",
  middleware: [read] as const,
  request: {
    params: OrganizationParams,
    query: z.object({ locationId: z.string().min(1).max(64).optional().openapi({ description: "Only this location's own sets." }) }),
  },
  responses: { 200: jsonContent(z.array(PayRuleSet), "The rule sets"), ...problems("ORGANIZATION_NOT_FOUND") },
});

export const create = defineRoute({
  method: "post",
  path,
  operationId: "createPayRuleSet",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Create a pay rule set",
  description: rulesNote + mealNote + inUseNote,
  middleware: [write] as const,
  request: { params: OrganizationParams, body: jsonBody(PayRuleSetCreate) },
  responses: {
    201: withETag(jsonContent(PayRuleSet, "The created rule set")),
    ...problems("ORGANIZATION_NOT_FOUND", "PAY_RULES_VERSION_TAKEN", "PAY_RULES_IN_USE", "PAY_RULES_NOT_ORGANIZATIONS_WORKWEEK"),
  },
});

export const get = defineRoute({
  method: "get",
  path: `${path}/{id}`,
  operationId: "getPayRuleSet",
  flags: { scope: "organization" },
  tags,
  summary: "Retrieve a pay rule set",
  description: "One live rule set.",
  middleware: [read] as const,
  request: { params: PayRuleSetParams },
  responses: { 200: withETag(jsonContent(PayRuleSet, "The rule set")), ...problems("PAY_RULE_SET_NOT_FOUND") },
});

export const patch = defineRoute({
  method: "patch",
  path: `${path}/{id}`,
  operationId: "updatePayRuleSet",
  flags: { scope: "organization" },
  tags,
  summary: "Update a pay rule set",
  description: `Changes the fields named; the others keep their values (a preset named fills nothing on a PATCH); the result is checked as on creation. A location's set takes the boundaries of the organization's set in force on its (new) effectiveFrom: naming others is a 422 \`PAY_RULES_NOT_ORGANIZATIONS_WORKWEEK\` naming the field.${mealNote}${inUseNote}`,
  middleware: [write] as const,
  request: { params: PayRuleSetParams, body: jsonBody(PayRuleSetPatch), headers: IfMatchHeaders },
  responses: {
    200: withETag(jsonContent(PayRuleSet, "The updated rule set")),
    ...problems(
      "PAY_RULE_SET_NOT_FOUND",
      "PAY_RULES_IN_USE",
      "PAY_RULES_VERSION_TAKEN",
      "PAY_RULES_NOT_ORGANIZATIONS_WORKWEEK",
      "PRECONDITION_FAILED",
    ),
  },
});

export const remove = defineRoute({
  method: "delete",
  path: `${path}/{id}`,
  operationId: "deletePayRuleSet",
  flags: { scope: "organization" },
  tags,
  summary: "Delete a pay rule set",
  description: `The previous version of the scope governs the set's dates again.${inUseNote}`,
  middleware: [write] as const,
  request: { params: PayRuleSetParams, headers: IfMatchHeaders },
  responses: {
    200: withETag(jsonContent(PayRuleSet, "The deleted rule set")),
    ...problems("PAY_RULE_SET_NOT_FOUND", "PAY_RULES_IN_USE", "PRECONDITION_FAILED"),
  },
});

export type ListRoute = typeof list;
export type CreateRoute = typeof create;
export type GetRoute = typeof get;
export type PatchRoute = typeof patch;
export type RemoveRoute = typeof remove;
