import { policyTypes, timeOffPolicies } from "@db/schema";
import { and, eq, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { snapshotOf } from "@/data/outbox/snapshot";
import { inOrganization } from "@/data/tenancy";
import { assignedStaffCountSql } from "@/data/time-off/inclusion.data";
import { notFound } from "@/problems/problem";
import { serializePolicy } from "./policies.schemas";

/** What the API reads of a policy: the policy, its type and its assigned-staff count. */
export const policyFields = {
  policy: timeOffPolicies,
  type: { id: policyTypes.id, name: policyTypes.name, type: policyTypes.type },
  assignedStaffCount: sql<number>`${assignedStaffCountSql("time_off_policies")}`,
};

/** The API's read of policies; with `{ data }` (an event's snapshot of the same fields) only its SQL is used. */
const policiesWith = (db: Database, fields: typeof policyFields | { data: SQL.Aliased }, where: SQL | undefined) =>
  db
    .select(fields as typeof policyFields)
    .from(timeOffPolicies)
    .innerJoin(policyTypes, eq(policyTypes.id, timeOffPolicies.typeId))
    .where(where);

/** Policies with their type and assigned-staff count, one statement. */
export const selectPolicies = (db: Database, where: SQL | undefined) => policiesWith(db, policyFields, where);

/** A policy's event: the same read, run in the write batch after the change, as one JSON value (event-forms/serializers). */
export const policyEventData = (db: Database, policyId: string): { form: string; select: SQLWrapper } => ({
  form: "time_off_policy",
  select: policiesWith(db, { data: snapshotOf(policyFields).as("data") }, eq(timeOffPolicies.id, policyId)),
});

export type PolicyReadRow = Awaited<ReturnType<typeof selectPolicies>>[number];

export const serializePolicyRead = (row: PolicyReadRow) => serializePolicy(row.policy, row.type, row.assignedStaffCount);

export const policyWhere = (organizationId: string, policyId: string) =>
  and(inOrganization(timeOffPolicies, organizationId), eq(timeOffPolicies.id, policyId));

export async function findPolicy(db: Database, organizationId: string, policyId: string): Promise<PolicyReadRow> {
  const [row] = await selectPolicies(db, policyWhere(organizationId, policyId));
  if (!row) throw notFound("Policy");
  return row;
}
