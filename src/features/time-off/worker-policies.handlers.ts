import { findStaffMember } from "@/data/tenant-records";
import type { AppRouteHandler } from "@/platform/http/env";
import { pageResult } from "@/platform/http/pagination";
import type * as routes from "./policies.routes";
import { workerInScope } from "./self-scope.guards";
import { assertPolicy, balancesOfPolicy, balancesOfWorker, ledgerPage, serializeWorkerPolicy } from "./worker-policy-read.data";

/**
 * A policy's balances, one per live staff member (isIncluded says whether the rule or a choice includes them),
 * in staff id order. Read-only: a staff member without a worker policy row yet has a zero balance.
 */
export const listForPolicy: AppRouteHandler<routes.ListForPolicyRoute> = async (c) => {
  const { organization_id, policy_id } = c.req.valid("param");
  const query = c.req.valid("query");
  await assertPolicy(c.var.db, organization_id, policy_id);
  const rows = await balancesOfPolicy(c.var.db, organization_id, policy_id, query);
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
  const workerId = workerInScope(c.var.scope, query.workerId);
  const rows = await balancesOfWorker(c.var.db, organization_id, workerId, query);
  return c.json(pageResult(c, rows, query.limit).map(serializeWorkerPolicy), 200);
};

/** The balance's entries, oldest first (by effective date, then as written). */
export const ledger: AppRouteHandler<routes.LedgerRoute> = async (c) => {
  const { organization_id, policy_id, workerId } = c.req.valid("param");
  const { limit, cursor } = c.req.valid("query");
  const db = c.var.db;
  await Promise.all([assertPolicy(db, organization_id, policy_id), findStaffMember(db, organization_id, workerId)]);
  const rows = await ledgerPage(db, policy_id, workerId, { limit, cursor });
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
