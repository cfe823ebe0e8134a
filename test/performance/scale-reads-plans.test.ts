import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { timeOffStatement } from "@/data/pay/pay-inputs.data";
import { rulesAfter } from "@/features/availability/availability.data";
import { openShiftDates } from "@/features/pay/pay-close-check.data";
import { workersUpTo } from "@/features/pay/pay-close-start.data";
import { balancesDue } from "@/jobs/accrual-pass";
import { FIRST_ENTRY, noShowsInsert } from "@/jobs/no-shows";
import { tenantDb } from "../helpers/shards";

/*
 * Issue 50's 50,000-staff line: the reads that must not grow with the organization (EXPLAIN QUERY PLAN on the local
 * D1, whose planner is the one production runs).
 */

const dialect = new SQLiteAsyncDialect();

interface Statement {
  toSQL(): { sql: string; params: unknown[] };
}

async function planOf(statement: Statement): Promise<string[]> {
  const { sql, params } = statement.toSQL();
  const plan = await tenantDb()
    .prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ detail: string }>();
  return plan.results.map((r) => r.detail);
}

const SPAN = { id: "2026-03-02", startDate: "2026-03-02", endDate: "2026-03-15" };

describe("EXPLAIN QUERY PLAN of the close's reads at scale", () => {
  it("the dates of open shifts around a period come from the open shifts' index, not every shift of the organization's weeks", async () => {
    const plan = await planOf(openShiftDates(createDatabase(tenantDb()), "o", SPAN as never));
    expect(plan, plan.join("; ")).toEqual([
      expect.stringMatching(/^SCAN shifts USING INDEX shifts_open_start$/),
      "USE TEMP B-TREE FOR DISTINCT",
    ]);
  });

  it("whether a close is a job: a DISTINCT as the period's shifts come, so LIMIT ends the read", async () => {
    const plan = await planOf(workersUpTo(createDatabase(tenantDb()), "o", SPAN as never, 5001));
    expect(plan, plan.join("; ")).toEqual([
      "CO-ROUTINE workers",
      expect.stringMatching(
        /^SEARCH shifts USING INDEX shifts_organization_business_date \(organization_id=\? AND business_date>\? AND business_date<\?\)$/,
      ),
      "USE TEMP B-TREE FOR DISTINCT",
      "SCAN workers",
    ]);
  });

  it("a pay page's time off: its employees' by the staff member's index, not the organization's every statement", async () => {
    const filter = { organizationId: "o", startDate: "2026-03-02", endDate: "2026-03-15" };
    const ids = Array.from({ length: 90 }, (_, i) => `e${i}`);
    const plan = await planOf(timeOffStatement(createDatabase(tenantDb()), filter, ids));
    expect(
      plan.filter((line) => /time_off_requests/.test(line)),
      plan.join("; "),
    ).toEqual([
      expect.stringMatching(/^SEARCH time_off_requests USING INDEX time_off_requests_worker_start \(worker_id=\? AND start_at<\?\)$/),
    ]);
  });

  it("the no-show pass probes a staff member's shifts ended since the entry began and their open one, not their history", async () => {
    const plan = await planOf({
      toSQL: () => dialect.sqlToQuery(noShowsInsert(new Date("2026-03-13T12:00:00Z"), 500, FIRST_ENTRY, "live", "p.")),
    });
    expect(
      plan.filter((line) => /\bsh\b/.test(line)),
      plan.join("; "),
    ).toEqual([
      expect.stringMatching(/^SEARCH sh USING INDEX shifts_employee_end \(employee_id=\? AND end_at=\?\)$/),
      expect.stringMatching(/^SEARCH sh USING INDEX shifts_employee_end \(employee_id=\? AND end_at>\?\)$/),
    ]);
  });

  it("an accrual page walks its policy's balances by id from its cursor: no sort of the policy's every balance", async () => {
    for (const afterId of [null, "b"]) {
      const query = dialect.sqlToQuery(balancesDue("p", "2026-03-16", { balances: 1000, afterId }));
      const plan = await planOf({ toSQL: () => query });
      expect(plan, plan.join("; ")).toContainEqual(
        expect.stringMatching(/^SEARCH wp USING INDEX worker_policies_policy_id \(policy_id=\?/),
      );
      expect(plan, plan.join("; ")).not.toContain("USE TEMP B-TREE FOR ORDER BY");
    }
  });

  it("an availability expansion reads a location's rules a bounded part at a time: staff by the organization's index from the last read", async () => {
    const db = createDatabase(tenantDb());
    const to = new Date("2026-03-16T00:00:00Z");
    for (const after of [null, { employeeId: "e", id: "a" }]) {
      const plan = await planOf(rulesAfter(db, "o", { to, locationId: "l", after, limit: 500 }));
      expect(plan, plan.join("; ")).toContainEqual(
        expect.stringMatching(
          after
            ? /^SEARCH staff_members USING INDEX staff_members_organization_id \(organization_id=\? AND id>\?\)$/
            : /^SEARCH staff_members USING (COVERING )?INDEX staff_members_organization_id \(organization_id=\?\)$/,
        ),
      );
      expect(plan, plan.join("; ")).toContainEqual(
        expect.stringMatching(/^SEARCH availabilities USING INDEX availabilities_employee \(employee_id=\? AND organization_id=\?\)$/),
      );
      expect(plan, plan.join("; ")).not.toContain("USE TEMP B-TREE FOR ORDER BY");
    }
  });
});
