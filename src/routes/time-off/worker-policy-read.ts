import { sql, type SQL } from "drizzle-orm";
import type { Database } from "../../lib/db";
import { inUnits } from "../../domain/time-off-units";
import { iso } from "../../lib/time";
import { rawAll } from "../../lib/raw-statement";
import { hoursBalanceSql, includedSql, pendingHoursSql } from "./inclusion-sql";

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
  const rows = await rawAll<WorkerPolicyRow>(db, selectWorkerPolicies(sql`wp.policy_id = ${policyId} AND wp.worker_id = ${workerId}`, sql`wp.id`, 1));
  return rows[0];
}
