import { and, eq, sql, type SQL } from "drizzle-orm";
import { policyTypes, timeOffPolicies } from "../../../drizzle/schema";
import type { Database } from "../../lib/db";
import { notFound } from "../../lib/problem";
import { inOrganization } from "../../lib/tenancy";
import { assignedStaffCountSql } from "../time-off/inclusion-sql";
import { serializePolicy } from "./policies.schemas";

/** Policies with their type and assigned-staff count, one statement. */
export const selectPolicies = (db: Database, where: SQL | undefined) =>
  db
    .select({
      policy: timeOffPolicies,
      type: { id: policyTypes.id, name: policyTypes.name, type: policyTypes.type },
      assignedStaffCount: sql<number>`${assignedStaffCountSql("time_off_policies")}`,
    })
    .from(timeOffPolicies)
    .innerJoin(policyTypes, eq(policyTypes.id, timeOffPolicies.typeId))
    .where(where);

export type PolicyReadRow = Awaited<ReturnType<typeof selectPolicies>>[number];

export const serializePolicyRead = (row: PolicyReadRow) => serializePolicy(row.policy, row.type, row.assignedStaffCount);

export const policyWhere = (organizationId: string, policyId: string) =>
  and(inOrganization(timeOffPolicies, organizationId), eq(timeOffPolicies.id, policyId));

export async function findPolicy(db: Database, organizationId: string, policyId: string): Promise<PolicyReadRow> {
  const [row] = await selectPolicies(db, policyWhere(organizationId, policyId));
  if (!row) throw notFound("Policy");
  return row;
}
