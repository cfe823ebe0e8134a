import { timeOffLedger, timeOffPolicies, workerPolicies } from "@db/schema";
import { and, asc, eq, gt, type SQL, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { rawAll } from "@/data/raw-statement";
import { findLive, findStaffMember } from "@/data/tenant-records";
import { hoursBalanceSql, includedSql, pendingHoursSql } from "@/data/time-off/inclusion.data";
import { inUnits } from "@/domain/time-off-units";
import { decodeIdCursor } from "@/platform/http/pagination";
import { iso } from "@/platform/schemas/time";

/** A worker policy as read with its balance: hours are the ledger's, before any unit conversion. */
export interface WorkerPolicyRow {
  id: string;
  policy_id: string;
  worker_id: string;
  updated_at: number;
  policy_name: string;
  units: string;
  full_day_duration: number;
  worker_name: string;
  external_id: string | null;
  external_payroll_id: string | null;
  included: number;
  balance: number;
  pending: number;
}

/** Worker policies (`wp`) with their policy (`p`), staff member (`s`), inclusion and balance, as `filters` pick. */
export const selectWorkerPolicies = (filters: SQL, orderBy: SQL, limit: number) =>
  sql`SELECT wp.id, wp.policy_id, wp.worker_id, wp.updated_at, p.name AS policy_name, p.units, p.full_day_duration,
      s.name AS worker_name, s.external_id, s.external_payroll_id, ${includedSql()} AS included,
      ${hoursBalanceSql} AS balance, ${pendingHoursSql} AS pending
    FROM worker_policies wp JOIN time_off_policies p ON p.id = wp.policy_id JOIN staff_members s ON s.id = wp.worker_id
    WHERE ${filters} ORDER BY ${orderBy} LIMIT ${limit}`;

/**
 * The id of the worker policy of (`p`, `s`): its row's, or for a balance with no row yet the id its row will be
 * made with (ensureWorkerPolicies), so a balance keeps one id from its first read.
 */
export const workerPolicyIdSql = (p = "p.id", s = "s.id"): SQL => sql.raw(`(${p} || ':' || ${s})`);

/**
 * Every balance of live staff `s` × live policies `p` of the organization, as `filters` (on s, p, wp) and `outer`
 * (on the answered columns) pick, read-only: a
 * (policy, worker) pair without a worker policy row yet is a zero balance included by the policy's rule.
 */
export const selectComputedWorkerPolicies = (organizationId: string, filters: SQL, outer: SQL, orderBy: SQL, limit: number) =>
  sql`SELECT * FROM (SELECT COALESCE(wp.id, ${workerPolicyIdSql()}) AS id, p.id AS policy_id, s.id AS worker_id,
      COALESCE(wp.updated_at, MAX(s.updated_at, p.updated_at)) AS updated_at, p.name AS policy_name, p.units,
      p.full_day_duration, s.name AS worker_name, s.external_id, s.external_payroll_id, ${includedSql()} AS included,
      ${hoursBalanceSql} AS balance, ${pendingHoursSql} AS pending
    FROM staff_members s JOIN time_off_policies p ON p.organization_id = s.organization_id
      LEFT JOIN worker_policies wp ON wp.policy_id = p.id AND wp.worker_id = s.id
    WHERE s.organization_id = ${organizationId} AND s.deleted_at IS NULL AND p.deleted_at IS NULL AND ${filters}) AS balance
    WHERE ${outer} ORDER BY ${orderBy} LIMIT ${limit}`;

const unitsOf = (row: WorkerPolicyRow) => ({ units: row.units, fullDayDuration: row.full_day_duration });

/** The balance fields of a worker policy, in its policy's units. */
export const balanceOf = (row: WorkerPolicyRow) => ({
  id: row.id,
  name: row.policy_name,
  hoursBalance: inUnits(row.balance, unitsOf(row)),
  availableBalance: inUnits(row.balance - row.pending, unitsOf(row)),
  isIncluded: row.included === 1,
});

export const serializeWorkerPolicy = (row: WorkerPolicyRow) => ({
  ...balanceOf(row),
  policyId: row.policy_id,
  workerId: row.worker_id,
  employee: { id: row.worker_id, externalEmployeeId: row.external_id, name: row.worker_name, payrollId: row.external_payroll_id },
  updatedAt: iso(new Date(row.updated_at)),
});

/** One worker policy with its balance, or undefined. */
export async function findWorkerPolicy(db: Database, policyId: string, workerId: string): Promise<WorkerPolicyRow | undefined> {
  const rows = await rawAll<WorkerPolicyRow>(
    db,
    selectWorkerPolicies(sql`wp.policy_id = ${policyId} AND wp.worker_id = ${workerId}`, sql`wp.id`, 1),
  );
  return rows[0];
}

const decodeCursor = (cursor: string | undefined) => (cursor ? decodeIdCursor(cursor) : "");

const since = (updatedSince: string | undefined) => (updatedSince ? sql`updated_at >= ${Date.parse(updatedSince)}` : sql`true`);

type BalancesQuery = { limit: number; cursor?: string; updatedSince?: string };

/** The live time-off policy of the organization, else 404 POLICY_NOT_FOUND. */
export const assertPolicy = (db: Database, organizationId: string, id: string) =>
  findLive(db, timeOffPolicies, organizationId, id, "Policy");

/** A page of a policy's balances, one per live staff member, by staff id: `limit + 1` rows (the handler's `pageResult`). */
export const balancesOfPolicy = (db: Database, organizationId: string, policyId: string, query: BalancesQuery) =>
  rawAll<WorkerPolicyRow>(
    db,
    selectComputedWorkerPolicies(
      organizationId,
      sql`p.id = ${policyId} AND s.id > ${decodeCursor(query.cursor)}`,
      since(query.updatedSince),
      sql`worker_id`,
      query.limit + 1,
    ),
  );

/**
 * A page of a worker's balances across the organization's live policies (404 for an unknown worker), or (no worker)
 * of every balance made so far: `limit + 1` rows (the handler's `pageResult`).
 */
export async function balancesOfWorker(db: Database, organizationId: string, workerId: string | undefined, query: BalancesQuery) {
  const after = decodeCursor(query.cursor);
  if (workerId) {
    await findStaffMember(db, organizationId, workerId);
    return rawAll<WorkerPolicyRow>(
      db,
      selectComputedWorkerPolicies(
        organizationId,
        sql`s.id = ${workerId}`,
        sql`id > ${after} AND ${since(query.updatedSince)}`,
        sql`id`,
        query.limit + 1,
      ),
    );
  }
  const updated = query.updatedSince ? sql` AND wp.updated_at >= ${Date.parse(query.updatedSince)}` : sql``;
  return rawAll<WorkerPolicyRow>(
    db,
    selectWorkerPolicies(
      sql`wp.organization_id = ${organizationId} AND p.deleted_at IS NULL AND s.deleted_at IS NULL AND wp.id > ${after}${updated}`,
      sql`wp.id`,
      query.limit + 1,
    ),
  );
}

/** A page of a balance's ledger entries, oldest first: `limit + 1` rows (the handler's `pageResult`). */
export const ledgerPage = (db: Database, policyId: string, workerId: string, page: { limit: number; cursor?: string }) =>
  db
    .select({ id: timeOffLedger.id, entry: timeOffLedger })
    .from(timeOffLedger)
    .innerJoin(workerPolicies, eq(workerPolicies.id, timeOffLedger.workerPolicyId))
    .where(
      and(
        eq(workerPolicies.policyId, policyId),
        eq(workerPolicies.workerId, workerId),
        page.cursor ? gt(timeOffLedger.id, decodeIdCursor(page.cursor)) : undefined,
      ),
    )
    .orderBy(asc(timeOffLedger.id))
    .limit(page.limit + 1);
