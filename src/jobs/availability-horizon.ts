import { availabilities } from "@db/schema";
import { and, asc, eq, isNotNull, isNull, lt, not, sql } from "drizzle-orm";
import { occurrenceStatements, occurrencesOfVersion } from "@/data/availability-occurrences";
import type { Database, Statement } from "@/data/client";
import { frozenHere } from "@/data/freezes";
import { guarded } from "@/data/write/constraint-problems";
import { freezeGuard, organizationSettled } from "@/data/write/guarded-batch";
import { MIN_AHEAD_DAYS, writtenOut } from "@/domain/availability";
import { ProblemError } from "@/problems/problem";

const DAY_MS = 86_400_000;
/** Statements the pass may send per invocation (D1's 1,000 queries are shared with the other jobs). */
export const HORIZON_STATEMENTS = 100;
/** Rules read per pass, those written out least far first. */
const RULES_PER_PASS = 50;

export interface HorizonReport {
  rules: number;
  statements: number;
}

/**
 * The Cron Trigger's availability pass: every live recurring rule whose occurrences are written out less than
 * MIN_AHEAD_DAYS ahead of `now` gets the next ones (to HORIZON_DAYS ahead), so the scheduling guards and eligibility
 * always see two years of them, like GET …/availability. Idempotent: occurrences already written are kept (ON
 * CONFLICT DO NOTHING) and `occurrences_through` moves in the same batch, only while the rule is the version read and
 * its organization is not frozen for a move; a batch refused for either is skipped (an edit writes its own window),
 * and the next pass carries on.
 */
export async function runAvailabilityHorizonPass(db: Database, now: Date, maxStatements = HORIZON_STATEMENTS): Promise<HorizonReport> {
  const report: HorizonReport = { rules: 0, statements: 0 };
  const due = new Date(now.getTime() + MIN_AHEAD_DAYS * DAY_MS);
  const rows = await db
    .select()
    .from(availabilities)
    .where(
      and(
        isNull(availabilities.deletedAt),
        isNotNull(availabilities.occurrencesThrough),
        lt(availabilities.occurrencesThrough, due),
        not(frozenHere(sql`${availabilities.organizationId}`)),
      ),
    )
    .orderBy(asc(availabilities.occurrencesThrough), asc(availabilities.id))
    .limit(RULES_PER_PASS);
  for (const row of rows) {
    const plan = writtenOut(row, now, row.occurrencesThrough!);
    const statements: Statement[] = [
      freezeGuard(db, row.organizationId),
      ...occurrenceStatements(db, row, plan.occurrences),
      db
        .update(availabilities)
        .set({ occurrencesThrough: plan.through })
        .where(and(eq(availabilities.id, row.id), eq(availabilities.updatedAt, row.updatedAt), isNull(availabilities.deletedAt))),
    ];
    if (report.statements + statements.length > maxStatements) break;
    report.statements += statements.length;
    try {
      await guarded(db.batch(statements as [Statement, ...Statement[]]), [organizationSettled, occurrencesOfVersion]);
      report.rules++;
    } catch (error) {
      // The rule changed (its edit wrote its own occurrences) or its organization froze for a move: next pass.
      if (!(error instanceof ProblemError)) throw error;
    }
  }
  return report;
}
