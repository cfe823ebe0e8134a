import { type SQL, sql } from "drizzle-orm";
import { MONTHLY_COUNT_PRESETS } from "@/domain/pay-presets";
import { monthlyCountReadFrom, payReadWindow } from "@/domain/pay-workweek";

/**
 * The first business date of the shifts a pay computation from startDate reads, as SQL: payReadWindow's, or the
 * month's (monthlyCountReadFrom) when one of the organization's rule sets counts overtime by the calendar month — so
 * an organization without such a set reads no more than before, and one with it in the same round trip.
 */
export function shiftsReadFrom(organizationId: string, startDate: string): SQL<string> {
  const { from } = payReadWindow(startDate, startDate);
  const monthly = monthlyCountReadFrom(startDate);
  if (monthly >= from || MONTHLY_COUNT_PRESETS.length === 0) return sql<string>`${from}`;
  const presets = sql.join(
    MONTHLY_COUNT_PRESETS.map((p) => sql`${p}`),
    sql`, `,
  );
  return sql<string>`(CASE WHEN EXISTS (SELECT 1 FROM pay_rule_sets AS monthly WHERE monthly.organization_id = ${organizationId}
    AND monthly.preset IN (${presets}) AND monthly.deleted_at IS NULL) THEN ${monthly} ELSE ${from} END)`;
}
