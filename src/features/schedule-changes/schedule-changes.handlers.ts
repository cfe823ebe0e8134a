import type { AppRouteHandler } from "@/platform/http/env";
import { pageOf } from "@/platform/http/pagination";
import { encodeChangeCursor, listChanges } from "./schedule-changes.data";
import type * as routes from "./schedule-changes.routes";
import { serializeScheduleChange } from "./schedule-changes.schemas";

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const { organizationId, ownStaffMemberId } = c.var.scope;
  const query = c.req.valid("query");
  const rows = await listChanges(c.var.db, organizationId, query, ownStaffMemberId);
  const page = pageOf(c, rows, query.limit, (last) => ({ cursor: encodeChangeCursor(last) }));
  return c.json(page.map(serializeScheduleChange), 200);
};
