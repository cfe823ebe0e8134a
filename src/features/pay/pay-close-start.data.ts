import { shifts } from "@db/schema";
import { and, eq, gte, isNull, lte, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import type { PayPeriodSpan } from "@/domain/pay-periods";
import { readSettings } from "./pay-period-settings.data";
import { spanOf } from "./pay-periods.data";

/**
 * Whether a close runs within the request: at most `max` staff members with a live shift dated in the period (the
 * workers checkClose reads). Counts no further than `max` + 1 of them, so a large organization's answer costs about
 * `max` shifts read, not its whole period.
 */
export async function closesInRequest(db: Database, organizationId: string, periodId: string, max: number): Promise<boolean> {
  const span = spanOf(await readSettings(db, organizationId), periodId);
  const [row] = await workersUpTo(db, organizationId, span, max + 1);
  return (row?.count ?? 0) <= max;
}

/** How many staff members worked the span, counted up to `limit`. */
export function workersUpTo(db: Database, organizationId: string, span: PayPeriodSpan, limit: number) {
  // `+` on the column: DISTINCT by a temporary B-tree as the period's shifts come (date order), so LIMIT stops the read.
  const workers = db
    .selectDistinct({ employeeId: sql<string>`+${shifts.employeeId}`.as("worker") })
    .from(shifts)
    .where(workersOf(organizationId, span))
    .limit(limit)
    .as("workers");
  return db.select({ count: sql<number>`count(*)`.mapWith(Number) }).from(workers);
}

const workersOf = (organizationId: string, span: PayPeriodSpan) =>
  and(
    eq(shifts.organizationId, organizationId),
    gte(shifts.businessDate, span.startDate),
    lte(shifts.businessDate, span.endDate),
    isNull(shifts.deletedAt),
  );
