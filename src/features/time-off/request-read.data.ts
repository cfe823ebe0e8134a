import { policyTypes, staffMembers, timeOffPolicies, timeOffRequests, workerPolicies } from "@db/schema";
import { and, eq, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Database } from "@/data/client";
import { snapshotOf } from "@/data/outbox/snapshot";
import { inOrganization } from "@/data/tenancy";
import { hoursBalanceSql, includedSql, pendingHoursSql } from "@/data/time-off/inclusion.data";
import { inUnits } from "@/domain/time-off-units";
import { iso, isoOrNull } from "@/platform/schemas/time";
import { notFound } from "@/problems/problem";
import { serializePolicy } from "./policies.schemas";

const p = alias(timeOffPolicies, "p");
const wp = alias(workerPolicies, "wp");
const s = alias(staffMembers, "s");

/** What the API reads of a request: the request, its policy and type, and the worker's balance. */
export const requestFields = {
  request: timeOffRequests,
  policy: p,
  type: { id: policyTypes.id, name: policyTypes.name, type: policyTypes.type },
  included: sql<number>`${includedSql()}`,
  balance: sql<number>`${hoursBalanceSql}`,
  pending: sql<number>`${pendingHoursSql}`,
};

/** The API's read of requests; with `{ data }` (an event's snapshot of the same fields) only its SQL is used. */
const requestsWith = (db: Database, fields: typeof requestFields | { data: SQL.Aliased }, where: SQL | undefined) =>
  db
    .select(fields as typeof requestFields)
    .from(timeOffRequests)
    .innerJoin(p, eq(p.id, timeOffRequests.policyId))
    .innerJoin(policyTypes, eq(policyTypes.id, p.typeId))
    .innerJoin(wp, eq(wp.id, timeOffRequests.workerPolicyId))
    .innerJoin(s, eq(s.id, timeOffRequests.workerId))
    .where(where);

/** Requests with their policy, type and balance: one statement, whatever the page. */
export const selectRequests = (db: Database, where: SQL | undefined) => requestsWith(db, requestFields, where);

export type RequestReadRow = Awaited<ReturnType<typeof selectRequests>>[number];

/** A request's event: the same read, run in the write batch after the change, as one JSON value (event-forms/serializers). */
export const requestEventData = (db: Database, id: string, onlyIf?: SQL): { form: string; select: SQLWrapper } => ({
  form: "time_off_request",
  select: requestsWith(db, { data: snapshotOf(requestFields).as("data") }, and(eq(timeOffRequests.id, id), onlyIf)),
});

/** The request's own fields, as its row alone answers them. */
export function serializeRequestRecord(r: typeof timeOffRequests.$inferSelect) {
  return {
    id: r.id,
    organizationId: r.organizationId,
    workerId: r.workerId,
    policyId: r.policyId,
    locationId: r.locationId,
    startTime: iso(r.startAt),
    endTime: iso(r.endAt),
    status: r.status,
    note: r.note,
    hourConfiguration: r.hourConfiguration,
    timezone: r.timezone,
    utcOffset: r.utcOffset,
    isAllDay: r.isAllDay,
    submittedAt: iso(r.submittedAt),
    decidedAt: isoOrNull(r.decidedAt),
    declineReason: r.declineReason,
    totalHours: r.totalHours,
    workerPolicyId: r.workerPolicyId,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  };
}

export function serializeRequest(row: RequestReadRow) {
  const { workerPolicyId, ...record } = serializeRequestRecord(row.request);
  const { assignedStaffCount: _, ...policy } = serializePolicy(row.policy, row.type, 0);
  const available = inUnits(row.balance - row.pending, row.policy);
  return {
    ...record,
    policy,
    remainingBalance: available,
    workerPolicy: {
      id: workerPolicyId,
      name: row.policy.name,
      hoursBalance: inUnits(row.balance, row.policy),
      availableBalance: available,
      isIncluded: row.included === 1,
    },
  };
}

export async function findRequest(db: Database, organizationId: string, id: string): Promise<RequestReadRow> {
  const [row] = await selectRequests(db, and(inOrganization(timeOffRequests, organizationId), eq(timeOffRequests.id, id)));
  if (!row) throw notFound("Time off request");
  return row;
}
