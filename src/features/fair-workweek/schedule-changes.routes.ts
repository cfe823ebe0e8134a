import { z } from "@hono/zod-openapi";
import { authorize } from "@/auth/authorize";
import { jsonContent, problems } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import { ScheduleChange, ScheduleChangeListParams, ScheduleChangeListQuery } from "@/wire/schedule-change.schemas";

const tags = ["Fair Workweek"];

export const list = defineRoute({
  method: "get",
  path: "/api/organizations/{organization_id}/schedule-changes",
  operationId: "listScheduleChanges",
  flags: { scope: "organization", list: true },
  tags,
  summary: "List schedule changes (Fair Workweek change log)",
  description:
    "Changes of published schedule entries recorded inside their location's notice window (at a location with a Fair " +
    "Workweek rule pack), whose entry date (the changed entry's original local date) is in [startDate, endDate] (at " +
    "most 92 days), by date then id, paged like every list: `limit` (1–500, default 100) and `cursor`, with " +
    '`Link: <…>; rel="next"` while more remain; `locationId` and `employeeId` filter. Each change is recorded in the ' +
    "batch of the write that made it: schedule create, update, delete and publish (entries first published inside the " +
    "window count as ADDED), open-shift assignments; an approved shift request is EMPLOYEE initiated and earns nothing. " +
    "`premium` is what the pack prices the change at (NYC fast food: $10 added/moved and $20 hours cut with 7–13 days' " +
    "notice; $15, $45 (≥ 24 h) or $75 (< 24 h) with less; Seattle: 1 h at the regular rate added, half the hours cut), " +
    "null when exempt, employee initiated or unpriced. Needs SCHEDULE_READ; a staff member without it lists their own.",
  middleware: [authorize("SCHEDULE_READ", { asThemself: true })] as const,
  request: { params: ScheduleChangeListParams, query: ScheduleChangeListQuery },
  responses: { 200: jsonContent(z.array(ScheduleChange), "The changes"), ...problems("ORGANIZATION_NOT_FOUND") },
});

export type ListRoute = typeof list;
