import { requestNow } from "@/platform/http/clock";
import type { AppRouteHandler } from "@/platform/http/env";
import { pageOf } from "@/platform/http/pagination";
import type * as routes from "./attendance.routes";
import { serializeAttendanceException } from "./attendance.schemas";
import { encodeExceptionCursor, findException, listExceptions, resolveException } from "./attendance-exceptions.data";
import { patchSettings as patchStoredSettings, readSettings } from "./attendance-settings.data";

export const getSettings: AppRouteHandler<routes.GetSettingsRoute> = async (c) =>
  c.json(await readSettings(c.var.db, c.var.scope.organizationId), 200);

export const patchSettings: AppRouteHandler<routes.PatchSettingsRoute> = async (c) =>
  c.json(await patchStoredSettings(c.var, c.var.scope.organizationId, c.req.valid("json")), 200);

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const { organizationId, ownStaffMemberId } = c.var.scope;
  const query = c.req.valid("query");
  const rows = await listExceptions(c.var.db, organizationId, query, ownStaffMemberId);
  const page = pageOf(c, rows, query.limit, (last) => ({ cursor: encodeExceptionCursor(last) }));
  return c.json(page.map(serializeAttendanceException), 200);
};

export const get: AppRouteHandler<routes.GetRoute> = async (c) => {
  const { organizationId, ownStaffMemberId } = c.var.scope;
  return c.json(
    serializeAttendanceException(await findException(c.var.db, organizationId, c.req.valid("param").id, ownStaffMemberId)),
    200,
  );
};

export const resolve: AppRouteHandler<routes.ResolveRoute> = async (c) => {
  const row = await resolveException(c.var, c.var.scope.organizationId, c.req.valid("param").id, c.req.valid("json"), await requestNow(c));
  return c.json(serializeAttendanceException(row), 200);
};
