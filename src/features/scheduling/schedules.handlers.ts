import { jobFaultOf } from "@/data/jobs/jobs.data";
import { filesOf } from "@/data/shards";
import { requestNow } from "@/platform/http/clock";
import type { AppContext, AppRouteHandler } from "@/platform/http/env";
import { pageOf } from "@/platform/http/pagination";
import { serializeJob } from "@/wire/job.schemas";
import { eligibility as rankedEligibility } from "./eligibility.data";
import { scheduleScope, scopeAtLocation } from "./schedule-access.guards";
import { copyInRequestMax, planBulkCopy, writeCopies } from "./schedule-copy.data";
import { copyJobPageOf, startCopyJob } from "./schedule-copy-job.data";
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
  const { scope, location } = await scopeAtLocation(c);
  const plan = await planBulkCopy(c.var, scope, location, c.req.valid("json"));
  if (plan.rows.length <= copyInRequestMax(c.env)) {
    await writeCopies(c.var, scope.organizationId, location.id, plan.rows, plan);
    return c.json({ created: plan.rows.map(serializeEntry), skipped: plan.skipped }, 200);
  }
  // Larger: planned and checked now (a 4xx writes nothing), then a BULK job writes it a page of workers at a time.
  const job = await startCopyJob(
    c.var,
    filesOf(c.env, c.var.shard),
    c.env.BULK_WORKFLOW,
    scope.organizationId,
    location.id,
    { rows: plan.rows, skipped: plan.skipped.length },
    { pageCopies: copyJobPageOf(c.env), fault: jobFaultOf(c.env) },
  );
  return c.json(serializeJob(job), 202, { Location: `/api/organizations/${scope.organizationId}/jobs/${job.id}` });
};

export const eligibility: AppRouteHandler<routes.EligibilityRoute> = async (c) => {
  const { scope, location } = await scopeAtLocation(c);
  return c.json(await rankedEligibility(c.var.db, scope, location, c.req.valid("query")), 200);
};
