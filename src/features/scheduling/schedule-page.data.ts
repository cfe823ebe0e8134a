import { scheduleEntries } from "@db/schema";
import { and, asc, eq, gte, isNull, type SQL, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { readRows } from "@/data/row-mapping";
import type { ListOptions } from "@/platform/schemas/list-query";
import { invalidField } from "@/problems/problem";
import { startsWithin } from "./schedule-range.schemas";
import type { ScheduleEntryRow, ScheduleListInput } from "./schedules.schemas";

/**
 * Keyset pages of schedule entries in the order a week view reads them, (start, id), which the location index
 * (location_id, is_draft, start_at, id) serves as it is: a page reads the rows it returns. The cursor carries both,
 * and its row value replaces the range's lower bound, so the index seeks straight to it.
 */
const encode = (row: ScheduleEntryRow) => btoa(`${row.startAt.getTime()}_${row.id}`).replaceAll("=", "");

function decode(cursor: string): { startAt: number; id: string } | null {
  try {
    const [ms, id] = atob(cursor).split(/_(.*)/s);
    const startAt = Number(ms);
    return Number.isSafeInteger(startAt) && id ? { startAt, id } : null;
  } catch {
    return null;
  }
}

/** The entry a page follows, from the listing's cursor (null without one); a cursor it did not hand out is 400. */
export function entryCursor(options: Pick<ListOptions, "cursor">): { startAt: number; id: string } | null {
  const after = options.cursor ? decode(options.cursor) : null;
  if (options.cursor && !after) throw invalidField("cursor", "not a cursor from this listing's Link header");
  return after;
}

export function entryPage(options: ListOptions) {
  const after = entryCursor(options);
  const conditions: (SQL | undefined)[] = [
    after ? sql`(${scheduleEntries.startAt}, ${scheduleEntries.id}) > (${after.startAt}, ${after.id})` : undefined,
    options.updatedSince ? gte(scheduleEntries.updatedAt, new Date(options.updatedSince)) : undefined,
    options.includeDeleted ? undefined : isNull(scheduleEntries.deletedAt),
  ];
  return { where: and(...conditions), orderBy: [asc(scheduleEntries.startAt), asc(scheduleEntries.id)], limit: options.limit + 1 };
}

/** The query of the page after `last`, in start order (`entryPage`): the handler's `pageOf` links it. */
export const nextEntryPage = (last: ScheduleEntryRow) => ({ cursor: encode(last) });

/** A page of a location's entries as the listing's query asks, built per request (the week view's commonest shape is prepared: week-view.data). */
export function builtEntryPage(
  db: Database,
  organizationId: string,
  location: { id: string; timezone: string },
  query: ScheduleListInput,
  isDraft: boolean,
) {
  const page = entryPage(query);
  return readRows(
    db,
    db
      .select()
      .from(scheduleEntries)
      .where(
        and(
          eq(scheduleEntries.organizationId, organizationId),
          eq(scheduleEntries.locationId, location.id),
          eq(scheduleEntries.isDraft, isDraft),
          startsWithin(scheduleEntries.startAt, query.cursor ? { endDate: query.endDate } : query, location.timezone),
          query.employeeId ? eq(scheduleEntries.employeeId, query.employeeId) : undefined,
          query.roleId ? eq(scheduleEntries.roleId, query.roleId) : undefined,
          page.where,
        ),
      )
      .orderBy(...page.orderBy)
      .limit(page.limit),
  );
}
