import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { currencySelect } from "@/data/timesheets/timesheet-currency.data";
import { lockedDaysQuery, pageQuery, shiftPage, type TimesheetFilter, totalsQuery } from "@/data/timesheets/timesheet-query.data";
import { parseTimesheetRange, type TimesheetRange } from "@/domain/timesheet-range";
import { isOrganizationListing, organizationListing } from "@/features/timesheets/organization-listing.data";

// GET /timesheets' commonest read is prepared once per isolate (timesheets/organization-listing.data): it must send
// exactly what the statements timesheet-query builds per request send (the listing tests exercise its answers).

const db = createDatabase(env.DB);
const range = (start: string, end: string): TimesheetRange => {
  const parsed = parseTimesheetRange(start, end);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.range;
};
const filter: TimesheetFilter = { organizationId: "0193a5a0-7c1e-7b2a-9d4e-000000000002", range: range("2026-03-01", "2026-03-31") };
const sent = (statements: readonly unknown[]) =>
  statements.map((s) => {
    const { sql, params } = (s as { toSQL(): { sql: string; params: unknown[] } }).toSQL();
    return { sql, params };
  });
const built = (cursor: { businessDate: string; id: string } | null) =>
  sent([
    pageQuery(db, shiftPage(filter, cursor, 100)),
    totalsQuery(db, filter),
    lockedDaysQuery(db, filter),
    currencySelect(db, filter.organizationId),
  ]);

describe("the prepared organization listing", () => {
  it("sends the built page, totals and locked days: first page, after a cursor, and a cursor before the range", () => {
    expect(sent(organizationListing(db, filter, null, 100))).toEqual(built(null));
    const after = { businessDate: "2026-03-12", id: "0193a5a0-7c1e-7b2a-9d4e-0000000000ff" };
    expect(sent(organizationListing(db, filter, after, 100))).toEqual(built(after));
    const before = { businessDate: "2026-02-27", id: "0193a5a0-7c1e-7b2a-9d4e-0000000000ff" };
    expect(sent(organizationListing(db, filter, before, 100))).toEqual(built(before));
  });

  it("is the path of that shape only: any filter, a staff member's own scope, instants or deleted shifts are built", () => {
    expect(isOrganizationListing(filter)).toBe(true);
    expect(isOrganizationListing(filter, true)).toBe(false);
    for (const narrowed of [
      { locationId: "l" },
      { employeeId: "e" },
      { roleId: "r" },
      { flagged: false },
      { open: true },
      { updatedSince: "2026-03-01T00:00:00Z" },
      { ownStaffMemberId: "e" },
      { sources: ["KIOSK" as const] },
      { employees: ["e"] },
      { locations: ["l"] },
      { dayOffset: 0 },
      { range: range("2026-03-01T08:00:00Z", "2026-03-31") },
    ]) {
      expect(isOrganizationListing({ ...filter, ...narrowed }), JSON.stringify(narrowed)).toBe(false);
    }
  });
});
