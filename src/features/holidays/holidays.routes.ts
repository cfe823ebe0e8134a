import { authorize } from "@/auth/authorize";
import { jsonBody, jsonContent, problems } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import { HolidayOverrides, HolidayOverridesPut, Holidays, HolidaysQuery, LocationHolidayParams } from "./holidays.schemas";

const tags = ["Locations"];
const path = "/api/organizations/{organization_id}/locations/{locationId}/holidays";

const about =
  "A location's public holidays come from the maintained date-holidays dataset (npm `date-holidays`, ISO 3166 " +
  "countries and their subdivisions) by the location's `country` and `state` (the subdivision's code: VIC, NSW, ON, " +
  "BC, NY…; a state the dataset does not know falls back to the country's national holidays; no country: none), " +
  "with the organization's overrides laid over them: a removed date drops the dataset's holidays on it, an added date " +
  "is a public holiday under its name. Pay treats public and bank holidays as public holidays: a rule set whose preset " +
  "has holiday rates (AU_GENERAL_RETAIL: 225 %, casual 250 %, cl. 22.1 of the General Retail Industry Award 2020) " +
  "pays HOLIDAY lines for the minutes worked on one, in pay lines, payroll, labor cost and schedule cost.";

export const getLocationHolidays = defineRoute({
  method: "get",
  path,
  operationId: "getLocationHolidays",
  flags: { scope: "organization" },
  tags,
  summary: "List a location's public holidays of a year",
  description:
    `${about} Answers the year's holidays in date order, every type the dataset names. Not paged: one year of one location ` +
    "is a few dozen dates at most. Needs LOCATION_READ.",
  middleware: [authorize("LOCATION_READ")] as const,
  request: { params: LocationHolidayParams, query: HolidaysQuery },
  responses: { 200: jsonContent(Holidays, "The year's holidays"), ...problems("LOCATION_NOT_FOUND") },
});

export const getHolidayOverrides = defineRoute({
  method: "get",
  path: `${path}/overrides`,
  operationId: "getHolidayOverrides",
  flags: { scope: "organization" },
  tags,
  summary: "Retrieve a location's holiday overrides",
  description: `${about} Answers the dates added and removed (both empty, updatedAt null, when never set). Needs LOCATION_READ.`,
  middleware: [authorize("LOCATION_READ")] as const,
  request: { params: LocationHolidayParams },
  responses: { 200: jsonContent(HolidayOverrides, "The overrides"), ...problems("LOCATION_NOT_FOUND") },
});

export const putHolidayOverrides = defineRoute({
  method: "put",
  path: `${path}/overrides`,
  operationId: "putHolidayOverrides",
  flags: { scope: "organization" },
  tags,
  summary: "Replace a location's holiday overrides",
  description:
    `${about} Replaces the location's overrides with the body's (at most 100 dates added and 100 removed; a date added ` +
    "twice, or both added and removed, is a 400 naming it). Pay computed afterwards reads them, closed pay periods keep " +
    "the snapshot they were closed with. Records `location.holidays_updated` when they change. Needs LOCATION_ADMIN.",
  middleware: [authorize("LOCATION_ADMIN")] as const,
  request: { params: LocationHolidayParams, body: jsonBody(HolidayOverridesPut) },
  responses: { 200: jsonContent(HolidayOverrides, "The overrides"), ...problems("LOCATION_NOT_FOUND") },
});

export type GetLocationHolidaysRoute = typeof getLocationHolidays;
export type GetHolidayOverridesRoute = typeof getHolidayOverrides;
export type PutHolidayOverridesRoute = typeof putHolidayOverrides;
