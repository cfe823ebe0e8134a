import { setETag } from "@/platform/http/conditional";
import type { AppRouteHandler } from "@/platform/http/env";
import { pageResult } from "@/platform/http/pagination";
import * as assignments from "./open-shift-assignments.data";
import * as claims from "./open-shift-claims.data";
import * as preferences from "./open-shift-preferences.data";
import { findOpenShift, listOpenShifts, preferenceWire, preferenceWires, viewOf, viewsOf } from "./open-shift-reads.data";
import { createOpenShift, patchOpenShift, removeOpenShift } from "./open-shift-writes.data";
import type * as routes from "./open-shifts.routes";
import { scheduleScope, scopeAtLocation } from "./schedule-access.guards";

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const { scope, location } = await scopeAtLocation(c);
  const query = c.req.valid("query");
  const rows = pageResult(c, await listOpenShifts(c.var.db, scope, location, query), query.limit);
  return c.json(await viewsOf(c.var.db, scope, location, rows), 200);
};

export const getOne: AppRouteHandler<routes.GetOneRoute> = async (c) => {
  const { scope, location } = await scopeAtLocation(c);
  const row = await findOpenShift(c.var.db, scope, c.req.valid("param").id);
  setETag(c, row);
  return c.json(await viewOf(c.var.db, scope, location, row), 200);
};

export const create: AppRouteHandler<routes.CreateRoute> = async (c) => {
  const { scope, location } = await scopeAtLocation(c);
  const row = await createOpenShift(c.var.db, scope, location, c.req.valid("json"));
  return c.json(await viewOf(c.var.db, scope, location, row), 201);
};

export const patch: AppRouteHandler<routes.PatchRoute> = async (c) => {
  const { scope, location } = await scopeAtLocation(c);
  const row = await patchOpenShift(c, scope, c.req.valid("param").id, c.req.valid("json"), (shift) =>
    viewOf(c.var.db, scope, location, shift),
  );
  return c.json(await viewOf(c.var.db, scope, location, row), 200);
};

export const remove: AppRouteHandler<routes.RemoveRoute> = async (c) => {
  const { scope, location } = await scopeAtLocation(c);
  const row = await removeOpenShift(c, scope, c.req.valid("param").id, (shift) => viewOf(c.var.db, scope, location, shift));
  return c.json(await viewOf(c.var.db, scope, location, row), 200);
};

export const claim: AppRouteHandler<routes.ClaimRoute> = async (c) => {
  const { scope } = await scopeAtLocation(c);
  const { workerId, workingTimeOverride } = c.req.valid("json");
  const row = await claims.claim(c.var.db, scope, c.req.valid("param").id, workerId, workingTimeOverride);
  return c.json(await preferenceWire(c.var.db, scope, row), 201);
};

export const retract: AppRouteHandler<routes.RetractRoute> = async (c) => {
  const { scope } = await scopeAtLocation(c);
  const row = await claims.retractClaim(c.var.db, scope, c.req.valid("param").id, c.req.valid("json").workerId);
  return c.json(await preferenceWire(c.var.db, scope, row), 200);
};

export const createPreference: AppRouteHandler<routes.CreatePreferenceRoute> = async (c) => {
  const { scope } = await scopeAtLocation(c);
  const row = await claims.createPreference(c.var.db, scope, c.req.valid("param").id, c.req.valid("json"));
  return c.json(await preferenceWire(c.var.db, scope, row), 201);
};

export const retractPreference: AppRouteHandler<routes.RetractPreferenceRoute> = async (c) => {
  const { scope } = await scopeAtLocation(c);
  const { id, preferenceId } = c.req.valid("param");
  return c.json(await preferenceWire(c.var.db, scope, await preferences.retractPreference(c.var.db, scope, id, preferenceId)), 200);
};

export const patchPreference: AppRouteHandler<routes.PatchPreferenceRoute> = async (c) => {
  const { scope } = await scopeAtLocation(c);
  const { id, preferenceId } = c.req.valid("param");
  const row = await preferences.changePreference(c.var.db, scope, id, preferenceId, c.req.valid("json").preference);
  return c.json(await preferenceWire(c.var.db, scope, row), 200);
};

export const removePreference: AppRouteHandler<routes.RemovePreferenceRoute> = async (c) => {
  const scope = scheduleScope(c);
  const { id, preferenceId } = c.req.valid("param");
  return c.json(await preferenceWire(c.var.db, scope, await preferences.declinePreference(c.var.db, scope, id, preferenceId)), 200);
};

export const assign: AppRouteHandler<routes.AssignRoute> = async (c) => {
  const scope = scheduleScope(c);
  const { id, preferenceId } = c.req.valid("param");
  return c.json(await preferenceWire(c.var.db, scope, await assignments.assign(c.var.db, scope, id, preferenceId)), 200);
};

export const bulkAssign: AppRouteHandler<routes.BulkAssignRoute> = async (c) => {
  const scope = scheduleScope(c);
  const { preferenceIds, ignoreAvailability, workingTimeOverride } = c.req.valid("json");
  const rows = await assignments.bulkAssign(
    c.var.db,
    scope,
    c.req.valid("param").id,
    preferenceIds,
    ignoreAvailability,
    workingTimeOverride,
  );
  return c.json(await preferenceWires(c.var.db, scope, rows), 200);
};
