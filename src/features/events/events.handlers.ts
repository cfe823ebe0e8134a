import { events } from "@db/schema";
import { and, asc, eq, gt, inArray } from "drizzle-orm";
import { serializeEvent } from "@/event-forms/serializers";
import type { AppRouteHandler } from "@/platform/http/env";
import { pageOf } from "@/platform/http/pagination";
import type * as routes from "./events.routes";

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const { after, types, limit } = c.req.valid("query");
  const rows = await c.var.db
    .select()
    .from(events)
    .where(and(eq(events.organizationId, organization_id), gt(events.sequence, after), types ? inArray(events.type, types) : undefined))
    .orderBy(asc(events.sequence))
    .limit(limit + 1);
  const page = pageOf(c, rows, limit, (last) => ({ after: String(last.sequence) }));
  return c.json(page.map(serializeEvent), 200);
};
