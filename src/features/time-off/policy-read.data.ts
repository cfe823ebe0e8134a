import { policyTypes, timeOffPolicies } from "@db/schema";
import { and, eq, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { snapshotOf } from "@/data/outbox/snapshot";
import { inOrganization } from "@/data/tenancy";
import { assignedStaffCountSql } from "@/data/time-off/inclusion.data";
import { keysetPage } from "@/platform/http/pagination";
import type { ListOptions } from "@/platform/schemas/list-query";
import { notFound } from "@/problems/problem";
import { serializePolicy } from "./policies.schemas";

type PolicyRow = typeof timeOffPolicies.$inferSelect;

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

/** The organization's policy types, as the crud helpers (platform/crud) list and create them. */
export const policyTypeRecords = policyTypes;

/** The organization's policies, as the crud helpers (platform/crud) create them. */
export const policyRecords = timeOffPolicies;

/** A keyset page of the organization's policies as the API reads them, filtered: `limit + 1` rows (the handler's `pageResult`). */
export function policiesPage(
  db: Database,
  organizationId: string,
  query: ListOptions & { status?: PolicyRow["status"]; typeId?: string; locationId?: string },
) {
  const page = keysetPage(timeOffPolicies, query);
  return selectPolicies(
    db,
    and(
      inOrganization(timeOffPolicies, organizationId, { includeDeleted: query.includeDeleted }),
      page.where,
      query.status ? eq(timeOffPolicies.status, query.status) : undefined,
      query.typeId ? eq(timeOffPolicies.typeId, query.typeId) : undefined,
      query.locationId ? eq(timeOffPolicies.locationId, query.locationId) : undefined,
    ),
  )
    .orderBy(page.orderBy)
    .limit(page.limit);
}
