import { z } from "@hono/zod-openapi";
import { authorize } from "@/auth/authorize";
import { jsonContent, OrganizationParams, problems } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import { Event, EventsQuery } from "./events.schemas";

export const list = defineRoute({
  method: "get",
  path: "/api/organizations/{organization_id}/events",
  operationId: "listEvents",
  flags: { scope: "organization", list: true },
  tags: ["Events"],
  summary: "Retrieve the organization's events",
  description:
    "Every change the API made in the organization, in `sequence` order (it rises by exactly one per event, so a gap " +
    "never hides a change). Page with `after` = the last sequence you processed; while more remain, the response has " +
    'a `Link: <…>; rel="next"` header. Events are kept 30 days. Needs ORGANIZATION_ADMIN: the feed carries every ' +
    "area's records, wages included. In the request's API version (`Shiftline-Version`, else the partner's pinned " +
    "one): before 2026-12-06 a `schedule.published` comes without the publish's changes and, when it recorded any, is " +
    "followed by a `schedule_changes.recorded` carrying them (id `<event id>.changes`, the same sequence; it does not " +
    "count toward `limit`), which `types=schedule_changes.recorded` selects.",
  middleware: [authorize("ORGANIZATION_ADMIN")] as const,
  request: { params: OrganizationParams, query: EventsQuery },
  responses: { 200: jsonContent(z.array(Event), "Events, in sequence order"), ...problems() },
});

export type ListRoute = typeof list;
