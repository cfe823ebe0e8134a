import { shiftAudits } from "@db/schema";
import { eq, type SQL, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { newId } from "@/data/ids";
import { SHIFT_AUDIT_SNAPSHOT as SNAPSHOT } from "@/data/shifts/shift-audit-snapshot.data";
import { shiftChanged } from "@/data/shifts/shifts.guards";
import { guard } from "@/data/write/guard";
import type { Principal } from "@/domain/permissions";

const snapshotOf = (shiftId: string) => sql`(SELECT ${SNAPSHOT} FROM shifts AS audited WHERE audited.id = ${shiftId})`;

export type AuditAction = "create" | "update" | "delete";

interface AuditEntry {
  id: string;
  organizationId: string;
  shiftId: string;
  action: AuditAction;
  principal: Principal;
  at: Date;
}

export const auditEntry = (fields: Omit<AuditEntry, "id">): AuditEntry => ({ id: newId(fields.at.getTime()), ...fields });

const auditRow = (entry: AuditEntry) => ({
  id: entry.id,
  organizationId: entry.organizationId,
  shiftId: entry.shiftId,
  action: entry.action,
  actorPartnerId: entry.principal.partnerId,
  actorStaffMemberId: entry.principal.staffMemberId,
  at: entry.at,
});

/**
 * shift_audits.shift_id of the "before" row: NULL unless the shift is still the version the handler read (same
 * updated_at, not deleted), so every check made on that read still holds when the write lands.
 */
export const auditedVersionRead = guard({
  column: shiftAudits.shiftId,
  problem: shiftChanged,
  sql: (entry: AuditEntry, expectedUpdatedAt: Date) =>
    sql`(SELECT id FROM shifts WHERE id = ${entry.shiftId} AND organization_id = ${entry.organizationId}
    AND deleted_at IS NULL AND updated_at = ${expectedUpdatedAt.getTime()})`,
});

/** Records the "before" of an update or delete, guarding the batch it opens with `auditedVersionRead`. */
export function auditBefore(db: Database, entry: AuditEntry, expectedUpdatedAt: Date) {
  const shiftId = auditedVersionRead.sql(entry, expectedUpdatedAt);
  return db.insert(shiftAudits).values({ ...auditRow(entry), shiftId, before: snapshotOf(entry.shiftId), after: null });
}

/** Records the "after" of a create (a new audit row) or an update (the row auditBefore opened). */
export function auditAfter(db: Database, entry: AuditEntry) {
  if (entry.action === "update") {
    return db
      .update(shiftAudits)
      .set({ after: snapshotOf(entry.shiftId) })
      .where(eq(shiftAudits.id, entry.id));
  }
  return db.insert(shiftAudits).values({ ...auditRow(entry), before: null, after: snapshotOf(entry.shiftId) });
}

/**
 * One "delete" audit row per live shift matching `where` (written over the alias `audited`), in one
 * INSERT … SELECT: no parameter per shift, so any number of shifts fits D1's 100-parameter cap. The SELECT
 * lists the table's columns in their declared order.
 */
export function auditDeletes(db: Database, batchId: string, principal: Principal, at: Date, where: SQL) {
  return db.insert(shiftAudits).select(sql`SELECT ${`${batchId}:`} || audited.id, audited.organization_id, audited.id,
      'delete', ${principal.partnerId}, ${principal.staffMemberId}, ${at.getTime()}, ${SNAPSHOT}, NULL
    FROM shifts AS audited WHERE ${where}`);
}
