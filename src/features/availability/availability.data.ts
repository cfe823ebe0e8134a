import { availabilities, availabilityOccurrences, organizations, staffMembers } from "@db/schema";
import { and, eq, isNull, lte, sql } from "drizzle-orm";
import { occurrenceStatements, occurrencesOfVersion } from "@/data/availability-occurrences";
import type { Database, Statement } from "@/data/client";
import { organizationNow } from "@/data/clock";
import { newId } from "@/data/ids";
import { jsonArrayContains } from "@/data/json-list";
import { decodeKeyCursor, encodeKeyCursor } from "@/data/key-cursor";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import { type AvailabilityRule, availabilityProblems, expandAvailability, parseRecurrence, writtenOut } from "@/domain/availability";
import { calendarRangeProblem } from "@/domain/calendar-range";
import { addDays } from "@/domain/local-time";
import { type IfMatch, nextVersionAfter, requireVersion } from "@/platform/http/conditional";
import { iso } from "@/platform/schemas/time";
import { invalidField, notFound, preconditionFailed, validationFailed } from "@/problems/problem";
import { type AvailabilityCreateInput, type AvailabilityPatchInput, serializeAvailability } from "./availability.schemas";

type AvailabilityRow = typeof availabilities.$inferSelect;

/** The longest range one expansion answers. */
export const MAX_RANGE_DAYS = 92;

const ruleOf = (row: Pick<AvailabilityRow, "startTime" | "endTime" | "timezone" | "recurrence" | "exdates">): AvailabilityRule => ({
  startTime: row.startTime,
  endTime: row.endTime,
  timezone: row.timezone,
  recurrence: row.recurrence,
  exdates: row.exdates,
});

/** The row with its recurrence in canonical form and its occurrences written out as of `now` (occurrencesThrough set). */
function withOccurrences(db: Database, row: AvailabilityRow, now: Date): { row: AvailabilityRow; statements: Statement[] } {
  const parsed = row.recurrence === null ? null : parseRecurrence(row.recurrence);
  const canonical: AvailabilityRow = { ...row, recurrence: parsed?.ok ? parsed.recurrence.canonical : row.recurrence };
  const plan = writtenOut(ruleOf(canonical), now);
  const written = { ...canonical, occurrencesThrough: plan.through };
  return { row: written, statements: occurrenceStatements(db, written, plan.occurrences) };
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
  const now = await organizationNow({ ...writer, organizationId });
  const asked: AvailabilityRow = {
    id: newId(now.getTime()),
    organizationId,
    employeeId,
    type: body.type,
    startTime: new Date(body.startTime),
    endTime: new Date(body.endTime),
    timezone: body.timezone ?? zone,
    recurrence: body.recurrence,
    exdates: body.exdates,
    occurrencesThrough: null,
    note: body.note,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
  checked(ruleOf(asked));
  const { row, statements } = withOccurrences(db, asked, now);
  await guardedBatch(writer, [db.insert(availabilities).values(row), ...statements], [], {
    events: [{ type: "availability.created", organizationId, occurredAt: now, data: serializeAvailability(row) }],
  });
  return row;
}

/** The update of the version read, its occurrences written again; a concurrent change is 412. */
async function rewrite(
  writer: Writer,
  was: AvailabilityRow,
  asked: AvailabilityRow,
  type: "availability.updated" | "availability.deleted",
) {
  const { db } = writer;
  const { row, statements: occurrences } = asked.deletedAt
    ? { row: { ...asked, occurrencesThrough: null }, statements: [] }
    : withOccurrences(db, asked, await organizationNow({ ...writer, organizationId: was.organizationId }));
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
  return row;
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
    exdates: body.exdates ?? was.exdates,
    note: body.note === undefined ? was.note : body.note,
    updatedAt: nextVersionAfter(was, await organizationNow({ ...writer, organizationId })),
  };
  checked(ruleOf(row));
  return rewrite(writer, was, row, "availability.updated");
}

export async function deleteAvailability(writer: Writer, organizationId: string, employeeId: string, id: string, ifMatch: IfMatch) {
  const was = await findAvailability(writer.db, organizationId, employeeId, id);
  requireVersion(ifMatch, was);
  const now = nextVersionAfter(was, await organizationNow({ ...writer, organizationId }));
  return rewrite(writer, was, { ...was, updatedAt: now, deletedAt: now }, "availability.deleted");
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

/** Rules read per statement of an expansion: what it holds at once, whatever the organization's or location's size. */
export const RULES_PER_READ = 500;

/**
 * GET …/availability: one page (limit + 1, so the caller knows whether more remain) of the occurrences overlapping
 * [startDate, endDate] (local dates in each rule's zone) of the organization's live rules, expanded here (the same
 * expansion the stored occurrences come from), in (utcStartTime, availabilityId) order, after the cursor. The rules
 * are read `rulesPerRead` at a time, by (staff member, rule id) from the organization's staff index, and each read's
 * occurrences are kept only while among the page's first: a page holds one read's rules and two pages of
 * occurrences, not a large location's every rule.
 */
export async function expandRange(
  db: Database,
  organizationId: string,
  query: { startDate: string; endDate: string; employeeId?: string; locationId?: string; limit: number; cursor?: string },
  rulesPerRead = RULES_PER_READ,
): Promise<ExpandedOccurrence[]> {
  const { startDate, endDate } = query;
  const rangeProblem = calendarRangeProblem(startDate, endDate, MAX_RANGE_DAYS);
  if (rangeProblem) throw invalidField(rangeProblem.path, rangeProblem.message);
  const after = query.cursor ? decodeOccurrenceCursor(query.cursor) : null;
  const from = new Date(`${startDate}T00:00:00Z`);
  const to = new Date(`${addDays(endDate, 1)}T00:00:00Z`);
  const page = new FirstInOrder<ExpandedOccurrence>(query.limit + 1, orderKey);
  for (let read: { employeeId: string; id: string } | null = null; ; ) {
    const rules = await rulesAfter(db, organizationId, { ...query, to, after: read, limit: rulesPerRead });
    for (const a of rules) {
      for (const o of expandAvailability(ruleOf(a), from, to)) {
        const occurrence: ExpandedOccurrence = {
          availabilityId: a.id,
          employeeId: a.employeeId,
          type: a.type as "UNAVAILABLE" | "PREFERRED",
          startTime: iso(o.startTime),
          endTime: iso(o.endTime),
          utcStartTime: iso(o.utcStartTime),
          utcEndTime: iso(o.utcEndTime),
        };
        if (after === null || orderKey(occurrence) > after) page.add(occurrence);
      }
    }
    if (rules.length < rulesPerRead) break;
    read = rules.at(-1)!;
  }
  return page.items();
}

/**
 * The next `limit` live rules starting by `to` of the organization's staff (one of them, or those of a location), after
 * `after` in (staff member, rule id) order: the staff walked by staff_members_organization_id from the last one read,
 * each one's rules by availabilities_employee.
 */
export function rulesAfter(
  db: Database,
  organizationId: string,
  q: { to: Date; employeeId?: string; locationId?: string; after: { employeeId: string; id: string } | null; limit: number },
) {
  return db
    .select({
      id: availabilities.id,
      employeeId: availabilities.employeeId,
      type: availabilities.type,
      startTime: availabilities.startTime,
      endTime: availabilities.endTime,
      timezone: availabilities.timezone,
      recurrence: availabilities.recurrence,
      exdates: availabilities.exdates,
    })
    .from(staffMembers)
    .innerJoin(availabilities, and(eq(availabilities.employeeId, staffMembers.id), eq(availabilities.organizationId, organizationId)))
    .where(
      and(
        eq(staffMembers.organizationId, organizationId),
        q.after ? sql`${staffMembers.id} >= ${q.after.employeeId}` : undefined,
        q.after ? sql`(${staffMembers.id} > ${q.after.employeeId} OR ${availabilities.id} > ${q.after.id})` : undefined,
        isNull(availabilities.deletedAt),
        lte(availabilities.startTime, q.to),
        q.employeeId === undefined ? undefined : eq(staffMembers.id, q.employeeId),
        q.locationId === undefined ? undefined : jsonArrayContains(staffMembers.locationIds, q.locationId),
      ),
    )
    .orderBy(staffMembers.id, availabilities.id)
    .limit(q.limit);
}

/**
 * The first `size` items by `keyOf`, kept as they come (a stable sort of everything, then its first `size`), holding
 * at most 2 × `size` of them: a page of a large location's expansion never holds every occurrence of the range.
 */
class FirstInOrder<T> {
  private kept: { key: string; item: T }[] = [];

  constructor(
    private readonly size: number,
    private readonly keyOf: (item: T) => string,
  ) {}

  add(item: T) {
    this.kept.push({ key: this.keyOf(item), item });
    if (this.kept.length >= 2 * this.size) this.trim();
  }

  items(): T[] {
    this.trim();
    return this.kept.map((k) => k.item);
  }

  private trim() {
    this.kept.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    this.kept.length = Math.min(this.kept.length, this.size);
  }
}
