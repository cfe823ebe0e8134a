import { holidayOverrideProblems } from "@/domain/public-holidays";
import type { AppRouteHandler } from "@/platform/http/env";
import { validationFailed } from "@/problems/problem";
import { readHolidayOverrides, readLocationHolidays, putHolidayOverrides as storeOverrides } from "./holidays.data";
import type * as routes from "./holidays.routes";
import { serializeHolidayOverrides } from "./holidays.schemas";

export const getLocationHolidays: AppRouteHandler<routes.GetLocationHolidaysRoute> = async (c) => {
  const { locationId } = c.req.valid("param");
  const year = c.req.valid("query").year ?? new Date().getUTCFullYear();
  return c.json(await readLocationHolidays(c.var.db, c.var.scope.organizationId, locationId, year), 200);
};

export const getHolidayOverrides: AppRouteHandler<routes.GetHolidayOverridesRoute> = async (c) => {
  const { locationId } = c.req.valid("param");
  return c.json(serializeHolidayOverrides(locationId, await readHolidayOverrides(c.var.db, c.var.scope.organizationId, locationId)), 200);
};

export const putHolidayOverrides: AppRouteHandler<routes.PutHolidayOverridesRoute> = async (c) => {
  const { locationId } = c.req.valid("param");
  const body = c.req.valid("json");
  const problems = holidayOverrideProblems(body);
  if (problems.length > 0) throw validationFailed(problems);
  const row = await storeOverrides(c.var, c.var.scope.organizationId, locationId, body);
  return c.json(serializeHolidayOverrides(locationId, row), 200);
};
