import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { copyId, copyRows } from "../../helpers/copy-rows";
import { allPages } from "../../helpers/pages";
import { recordingRequest } from "../../helpers/recording-d1";
import { createSchedulePlace } from "../../helpers/schedules";
import { tenantDb } from "../../helpers/shards";
import { seedShifts } from "../../helpers/timesheets";

/*
 * Issue 47 item 3: the report is paged by staff member and stays within D1's limits at 10,000 staff. Every request
 * through the Worker runs under the test D1 guard (src/data/limited-d1.ts: 100 parameters a statement, 1,000 queries
 * an invocation), which answers 500 where production D1 would refuse; every page here answers 200.
 *
 * Germany (ArbZG): each of the 10,000 works 2026-06-01 08:00–18:31 with a 30-minute break, 10 h 01 worked: over the
 * 10-hour day (§3) by a minute, and 30 minutes of break where over 9 hours needs 45 (§4).
 */

const TOTAL = 10_000;
const LIMIT = 500;

describe("GET /organizations/{org}/working-time at 10,000 staff", () => {
  it("walks every staff member in pages of 500, each page a handful of queries", async () => {
    const p = await createSchedulePlace("UTC");
    const set = await api("PUT", `/api/organizations/${p.org.id}/locations/${p.location.id}/working-time`, {
      token: p.org.adminToken,
      body: { rulePack: "DE" },
    });
    expect(set.status, set.text).toBe(200);
    const [shift] = await seedShifts(p.org.id, [
      {
        employeeId: p.staff.id,
        locationId: p.location.id,
        roleId: p.roleId,
        start: new Date("2026-06-01T08:00:00Z"),
        minutes: 631,
        unpaidBreakMinutes: 30,
        utcOffset: 0,
      },
    ]);
    await copyRows(tenantDb(), "staff_members", p.staff.id, TOTAL - 1, { id: copyId(p.staff.id), external_id: "NULL", email: "NULL" });
    await copyRows(tenantDb(), "shifts", shift!.id, TOTAL - 1, { id: copyId(shift!.id), employee_id: copyId(p.staff.id) });

    const path = `/api/organizations/${p.org.id}/working-time?startDate=2026-06-01&endDate=2026-06-07&limit=${LIMIT}`;
    const first = await recordingRequest("GET", path, { token: p.org.adminToken });
    expect(first.status, JSON.stringify(first.body).slice(0, 300)).toBe(200);
    const queries =
      first.trips.reduce((sum, trip) => sum + trip.length, 0) + first.directoryTrips.reduce((sum, trip) => sum + trip.length, 0);
    console.log(`working-time report, a page of ${LIMIT} staff of ${TOTAL}: ${queries} queries in ${first.trips.length} round trips`);
    expect(queries).toBeLessThan(30);

    const pages = await allPages<Record<string, any>>(path, p.org.adminToken, LIMIT);
    expect(pages).toHaveLength(TOTAL / LIMIT);
    const rows = pages.flat();
    expect(new Set(rows.map((row) => row.employeeId)).size).toBe(TOTAL);
    for (const row of [rows[0]!, rows[TOTAL - 1]!])
      expect(row.violations.map((v: Record<string, unknown>) => [v.rule, v.limit, v.actual, v.source])).toEqual([
        ["DAILY_MAXIMUM", 10, 10.02, "ArbZG §3"],
        ["BREAK", 45, 30, "ArbZG §4"],
      ]);
  });
});
