import { scheduleChanges } from "@db/schema";
import { and, asc, eq, gte, inArray, lte, type SQL, sql } from "drizzle-orm";
import { chunk } from "@/data/chunk";
import type { Database, Statement } from "@/data/client";
import { newId } from "@/data/ids";
import { decodeKeyCursor, encodeKeyCursor } from "@/data/key-cursor";
import type { EventSpec } from "@/data/outbox/outbox";
import { rawRun } from "@/data/raw-statement";
import { calendarRangeProblem } from "@/domain/calendar-range";
import { type ChangeRules, type ClassifiedChange, type EntryState, recordedChanges } from "@/domain/fair-workweek/schedule-change";
import { businessDate } from "@/domain/local-time";
import { invalidField } from "@/problems/problem";
import type { ScheduleChangeRow } from "@/wire/schedule-change.schemas";
import { changeRulesOfLocation } from "./change-rules.data";

/** The longest range one listing may span, in days (both dates counted). */
export const MAX_RANGE_DAYS = 92;

/** Who asked for a change, and what it claims: recorded with it. */
export interface ChangeContext {
  initiatedBy: "EMPLOYER" | "EMPLOYEE";
  exemption?: ScheduleChangeRow["exemption"] | undefined;
  reason?: string | null | undefined;
}

/** A stored entry as the change log sees it. */
export const entryState = (row: {
  employeeId: string;
  startAt: Date;
  endAt: Date;
  isDraft: boolean;
  deletedAt: Date | null;
}): EntryState => ({
  employeeId: row.employeeId,
  start: row.startAt,
  end: row.endAt,
  published: !row.isDraft,
  deleted: row.deletedAt !== null,
});

/** One entry's write: as it was (null: new) and as it will be (null: gone), its location and utcOffset. */
export interface EntryWrite {
  organizationId: string;
  locationId: string;
  scheduleEntryId: string;
  utcOffset: number;
  before: EntryState | null;
  after: EntryState | null;
}

/**
 * The change-log rows an entry's write makes under the location's rules (none without a pack, or outside its notice
 * window), priced by the pack unless the change is employee initiated or exempt. Dated by the entry's original local
 * date (its new one when it is added).
 */
export function changeRowsOf(rules: ChangeRules | null, write: EntryWrite, context: ChangeContext, at: Date): ScheduleChangeRow[] {
  if (!rules) return [];
  const changes = recordedChanges(write.before, write.after, at, rules.noticeDays);
  const dated = write.before?.published && !write.before.deleted ? write.before : write.after;
  return changes.map((change) => changeRow(rules, write, context, at, change, dated!));
}

/** A new entry, published as written: what addedChangeRows records of it. */
export interface NewPublishedEntry {
  organizationId: string;
  locationId: string;
  scheduleEntryId: string;
  employeeId: string;
  start: Date;
  end: Date;
  utcOffset: number;
}

/** The change-log rows of an entry first published by its own write (ADDED inside the window), employer initiated unless `context` says. */
export const addedChangeRows = (
  rules: ChangeRules | null,
  entry: NewPublishedEntry,
  at: Date,
  context: ChangeContext = { initiatedBy: "EMPLOYER" },
): ScheduleChangeRow[] =>
  changeRowsOf(
    rules,
    {
      organizationId: entry.organizationId,
      locationId: entry.locationId,
      scheduleEntryId: entry.scheduleEntryId,
      utcOffset: entry.utcOffset,
      before: null,
      after: { employeeId: entry.employeeId, start: entry.start, end: entry.end, published: true, deleted: false },
    },
    context,
    at,
  );

function changeRow(
  rules: ChangeRules,
  write: EntryWrite,
  context: ChangeContext,
  at: Date,
  change: ClassifiedChange,
  dated: EntryState,
): ScheduleChangeRow {
  const entryMinutes = Math.round((dated.end.getTime() - dated.start.getTime()) / 60_000);
  const exempt = context.initiatedBy === "EMPLOYEE" || (context.exemption ?? null) !== null;
  const premium = exempt ? null : rules.premiumOf(change, entryMinutes);
  return {
    id: newId(at.getTime()),
    organizationId: write.organizationId,
    locationId: write.locationId,
    scheduleEntryId: write.scheduleEntryId,
    employeeId: change.employeeId,
    kind: change.kind,
    noticeMinutes: change.noticeMinutes,
    minutesLost: change.minutesLost,
    minutesAdded: change.minutesAdded,
    entryMinutes,
    initiatedBy: context.initiatedBy,
    exemption: context.exemption ?? null,
    reason: context.reason ?? null,
    entryDate: businessDate(dated.start, write.utcOffset),
    rulePack: rules.rulePack,
    premiumHours: premium?.hours ?? null,
    premiumAmount: premium?.amount ?? null,
    premiumRule: premium?.rule ?? null,
    active: true,
    createdAt: at,
    updatedAt: at,
    deletedAt: null,
  };
}

/** Rows per INSERT: their JSON is one bound parameter, kept well under D1's 100 KB a statement. */
const ROWS_PER_STATEMENT = 200;

const COLUMNS = [
  ["id", "id"],
  ["location_id", "locationId"],
  ["schedule_entry_id", "scheduleEntryId"],
  ["employee_id", "employeeId"],
  ["kind", "kind"],
  ["notice_minutes", "noticeMinutes"],
  ["minutes_lost", "minutesLost"],
  ["minutes_added", "minutesAdded"],
  ["entry_minutes", "entryMinutes"],
  ["initiated_by", "initiatedBy"],
  ["exemption", "exemption"],
  ["reason", "reason"],
  ["entry_date", "entryDate"],
  ["rule_pack", "rulePack"],
  ["premium_hours", "premiumHours"],
  ["premium_amount", "premiumAmount"],
  ["premium_rule", "premiumRule"],
] as const;

/**
 * What records `rows` inside another write's batch: INSERT … SELECT from one JSON parameter per chunk, each row only
 * when `when` holds for it as the statement runs (given the SQL of the row's schedule entry id: e.g. the entry is now
 * published by this batch, or the update it describes applies), and one `schedule_change.recorded` event per row that
 * landed. Put the statements after the write they describe when `when` reads its result, before it when it reads
 * the state the write changes.
 */
export function recordingChanges(
  db: Database,
  organizationId: string,
  rows: readonly ScheduleChangeRow[],
  when: (entryId: SQL) => SQL = () => sql`1`,
): { statements: Statement[]; events: EventSpec[] } {
  if (rows.length === 0) return { statements: [], events: [] };
  const names = sql.raw(COLUMNS.map(([column]) => column).join(", "));
  const values = sql.raw(COLUMNS.map(([, key]) => `json_extract(j.value, '$.${key}')`).join(", "));
  const at = rows[0]!.createdAt.getTime();
  const statements = chunk(rows, ROWS_PER_STATEMENT).map((part) => {
    const json = JSON.stringify(part.map((row) => Object.fromEntries(COLUMNS.map(([, key]) => [key, row[key]]))));
    return rawRun(
      db,
      sql`INSERT INTO schedule_changes (${names}, organization_id, active, created_at, updated_at, deleted_at)
        SELECT ${values}, ${organizationId}, 1, ${at}, ${at}, NULL FROM json_each(${json}) AS j
        WHERE ${when(sql`json_extract(j.value, '$.scheduleEntryId')`)}`,
    ) as Statement;
  });
  const ids = rows.map((row) => row.id);
  const events: EventSpec[] = chunk(ids, ROWS_PER_STATEMENT * 2).map((part) => ({
    organizationId,
    occurredAt: rows[0]!.createdAt,
    rows: {
      table: scheduleChanges,
      where: sql`${scheduleChanges.id} IN (SELECT value FROM json_each(${JSON.stringify(part)}))`,
      typeOf: sql`'schedule_change.recorded'`,
    },
  }));
  return { statements, events };
}

/** The location's change rules on a date (its Fair Workweek pack), or null: no pack, nothing is recorded. */
export const changeRulesAt = changeRulesOfLocation;

/** Pages follow (entry_date, id), the order of the index schedule_changes_organization_date. */
export const encodeChangeCursor = (row: Pick<ScheduleChangeRow, "entryDate" | "id">) => encodeKeyCursor(row.entryDate, row.id);

function decodeChangeCursor(cursor: string) {
  const [entryDate, id] = decodeKeyCursor(cursor, /^(\d{4}-\d{2}-\d{2})\|([0-9A-Za-z.-]{1,80})$/);
  return { entryDate: entryDate!, id: id! };
}

interface ListQuery {
  limit: number;
  cursor?: string;
  startDate: string;
  endDate: string;
  locationId?: string;
  employeeId?: string;
}

/**
 * One page (limit + 1 rows) of the organization's changes whose entry date is in [startDate, endDate], by date then
 * id; a staff member acting as themself sees only their own, and nothing when naming a colleague.
 */
export async function listChanges(db: Database, organizationId: string, query: ListQuery, ownStaffMemberId: string | null) {
  const rangeProblem = calendarRangeProblem(query.startDate, query.endDate, MAX_RANGE_DAYS);
  if (rangeProblem) throw invalidField(rangeProblem.path, rangeProblem.message);
  if (ownStaffMemberId !== null && query.employeeId !== undefined && query.employeeId !== ownStaffMemberId) return [];
  const after = query.cursor ? decodeChangeCursor(query.cursor) : null;
  const employeeId = ownStaffMemberId ?? query.employeeId;
  const c = scheduleChanges;
  return db
    .select()
    .from(c)
    .where(
      and(
        eq(c.organizationId, organizationId),
        gte(c.entryDate, query.startDate),
        lte(c.entryDate, query.endDate),
        after ? sql`(${c.entryDate}, ${c.id}) > (${after.entryDate}, ${after.id})` : undefined,
        query.locationId === undefined ? undefined : eq(c.locationId, query.locationId),
        employeeId === undefined ? undefined : eq(c.employeeId, employeeId),
      ),
    )
    .orderBy(asc(c.entryDate), asc(c.id))
    .limit(query.limit + 1);
}

/** The premiums of changes of `employeeIds` dated in [from, to] (pay reads them beside the shifts). */
export const premiumChangesStatement = (db: Database, organizationId: string, from: string, to: string, employeeIds?: string[]) => {
  const c = scheduleChanges;
  return db
    .select()
    .from(c)
    .where(
      and(
        eq(c.organizationId, organizationId),
        gte(c.entryDate, from),
        lte(c.entryDate, to),
        sql`${c.premiumRule} IS NOT NULL`,
        sql`${c.deletedAt} IS NULL`,
        employeeIds === undefined ? undefined : inArray(c.employeeId, employeeIds),
      ),
    );
};
