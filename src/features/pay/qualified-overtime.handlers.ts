import type { AppRouteHandler } from "@/platform/http/env";
import { linkNext } from "@/platform/http/pagination";
import { qualifiedOvertimeReport } from "./qualified-overtime.data";
import type { QualifiedOvertimeRoute } from "./qualified-overtime.routes";

export const qualifiedOvertime: AppRouteHandler<QualifiedOvertimeRoute> = async (c) => {
  const answer = await qualifiedOvertimeReport(c.var.db, c.env.FILES, c.req.valid("param").organization_id, c.req.valid("query"));
  return c.json(linkNext(c, answer), 200);
};
