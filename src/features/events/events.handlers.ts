import { eventsInVersion, LATEST_API_VERSION, storedTypesOf } from "@/domain/api-versions";
import { serializeEvent } from "@/event-forms/serializers";
import type { AppRouteHandler } from "@/platform/http/env";
import { pageOf } from "@/platform/http/pagination";
import { eventsAfter } from "./events.data";
import type * as routes from "./events.routes";

export const list: AppRouteHandler<routes.ListRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const query = c.req.valid("query");
  const version = c.var.apiVersion ?? LATEST_API_VERSION;
  const types = query.types && storedTypesOf(query.types, version);
  const rows = await eventsAfter(c.var.db, organization_id, { ...query, types });
  const page = pageOf(c, rows, query.limit, (last) => ({ after: String(last.sequence) }));
  // The events as the request's API version has them (domain/api-versions), of the types asked for.
  const versioned = page.flatMap((row) => eventsInVersion(serializeEvent(row), version));
  return c.json(query.types ? versioned.filter((event) => query.types!.includes(event.type)) : versioned, 200);
};
