import {
  effectiveWorkingTimePack,
  putWorkingTimeSetting,
  readWorkingTimeSetting,
  putSchoolTerms as writeSchoolTerms,
} from "@/data/working-time/location-working-time.data";
import { refusedOverrides, WORKING_TIME_PACK_IDS, WORKING_TIME_PACKS, workingTimePack } from "@/domain/working-time/packs";
import { requestNow } from "@/platform/http/clock";
import type { AppContext, AppRouteHandler } from "@/platform/http/env";
import { encodeIdCursor, pageOf } from "@/platform/http/pagination";
import { invalidField } from "@/problems/problem";
import type * as routes from "./working-time.routes";
import { serializeLocationWorkingTime } from "./working-time.schemas";
import { readWorkingTimeReport } from "./working-time-report.data";

/** Today (UTC) by the organization's clock: a sandbox's runs ahead (src/data/clock.ts). */
const today = async (c: AppContext) => (await requestNow(c)).toISOString().slice(0, 10);

export const listWorkingTimePacks: AppRouteHandler<typeof routes.listWorkingTimePacks> = async (c) => {
  const { date } = c.req.valid("query");
  const packs = date === undefined ? WORKING_TIME_PACKS : WORKING_TIME_PACK_IDS.flatMap((id) => workingTimePack(id, date) ?? []);
  return c.json([...packs], 200);
};

export const getLocationWorkingTime: AppRouteHandler<typeof routes.getLocationWorkingTime> = async (c) => {
  const { locationId } = c.req.valid("param");
  const row = await readWorkingTimeSetting(c.var.db, c.var.scope.organizationId, locationId);
  const date = await today(c);
  return c.json(serializeLocationWorkingTime(locationId, row, effectiveWorkingTimePack(row, date), date), 200);
};

export const putLocationWorkingTime: AppRouteHandler<typeof routes.putLocationWorkingTime> = async (c) => {
  const { locationId } = c.req.valid("param");
  const body = c.req.valid("json");
  // Every version of the pack is checked: an override must be one an agreement may make under each.
  const refused =
    body.rulePack && body.overrides
      ? WORKING_TIME_PACKS.filter((p) => p.id === body.rulePack).flatMap((p) => refusedOverrides(p, body.overrides!))
      : [];
  if (refused[0]) throw invalidField(`overrides.${refused[0]}`, "the pack's figure is not one an agreement may change");
  if (!body.rulePack && body.overrides) throw invalidField("overrides", "needs a rulePack");
  const row = await putWorkingTimeSetting(c.var, c.var.scope.organizationId, locationId, body, await requestNow(c));
  const date = await today(c);
  return c.json(serializeLocationWorkingTime(locationId, row, effectiveWorkingTimePack(row, date), date), 200);
};

export const putSchoolTerms: AppRouteHandler<typeof routes.putSchoolTerms> = async (c) => {
  const { locationId } = c.req.valid("param");
  const row = await writeSchoolTerms(c.var, c.var.scope.organizationId, locationId, c.req.valid("json"));
  const date = await today(c);
  return c.json(serializeLocationWorkingTime(locationId, row, effectiveWorkingTimePack(row, date), date), 200);
};

export const report: AppRouteHandler<typeof routes.report> = async (c) => {
  const { organizationId, ownStaffMemberId } = c.var.scope;
  const query = c.req.valid("query");
  const { staff, build } = await readWorkingTimeReport(c.var.db, organizationId, query, ownStaffMemberId);
  const page = pageOf(c, staff, query.limit, (last) => ({ cursor: encodeIdCursor(last.id) }));
  return c.json(await build(page), 200);
};
