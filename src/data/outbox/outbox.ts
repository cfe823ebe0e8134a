import { events } from "@db/schema";
import { getTableColumns, getTableName, type Placeholder, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database, Statement } from "@/data/client";
import { frozenHere } from "@/data/freezes";
import { newId } from "@/data/ids";
import { jsonOnce } from "@/data/json-once";
import { type Placeholders, prepared } from "@/data/prepared";
import { sqlText } from "@/data/sql-literal";
import { type Fields, rowSnapshot, snapshotOf } from "./snapshot";

export const EVENT_TYPES = [
  "shift.clocked_in",
  "shift.clocked_out",
  "shift.break_started",
  "shift.break_ended",
  "shift.created",
  "shift.updated",
  "shift.deleted",
  "timesheet.day_locked",
  "timesheet.day_unlocked",
  "staff_member.created",
  "staff_member.updated",
  "staff_member.deleted",
  "location.created",
  "location.updated",
  "location.deleted",
  "time_off_request.created",
  "time_off_request.approved",
  "time_off_request.declined",
  "time_off_request.cancelled",
  "time_off_policy.activated",
  "time_off_policy.deactivated",
  "schedule.published",
  "open_shift.created",
  "open_shift.claimed",
  "open_shift.assigned",
  "open_shift.retracted",
  "open_shift.updated",
  "open_shift.deleted",
  "open_shift.preference_created",
  "open_shift.preference_updated",
  "open_shift.preference_removed",
  "schedule_entry.created",
  "schedule_entry.updated",
  "schedule_entry.deleted",
  "time_off_request.updated",
  "time_off_policy.created",
  "time_off_policy.updated",
  "time_off_policy_type.created",
  "time_off_settings.updated",
  "organization.updated",
  "organization.deleted",
  "role.created",
  "role.updated",
  "role.deleted",
  "access_role.created",
  "access_role.updated",
  "access_role.deleted",
  "break_type.created",
  "break_type.updated",
  "break_type.deleted",
  "shift_note.created",
  "webhook.created",
  "webhook.updated",
  "webhook.deleted",
  "pay_rule_set.created",
  "pay_rule_set.updated",
  "pay_rule_set.deleted",
  "pay_period_settings.updated",
  "payroll_settings.updated",
  "timesheet.approved",
  "timesheet.unapproved",
  "pay_period.closed",
  "pay_period.reopened",
  "availability.created",
  "availability.updated",
  "availability.deleted",
  "shift_request.created",
  "shift_request.accepted",
  "shift_request.approved",
  "shift_request.declined",
  "shift_request.cancelled",
  "attendance_settings.updated",
  "attendance_exception.raised",
  "attendance_exception.resolved",
  "attendance_exception.reopened",
  "export.created",
  "export.succeeded",
  "export.failed",
  "job.created",
  "job.succeeded",
  "job.failed",
  "demand.updated",
  "labor_targets.updated",
  "wage_rate.created",
  "wage_rate.updated",
  "wage_rate.deleted",
  "cost_code.created",
  "cost_code.updated",
  "cost_code.deleted",
  "cost_code.assignments_updated",
  "location.fair_workweek_updated",
  "location.working_time_updated",
  "location.holidays_updated",
  "staff_member.good_faith_estimate_updated",
  "staff_member.meal_waivers_updated",
  "custom_field.created",
  "custom_field.updated",
  "custom_field.deleted",
  "device.created",
  "device.enrolled",
  "device.rotated",
  "device.revoked",
  "staff_member.pin_updated",
  "staff_member.pin_unlocked",
  "photo.created",
  "schedule_change.recorded",
  "consent.created",
  "test_clock.advanced",
  "webhook.disabled",
  "organization.moved",
  "time_off_policy.accrued",
  // Sent only by POST …/webhooks/{id}/test (sequence 0), never recorded in the feed.
  "webhook.test",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/**
 * Types no longer recorded (the webhooks document says since when and what replaces each): events recorded under
 * them before stay in the feed as they were, so the feed still names and filters them.
 */
export const REMOVED_EVENT_TYPES = ["schedule_changes.recorded"] as const;

/** Every type an event in the feed may carry: the recorded ones and the removed. */
export const FEED_EVENT_TYPES = [...EVENT_TYPES, ...REMOVED_EVENT_TYPES] as const;

/**
 * An event a write batch records with its change. Its `data` is either the resource as the API answers it, known
 * before the batch (`data`), or the row the batch wrote (`row`: a snapshot taken in the batch, right after the
 * write, serialized when read; see event-forms/serializers), or the API's own read of the resource run in the batch (`read`:
 * a `db.select({ data: snapshotOf(fields) })` of the joins the API reads, see data/outbox/snapshot). `whenChanged`:
 * recorded only if the statement just before it changed a row (a no-op write, e.g. locking a locked day or an update
 * whose conditions did not hold, records none); `when`: recorded only if this condition holds after the batch's
 * writes (for a batch whose last statement is not the change, e.g. schedule publish). `row` and `read` are recorded
 * only if the statement before them changed a row.
 */
export type EventSpec = {
  organizationId: string;
  occurredAt?: Date;
} & (
  | { type: EventType; data: unknown; whenChanged?: boolean; when?: SQL }
  | { type: EventType; row: { table: SQLiteTable; where: SQL; snapshot?: Snapshot } }
  /** `always`: recorded whatever the statement before it did (a batch whose guard already fails it unless it writes). */
  | { type: EventType; read: { form: string; select: SQLWrapper }; always?: boolean }
  /** One event per row `where` picks (after the batch's writes), typed per row by `typeOf`, in id order. */
  | { rows: RowsEvents }
  /** `rows` of the one row with this id, if the batch left it there: its statement built once per table and type. */
  | { type: EventType; rowById: { table: SQLiteTable; id: string } }
);

/** Instead of the row alone: `fields` (the row's table, correlated subqueries…) under the form `name` (event-forms/serializers). */
export interface Snapshot {
  form: string;
  fields: Fields;
}

export interface RowsEvents {
  table: SQLiteTable;
  where: SQL;
  typeOf: SQL;
  snapshot?: Snapshot;
}

/** The next sequence of the organization, read inside the batch: D1 runs a batch as one serialized transaction. */
const nextSequence = (organizationId: string | Placeholder) =>
  sql`coalesce((SELECT max(sequence) FROM events WHERE organization_id = ${organizationId}), 0) + 1`;

/** The form and data expression of a row's event: the row alone (form: its table's name), or a snapshot. */
const formOf = (table: SQLiteTable, snapshot?: Snapshot) =>
  snapshot ? sql`${snapshot.form}, ${snapshotOf(snapshot.fields)}` : sql`${getTableName(table)}, ${rowSnapshot(table)}`;

/**
 * The statement that records one event (an INSERT … SELECT listing the columns in declared order). `id`: the event's
 * id, or for `rows` and `rowById` the prefix of theirs (`<id>.<n>`): every id the statement records lies in
 * [id, id + "/") (the audit log finds a batch's events so: data/audit).
 */
export function eventStatement(db: Database, spec: EventSpec, id = newId()): Statement {
  if ("rows" in spec) return eventsOfRows(db, spec.organizationId, spec.occurredAt ?? new Date(), spec.rows, id);
  if ("rowById" in spec) return eventOfRowById(db, spec.organizationId, spec.occurredAt ?? new Date(), spec.type, spec.rowById, id);
  const occurredAt = (spec.occurredAt ?? new Date()).getTime();
  const fixed = sql`${id}, ${spec.organizationId}, ${nextSequence(spec.organizationId)}, ${spec.type}, ${occurredAt}`;
  if ("row" in spec) {
    const { table, where, snapshot } = spec.row;
    return db.insert(events).select(sql`SELECT ${fixed}, ${formOf(table, snapshot)} FROM ${table} WHERE ${where} AND changes() > 0`);
  }
  if ("read" in spec) {
    const when = spec.always ? sql`true` : sql`changes() > 0`;
    return db.insert(events).select(sql`SELECT ${fixed}, ${spec.read.form}, q.data FROM ${spec.read.select} q WHERE ${when}`);
  }
  // An answer recorded as its own event (a punch) is serialized once for both (data/json-once).
  const data = typeof spec.data === "object" && spec.data !== null ? jsonOnce(spec.data) : JSON.stringify(spec.data);
  if (spec.when) return db.insert(events).select(sql`SELECT ${fixed}, 'wire', ${data} WHERE ${spec.when}`);
  const wire = { id, organizationId: spec.organizationId, type: spec.type, occurredAt, data };
  return spec.whenChanged ? wireEventWhenChanged(db, wire) : wireEvent(db, wire);
}

/** An event whose data is known before the batch (the resource as the API answers it): built once per isolate. */
const wireEventStatement = (when: SQL) =>
  prepared((db, p: Placeholders<{ id: string; organizationId: string; type: string; occurredAt: number; data: string }>) =>
    db
      .insert(events)
      .select(
        sql`SELECT ${p.id}, ${p.organizationId}, ${nextSequence(p.organizationId)}, ${p.type}, ${p.occurredAt}, 'wire', ${p.data} ${when}`,
      ),
  );
const wireEvent = wireEventStatement(sql``);
const wireEventWhenChanged = wireEventStatement(sql`WHERE changes() > 0`);

/** Many events in one INSERT … SELECT: a fixed number of parameters, whatever the number of rows. */
function eventsOfRows(
  db: Database,
  organizationId: string,
  occurredAt: Date,
  { table, where, typeOf, snapshot }: RowsEvents,
  id = newId(),
): Statement {
  const prefix = `${id}.`;
  const position = sql`row_number() OVER (ORDER BY ${getTableColumns(table).id})`;
  return db.insert(events).select(
    sql`SELECT ${prefix} || ${position}, ${organizationId}, ${nextSequence(organizationId)} - 1 + ${position}, ${typeOf},
      ${occurredAt.getTime()}, ${formOf(table, snapshot)} FROM ${table} WHERE ${where}`,
  );
}

type RowEventValues = { eventId: string; organizationId: string; occurredAt: number; id: string };
const rowEventsById = new Map<string, (db: Database, values: RowEventValues) => Statement>();

/** eventsOfRows' statement for one id (its event id the same `<newId>.1`), built once per table, type and isolate. */
function eventOfRowById(
  db: Database,
  organizationId: string,
  occurredAt: Date,
  type: EventType,
  { table, id }: { table: SQLiteTable; id: string },
  eventId = newId(),
) {
  const key = `${getTableName(table)} ${type}`;
  let statement = rowEventsById.get(key);
  if (!statement) {
    const idColumn = (getTableColumns(table) as Record<string, SQLWrapper>).id!;
    statement = prepared((builder, p: Placeholders<RowEventValues>) =>
      builder.insert(events).select(
        sql`SELECT ${p.eventId}, ${p.organizationId}, ${nextSequence(p.organizationId)}, ${sqlText(type)}, ${p.occurredAt},
          ${formOf(table)} FROM ${table} WHERE ${idColumn} = ${p.id}`,
      ),
    );
    rowEventsById.set(key, statement);
  }
  return statement(db, { eventId: `${eventId}.1`, organizationId, occurredAt: occurredAt.getTime(), id });
}

/**
 * One event per row `where` picks, each recorded in its row's own organization with that organization's next
 * sequences (a background pass writing many organizations in one statement; requests use `eventStatement`).
 */
export function eventsOfRowsByOrganization(
  db: Database,
  occurredAt: Date,
  { table, where, typeOf, snapshot }: RowsEvents,
  /** The prefix of their ids (`<eventId>.<n>`): an audit statement of the same batch finds them by it (data/audit). */
  eventId = newId(),
): Statement {
  // Qualified by hand: drizzle writes a lone table's columns unqualified, which the subquery on events would capture.
  const column = (name: string) => sql`${table}.${sql.identifier(name)}`;
  const organizationId = column("organization_id");
  const id = column("id");
  const prefix = `${eventId}.`;
  const inOrganization = sql`row_number() OVER (PARTITION BY ${organizationId} ORDER BY ${id})`;
  return db.insert(events).select(
    sql`SELECT ${prefix} || row_number() OVER (ORDER BY ${id}), ${organizationId},
      coalesce((SELECT max(e.sequence) FROM events e WHERE e.organization_id = ${organizationId}), 0) + ${inOrganization},
      ${typeOf}, ${occurredAt.getTime()}, ${formOf(table, snapshot)} FROM ${table} WHERE ${where}`,
  );
}

/**
 * Cron: events older than 30 days go, except each organization's last (it carries the sequence on), and except an
 * organization frozen on this database (a move is copying and comparing its rows: src/shards).
 */
export const purgeExpiredEvents = (db: Database, now = new Date()) =>
  db.run(sql`DELETE FROM events WHERE occurred_at < ${now.getTime() - 30 * 24 * 3600 * 1000}
    AND sequence < (SELECT max(sequence) FROM events e WHERE e.organization_id = events.organization_id)
    AND NOT ${frozenHere(sql`events.organization_id`)}`);
