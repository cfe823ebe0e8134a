import { staffMembers, timeOffLedger, timeOffPolicies, workerPolicies } from "@db/schema";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import { rawAll } from "@/data/raw-statement";
import { findLive } from "@/platform/crud/tenant-queries";
import type { AppRouteHandler } from "@/platform/http/env";
import { decodeIdCursor, pageResult } from "@/platform/http/pagination";
import type * as routes from "./policies.routes";
import { workerInScope } from "./self-scope.guards";
import { selectComputedWorkerPolicies, selectWorkerPolicies, serializeWorkerPolicy, type WorkerPolicyRow } from "./worker-policy-read.data";

const decodeCursor = (cursor: string | undefined) => (cursor ? decodeIdCursor(cursor) : "");

const since = (updatedSince: string | undefined) => (updatedSince ? sql`updated_at >= ${Date.parse(updatedSince)}` : sql`true`);

/**
 * A policy's balances, one per live staff member (isIncluded says whether the rule or a choice includes them),
 * in staff id order. Read-only: a staff member without a worker policy row yet has a zero balance.
 */
export const listForPolicy: AppRouteHandler<routes.ListForPolicyRoute> = async (c) => {
  const { organization_id, policy_id } = c.req.valid("param");
  const query = c.req.valid("query");
  const db = c.var.db;
  await findLive(db, timeOffPolicies, organization_id, policy_id, "Policy");
  const after = decodeCursor(query.cursor);
  const rows = await rawAll<WorkerPolicyRow>(
    db,
    selectComputedWorkerPolicies(
      organization_id,
      sql`p.id = ${policy_id} AND s.id > ${after}`,
      since(query.updatedSince),
      sql`worker_id`,
      query.limit + 1,
    ),
  );
  const page = pageResult(
    c,
    rows.map((r) => ({ ...r, id: r.worker_id, row: r })),
    query.limit,
  );
  return c.json(
    page.map((p) => serializeWorkerPolicy(p.row)),
    200,
  );
};

/** A worker's balances across the organization's live policies (read-only, as above), or every balance made so far. */
export const list: AppRouteHandler<routes.ListWorkerPoliciesRoute> = async (c) => {
  const { organization_id } = c.req.valid("param");
  const query = c.req.valid("query");
  const db = c.var.db;
  const workerId = workerInScope(c.var.scope, query.workerId);
  const after = decodeCursor(query.cursor);
  let rows: WorkerPolicyRow[];
  if (workerId) {
    await findLive(db, staffMembers, organization_id, workerId, "Staff member");
    rows = await rawAll<WorkerPolicyRow>(
      db,
      selectComputedWorkerPolicies(
        organization_id,
        sql`s.id = ${workerId}`,
        sql`id > ${after} AND ${since(query.updatedSince)}`,
        sql`id`,
        query.limit + 1,
      ),
    );
  } else {
    const updated = query.updatedSince ? sql` AND wp.updated_at >= ${Date.parse(query.updatedSince)}` : sql``;
    rows = await rawAll<WorkerPolicyRow>(
      db,
      selectWorkerPolicies(
        sql`wp.organization_id = ${organization_id} AND p.deleted_at IS NULL AND s.deleted_at IS NULL AND wp.id > ${after}${updated}`,
        sql`wp.id`,
        query.limit + 1,
      ),
    );
  }
  return c.json(pageResult(c, rows, query.limit).map(serializeWorkerPolicy), 200);
};

/** The balance's entries, oldest first (by effective date, then as written). */
export const ledger: AppRouteHandler<routes.LedgerRoute> = async (c) => {
  const { organization_id, policy_id, workerId } = c.req.valid("param");
  const { limit, cursor } = c.req.valid("query");
  const db = c.var.db;
  await Promise.all([
    findLive(db, timeOffPolicies, organization_id, policy_id, "Policy"),
    findLive(db, staffMembers, organization_id, workerId, "Staff member"),
  ]);
  const rows = await db
    .select({ id: timeOffLedger.id, entry: timeOffLedger })
    .from(timeOffLedger)
    .innerJoin(workerPolicies, eq(workerPolicies.id, timeOffLedger.workerPolicyId))
    .where(
      and(
        eq(workerPolicies.policyId, policy_id),
        eq(workerPolicies.workerId, workerId),
        cursor ? gt(timeOffLedger.id, decodeIdCursor(cursor)) : undefined,
      ),
    )
    .orderBy(asc(timeOffLedger.id))
    .limit(limit + 1);
  return c.json(
    pageResult(c, rows, limit).map(({ entry }) => ({
      id: entry.id,
      workerPolicyId: entry.workerPolicyId,
      kind: entry.kind,
      hours: entry.hours,
      effectiveDate: entry.effectiveDate,
      source: { type: entry.sourceType, id: entry.sourceId },
      createdAt: entry.createdAt.toISOString(),
    })),
    200,
  );
};
