import { z } from "@hono/zod-openapi";
import { authorize } from "@/auth/authorize";
import { jsonBody, jsonContent, OrganizationParams, problems } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import {
  LocationParams,
  LocationWorkingTime,
  LocationWorkingTimePut,
  SchoolTerms,
  WorkingTimePackSchema,
  WorkingTimePacksQuery,
  WorkingTimeReportQuery,
  WorkingTimeReportRow,
} from "./working-time.schemas";

const tags = ["Working time"];

const PACKS =
  "Packs: EU (Directive 2003/88/EC), UK (Working Time Regulations 1998, with the 48-hour opt-out and young workers), DE " +
  "(ArbZG §3, §4, §5), FR (Code du travail L3121-16, -18, -20, -22, L3131-1), ES (Estatuto de los Trabajadores art. 34), " +
  "ON (ESA 2000 ss. 17, 18, 20), NZ (Employment Relations Act 2000 s 69ZD), JP (Labour Standards Act arts. 32, 34, 36), " +
  "AU_RETAIL (Fair Work Act s 62 and the General Retail Industry Award 2020 cl. 16) and US_MINORS (29 CFR 570.35). Each " +
  "figure carries its `source` and `agreementMayChange`: the figures a collective agreement may change are the ones a " +
  "location may override.";

export const listWorkingTimePacks = defineRoute({
  method: "get",
  path: "/api/working-time/rule-packs",
  operationId: "listWorkingTimePacks",
  flags: { scope: "partner" },
  tags,
  summary: "List working-time rule packs",
  description: `Every version of every working-time pack, by id then effectiveFrom (\`date\`: only the version of each in effect that day). Any valid token may read them. Not paged: a fixed, short list. ${PACKS}`,
  middleware: [authorize(null, { partnerLevel: true })] as const,
  request: { query: WorkingTimePacksQuery },
  responses: { 200: jsonContent(z.array(WorkingTimePackSchema), "The packs") },
});

const locationPath = "/api/organizations/{organization_id}/locations/{locationId}/working-time";

export const getLocationWorkingTime = defineRoute({
  method: "get",
  path: locationPath,
  operationId: "getLocationWorkingTime",
  flags: { scope: "organization" },
  tags,
  summary: "Retrieve a location's working-time rules",
  description:
    "The location's setting in effect today — its pack (null: none, the default), overrides and the date it took " +
    "effect (`effectiveFrom`) — its `history` (every dated version, oldest first) and school terms, with `effective`: " +
    "the pack's version in effect today with the overrides laid over it. Needs LOCATION_READ.",
  middleware: [authorize("LOCATION_READ")] as const,
  request: { params: LocationParams },
  responses: { 200: jsonContent(LocationWorkingTime, "The location's rules"), ...problems("LOCATION_NOT_FOUND") },
});

export const putLocationWorkingTime = defineRoute({
  method: "put",
  path: locationPath,
  operationId: "putLocationWorkingTime",
  flags: { scope: "organization" },
  tags,
  summary: "Set a location's working-time rules",
  description:
    "Picks the location's working-time pack (null: none) and replaces its overrides (null or absent: none). An override " +
    "may change only a figure the pack marks `agreementMayChange` (a collective agreement's figure: e.g. ArbZG §7 for " +
    "Germany's rest and daily hours); any other is a 400 naming it, as is `minorWeeklyRestHours` under the pack's " +
    "`minors.weeklyRest.reducibleTo` (UK reg. 11(8)(b): 36). `overtimeSpecialClause` (JP) says the location's overtime " +
    "agreement has an art. 36(5) special clause. The pack then judges schedule writes and publishes " +
    "(409 WORKING_TIME_CONFLICT), worked shifts as they close (attendance exceptions: clock-outs, manual shifts and " +
    "their edits) and the working-time report. The setting is effective-dated: it judges from " +
    "`effectiveFrom` (a local date of the location; default: the location's today) on, dates before it keep the " +
    "version they had (a version of the same date is replaced); a date before the location's first version is judged " +
    "by that first one (the law applied before the location named it). Each date is then judged by the law's version " +
    "in effect on it. Records `location.working_time_updated` when something changes. Needs " +
    `LOCATION_ADMIN. ${PACKS}`,
  middleware: [authorize("LOCATION_ADMIN")] as const,
  request: { params: LocationParams, body: jsonBody(LocationWorkingTimePut) },
  responses: { 200: jsonContent(LocationWorkingTime, "The location's rules"), ...problems("LOCATION_NOT_FOUND") },
});

export const putSchoolTerms = defineRoute({
  method: "put",
  path: "/api/organizations/{organization_id}/locations/{locationId}/school-terms",
  operationId: "putLocationSchoolTerms",
  flags: { scope: "organization" },
  tags,
  summary: "Set a location's school terms",
  description:
    "Replaces the location's school terms (inclusive local dates): a weekday inside one is a school day for the minors' " +
    "rules of its pack (US_MINORS: 3 hours on a school day, 18 in a week holding one). Records " +
    "`location.working_time_updated` when they change. Needs LOCATION_ADMIN.",
  middleware: [authorize("LOCATION_ADMIN")] as const,
  request: { params: LocationParams, body: jsonBody(SchoolTerms) },
  responses: { 200: jsonContent(LocationWorkingTime, "The location's rules"), ...problems("LOCATION_NOT_FOUND") },
});

export const report = defineRoute({
  method: "get",
  path: "/api/organizations/{organization_id}/working-time",
  operationId: "getWorkingTimeReport",
  flags: { scope: "organization", list: true },
  tags,
  summary: "Working-time report",
  description:
    "Per worker and reference period, from their worked shifts (GET /timesheets) at locations with a working-time pack: " +
    "`averageWeeklyHours` (hours in the period ÷ its days × 7), `longestDayHours`, `shortestRestHours`, " +
    "`weeksWithoutWeeklyRest` and each violation with its source. Periods cut [startDate, endDate] from startDate in the " +
    "pack's reference weeks (UK and EU 17, DE 24, FR 12; 4 without an average), the last one clipped. A WEEKLY_AVERAGE " +
    "violation is the worst rolling window of the reference length (or of the whole range, if shorter) lying inside " +
    "the range and ending in the period; under a pack that allows it (UK reg. 5) a window ending while the worker's " +
    "`workingTimeOptOut` is in force is not held to it. JP: MONTHLY_OVERTIME per calendar month and YEARLY_OVERTIME per " +
    "calendar year (art. 36(4): 45 and 360), the year counted over its part inside the range (ask from 1 January for " +
    "the whole year), reported in the period holding the week that crosses the cap; under a special clause " +
    "(override overtimeSpecialClause, art. 36(5)) the year's cap is 720 and MONTHLY_OVERTIME is reported only from the " +
    "calendar year's seventh month over 45 hours (months counted inside the range). Whatever the agreement (art. " +
    "36(6)): MONTHLY_OVERTIME_AND_HOLIDAY_WORK for a month whose overtime reaches 100 hours (the limit is 'under 100': " +
    "exactly 100 is reported), and OVERTIME_AND_HOLIDAY_WORK_AVERAGE for a month ending a window of 2 to 6 calendar " +
    "months inside the range whose monthly average is over 80 (the worst such window; its date the window's first " +
    "month's). Overtime counts each week's hours over 40 (or the days' hours over 8, whichever is larger), so a seventh " +
    "day's holiday work counts in it. Each 7-day week from a period's start without the " +
    "pack's weekly rest is a WEEKLY_REST violation (counted in `weeksWithoutWeeklyRest`) — a week a young worker " +
    "starts under 18, MINOR_WEEKLY_REST under the longer rest of the pack's minors (UK reg. 11(3): 48 hours in each 7 " +
    "days, exactly 48 enough; reducible to 36 by override minorWeeklyRestHours, reg. 11(8)(b)); ON: DAILY_REST, each day (the " +
    "24 hours from the worker's first start on a date) without 11 consecutive hours free (ESA s. 18(1)). A worker's " +
    "shifts are grouped by their location's pack as set on startDate. The range is at most 371 days. Paged by staff " +
    "member (limit and cursor count staff, each answering one row per pack and period). Needs SHIFT_READ; a staff member " +
    "without it reads their own rows only.",
  middleware: [authorize("SHIFT_READ", { asThemself: true })] as const,
  request: { params: OrganizationParams, query: WorkingTimeReportQuery },
  responses: { 200: jsonContent(z.array(WorkingTimeReportRow), "A page of the report") },
});
