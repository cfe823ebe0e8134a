import { shifts } from "@db/schema";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { noShiftOverlap, shiftDayUnlocked } from "@/data/shifts/shifts.guards";
import { exportPageQuery } from "@/data/timesheets/timesheet-export.data";
import { lockedDaysQuery, pageQuery, shiftPage, type TimesheetFilter, totalsQuery } from "@/data/timesheets/timesheet-query.data";
import { parseTimesheetRange, type TimesheetRange } from "@/domain/timesheet-range";
import { employeeReportQuery, reportDaysQuery } from "@/features/timesheets/timesheet-reports.data";
import { createLocation } from "../helpers/locations";
import { tenantDb } from "../helpers/shards";
import { createStaffMember } from "../helpers/staff";
import { lockDay, newYork, seedShifts } from "../helpers/timesheets";
import { createWorkplace, type Workplace } from "../helpers/workplace";

interface Statement {
  toSQL(): { sql: string; params: unknown[] };
}

const bind = (params: unknown[]) => params.map((p) => (p instanceof Date ? p.getTime() : p));

async function planOf(statement: Statement | { sql: string; params: unknown[] }): Promise<string[]> {
  const { sql, params } = "toSQL" in statement ? statement.toSQL() : statement;
  const plan = await tenantDb()
    .prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...bind(params))
    .all<{ detail: string }>();
  return plan.results.map((r) => r.detail);
}

/** Every access to shifts goes through an index: no full "SCAN shifts", and at least one indexed SEARCH. */
function indexedAccess(plan: string[]) {
  const onShifts = plan.filter((line) => /\bshifts\b/.test(line));
  return {
    scans: onShifts.filter((line) => /^SCAN shifts\b/.test(line)),
    indexes: onShifts.flatMap((line) => /^SEARCH shifts USING (?:COVERING )?INDEX (\w+)/.exec(line)?.[1] ?? []),
  };
}

const march = (): TimesheetRange => {
  const parsed = parseTimesheetRange("2026-03-01", "2026-03-31");
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.range;
};

let w: Workplace;
let locationId: string;
let base: TimesheetFilter;

beforeAll(async () => {
  w = await createWorkplace();
  locationId = (await createLocation(w.org, { name: "Second", timezone: "America/New_York" })).id;
  const staff = [
    w.staff.id,
    ...(await Promise.all([1, 2].map(() => createStaffMember(w.org, { locationIds: [w.location.id, locationId] })))).map((s) => s.id),
  ];
  const seeds = [];
  for (let day = 1; day <= 31; day++) {
    for (const [i, employeeId] of staff.entries()) {
      const date = `2026-03-${String(day).padStart(2, "0")}`;
      seeds.push({
        employeeId,
        locationId: i % 2 ? locationId : w.location.id,
        roleId: w.roleId,
        ...newYork(`${date}T09:00:00`),
        minutes: 480,
        unpaidBreakMinutes: 30,
      });
    }
  }
  await seedShifts(w.org.id, seeds);
  await lockDay(w, "2026-03-10");
  base = { organizationId: w.org.id, range: march() };
});

describe("EXPLAIN QUERY PLAN of the timesheet queries", () => {
  it("the check itself flags a query that scans shifts", async () => {
    const access = indexedAccess(await planOf({ sql: "SELECT * FROM shifts WHERE hourly_wage > ?", params: [1] }));
    expect(access.scans).toEqual(["SCAN shifts"]);
    expect(access.indexes).toEqual([]);
  });

  it("listing pages (breaks included) and the totals use the index of the narrowest filter", async () => {
    const db = createDatabase(tenantDb());
    const cursor = { businessDate: "2026-03-05", id: "0" };
    const narrow = expect.stringMatching(/^shifts_(employee|location)_business_date$/);
    const cases: [TimesheetFilter, unknown][] = [
      [base, "shifts_organization_business_date"],
      [{ ...base, locationId }, "shifts_location_business_date"],
      [{ ...base, employeeId: w.staff.id }, "shifts_employee_business_date"],
      [{ ...base, ownStaffMemberId: w.staff.id }, "shifts_employee_business_date"],
      [{ ...base, ownStaffMemberId: w.staff.id, locationId }, narrow],
      [{ ...base, roleId: w.roleId, flagged: true, open: false }, "shifts_organization_business_date"],
    ];
    for (const [filter, index] of cases) {
      for (const page of [shiftPage(filter, null, 100), shiftPage(filter, cursor, 100)]) {
        const access = indexedAccess(await planOf(pageQuery(db, page)));
        expect(access.scans).toEqual([]);
        expect(access.indexes).toEqual([index]);
      }
      const totals = indexedAccess(await planOf(totalsQuery(db, filter)));
      expect(totals.scans).toEqual([]);
      expect(totals.indexes).toEqual([index]);
    }
  });

  it("a page after a cursor seeks to it: the row value bounds the index range, with no per-row probe", async () => {
    const plan = await planOf(
      pageQuery(createDatabase(tenantDb()), shiftPage({ ...base, locationId }, { businessDate: "2026-03-05", id: "0" }, 100)),
    );
    expect(plan).toEqual([
      expect.stringMatching(/^SEARCH shifts USING INDEX shifts_location_business_date \(location_id=\? AND \(business_date,id\)>\(\?,\?\)/),
    ]);
  });

  it("the export page reads the shifts alone, and the reports join staff members after grouping", async () => {
    const db = createDatabase(tenantDb());
    const exportPlan = await planOf(exportPageQuery(db, base, { businessDate: "2026-03-05", id: "0" }));
    expect(exportPlan).toEqual([expect.stringMatching(/^SEARCH shifts USING INDEX shifts_organization_business_date /)]);
    for (const [statement, grouped] of [
      [reportDaysQuery(db, base, { page: 1, limit: 100 }), "report_days"],
      [employeeReportQuery(db, base, null, 101), "employee_sums"],
    ] as const) {
      const plan = await planOf(statement);
      const staff = plan.findIndex((line) => /^SEARCH staff_members /.test(line));
      expect(plan[0], plan.join("; ")).toBe(`CO-ROUTINE ${grouped}`);
      expect(staff, plan.join("; ")).toBeGreaterThan(plan.indexOf(`SCAN ${grouped}`));
    }
  });

  it("the report by employee walks the organization's shifts by employee, with no B-tree to group or sort", async () => {
    const db = createDatabase(tenantDb());
    for (const after of [null, w.staff.id]) {
      const plan = await planOf(employeeReportQuery(db, base, after, 101));
      const onShifts = plan.filter((line) => /\bshifts\b/.test(line));
      expect(onShifts, plan.join("; ")).toEqual([
        expect.stringMatching(/^SEARCH shifts USING INDEX shifts_organization_employee_date \(organization_id=\? AND employee_id>\?\)/),
      ]);
      expect(plan, plan.join("; ")).not.toContain("USE TEMP B-TREE FOR GROUP BY");
    }
  });

  it("locked days, the export page and both reports use indexes", async () => {
    const db = createDatabase(tenantDb());
    const statements: Statement[] = [
      lockedDaysQuery(db, base),
      lockedDaysQuery(db, { ...base, locationId }),
      exportPageQuery(db, base, null),
      exportPageQuery(db, { ...base, locationId }, { businessDate: "2026-03-05", id: "0" }),
      reportDaysQuery(db, base, { page: 1, limit: 100 }),
      reportDaysQuery(db, { ...base, dayOffset: -300 }, { page: 2, limit: 100 }),
      reportDaysQuery(db, { ...base, employees: [w.staff.id] }, { page: 1, limit: 100 }),
      employeeReportQuery(db, base, null, 101),
      employeeReportQuery(db, { ...base, locations: [locationId] }, w.staff.id, 101),
    ];
    for (const statement of statements) {
      const plan = await planOf(statement);
      expect(
        plan.some((line) => /^SCAN (shifts|locked_days)\b/.test(line)),
        plan.join("; "),
      ).toBe(false);
      expect(
        plan.some((line) => /USING (COVERING )?INDEX/.test(line)),
        plan.join("; "),
      ).toBe(true);
    }
  });

  it("the write guards probe indexes: the staff member's shifts and the locked day's key", async () => {
    const db = createDatabase(tenantDb());
    const guard = noShiftOverlap.sql({
      organizationId: w.org.id,
      employeeId: w.staff.id,
      shiftId: "new",
      start: new Date("2026-03-05T13:00:00Z"),
      end: new Date("2026-03-05T21:00:00Z"),
    });
    const lock = shiftDayUnlocked.sql(w.org.id, [{ locationId, date: "2026-03-05" }]);
    const row = (await db.select().from(shifts).where(eq(shifts.organizationId, w.org.id)).limit(1))[0]!;
    const plan = await planOf(db.insert(shifts).values({ ...row, id: "new", organizationId: lock, employeeId: guard }));
    // Either index of the staff member's shifts: the guard's OR on end_at reads each of their shifts by either.
    expect(plan.join("\n")).toMatch(/SEARCH shifts USING INDEX shifts_employee_(business_date|end) \(employee_id=\?\)/);
    expect(plan.join("\n")).toMatch(
      /SEARCH locked_days USING (COVERING )?INDEX sqlite_autoindex_locked_days_1 \(location_id=\? AND date=\?\)/,
    );
    expect(plan.some((line) => /^SCAN (shifts|locked_days)\b/.test(line))).toBe(false);
  });

  it("a listing page reads at most 1.05× + 1 the rows it returns, its breaks riding on its shifts (D1 rows_read)", async () => {
    const db = createDatabase(tenantDb());
    for (const filter of [base, { ...base, locationId }, { ...base, employeeId: w.staff.id }]) {
      for (const cursor of [null, { businessDate: "2026-03-05", id: "0" }]) {
        const { sql, params } = pageQuery(db, shiftPage(filter, cursor, 60)).toSQL();
        const result = await tenantDb()
          .prepare(sql)
          .bind(...bind(params))
          .all<{ breaks_json: string }>();
        const returned = result.results.length;
        expect(returned).toBeGreaterThan(20);
        // Every seeded shift has one break, and the page statement answers it: no second statement reads breaks.
        expect(result.results.map((r) => JSON.parse(r.breaks_json).length)).toEqual(result.results.map(() => 1));
        // The index seeks to the cursor and stops at the limit (or one step past the range's end): no row of another
        // filter value is stepped over, and a locked day (2026-03-10 is) costs nothing.
        expect(result.meta.rows_read, JSON.stringify({ filter, cursor })).toBeLessThanOrEqual(1.05 * returned + 1);
      }
    }
  });

  it("rows read by the export and report statements (D1 rows_read)", async () => {
    const db = createDatabase(tenantDb());
    const run = async (statement: Statement) => {
      const { sql, params } = statement.toSQL();
      const result = await tenantDb()
        .prepare(sql)
        .bind(...bind(params))
        .all();
      return { read: result.meta.rows_read, returned: result.results.length };
    };
    const exported = await run(exportPageQuery(db, base, { businessDate: "2026-03-05", id: "0" }, 50));
    expect(exported.returned).toBe(50);
    expect(exported.read).toBeLessThanOrEqual(exported.returned);
    // Every shift once through the index and once back from the GROUP BY's B-tree, then one staff member per row.
    const inRange = (await totalsQuery(db, base))[0]!.count;
    const employees = await run(employeeReportQuery(db, base, null, 101));
    expect(employees.returned).toBe(3);
    expect(employees.read).toBeLessThanOrEqual(2 * inRange + employees.returned + 1);
  });
});
