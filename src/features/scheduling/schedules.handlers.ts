import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import type { AppBindings } from "@/platform/http/env";
import { scheduleEntries } from "../../../drizzle/schema";
import { loadLocation, type ScheduleEnv, type ScheduleHandler } from "./schedule-access.guards";
import { bulkCopy as copyEntries } from "./schedule-copy.handlers";
import { entryPage, entryPageResult } from "./schedule-page.data";
import { publishRange } from "./schedule-publish.handlers";
import { startsWithin } from "./schedule-range.schemas";
import { createEntry, getEntry, patchEntry, removeEntry } from "./schedule-writes.data";
import type * as routes from "./schedules.routes";
import { type ScheduleListInput, serializeEntry } from "./schedules.schemas";

async function listEntries(c: Context<AppBindings & ScheduleEnv>, query: ScheduleListInput, isDraft: boolean) {
  const scope = c.var.schedule;
  const location = await loadLocation(c.var.db, scope);
  const page = entryPage(query);
  const rows = await c.var.db
    .select()
    .from(scheduleEntries)
    .where(
      and(
        eq(scheduleEntries.organizationId, scope.organizationId),
        eq(scheduleEntries.locationId, location.id),
        eq(scheduleEntries.isDraft, isDraft),
        startsWithin(scheduleEntries.startAt, query.cursor ? { endDate: query.endDate } : query, location.timezone),
        query.employeeId ? eq(scheduleEntries.employeeId, query.employeeId) : undefined,
        query.roleId ? eq(scheduleEntries.roleId, query.roleId) : undefined,
        page.where,
      ),
    )
    .orderBy(...page.orderBy)
    .limit(page.limit);
  return entryPageResult(c, rows, query.limit).map(serializeEntry);
}

export const list: ScheduleHandler<routes.ListRoute> = async (c) => c.json(await listEntries(c, c.req.valid("query"), false), 200);

export const listDrafts: ScheduleHandler<routes.ListDraftsRoute> = async (c) =>
  c.json(await listEntries(c, c.req.valid("query"), true), 200);

export const getOne: ScheduleHandler<routes.GetOneRoute> = async (c) => {
  await loadLocation(c.var.db, c.var.schedule);
  return c.json(serializeEntry(await getEntry(c, c.var.schedule, c.req.valid("param").id, false)), 200);
};

export const getDraft: ScheduleHandler<routes.GetDraftRoute> = async (c) =>
  c.json(serializeEntry(await getEntry(c, c.var.schedule, c.req.valid("param").id, true)), 200);

export const create: ScheduleHandler<routes.CreateRoute> = async (c) => {
  const location = await loadLocation(c.var.db, c.var.schedule);
  return c.json(serializeEntry(await createEntry(c, c.var.schedule, location, c.req.valid("json"), false)), 201);
};

export const createDraft: ScheduleHandler<routes.CreateDraftRoute> = async (c) => {
  const location = await loadLocation(c.var.db, c.var.schedule);
  return c.json(serializeEntry(await createEntry(c, c.var.schedule, location, c.req.valid("json"), true)), 201);
};

export const patch: ScheduleHandler<routes.PatchRoute> = async (c) =>
  c.json(serializeEntry(await patchEntry(c, c.var.schedule, c.req.valid("param").id, c.req.valid("json"), false)), 200);

export const patchDraft: ScheduleHandler<routes.PatchDraftRoute> = async (c) =>
  c.json(serializeEntry(await patchEntry(c, c.var.schedule, c.req.valid("param").id, c.req.valid("json"), true)), 200);

export const remove: ScheduleHandler<routes.RemoveRoute> = async (c) =>
  c.json(serializeEntry(await removeEntry(c, c.var.schedule, c.req.valid("param").id, false)), 200);

export const removeDraft: ScheduleHandler<routes.RemoveDraftRoute> = async (c) =>
  c.json(serializeEntry(await removeEntry(c, c.var.schedule, c.req.valid("param").id, true)), 200);

export const publish: ScheduleHandler<routes.PublishRoute> = async (c) => {
  const location = await loadLocation(c.var.db, c.var.schedule);
  return c.json(await publishRange(c.var, c.var.schedule, location, c.req.valid("json")), 200);
};

export const bulkCopy: ScheduleHandler<routes.BulkCopyRoute> = async (c) => {
  const location = await loadLocation(c.var.db, c.var.schedule);
  return c.json(await copyEntries(c.var, c.var.schedule, location, c.req.valid("json")), 200);
};
