import { serializeEvent } from "@/event-forms/serializers";
import type { AppRouteHandler } from "@/platform/http/env";
import { pageOf } from "@/platform/http/pagination";
import { eventsAfter } from "./events.data";
import type * as routes from "./events.routes";

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const query = c.req.valid("query");
  const rows = await eventsAfter(c.var.db, organization_id, query);
  const page = pageOf(c, rows, query.limit, (last) => ({ after: String(last.sequence) }));
  return c.json(page.map(serializeEvent), 200);
};
