import { lockedDays, shifts } from "@db/schema";
import { and, asc, eq, gte, isNull, lte, type SQL, sql } from "drizzle-orm";
import type { Database, Statement } from "@/data/client";
import { type Placeholders, prepared } from "@/data/prepared";
import { currencySelect } from "@/data/timesheets/timesheet-currency.data";
import { pageSelect, type ShiftCursor, type TimesheetFilter, totalsSelect } from "@/data/timesheets/timesheet-query.data";
import { businessDateBounds } from "@/domain/timesheet-range";

/*
 * GET /timesheets' commonest read — the organization's live shifts between two dates, no other filter, by an
 * organization-level token — prepared once per isolate (data/prepared): the page (first, or after a cursor), its
 * totals, its locked days and the organization's currency, the statements timesheet-query builds for it, each request binding its values.
 * test/performance/timesheet-listing-prepared.test.ts checks they send what the built ones send.
 */

type Range = { organizationId: string; first: string; last: string };

/** The organization's live shifts from `lower` to the range's last date. */
const liveShifts = (p: Placeholders<Range>, lower: SQL) =>
  and(eq(shifts.organizationId, p.organizationId), lower, lte(shifts.businessDate, p.last), isNull(shifts.deletedAt));

const fromFirst = (p: Placeholders<Range>) => liveShifts(p, gte(shifts.businessDate, p.first));

const firstPage = prepared((db, p: Placeholders<Range & { limit: number }>) => pageSelect(db, fromFirst(p), p.limit));

const pageAfter = prepared((db, p: Placeholders<Range & { limit: number; afterDate: string; afterId: string }>) =>
  pageSelect(db, liveShifts(p, sql`(${shifts.businessDate}, ${shifts.id}) > (${p.afterDate}, ${p.afterId})`), p.limit),
);

const totals = prepared((db, p: Placeholders<Range>) => totalsSelect(db, fromFirst(p)));

const locked = prepared((db, p: Placeholders<Range>) =>
  db
    .select({ date: lockedDays.date, locationId: lockedDays.locationId })
    .from(lockedDays)
    .where(and(eq(lockedDays.organizationId, p.organizationId), gte(lockedDays.date, p.first), lte(lockedDays.date, p.last)))
    .orderBy(asc(lockedDays.date)),
);

const currency = prepared((db, p: Placeholders<{ organizationId: string }>) => currencySelect(db, p.organizationId));

/** Whether a listing is the shape prepared here: the organization's, between dates, live shifts, no other filter. */
export function isOrganizationListing(filter: TimesheetFilter, includeDeleted = false): boolean {
  // Every other field narrows the listing: one added to TimesheetFilter later keeps a listing off this path.
  const { organizationId: _, range, ownStaffMemberId, sources, employees, locations, ...narrowing } = filter;
  return (
    !includeDeleted &&
    range.start.kind === "date" &&
    range.end.kind === "date" &&
    !ownStaffMemberId &&
    !sources?.length &&
    !employees?.length &&
    !locations?.length &&
    Object.values(narrowing).every((value) => value === undefined || value === null)
  );
}

/** The page (limit + 1 rows), totals, locked days and currency of an organization listing (isOrganizationListing). */
export function organizationListing(db: Database, filter: TimesheetFilter, cursor: ShiftCursor | null, limit: number) {
  const { first, last } = businessDateBounds(filter.range);
  const range = { organizationId: filter.organizationId, first, last };
  const page =
    cursor && cursor.businessDate >= first
      ? pageAfter(db, { ...range, limit: limit + 1, afterDate: cursor.businessDate, afterId: cursor.id })
      : firstPage(db, { ...range, limit: limit + 1 });
  return [
    page,
    totals(db, range),
    locked(db, range),
    currency(db, { organizationId: filter.organizationId }),
  ] as const satisfies readonly Statement[];
}
