import { consents, scheduleEntries, staffMembers } from "@db/schema";
import { and, eq } from "drizzle-orm";
import type { Database } from "@/data/client";
import { inOrganization } from "@/data/tenancy";
import type { Scope } from "@/domain/scope";
import { insertRecord, readPage, type WriteContext } from "@/platform/crud/tenant-queries";
import type { ListOptions } from "@/platform/schemas/list-query";
import { forbidden, invalidField, notFound } from "@/problems/problem";

/** The staff member a consent route names: live in the organization (404 otherwise). */
async function staffMemberOf(db: Database, organizationId: string, id: string) {
  const [row] = await db
    .select({ id: staffMembers.id })
    .from(staffMembers)
    .where(and(inOrganization(staffMembers, organizationId), eq(staffMembers.id, id)));
  if (!row) throw notFound("Staff member");
  return row;
}

/** POST …/staffmembers/{id}/consents: only the worker's own token gives their consent (a manager's is 403). */
export async function createConsent(
  c: WriteContext,
  scope: Scope,
  employeeId: string,
  body: { kind: "REST" | "ADDED_HOURS"; scheduleEntryId?: string | undefined; note?: string | undefined },
) {
  await staffMemberOf(c.var.db, scope.organizationId, employeeId);
  if (body.scheduleEntryId !== undefined) {
    const [entry] = await c.var.db
      .select({ id: scheduleEntries.id })
      .from(scheduleEntries)
      .where(
        and(
          inOrganization(scheduleEntries, scope.organizationId),
          eq(scheduleEntries.id, body.scheduleEntryId),
          eq(scheduleEntries.employeeId, employeeId),
        ),
      );
    if (!entry) throw invalidField("scheduleEntryId", "not a schedule entry of this staff member");
  }
  if (scope.principal.staffMemberId !== employeeId) throw forbidden("Only the staff member's own token gives their consent.");
  return insertRecord(
    c,
    consents,
    scope.organizationId,
    { employeeId, kind: body.kind, scheduleEntryId: body.scheduleEntryId ?? null, note: body.note ?? null },
    "consent.created",
  );
}

/**
 * GET …/staffmembers/{id}/consents: a keyset page of their consents (the worker's own, or anyone's with
 * EMPLOYEE_READ), read with its extra row (the handler's `pageResult`).
 */
export async function listConsents(db: Database, scope: Scope, employeeId: string, query: ListOptions) {
  await staffMemberOf(db, scope.organizationId, employeeId);
  return readPage(db, consents, scope.organizationId, query, eq(consents.employeeId, employeeId));
}
