import { wageRates } from "@db/schema";
import { eq, type SQL, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { frozenByClose, periodFreezing } from "@/data/closed-periods";
import type { ConstraintProblem } from "@/data/write/constraint-problems";
import { guard } from "@/data/write/guard";
import { conflict } from "@/problems/problem";

interface Frozen {
  db: Database;
  organizationId: string;
  dates: string[];
  /** The rate updated or deleted: its stored effectiveFrom is read to name the period that froze it. */
  rateId?: string;
}

async function storedDate(db: Database, rateId: string | undefined): Promise<string[]> {
  if (rateId === undefined) return [];
  const [row] = await db.select({ date: wageRates.effectiveFrom }).from(wageRates).where(eq(wageRates.id, rateId));
  return row ? [row.date] : [];
}

/** PAY_PERIOD_CLOSED naming the closed period that froze a date of the rate (read once the guard refused). */
const rateFrozen = async ({ db, organizationId, dates, rateId }: Frozen) =>
  (await periodFreezing(
    db,
    organizationId,
    [...dates, ...(await storedDate(db, rateId))].map((date) => ({ first: date, last: date })),
  )) ?? conflict("PAY_PERIOD_CLOSED", "A closed pay period froze the rate's effectiveFrom meanwhile: reopen it first.");

const unfrozen = (value: SQL | string, organizationId: string, dates: readonly (SQL | string)[]): SQL =>
  sql`(SELECT ${value} WHERE NOT (${sql.join(
    dates.map((date) => frozenByClose(organizationId, date)),
    sql` OR `,
  )}))`;

/**
 * employee_id of an inserted rate: the staff member, NULL while a closed pay period froze its effectiveFrom (a rate
 * taking effect there would change frozen pay).
 */
export const insertUnfrozen = guard({
  column: wageRates.employeeId,
  problem: rateFrozen,
  sql: (employeeId: string, organizationId: string, date: string) => unfrozen(employeeId, organizationId, [date]),
});

/**
 * organization_id of an updated or deleted rate: the organization, NULL while a closed period froze its stored
 * effectiveFrom or the new one.
 */
export const updateUnfrozen = guard({
  column: wageRates.organizationId,
  problem: rateFrozen,
  sql: (organizationId: string, newDate?: string) =>
    unfrozen(organizationId, organizationId, [sql`wage_rates.effective_from`, ...(newDate ? [newDate] : [])]),
});

/** The unique index on (employee, role, location, effectiveFrom) of live rates refused a second one. */
export const rateTaken: ConstraintProblem = {
  refusal: "wage_rates_unique",
  problem: () => conflict("WAGE_RATE_TAKEN", "The staff member has a wage rate for that role, location and effectiveFrom already."),
};
