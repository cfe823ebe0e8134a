import { availabilities, availabilityOccurrences, organizations, staffMembers } from "@db/schema";
import { and, eq, isNull, lte, sql } from "drizzle-orm";
import { chunk } from "@/data/chunk";
import type { Database, Statement } from "@/data/client";
import { newId } from "@/data/ids";
import { jsonArrayContains } from "@/data/json-list";
import { guard } from "@/data/write/guard";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import { type AvailabilityRule, availabilityProblems, expandAvailability, materializedOccurrences } from "@/domain/availability";
import { calendarRangeProblem } from "@/domain/calendar-range";
import { addDays } from "@/domain/local-time";
import { type IfMatch, nextVersionAfter, requireVersion } from "@/platform/http/conditional";
import { decodeKeyCursor, encodeKeyCursor } from "@/platform/http/pagination";
import { iso } from "@/platform/schemas/time";
import { invalidField, notFound, preconditionFailed, validationFailed } from "@/problems/problem";
import { type AvailabilityCreateInput, type AvailabilityPatchInput, serializeAvailability } from "./availability.schemas";

type AvailabilityRow = typeof availabilities.$inferSelect;

/** The longest range one expansion answers. */
export const MAX_RANGE_DAYS = 92;
/** availability_id (a guard of 2 parameters), organization_id, employee_id, type, start_at, end_at: 12 rows = 96 parameters. */
const OCCURRENCES_PER_STATEMENT = 12;

const ruleOf = (row: Pick<AvailabilityRow, "startTime" | "endTime" | "timezone" | "recurrence">): AvailabilityRule => ({
  startTime: row.startTime,
  endTime: row.endTime,
  timezone: row.timezone,
  recurrence: row.recurrence,
});

/**
 * availability_occurrences.availability_id: the rule's id only while the rule is the version this write made, so a
 * stale edit writes no occurrence (412).
 */
const occurrencesOfVersion = guard({
  column: availabilityOccurrences.availabilityId,
  problem: preconditionFailed,
  sql: (row: AvailabilityRow) =>
    sql`(SELECT id FROM availabilities WHERE id = ${row.id} AND updated_at = ${row.updatedAt.getTime()} AND deleted_at IS NULL)`,
});

/** The occurrence rows of an availability, written out in chunked multi-row INSERTs, each guarded by `occurrencesOfVersion`. */
function occurrenceStatements(db: Database, row: AvailabilityRow): Statement[] {
  const written = occurrencesOfVersion.sql(row);
  const rows = materializedOccurrences(ruleOf(row)).map((o) => ({
    availabilityId: written as unknown as string,
    organizationId: row.organizationId,
    employeeId: row.employeeId,
    type: row.type,
    startAt: o.utcStartTime.getTime(),
    endAt: o.utcEndTime.getTime(),
  }));
  // Two occurrences starting at one instant (a fall-back hour read twice) are one.
  const unique = [...new Map(rows.map((r) => [r.startAt, r])).values()];
  return chunk(unique, OCCURRENCES_PER_STATEMENT).map((part) => db.insert(availabilityOccurrences).values(part).onConflictDoNothing());
}

function checked(rule: AvailabilityRule) {
  const problems = availabilityProblems(rule);
  if (problems.length) throw validationFailed(problems);
}

/** The staff member (404 when not in the organization) and the organization's time zone, in one round trip. */
async function staffAndZone(db: Database, organizationId: string, employeeId: string) {
  const [[staff], [organization]] = await db.batch([
    db
      .select({ id: staffMembers.id })
      .from(staffMembers)
      .where(and(eq(staffMembers.organizationId, organizationId), eq(staffMembers.id, employeeId), isNull(staffMembers.deletedAt))),
    db.select({ timezone: organizations.timezone }).from(organizations).where(eq(organizations.id, organizationId)),
  ]);
  if (!staff) throw notFound("Staff member");
  return organization?.timezone ?? "UTC";
}

/** Pages of a staff member's rules follow (start_time, id): by first occurrence. */
export const encodeRuleCursor = (row: Pick<AvailabilityRow, "startTime" | "id">) => encodeKeyCursor(row.startTime.getTime(), row.id);

function decodeRuleCursor(cursor: string) {
  const [ms, id] = decodeKeyCursor(cursor, /^(-?\d{1,15})\|([0-9A-Za-z-]{1,64})$/);
  return { startTime: Number(ms), id: id! };
}

/** One page (limit + 1 rows, so the caller knows whether more remain) of a staff member's live rules, after the cursor. */
export async function listOfStaff(db: Database, organizationId: string, employeeId: string, page: { limit: number; cursor?: string }) {
  const after = page.cursor ? decodeRuleCursor(page.cursor) : null;
  await staffAndZone(db, organizationId, employeeId);
  return db
    .select()
    .from(availabilities)
    .where(
      and(
        eq(availabilities.employeeId, employeeId),
        eq(availabilities.organizationId, organizationId),
        isNull(availabilities.deletedAt),
        after ? sql`(${availabilities.startTime}, ${availabilities.id}) > (${after.startTime}, ${after.id})` : undefined,
      ),
    )
    .orderBy(availabilities.startTime, availabilities.id)
    .limit(page.limit + 1);
}

export async function findAvailability(db: Database, organizationId: string, employeeId: string, id: string): Promise<AvailabilityRow> {
  const [row] = await db
    .select()
    .from(availabilities)
    .where(
      and(
        eq(availabilities.id, id),
        eq(availabilities.employeeId, employeeId),
        eq(availabilities.organizationId, organizationId),
        isNull(availabilities.deletedAt),
      ),
    );
  if (!row) throw notFound("Availability");
  return row;
}

export async function createAvailability(writer: Writer, organizationId: string, employeeId: string, body: AvailabilityCreateInput) {
  const { db } = writer;
  const zone = await staffAndZone(db, organizationId, employeeId);
  const now = new Date();
  const row: AvailabilityRow = {
    id: newId(now.getTime()),
    organizationId,
    employeeId,
    type: body.type,
    startTime: new Date(body.startTime),
    endTime: new Date(body.endTime),
    timezone: body.timezone ?? zone,
    recurrence: body.recurrence,
    note: body.note,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
  checked(ruleOf(row));
  await guardedBatch(writer, [db.insert(availabilities).values(row), ...occurrenceStatements(db, row)], [], {
    events: [{ type: "availability.created", organizationId, occurredAt: now, data: serializeAvailability(row) }],
  });
  return row;
}

/** The update of the version read, its occurrences written again; a concurrent change is 412. */
async function rewrite(writer: Writer, was: AvailabilityRow, row: AvailabilityRow, type: "availability.updated" | "availability.deleted") {
  const { db } = writer;
  const occurrences = row.deletedAt ? [] : occurrenceStatements(db, row);
  const [result] = await guardedBatch(
    writer,
    [
      db
        .update(availabilities)
        .set({ ...row, id: undefined })
        .where(and(eq(availabilities.id, was.id), eq(availabilities.updatedAt, was.updatedAt), isNull(availabilities.deletedAt))),
      // Only when the update above changed the row (a stale one leaves the occurrences as they were).
      db
        .delete(availabilityOccurrences)
        .where(
          and(
            eq(availabilityOccurrences.availabilityId, was.id),
            sql`EXISTS (SELECT 1 FROM availabilities WHERE id = ${was.id} AND updated_at = ${row.updatedAt.getTime()})`,
          ),
        ),
      ...occurrences,
    ],
    [occurrencesOfVersion],
    {
      events: [
        {
          type,
          organizationId: was.organizationId,
          occurredAt: row.updatedAt,
          data: serializeAvailability(row),
          when: sql`EXISTS (SELECT 1 FROM availabilities WHERE id = ${was.id} AND updated_at = ${row.updatedAt.getTime()})`,
        },
      ],
    },
  );
  if (result.meta.changes === 0) throw preconditionFailed();
}

export async function patchAvailability(
  writer: Writer,
  organizationId: string,
  employeeId: string,
  id: string,
  body: AvailabilityPatchInput,
  ifMatch: IfMatch,
) {
  const was = await findAvailability(writer.db, organizationId, employeeId, id);
  requireVersion(ifMatch, was);
  const row: AvailabilityRow = {
    ...was,
    type: body.type ?? was.type,
    startTime: body.startTime ? new Date(body.startTime) : was.startTime,
    endTime: body.endTime ? new Date(body.endTime) : was.endTime,
    timezone: body.timezone ?? was.timezone,
    recurrence: body.recurrence === undefined ? was.recurrence : body.recurrence,
    note: body.note === undefined ? was.note : body.note,
    updatedAt: nextVersionAfter(was),
  };
  checked(ruleOf(row));
  await rewrite(writer, was, row, "availability.updated");
  return row;
}

export async function deleteAvailability(writer: Writer, organizationId: string, employeeId: string, id: string, ifMatch: IfMatch) {
  const was = await findAvailability(writer.db, organizationId, employeeId, id);
  requireVersion(ifMatch, was);
  const now = nextVersionAfter(was);
  const row: AvailabilityRow = { ...was, updatedAt: now, deletedAt: now };
  await rewrite(writer, was, row, "availability.deleted");
  return row;
}

type ExpandedOccurrence = {
  availabilityId: string;
  employeeId: string;
  type: "UNAVAILABLE" | "PREFERRED";
  startTime: string;
  endTime: string;
  utcStartTime: string;
  utcEndTime: string;
};

/**
 * The expansion's order key, (utcStartTime, availabilityId): unique, as a rule has at most one occurrence a local
 * day. Its instant is a fixed-width ISO string, so text order is time order.
 */
const orderKey = (o: Pick<ExpandedOccurrence, "utcStartTime" | "availabilityId">) => `${o.utcStartTime}|${o.availabilityId}`;

export const encodeOccurrenceCursor = (o: ExpandedOccurrence) => encodeKeyCursor(new Date(o.utcStartTime).getTime(), o.availabilityId);

function decodeOccurrenceCursor(cursor: string): string {
  const [ms, availabilityId] = decodeKeyCursor(cursor, /^(-?\d{1,15})\|([0-9A-Za-z-]{1,64})$/);
  const at = new Date(Number(ms));
  if (Number.isNaN(at.getTime())) throw invalidField("cursor", "not a cursor from this list's Link header");
  return orderKey({ utcStartTime: iso(at), availabilityId: availabilityId! });
}

/**
 * GET …/availability: one page (limit + 1, so the caller knows whether more remain) of the occurrences overlapping
 * [startDate, endDate] (local dates in each rule's zone) of the organization's live rules, expanded here (the same
 * expansion the stored occurrences come from), in (utcStartTime, availabilityId) order, after the cursor.
 */
export async function expandRange(
  db: Database,
  organizationId: string,
  query: { startDate: string; endDate: string; employeeId?: string; locationId?: string; limit: number; cursor?: string },
): Promise<ExpandedOccurrence[]> {
  const { startDate, endDate } = query;
  const rangeProblem = calendarRangeProblem(startDate, endDate, MAX_RANGE_DAYS);
  if (rangeProblem) throw invalidField(rangeProblem.path, rangeProblem.message);
  const after = query.cursor ? decodeOccurrenceCursor(query.cursor) : null;
  const from = new Date(`${startDate}T00:00:00Z`);
  const to = new Date(`${addDays(endDate, 1)}T00:00:00Z`);
  const rows = await db
    .select({ availability: availabilities })
    .from(availabilities)
    .innerJoin(staffMembers, eq(staffMembers.id, availabilities.employeeId))
    .where(
      and(
        eq(availabilities.organizationId, organizationId),
        isNull(availabilities.deletedAt),
        lte(availabilities.startTime, to),
        query.employeeId === undefined ? undefined : eq(availabilities.employeeId, query.employeeId),
        query.locationId === undefined ? undefined : jsonArrayContains(staffMembers.locationIds, query.locationId),
      ),
    );
  return rows
    .flatMap(({ availability: a }) =>
      expandAvailability(ruleOf(a), from, to).map(
        (o): ExpandedOccurrence => ({
          availabilityId: a.id,
          employeeId: a.employeeId,
          type: a.type as "UNAVAILABLE" | "PREFERRED",
          startTime: iso(o.startTime),
          endTime: iso(o.endTime),
          utcStartTime: iso(o.utcStartTime),
          utcEndTime: iso(o.utcEndTime),
        }),
      ),
    )
    .filter((o) => after === null || orderKey(o) > after)
    .sort((a, b) => (orderKey(a) < orderKey(b) ? -1 : orderKey(a) > orderKey(b) ? 1 : 0))
    .slice(0, query.limit + 1);
}
