import { filesOf } from "@/data/shards";
import type { AppRouteHandler } from "@/platform/http/env";
import { linkNext } from "@/platform/http/pagination";
import { qualifiedOvertimeReport } from "./qualified-overtime.data";
import type { QualifiedOvertimeRoute } from "./qualified-overtime.routes";

export const qualifiedOvertime: AppRouteHandler<QualifiedOvertimeRoute> = async (c) => {
  const answer = await qualifiedOvertimeReport(
    c.var.db,
    filesOf(c.env, c.var.shard),
    c.req.valid("param").organization_id,
    c.req.valid("query"),
  );
  return c.json(linkNext(c, answer), 200);
};
