import { shiftAudits } from "@db/schema";
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "@/data/client";

const isoSql = (column: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', ${column} / 1000.0, 'unixepoch')`;
const isoOrNullSql = (column: string) => `CASE WHEN ${column} IS NULL THEN NULL ELSE ${isoSql(column)} END`;
const boolSql = (column: string) => `json(CASE WHEN ${column} THEN 'true' ELSE 'false' END)`;

/**
 * The shift row `audited` and its breaks as JSON, read inside the write's own batch: "before" is the row as the
 * change found it and "after" as it left it, whatever else ran concurrently. UTC instants, minutes, wage. D1 allows
 * 32 arguments per SQL function: the last two keys are added by json_insert (in order, after the first 15).
 */
export const SHIFT_AUDIT_SNAPSHOT = sql.raw(`json_insert(json_object(
  'id', audited.id, 'employeeId', audited.employee_id, 'locationId', audited.location_id, 'roleId', audited.role_id,
  'utcStartTime', ${isoSql("audited.start_at")}, 'utcEndTime', ${isoOrNullSql("audited.end_at")},
  'utcOffset', audited.utc_offset, 'businessDate', audited.business_date,
  'hourlyWage', CASE WHEN audited.salaried THEN NULL ELSE audited.hourly_wage END,
  'duration', audited.duration, 'totalPaidBreaks', audited.total_paid_breaks,
  'totalUnpaidBreaks', audited.total_unpaid_breaks, 'payableDuration', audited.payable_duration,
  'flags', json(audited.flags), 'manualEntry', ${boolSql("audited.manual_entry")}),
  '$.deletedAt', ${isoOrNullSql("audited.deleted_at")},
  '$.breaks', (SELECT json_group_array(json_object(
      'utcStartTime', ${isoSql("b.start_at")}, 'utcEndTime', ${isoOrNullSql("b.end_at")}, 'typeId', b.type_id,
      'name', b.name, 'paid', ${boolSql("b.paid")}, 'automatic', ${boolSql("b.automatic")}))
    FROM shift_breaks AS b WHERE b.shift_id = audited.id))`);

/** The audit rows a bulk write opened under `batchId` (ids `<batchId>:<shift id>`), by a range of the primary key. */
export const auditedInBatch = (batchId: string) => sql`id > ${`${batchId}:`} AND id < ${`${batchId};`}`;

/**
 * One "update" audit row per live shift matching `where` (written over the alias `audited`), its "before" taken now,
 * in one INSERT … SELECT with no parameter per shift (any number of shifts fits D1's 100-parameter cap). The SELECT
 * lists shift_audits' columns in their declared order. The shifts it opened are then `auditedInBatch(batchId)`'s
 * shift_id: the update that follows changes those, and auditUpdatesAfter records each one's "after".
 */
export const auditUpdatesBefore = (
  db: Database,
  audit: { batchId: string; partnerId: string; staffMemberId: string | null; at: Date },
  where: SQL,
) =>
  db.insert(shiftAudits).select(sql`SELECT ${`${audit.batchId}:`} || audited.id, audited.organization_id, audited.id,
      'update', ${audit.partnerId}, ${audit.staffMemberId}, ${audit.at.getTime()}, ${SHIFT_AUDIT_SNAPSHOT}, NULL
    FROM shifts AS audited WHERE ${where}`);

/** The "after" of every audit row auditUpdatesBefore opened under `batchId`. */
export const auditUpdatesAfter = (db: Database, batchId: string) =>
  db
    .update(shiftAudits)
    .set({ after: sql`(SELECT ${SHIFT_AUDIT_SNAPSHOT} FROM shifts AS audited WHERE audited.id = shift_audits.shift_id)` })
    .where(auditedInBatch(batchId));
