import { payPeriods } from "@db/schema";
import { and, asc, eq, gte, lte, or, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { conflict, type ProblemError } from "@/problems/problem";

/*
 * A close freezes every date of every workweek overlapping its period (domain/pay-period-freeze), stored on the
 * period's row as frozen_from … frozen_to. Every write that would change pay on such a date — a shift or punch, time
 * off requested, approved or cancelled, a rule set taking effect — guards on `frozenByClose` in its own statement.
 */

type Bound = SQLWrapper | string;

/** True while a closed period of the organization froze a date of [first, last] (bound values or columns). */
export const frozenByClose = (organizationId: Bound, first: Bound, last: Bound = first): SQL =>
  sql`EXISTS (SELECT 1 FROM pay_periods WHERE organization_id = ${organizationId} AND status = 'CLOSED'
    AND frozen_to >= ${first} AND frozen_from <= ${last})`;

export const periodClosed = (periodId: string) =>
  conflict(
    "PAY_PERIOD_CLOSED",
    `The pay period ${periodId} is closed: the dates of every workweek overlapping it are frozen. Reopen it first.`,
    { periodId },
  );

/** Dates a write touches: one date (first = last), or a run of them. */
export interface DateRun {
  first: string;
  last: string;
}

/**
 * PAY_PERIOD_CLOSED naming the closed period whose freeze holds a date of `runs`, read once a guard refused a write
 * (the read only names the period; the guard decided), or null when none does.
 */
export async function periodFreezing(db: Database, organizationId: string, runs: readonly DateRun[]): Promise<ProblemError | null> {
  if (runs.length === 0) return null;
  const [row] = await db
    .select({ startDate: payPeriods.startDate })
    .from(payPeriods)
    .where(
      and(
        eq(payPeriods.organizationId, organizationId),
        eq(payPeriods.status, "CLOSED"),
        or(...runs.map((run) => and(gte(payPeriods.frozenTo, run.first), lte(payPeriods.frozenFrom, run.last)))),
      ),
    )
    .orderBy(asc(payPeriods.startDate))
    .limit(1);
  return row ? periodClosed(row.startDate) : null;
}

/** PAY_PERIOD_CLOSED naming the closed period whose freeze refused a write on `runs` (read once its guard refused). */
export const frozenRunsProblem = async (db: Database, organizationId: string, runs: readonly DateRun[]): Promise<ProblemError> =>
  (await periodFreezing(db, organizationId, runs)) ??
  conflict("PAY_PERIOD_CLOSED", "A closed pay period froze these dates meanwhile: reopen it first.");
