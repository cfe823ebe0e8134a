import { requestNow } from "@/platform/http/clock";
import type { AppContext, AppRouteHandler } from "@/platform/http/env";
import { pageOf } from "@/platform/http/pagination";
import { eligibility as rankedEligibility } from "./eligibility.data";
import { scheduleScope, scopeAtLocation } from "./schedule-access.guards";
import { bulkCopy as copyEntries, copyInRequestMax } from "./schedule-copy.data";
import { builtEntryPage, nextEntryPage } from "./schedule-page.data";
import { publishRange } from "./schedule-publish.data";
import { createEntry, getEntry, patchEntry, removeEntry } from "./schedule-writes.data";
import type * as routes from "./schedules.routes";
import { type ScheduleListInput, serializeEntry } from "./schedules.schemas";
import { weekViewPage } from "./week-view.data";

async function listEntries(c: AppContext, query: ScheduleListInput, isDraft: boolean) {
  const { scope, location } = await scopeAtLocation(c);
  const { db } = c.var;
  const rows = await (weekViewPage(db, scope.organizationId, location, query, isDraft) ??
    builtEntryPage(db, scope.organizationId, location, query, isDraft));
  return pageOf(c, rows, query.limit, nextEntryPage).map(serializeEntry);
}

export const list: AppRouteHandler<routes.ListRoute> = async (c) => c.json(await listEntries(c, c.req.valid("query"), false), 200);

export const listDrafts: AppRouteHandler<routes.ListDraftsRoute> = async (c) =>
  c.json(await listEntries(c, c.req.valid("query"), true), 200);

export const getOne: AppRouteHandler<routes.GetOneRoute> = async (c) => {
  await scopeAtLocation(c);
  return c.json(serializeEntry(await getEntry(c, scheduleScope(c), c.req.valid("param").id, false)), 200);
};

export const getDraft: AppRouteHandler<routes.GetDraftRoute> = async (c) =>
  c.json(serializeEntry(await getEntry(c, scheduleScope(c), c.req.valid("param").id, true)), 200);

export const create: AppRouteHandler<routes.CreateRoute> = async (c) => {
  const { location } = await scopeAtLocation(c);
  return c.json(serializeEntry(await createEntry(c, scheduleScope(c), location, c.req.valid("json"), false, await requestNow(c))), 201);
};

export const createDraft: AppRouteHandler<routes.CreateDraftRoute> = async (c) => {
  const { location } = await scopeAtLocation(c);
  return c.json(serializeEntry(await createEntry(c, scheduleScope(c), location, c.req.valid("json"), true, await requestNow(c))), 201);
};

export const patch: AppRouteHandler<routes.PatchRoute> = async (c) =>
  c.json(
    serializeEntry(await patchEntry(c, scheduleScope(c), c.req.valid("param").id, c.req.valid("json"), false, await requestNow(c))),
    200,
  );

export const patchDraft: AppRouteHandler<routes.PatchDraftRoute> = async (c) =>
  c.json(
    serializeEntry(await patchEntry(c, scheduleScope(c), c.req.valid("param").id, c.req.valid("json"), true, await requestNow(c))),
    200,
  );

export const remove: AppRouteHandler<routes.RemoveRoute> = async (c) =>
  c.json(
    serializeEntry(await removeEntry(c, scheduleScope(c), c.req.valid("param").id, false, await requestNow(c), c.req.valid("query"))),
    200,
  );

export const removeDraft: AppRouteHandler<routes.RemoveDraftRoute> = async (c) =>
  c.json(serializeEntry(await removeEntry(c, scheduleScope(c), c.req.valid("param").id, true, await requestNow(c))), 200);

export const publish: AppRouteHandler<routes.PublishRoute> = async (c) => {
  const { location } = await scopeAtLocation(c);
  return c.json(await publishRange(c.var, scheduleScope(c), location, c.req.valid("json"), await requestNow(c)), 200);
};

export const bulkCopy: AppRouteHandler<routes.BulkCopyRoute> = async (c) => {
  const { location } = await scopeAtLocation(c);
  return c.json(await copyEntries(c.var, scheduleScope(c), location, c.req.valid("json"), copyInRequestMax(c.env)), 200);
};

export const eligibility: AppRouteHandler<routes.EligibilityRoute> = async (c) => {
  const { scope, location } = await scopeAtLocation(c);
  return c.json(await rankedEligibility(c.var.db, scope, location, c.req.valid("query")), 200);
};
