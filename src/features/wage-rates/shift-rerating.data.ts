import { shifts, wageRates } from "@db/schema";
import { eq, type SQL, sql } from "drizzle-orm";
import type { Database, Statement } from "@/data/client";
import { periodFreezing } from "@/data/closed-periods";
import { newId } from "@/data/ids";
import { eventStatement } from "@/data/outbox/outbox";
import { auditedInBatch, auditUpdatesAfter, auditUpdatesBefore } from "@/data/shifts/shift-audit-snapshot.data";
import { shiftPayUnfrozen, timesheetApproved } from "@/data/shifts/shifts.guards";
import { guard } from "@/data/write/guard";
import type { Principal } from "@/domain/permissions";
import { RATE_SPECIFICITY } from "@/domain/wage-rate";

/*
 * A wage rate written with an effectiveFrom on or before recorded shifts re-rates them in the write's own batch, so
 * that pay equals what GET …/wage-rates/resolve answers: every live, hourly shift of the rate's staff member whose
 * wage came from resolution (wage_source RESOLVED; a wage set by hand stays) and that the rate decides — resolved
 * from it before the write, or resolving to it after — gets the wage resolveWage (domain/wage-rate) gives it now:
 * the most specific newest rate effective on its business date, else its role's hourlyWage, else the staff
 * member's, else 0. The same order, written in SQL over the shift's own columns (`s`: the shift's table or alias).
 */

// SQL text over the shift's alias `s` and constants only: nothing bound.
const specificity = (r: string) =>
  `(CASE WHEN ${r}.role_id IS NULL THEN 0 ELSE ${RATE_SPECIFICITY.role} END` +
  ` + CASE WHEN ${r}.location_id IS NULL THEN 0 ELSE ${RATE_SPECIFICITY.location} END)`;

/** `column` of the rate resolveWage picks for the shift `s`: the most specific, then the newest, then the greatest id. */
const bestRate = (s: string, column: "id" | "hourly_rate") => `(SELECT r.${column} FROM wage_rates AS r
    WHERE r.employee_id = ${s}.employee_id AND r.organization_id = ${s}.organization_id AND r.deleted_at IS NULL
      AND r.effective_from <= ${s}.business_date
      AND (r.role_id IS NULL OR r.role_id = ${s}.role_id) AND (r.location_id IS NULL OR r.location_id = ${s}.location_id)
    ORDER BY ${specificity("r")} DESC, r.effective_from DESC, r.id DESC
    LIMIT 1)`;

/** The hourly wage resolveWage gives the shift `s`: its rate's, else its role's, else its staff member's, else 0. */
const resolvedWage = (s: string) => `coalesce(${bestRate(s, "hourly_rate")},
    (SELECT ro.hourly_wage FROM roles AS ro WHERE ro.id = ${s}.role_id),
    (SELECT st.hourly_wage FROM staff_members AS st WHERE st.id = ${s}.employee_id), 0)`;

/**
 * The shifts `s` the write of rate `rateId` re-rates: its staff member's live hourly shifts with a resolved wage,
 * resolved from the rate before (a change or delete) or resolving to it now, whose wage or rate would change.
 */
const rerated = (s: string, organizationId: string, rateId: string): SQL =>
  sql`${sql.raw(s)}.organization_id = ${organizationId}
    AND ${sql.raw(s)}.employee_id = (SELECT employee_id FROM wage_rates WHERE id = ${rateId})
    AND ${sql.raw(s)}.deleted_at IS NULL AND ${sql.raw(s)}.salaried = 0 AND ${sql.raw(s)}.wage_source = 'RESOLVED'
    AND (${sql.raw(s)}.wage_rate_id = ${rateId}
      OR (${sql.raw(s)}.business_date >= (SELECT effective_from FROM wage_rates WHERE id = ${rateId} AND deleted_at IS NULL)
        AND ${sql.raw(bestRate(s, "id"))} = ${rateId}))
    AND (${sql.raw(s)}.wage_rate_id IS NOT ${sql.raw(bestRate(s, "id"))}
      OR ${sql.raw(s)}.hourly_wage IS NOT ${sql.raw(resolvedWage(s))})`;

/** The local date a shift's last minute falls on (its end is exclusive), or NULL while it is open. */
const lastDate = sql`date((shifts.end_at - 1) / 1000 + shifts.utc_offset * 60, 'unixepoch')`;

/** Where a refused re-rating looks for the freeze to name: the rate's new effectiveFrom and its stored one. */
interface RefusedRate {
  db: Database;
  organizationId: string;
  /** The effectiveFrom the write names, if any. */
  dates: string[];
  /** The rate changed or deleted: its stored effectiveFrom (as before the refused batch) is read too. */
  rateId?: string;
}

async function storedDate(db: Database, rateId: string | undefined): Promise<string[]> {
  if (rateId === undefined) return [];
  const [row] = await db.select({ date: wageRates.effectiveFrom }).from(wageRates).where(eq(wageRates.id, rateId));
  return row ? [row.date] : [];
}

/**
 * shifts.location_id of a re-rated shift: NULL while its staff member's pay is frozen on a date it covers (an
 * approved timesheet, or a closed period's frozen dates), so a rate that would re-rate frozen pay is refused whole:
 * PAY_PERIOD_CLOSED naming the first closed period frozen on or after the rate's earliest date, else
 * TIMESHEET_APPROVED.
 */
export const reratedUnfrozen = guard({
  column: shifts.locationId,
  problem: async ({ db, organizationId, dates, rateId }: RefusedRate) => {
    const from = [...dates, ...(await storedDate(db, rateId))].sort()[0] ?? "0000-01-01";
    return (await periodFreezing(db, organizationId, [{ first: from, last: "9999-12-31" }])) ?? timesheetApproved(`${from} or later`);
  },
  sql: (organizationId: string) =>
    shiftPayUnfrozen.sql(sql`shifts.location_id`, organizationId, sql`shifts.employee_id`, [sql`shifts.business_date`, lastDate]),
});

/**
 * The statements that re-rate the shifts a write of rate `rateId` decides, to run after the rate's write and its
 * event (guardedBatch's `trailing`): they run only when that event was recorded (`changes()` of its INSERT), i.e.
 * when the write changed the rate. Each re-rated shift gets what a PATCH of its wage records: an "update" audit row
 * (before and after: its history) and a shift.updated event; its version moves on. No parameter per shift.
 */
export function rerateShifts(
  db: Database,
  principal: Principal,
  at: Date,
  { organizationId, rateId }: { organizationId: string; rateId: string },
): Statement[] {
  const batchId = newId(at.getTime());
  const opened = sql`shifts.id IN (SELECT shift_id FROM shift_audits WHERE ${auditedInBatch(batchId)})`;
  return [
    auditUpdatesBefore(
      db,
      { batchId, partnerId: principal.partnerId, staffMemberId: principal.staffMemberId, at },
      sql`${rerated("audited", organizationId, rateId)} AND changes() > 0`,
    ),
    db
      .update(shifts)
      .set({
        hourlyWage: sql.raw(resolvedWage("shifts")),
        wageRateId: sql.raw(bestRate("shifts", "id")),
        updatedAt: sql`max(${at.getTime()}, shifts.updated_at + 1)`,
        locationId: reratedUnfrozen.sql(organizationId),
      })
      .where(opened),
    auditUpdatesAfter(db, batchId),
    eventStatement(db, { organizationId, occurredAt: at, rows: { table: shifts, where: opened, typeOf: sql`'shift.updated'` } }),
  ];
}
