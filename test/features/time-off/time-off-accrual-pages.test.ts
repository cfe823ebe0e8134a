import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { runAccrualPass } from "@/jobs/accrual-pass";
import { unique } from "../../helpers/fixtures";
import { tenantDb } from "../../helpers/shards";
import { createStaffMember } from "../../helpers/staff";
import { createTimeOffPlace, simulateSince } from "../../helpers/time-off";

/**
 * The accrual pass in pages (src/jobs/accrual-pass.ts PassPage): a large organization's pass split across
 * invocations, each at most `balances` worker policies of each policy after the previous page's last id.
 */
const weekly = {
  limitSettings: {
    isFixedAmount: true,
    fixedAmount: { hours: 2, accrualCycle: "Periodic", accrualFrequency: "EveryOneWeek", accrualDay: "Monday" },
  },
};

describe("the accrual pass in pages", () => {
  it("pages of 2 balances give every one of 5 workers the same 5 Mondays as one whole pass", async () => {
    const place = await createTimeOffPlace(weekly);
    for (let i = 0; i < 4; i++) await createStaffMember(place.org, { externalId: unique("ext"), accessRoleName: "Employee" });
    await simulateSince(place, "2030-01-01T00:00:00Z");
    const db = createDatabase(tenantDb());
    const now = new Date("2030-02-04T00:30:00Z");
    let afterId: string | null = null;
    let pages = 0;
    do {
      const report = await runAccrualPass(db, now, { page: { balances: 2, afterId } });
      afterId = report.nextAfterId ?? null;
      pages++;
    } while (afterId !== null && pages < 100);
    // 5 balances of this policy, 2 a page: at least 3 pages (other files' policies in this database add theirs).
    expect(pages).toBeGreaterThanOrEqual(3);
    const { results } = await tenantDb()
      .prepare(
        `SELECT wp.id, (SELECT COALESCE(SUM(hours), 0) FROM time_off_ledger l WHERE l.worker_policy_id = wp.id AND l.kind = 'accrual') AS hours,
           (SELECT count(*) FROM time_off_ledger l WHERE l.worker_policy_id = wp.id AND l.kind = 'accrual') AS entries
         FROM worker_policies wp WHERE wp.policy_id = ?`,
      )
      .bind(place.policy.id)
      .all<{ hours: number; entries: number }>();
    // Mondays 2030-01-07, 14, 21, 28 and 02-04 at 2 h each: 5 entries, 10 h, for each of the 5 workers.
    expect(results.map((r) => [r.entries, r.hours])).toEqual([
      [5, 10],
      [5, 10],
      [5, 10],
      [5, 10],
      [5, 10],
    ]);
    // A page repeated writes nothing twice.
    await runAccrualPass(db, now, { page: { balances: 2 } });
    const again = await tenantDb()
      .prepare(
        "SELECT count(*) AS n FROM time_off_ledger l JOIN worker_policies wp ON wp.id = l.worker_policy_id WHERE wp.policy_id = ? AND l.kind = 'accrual'",
      )
      .bind(place.policy.id)
      .first<{ n: number }>();
    expect(again?.n).toBe(25);
  });
});
