import { shifts } from "@db/schema";
import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { amountUnitsSql, daySql } from "@/data/timesheets/timesheet-query.data";
import { amountUnits, reportDay } from "@/domain/timesheet-totals";
import { tenantDb } from "../../helpers/shards";
import { seedShifts } from "../../helpers/timesheets";
import { createWorkplace } from "../../helpers/workplace";

it("the SQL aggregates compute a shift's amount at 0, 2 and 3 decimals and report day exactly as the domain does", async () => {
  const w = await createWorkplace();
  const wages = [0, 0.1, 7.25, 12.345, 18.33, 18.5, 21.25, 33.333, 99.99, 1.234, 1000];
  const seeds = Array.from({ length: 180 }, (_, i) => ({
    employeeId: w.staff.id,
    locationId: w.location.id,
    roleId: w.roleId,
    // Starts spread over every hour and minute of many days, with offsets either side of UTC.
    start: new Date(Date.UTC(2026, 0, 1) + i * 7_919_000),
    utcOffset: [-300, -240, 0, 345, 600][i % 5]!,
    minutes: 1 + ((i * 37) % 900),
    hourlyWage: wages[i % wages.length]!,
    unpaidBreakMinutes: i % 4 === 0 ? 30 : undefined,
  }));
  await seedShifts(w.org.id, seeds);
  const rows = await createDatabase(tenantDb())
    .select({
      start: shifts.startAt,
      businessDate: shifts.businessDate,
      payable: shifts.payableDuration,
      wage: shifts.hourlyWage,
      yen: sql<number>`${amountUnitsSql(0)}`,
      cents: sql<number>`${amountUnitsSql(2)}`,
      fils: sql<number>`${amountUnitsSql(3)}`,
      dayAtMinus300: sql<string>`${daySql(-300)}`,
      dayAtPlus345: sql<string>`${daySql(345)}`,
      businessDay: sql<string>`${daySql(undefined)}`,
    })
    .from(shifts)
    .where(eq(shifts.organizationId, w.org.id));
  expect(rows).toHaveLength(180);
  for (const r of rows) {
    expect(r.yen).toBe(amountUnits(r.payable, r.wage, 0));
    expect(r.cents).toBe(amountUnits(r.payable, r.wage, 2));
    expect(r.fils).toBe(amountUnits(r.payable, r.wage, 3));
    expect(r.dayAtMinus300).toBe(reportDay(r.start, r.businessDate, -300));
    expect(r.dayAtPlus345).toBe(reportDay(r.start, r.businessDate, 345));
    expect(r.businessDay).toBe(reportDay(r.start, r.businessDate));
  }
});
