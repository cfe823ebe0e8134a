import type { Database } from "@/data/client";
import { breaksOfShift } from "@/data/shifts/break-copies.data";
import { currencySelect, decimalsOfCurrency } from "@/data/timesheets/timesheet-currency.data";
import {
  decodeShiftCursor,
  encodeShiftCursor,
  lockedDaysQuery,
  pageQuery,
  shiftPage,
  type TimesheetFilter,
  totalsQuery,
} from "@/data/timesheets/timesheet-query.data";
import { lockedDatesWithin, lockedDayLookup } from "@/domain/locked-days";
import { lockedDateBounds, parseTimesheetRange } from "@/domain/timesheet-range";
import { type AmountDecimals, type MinuteTotals, sumsToAmount, ZERO_TOTALS } from "@/domain/timesheet-totals";
import type { Paged } from "@/platform/http/pagination";
import { invalidField } from "@/problems/problem";
import { type ShiftWire, serializeShift } from "@/wire/shift.schemas";
import { isOrganizationListing, organizationListing } from "./organization-listing.data";
import type { TimesheetScope } from "./timesheet-scope.guards";

type FilterInput = { startDate: string; endDate: string; source?: TimesheetFilter["sources"] } & Pick<
  TimesheetFilter,
  "locationId" | "employeeId" | "roleId" | "flagged" | "open" | "updatedSince"
>;

/** The filter of a timesheet read: the caller's scope, the validated range, and the query's filters. */
export function timesheetFilter(scope: TimesheetScope, query: FilterInput): TimesheetFilter {
  const parsed = parseTimesheetRange(query.startDate, query.endDate);
  if (!parsed.ok) throw invalidField(parsed.path, parsed.message);
  return {
    organizationId: scope.organizationId,
    ownStaffMemberId: scope.ownStaffMemberId,
    range: parsed.range,
    locationId: query.locationId,
    employeeId: query.employeeId,
    roleId: query.roleId,
    flagged: query.flagged,
    open: query.open,
    sources: query.source,
    updatedSince: query.updatedSince,
  };
}

/** The wire's totals: minutes as summed, the amount as its shifts' amounts rounded to the currency's decimals add up. */
export const wireTotals = (t: MinuteTotals, decimals: AmountDecimals) => ({
  count: t.count,
  duration: t.duration,
  totalPaidBreaks: t.totalPaidBreaks,
  totalUnpaidBreaks: t.totalUnpaidBreaks,
  payableDuration: t.payableDuration,
  amount: sumsToAmount(t, decimals),
});

/**
 * GET /timesheets: one page of shifts, the totals of the whole filtered range, its locked days and the organization's
 * currency (what the amount rounds to) — four statements in one D1 batch, so the totals and the page read the same snapshot. Each shift's breaks ride on its row
 * (breaks_json, kept by triggers on shift_breaks), so the page reads what it returns; its `locked` is looked up in
 * the locked days read, not probed per row. `next`: the next page's cursor, when more remain.
 */
export async function readTimesheet(
  db: Database,
  filter: TimesheetFilter,
  page: { limit: number; cursor?: string; includeDeleted?: boolean },
): Promise<Paged<{ shifts: ShiftWire[]; lockedDays: string[]; totals: ReturnType<typeof wireTotals> }>> {
  const cursor = page.cursor ? decodeShiftCursor(page.cursor) : null;
  const [rows, totals, locked, currency] = await db.batch(
    isOrganizationListing(filter, page.includeDeleted)
      ? organizationListing(db, filter, cursor, page.limit)
      : [
          pageQuery(db, shiftPage(filter, cursor, page.limit, page.includeDeleted)),
          totalsQuery(db, filter),
          lockedDaysQuery(db, filter),
          currencySelect(db, filter.organizationId),
        ],
  );
  const isLocked = lockedDayLookup(locked);
  const shown = rows.slice(0, page.limit);
  const last = shown[shown.length - 1];
  return {
    page: {
      shifts: shown.map((shift) => serializeShift(shift, breaksOfShift(shift), { locked: isLocked(shift) })),
      lockedDays: lockedDatesWithin(locked, lockedDateBounds(filter.range)),
      totals: wireTotals(totals[0] ?? ZERO_TOTALS, decimalsOfCurrency(currency)),
    },
    next: rows.length > page.limit && last ? { cursor: encodeShiftCursor({ businessDate: last.businessDate, id: last.id }) } : undefined,
  };
}
