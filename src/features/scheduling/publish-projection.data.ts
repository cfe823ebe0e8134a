import { sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { projectionOf, projectionStatements } from "@/data/schedule-projection";
import { projectedPremiumCents } from "@/domain/fair-workweek/projected-premiums";
import type { PremiumOwed } from "@/domain/pay-classification";
import { ruleSetOfRow } from "@/wire/pay-rule-set.schemas";
import type { ScheduleChangeRow } from "@/wire/schedule-change.schemas";

/**
 * What the premiums of a dry run's changes would cost each employee, in cents: its premium hours at the regular rate
 * schedule cost projects for their workweek (their shifts worked and their entries to come, drafts included as if
 * published: the rule sets, wages and break types of GET …/schedules/cost with includeDrafts), or their wage where
 * they work nothing that week; flat amounts as they are. One read batch, only when a change earns hours.
 */
export async function projectPremiums(
  db: Database,
  organizationId: string,
  rows: readonly ScheduleChangeRow[],
  now: Date,
): Promise<Map<string, number>> {
  const owed = rows.filter((r) => r.premiumRule !== null);
  const flat = () => {
    const cents = new Map<string, number>();
    for (const r of owed) cents.set(r.employeeId, (cents.get(r.employeeId) ?? 0) + Math.round((r.premiumAmount ?? 0) * 100));
    return cents;
  };
  if (!owed.some((r) => (r.premiumHours ?? 0) > 0)) return flat();
  const dates = owed.map((r) => r.entryDate).sort();
  const range = { startDate: dates[0]!, endDate: dates.at(-1)! };
  const staff = sql`SELECT value FROM json_each(${JSON.stringify([...new Set(owed.map((r) => r.employeeId))])})`;
  const statements = projectionStatements(db, { organizationId, staff, ...range, includeDrafts: true, now });
  const { ruleSetRows, shiftsForPay, wageOf } = projectionOf(await db.batch(statements), now);
  const premiums = owed.map(
    (r): PremiumOwed => ({
      employeeId: r.employeeId,
      date: r.entryDate,
      kind: "PREDICTABILITY",
      hours: r.premiumHours,
      amount: r.premiumAmount,
      rule: r.premiumRule as PremiumOwed["rule"],
      hourlyWage: wageOf(r.employeeId),
      locationId: r.locationId,
    }),
  );
  return projectedPremiumCents({ ...range, shifts: shiftsForPay, ruleSets: ruleSetRows.map(ruleSetOfRow), premiums });
}
