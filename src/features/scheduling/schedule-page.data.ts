import { scheduleEntries } from "@db/schema";
import { and, asc, gte, isNull, type SQL, sql } from "drizzle-orm";
import type { Context } from "hono";
import type { ListOptions } from "@/platform/http/pagination";
import { pageOf } from "@/platform/http/pagination";
import { invalidField } from "@/problems/problem";
import type { ScheduleEntryRow } from "./schedules.schemas";

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

export function entryPage(options: ListOptions) {
  const after = options.cursor ? decode(options.cursor) : null;
  if (options.cursor && !after) throw invalidField("cursor", "not a cursor from this listing's Link header");
  const conditions: (SQL | undefined)[] = [
    after ? sql`(${scheduleEntries.startAt}, ${scheduleEntries.id}) > (${after.startAt}, ${after.id})` : undefined,
    options.updatedSince ? gte(scheduleEntries.updatedAt, new Date(options.updatedSince)) : undefined,
    options.includeDeleted ? undefined : isNull(scheduleEntries.deletedAt),
  ];
  return { where: and(...conditions), orderBy: [asc(scheduleEntries.startAt), asc(scheduleEntries.id)], limit: options.limit + 1 };
}

/** A page of entries in start order (`entryPage`). */
export const entryPageResult = (c: Context, rows: ScheduleEntryRow[], limit: number): ScheduleEntryRow[] =>
  pageOf(c, rows, limit, (last) => ({ cursor: encode(last) }));
