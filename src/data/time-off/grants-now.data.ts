import { organizations } from "@db/schema";
import { timeOffPolicies } from "@db/schema/time-off";
import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { Database, Statement } from "@/data/client";
import { rawRun } from "@/data/raw-statement";
import type { LimitSettings } from "@/domain/accrual";
import { entriesDue } from "@/domain/accrual";
import { includedSql, sqlUuid } from "./inclusion.data";
import { ensureWorkerPolicies } from "./worker-policy-rows.data";

/** The staff members with these ids, for `grantsDueNow`. */
export const staffWithIds = (ids: string[]): SQL => sql`SELECT value AS id FROM json_each(${JSON.stringify(ids)})`;

/** The organization's staff members with these external ids (a sync's records), for `grantsDueNow`. */
export const staffWithExternalIds = (organizationId: string, externalIds: string[]): SQL =>
  sql`SELECT id FROM staff_members WHERE organization_id = ${organizationId}
    AND external_id IN (SELECT value FROM json_each(${JSON.stringify(externalIds)}))`;

/**
 * The grants of staff members a write creates or changes (create, sync, a PATCH of what inclusion reads): one round
 * trip reads the organization's Active policies and zone (run it beside the write's other reads), then
 * `grantsDueNow` for those members.
 */
export async function grantsForStaff(db: Database, organizationId: string, workers: SQL, now: Date): Promise<Statement[]> {
  const [policies, [organization]] = await db.batch([
    activePolicies(db, organizationId),
    db.select({ timezone: organizations.timezone }).from(organizations).where(eq(organizations.id, organizationId)),
  ]);
  return grantsDueNow(db, organizationId, policies, organization?.timezone ?? "UTC", now, workers);
}

/** What of a policy decides its grants. */
export interface GrantingPolicy {
  id: string;
  limitSettings: LimitSettings;
  fullDayDuration: number;
}

/** The organization's Active policies, for a write that may make a staff member newly included in them. */
export const activePolicies = (db: Database, organizationId: string) =>
  db
    .select({ id: timeOffPolicies.id, limitSettings: timeOffPolicies.limitSettings, fullDayDuration: timeOffPolicies.fullDayDuration })
    .from(timeOffPolicies)
    .where(
      and(eq(timeOffPolicies.organizationId, organizationId), eq(timeOffPolicies.status, "Active"), isNull(timeOffPolicies.deletedAt)),
    );

/**
 * The balance a policy grants the moment it starts to include a worker (its activation, an inclusion, a new or
 * changed staff member its rule matches): the entries due at that moment (the up-front grant, the current period's
 * accrual), written in the batch of the change that included them. Each carries the period key the Cron's accrual
 * pass gives it, under the ledger's unique source index, so the pass (the safety net) never adds it twice and a
 * worker already granted gets nothing. Put these after the statements that make the inclusion true: inclusion is
 * read when they run. `workers` narrows them to a SELECT of staff ids (see `staffWithIds`, `staffWithExternalIds`;
 * default: every live staff member of the organization).
 */
export function grantsDueNow(
  db: Database,
  organizationId: string,
  policies: GrantingPolicy[],
  timeZone: string,
  now: Date,
  workers?: SQL,
): Statement[] {
  const staff: SQL = workers ?? sql`SELECT id FROM staff_members WHERE organization_id = ${organizationId} AND deleted_at IS NULL`;
  return policies.flatMap((policy) => {
    const due = entriesDue({ ...policy, carryoverLimit: null }, now, now, timeZone).accruals;
    if (due.length === 0) return [];
    const entries = JSON.stringify(due.map((e) => ({ h: e.hours, d: e.effectiveDate, k: e.periodKey })));
    return [
      ensureWorkerPolicies(db, organizationId, sql`SELECT ${policy.id} AS policy_id, id AS worker_id FROM (${staff})`, now.getTime()),
      rawRun(
        db,
        sql`INSERT INTO time_off_ledger (id, organization_id, worker_policy_id, kind, hours, effective_date, source_type, source_id, created_at)
          SELECT ${sqlUuid}, wp.organization_id, wp.id, 'accrual', json_extract(e.value, '$.h'), json_extract(e.value, '$.d'), 'period',
            json_extract(e.value, '$.k'), ${now.getTime()}
          FROM worker_policies wp JOIN staff_members s ON s.id = wp.worker_id JOIN time_off_policies p ON p.id = wp.policy_id,
            json_each(${entries}) e
          WHERE wp.policy_id = ${policy.id} AND wp.worker_id IN (${staff}) AND p.status = 'Active' AND p.deleted_at IS NULL
            AND s.deleted_at IS NULL AND ${includedSql()}
          ON CONFLICT (worker_policy_id, kind, source_type, source_id) DO NOTHING`,
      ),
    ];
  });
}
