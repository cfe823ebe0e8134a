import { encodeChangeCursor, listChanges } from "@/data/fair-workweek/schedule-changes.data";
import type { AppRouteHandler } from "@/platform/http/env";
import { pageOf } from "@/platform/http/pagination";
import { serializeScheduleChange } from "@/wire/schedule-change.schemas";
import type * as routes from "./schedule-changes.routes";

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const { organizationId, ownStaffMemberId } = c.var.scope;
  const query = c.req.valid("query");
  const rows = await listChanges(c.var.db, organizationId, query, ownStaffMemberId);
  const page = pageOf(c, rows, query.limit, (last) => ({ cursor: encodeChangeCursor(last) }));
  return c.json(page.map(serializeScheduleChange), 200);
};
