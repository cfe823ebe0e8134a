import { payPeriodSnapshots, payPeriods } from "@db/schema";
import { and, asc, eq, gte, lte } from "drizzle-orm";
import type { Database } from "@/data/client";
import { centsToAmount, hoursOfMinutes } from "@/domain/pay-amounts";
import { decodeIdCursor, encodeIdCursor, type Paged } from "@/platform/http/pagination";
import { snapshotEmployees } from "./snapshot.data";

/** What the report reads of a payroll's staff member (absent in a payroll closed before it was computed). */
interface SnapshotEmployee {
  employeeId: string;
  qualifiedOvertimePremium?: number;
  qualifiedOvertimeMinutes?: number;
}

/** The latest snapshot of every closed period of the organization ending in [from, to], oldest period first. */
const closedSnapshots = (db: Database, organizationId: string, from: string, to: string) =>
  db
    .select({ periodId: payPeriods.startDate, snapshot: payPeriodSnapshots })
    .from(payPeriods)
    .innerJoin(
      payPeriodSnapshots,
      and(
        eq(payPeriodSnapshots.organizationId, payPeriods.organizationId),
        eq(payPeriodSnapshots.periodStartDate, payPeriods.startDate),
        eq(payPeriodSnapshots.version, payPeriods.version),
      ),
    )
    .where(
      and(
        eq(payPeriods.organizationId, organizationId),
        eq(payPeriods.status, "CLOSED"),
        gte(payPeriods.endDate, from),
        lte(payPeriods.endDate, to),
      ),
    )
    .orderBy(asc(payPeriods.startDate));

interface Sum {
  cents: number;
  minutes: number;
  periods: { periodId: string; amount: number }[];
}

/**
 * GET …/reports/qualified-overtime: Σ of each staff member's qualifiedOvertimePremium over the latest payroll of every
 * closed period ending in the year, in cents; a page of staff members by id after the cursor's.
 */
export async function qualifiedOvertimeReport(
  db: Database,
  files: R2Bucket,
  organizationId: string,
  query: { year: string; limit: number; cursor?: string },
): Promise<Paged<{ employeeId: string; qualifiedOvertimePremium: number; qualifiedOvertimeHours: number; periods: Sum["periods"] }[]>> {
  const after = query.cursor === undefined ? undefined : decodeIdCursor(query.cursor);
  const rows = await closedSnapshots(db, organizationId, `${query.year}-01-01`, `${query.year}-12-31`);
  const sums = new Map<string, Sum>();
  for (const { periodId, snapshot } of rows) {
    for await (const employee of snapshotEmployees<SnapshotEmployee>(files, snapshot)) {
      if (after !== undefined && employee.employeeId <= after) continue;
      const cents = Math.round((employee.qualifiedOvertimePremium ?? 0) * 100);
      const minutes = employee.qualifiedOvertimeMinutes ?? 0;
      if (cents === 0 && minutes === 0) continue;
      let sum = sums.get(employee.employeeId);
      if (!sum) {
        sum = { cents: 0, minutes: 0, periods: [] };
        sums.set(employee.employeeId, sum);
      }
      sum.cents += cents;
      sum.minutes += minutes;
      sum.periods.push({ periodId, amount: centsToAmount(cents) });
    }
  }
  const ids = [...sums.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const page = ids.slice(0, query.limit).map((employeeId) => {
    const sum = sums.get(employeeId)!;
    return {
      employeeId,
      qualifiedOvertimePremium: centsToAmount(sum.cents),
      qualifiedOvertimeHours: hoursOfMinutes(sum.minutes),
      periods: sum.periods,
    };
  });
  return { page, ...(ids.length > query.limit && { next: { cursor: encodeIdCursor(page.at(-1)!.employeeId) } }) };
}
