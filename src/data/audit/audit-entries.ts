import { auditLog, events } from "@db/schema";
import { sql } from "drizzle-orm";
import type { Database, Statement } from "@/data/client";
import { sqlText } from "@/data/sql-literal";
import { type Actor, actorOf, DISPUTABLE_RESOURCE_TYPES } from "@/domain/audit";
import type { Principal } from "@/domain/permissions";
import { auditRequestOf } from "./audit-request";

/** The resource an event is about: the part of its type before the dot (`shift.break_started` → `shift`). */
const resourceType = sql`substr(e.type, 1, instr(e.type, '.') - 1)`;

/** The record's id in the event's data: the wire form's and a row's `id`, or a read's record under its own key. */
const resourceId = sql`coalesce(json_extract(e.data, '$.id'), json_extract(e.data, '$.request.id'),
  json_extract(e.data, '$.policy.id'), json_extract(e.data, '$.preference.id'))`;

/** The staff member the record is about (a shift's, a request's worker, a wage rate's…), in any of the forms. */
const staffMemberId = sql`coalesce(json_extract(e.data, '$.employeeId'), json_extract(e.data, '$.employee_id'),
  json_extract(e.data, '$.workerId'), json_extract(e.data, '$.worker_id'), json_extract(e.data, '$.request.worker_id'),
  json_extract(e.data, '$.staffMemberId'))`;

const DISPUTABLE = sql.join(
  DISPUTABLE_RESOURCE_TYPES.map((type) => sqlText(type)),
  sql`, `,
);

/** The previous entry of the same record (its `after` is this one's `before`). */
const previous = (column: "after_form" | "after") =>
  sql`(SELECT p.${sql.raw(column)} FROM audit_log p WHERE p.organization_id = x.organization_id AND p.resource_type = x.rt
    AND p.resource_id = x.rid AND p.sequence < x.sequence ORDER BY p.sequence DESC LIMIT 1)`;

/**
 * The audit entries of a write batch: one per event its statements recorded (each event's id lies in [id, id + "/"):
 * data/outbox eventStatement), with the principal, the request's operation and IP country, and for disputable records
 * the record before (the previous entry's after) and after (the event's data). Run in the batch after its events.
 * `who`: the request's principal, or the actor itself for a write with no person behind it (a background job's SYSTEM
 * actor, the operator's: domain/audit).
 */
export function auditStatement(db: Database, who: Principal | Actor, eventIds: readonly string[]): Statement {
  const actor = "type" in who ? who : actorOf(who);
  const request = auditRequestOf(db);
  const written = sql`SELECT e.id, e.organization_id, e.sequence, e.occurred_at, e.type, e.form, e.data,
      ${resourceType} AS rt, ${resourceId} AS rid, ${staffMemberId} AS sid
    FROM json_each(${JSON.stringify(eventIds)}) j JOIN ${events} e ON e.id >= j.value AND e.id < j.value || '/'`;
  return db.insert(auditLog).select(
    sql`SELECT x.id, x.organization_id, x.sequence, x.occurred_at, ${actor.type}, ${actor.id}, ${actor.deviceId},
      ${request?.operationId ?? null}, x.type, x.rt, x.rid, x.sid, ${request?.ipCountry ?? null},
      CASE WHEN x.rt IN (${DISPUTABLE}) THEN ${previous("after_form")} END,
      CASE WHEN x.rt IN (${DISPUTABLE}) THEN ${previous("after")} END,
      CASE WHEN x.rt IN (${DISPUTABLE}) THEN x.form END,
      CASE WHEN x.rt IN (${DISPUTABLE}) THEN x.data END
    FROM (${written}) x`,
  );
}
