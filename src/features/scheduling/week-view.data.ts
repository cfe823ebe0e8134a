import { scheduleEntries } from "@db/schema";
import { and, asc, eq, gte, isNull, lt, type SQL, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { type Placeholders, prepared } from "@/data/prepared";
import { entryCursor } from "./schedule-page.data";
import { startBounds } from "./schedule-range.schemas";
import type { ScheduleListInput } from "./schedules.schemas";

/*
 * The week view's commonest read — a location's entries, published or drafts, between two dates, no other filter —
 * prepared once per isolate (data/prepared): its first page and the pages after a cursor, the statements listEntries
 * builds for them. test/performance/week-view-prepared.test.ts checks they send what the built ones send.
 */

type Week = { organizationId: string; locationId: string; isDraft: number; end: number; limit: number };

const e = scheduleEntries;

const atLocation = (p: Placeholders<Week>) => [
  eq(e.organizationId, p.organizationId),
  eq(e.locationId, p.locationId),
  eq(e.isDraft, p.isDraft),
];

const inStartOrder = (db: Database, where: SQL | undefined, p: Placeholders<Week>) =>
  db.select().from(e).where(where).orderBy(asc(e.startAt), asc(e.id)).limit(p.limit);

// The nested `and`s are the built statement's own (startsWithin's range, entryPage's conditions), so the text is the same.
const firstPage = prepared((db, p: Placeholders<Week & { start: number }>) =>
  inStartOrder(db, and(...atLocation(p), and(gte(e.startAt, p.start), lt(e.startAt, p.end)), isNull(e.deletedAt)), p),
);

const pageAfter = prepared((db, p: Placeholders<Week & { afterStart: number; afterId: string }>) =>
  inStartOrder(
    db,
    and(...atLocation(p), lt(e.startAt, p.end), and(sql`(${e.startAt}, ${e.id}) > (${p.afterStart}, ${p.afterId})`, isNull(e.deletedAt))),
    p,
  ),
);

/**
 * The page statement of a week view of that shape (both dates on a first page, the end date after a cursor; no staff
 * member, role, updatedSince or deleted entries), else null: listEntries builds the others.
 */
export function weekViewPage(
  db: Database,
  organizationId: string,
  location: { id: string; timezone: string },
  query: ScheduleListInput,
  isDraft: boolean,
) {
  if (query.employeeId || query.roleId || query.updatedSince || query.includeDeleted) return null;
  const after = entryCursor(query);
  const { start, end } = startBounds(after ? { endDate: query.endDate } : query, location.timezone);
  if (!end) return null;
  const week = { organizationId, locationId: location.id, isDraft: isDraft ? 1 : 0, end: end.getTime(), limit: query.limit + 1 };
  if (after) return pageAfter(db, { ...week, afterStart: after.startAt, afterId: after.id });
  return start ? firstPage(db, { ...week, start: start.getTime() }) : null;
}
