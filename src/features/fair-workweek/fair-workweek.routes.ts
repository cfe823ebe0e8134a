import { z } from "@hono/zod-openapi";
import { authorize } from "@/auth/authorize";
import { jsonBody, jsonContent, problems } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import {
  GoodFaithEstimate,
  GoodFaithEstimatePut,
  GoodFaithEstimateQuery,
  GoodFaithEstimates,
  LocationFairWorkweek,
  LocationFairWorkweekParams,
  LocationFairWorkweekPut,
  RulePackSchema,
  RulePacksQuery,
  StaffMemberEstimateParams,
} from "./fair-workweek.schemas";

const tags = ["Fair Workweek"];

const PACKS =
  "Built-in packs: NYC_FAST_FOOD, SEATTLE, SAN_FRANCISCO, OREGON, LOS_ANGELES, CHICAGO, PHILADELPHIA, EVANSTON, " +
  "BERKELEY, EMERYVILLE, and CUSTOM (no premiums until overrides set them). Each version holds the ordinance's " +
  "figures, cited in its `description`: `noticeDays` (a change with at least that much notice earns nothing), " +
  "`changePay` bands (notice in [minNoticeMinutes, maxNoticeMinutes) for a change of one of `kinds`: a FLAT amount, " +
  "HOURS at the workweek's regular rate, a FRACTION_OF_LOST_HOURS, or HOURS_BY_SHIFT_LENGTH; a MOVED entry that " +
  "loses time counts as SHORTENED), `rest` {minHours, premium FLAT|MULTIPLIER, value, appliesTo, consentRequired, " +
  "published, scope} (null: no rest rule; `published: false` — Evanston, Berkeley, Emeryville — flags a short rest " +
  "with no amount; a MULTIPLIER premium pays the part above straight time, e.g. Seattle's extra 0.5× for the hours " +
  "inside the 10 h), `graceMinutes` (Los Angeles: 15) and `timeChangeGraceMinutes` (Oregon: 30 — a start or end " +
  "moved by 30 minutes or less earns nothing, ORS 653.455(3)(a)). A change the worker initiated, or exempt (employee " +
  "request, mutual consent, force majeure), earns nothing.";

export const listRulePacks = defineRoute({
  method: "get",
  path: "/api/fair-workweek/rule-packs",
  operationId: "listRulePacks",
  flags: { scope: "partner" },
  tags,
  summary: "List Fair Workweek rule packs",
  description: `Every version of every rule pack, by id and then effectiveFrom (\`date\`: only the version of each in effect that day). Any valid token may read them. Not paged: a fixed, short list. ${PACKS}`,
  middleware: [authorize(null, { partnerLevel: true })] as const,
  request: { query: RulePacksQuery },
  responses: { 200: jsonContent(z.array(RulePackSchema), "The rule packs") },
});

const locationPath = "/api/organizations/{organization_id}/locations/{locationId}/fair-workweek";

export const getLocationFairWorkweek = defineRoute({
  method: "get",
  path: locationPath,
  operationId: "getLocationFairWorkweek",
  flags: { scope: "organization" },
  tags,
  summary: "Retrieve a location's Fair Workweek rules",
  description:
    "The location's rule pack (null: none, the default) and overrides as last set (in effect from the day they were " +
    "set; earlier dates keep the setting they had), with `effective`: the pack's version in effect today with the " +
    "overrides laid over it — what schedule changes, rest checks and premiums there use from today. " +
    "Needs LOCATION_READ.",
  middleware: [authorize("LOCATION_READ")] as const,
  request: { params: LocationFairWorkweekParams },
  responses: { 200: jsonContent(LocationFairWorkweek, "The location's rules"), ...problems("LOCATION_NOT_FOUND") },
});

export const putLocationFairWorkweek = defineRoute({
  method: "put",
  path: locationPath,
  operationId: "putLocationFairWorkweek",
  flags: { scope: "organization" },
  tags,
  summary: "Set a location's Fair Workweek rules",
  description:
    "Picks the location's rule pack (null: none) and replaces its overrides (null or absent: none). Overrides have " +
    "the pack's shape — `noticeDays`, `changePay` (replaces the bands), `rest` (merged field by field over the " +
    "pack's rule; null removes it; a CUSTOM pack's rest needs `minHours`), `graceMinutes`, `timeChangeGraceMinutes` — and any other " +
    "field is a 400 naming it. Records `location.fair_workweek_updated` when the pack or overrides change. The setting is " +
    "effective-dated: a change applies from the day it is made (the location's local date) onward; earlier dates " +
    "keep the pack and overrides they had (rest premiums in pay, schedule cost and the workweek report, and the " +
    "pricing of changes to their entries, read the setting in effect on the entry's or shift's date), so a closed " +
    "period's premiums never change. Two changes on one day: the later one stands for that day. Needs " +
    `LOCATION_ADMIN. ${PACKS}`,
  middleware: [authorize("LOCATION_ADMIN")] as const,
  request: { params: LocationFairWorkweekParams, body: jsonBody(LocationFairWorkweekPut) },
  responses: { 200: jsonContent(LocationFairWorkweek, "The location's rules"), ...problems("LOCATION_NOT_FOUND") },
});

const estimatePath = "/api/organizations/{organization_id}/staffmembers/{id}/good-faith-estimate";

export const getGoodFaithEstimate = defineRoute({
  method: "get",
  path: estimatePath,
  operationId: "getGoodFaithEstimate",
  flags: { scope: "organization" },
  tags,
  summary: "Retrieve a staff member's good-faith estimate",
  description:
    "The estimate of weekly hours in effect on `date` (default today, UTC; null: none yet) and every estimate the " +
    "staff member has had, newest effectiveFrom first. The Fair Workweek ordinances require one per worker (e.g. " +
    "NYC Admin. Code §20-1221, SMC ch. 14.22). Needs EMPLOYEE_READ, or the staff member's own token.",
  middleware: [authorize("EMPLOYEE_READ", { self: "id" })] as const,
  request: { params: StaffMemberEstimateParams, query: GoodFaithEstimateQuery },
  responses: { 200: jsonContent(GoodFaithEstimates, "The estimates"), ...problems("STAFF_MEMBER_NOT_FOUND") },
});

export const putGoodFaithEstimate = defineRoute({
  method: "put",
  path: estimatePath,
  operationId: "putGoodFaithEstimate",
  flags: { scope: "organization" },
  tags,
  summary: "Set a staff member's good-faith estimate",
  description:
    "Stores the estimate of weekly hours (weeklyHoursMin ≤ weeklyHoursMax, else 400 naming weeklyHoursMax) effective " +
    "from `effectiveFrom`: one of the same date is replaced, earlier and later ones stay as history. Records " +
    "`staff_member.good_faith_estimate_updated` when it changes. Needs EMPLOYEE_WRITE.",
  middleware: [authorize("EMPLOYEE_WRITE")] as const,
  request: { params: StaffMemberEstimateParams, body: jsonBody(GoodFaithEstimatePut) },
  responses: { 200: jsonContent(GoodFaithEstimate, "The stored estimate"), ...problems("STAFF_MEMBER_NOT_FOUND") },
});

export type ListRulePacksRoute = typeof listRulePacks;
export type GetLocationFairWorkweekRoute = typeof getLocationFairWorkweek;
export type PutLocationFairWorkweekRoute = typeof putLocationFairWorkweek;
export type GetGoodFaithEstimateRoute = typeof getGoodFaithEstimate;
export type PutGoodFaithEstimateRoute = typeof putGoodFaithEstimate;
