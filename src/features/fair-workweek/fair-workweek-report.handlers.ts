import type { AppRouteHandler } from "@/platform/http/env";
import { encodeIdCursor, pageOf } from "@/platform/http/pagination";
import { readReport } from "./fair-workweek-report.data";
import type * as routes from "./fair-workweek-report.routes";

export const report: AppRouteHandler<routes.ReportRoute> = async (c) => {
  const { organizationId, ownStaffMemberId } = c.var.scope;
  const query = c.req.valid("query");
  const { staffIds, build } = await readReport(c.var.db, organizationId, query, ownStaffMemberId);
  const page = pageOf(c, staffIds, query.limit, (last) => ({ cursor: encodeIdCursor(last) }));
  return c.json(await build(page), 200);
};
