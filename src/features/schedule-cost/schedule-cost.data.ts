import { demandIntervals, laborTargets, organizations, scheduleChanges } from "@db/schema";
import { and, eq, gte, isNull, lt, lte, type SQL, sql } from "drizzle-orm";
import type { Database } from "@/data/client";
import { type PackVersionRow, packsOnDates, packVersionsStatement } from "@/data/fair-workweek/fair-workweek.data";
import { holidayCalendarFor } from "@/data/holidays/holiday-calendar.data";
import { projectionOf, projectionStatements } from "@/data/schedule-projection";
import { calendarRangeProblem } from "@/domain/calendar-range";
import { minorUnitsOf } from "@/domain/currency-minor-units";
import { restPremiums } from "@/domain/fair-workweek/rest-premiums";
import { localDayBounds } from "@/domain/local-time";
import { computeChargedPay, type PremiumOwed } from "@/domain/pay-classification";
import type { payShiftFromStored } from "@/domain/pay-shift";
import { payReadWindow } from "@/domain/pay-workweek";
import { MAX_SCHEDULE_COST_DAYS, salesByDate, scheduleCost } from "@/domain/schedule-cost";
import { invalidField } from "@/problems/problem";
import { ruleSetOfRow } from "@/wire/pay-rule-set.schemas";

export interface ScheduleCostRequest {
  organizationId: string;
  location: { id: string; timezone: string };
  startDate: string;
  endDate: string;
  includeDrafts: boolean;
  now: Date;
}

/**
 * The staff members a schedule cost is about, as a subquery of ids: those with a live entry (published, or any with
 * drafts) starting in the range at the location, a live shift there on a business date of the range, or a priced
 * change of an entry there (the change log) dated in the range.
 */
const staffOf = (r: ScheduleCostRequest, range: { start: Date; end: Date }): SQL => {
  const here = { locationId: r.location.id, organizationId: r.organizationId };
  const entries = sql`SELECT employee_id FROM schedule_entries WHERE location_id = ${here.locationId} AND +organization_id = ${here.organizationId} AND start_at >= ${range.start.getTime()} AND start_at < ${range.end.getTime()} AND deleted_at IS NULL`;
  const published = r.includeDrafts ? sql`` : sql` AND is_draft = 0`;
  const worked = sql`SELECT employee_id FROM shifts WHERE location_id = ${here.locationId} AND +organization_id = ${here.organizationId} AND business_date >= ${r.startDate} AND business_date <= ${r.endDate} AND deleted_at IS NULL`;
  const changed = sql`SELECT employee_id FROM schedule_changes WHERE location_id = ${here.locationId} AND organization_id = ${here.organizationId} AND entry_date >= ${r.startDate} AND entry_date <= ${r.endDate} AND premium_rule IS NOT NULL AND deleted_at IS NULL`;
  return sql`${entries}${published} UNION ${worked} UNION ${changed}`;
};

/**
 * Every statement of a schedule cost, sent as one batch (one round trip, a handful of bound parameters each: the
 * staff members are a subquery, never an IN list, so a location of any size stays within D1's 100 parameters and
 * 1,000 queries): the rule sets, the staff members' shifts of every workweek the range touches (payReadWindow) and
 * their entries still to end in it, anywhere; their wage rates, staff rows, the organization's roles and break types,
 * the location's FORECAST SALES and targets, the organization's currency, the priced changes of the location's
 * entries dated in the range and the organization's Fair Workweek packs (REST premiums over the projected shifts).
 */
export function scheduleCostStatements(db: Database, r: ScheduleCostRequest) {
  const range = { start: localDayBounds(r.startDate, r.location.timezone).start, end: localDayBounds(r.endDate, r.location.timezone).end };
  const staff = staffOf(r, range);
  return [
    ...projectionStatements(db, { ...r, staff }),
    db
      .select({ startAt: demandIntervals.startAt, value: demandIntervals.value })
      .from(demandIntervals)
      .where(
        and(
          eq(demandIntervals.locationId, r.location.id),
          eq(demandIntervals.metric, "SALES"),
          eq(demandIntervals.kind, "FORECAST"),
          gte(demandIntervals.startAt, range.start.getTime()),
          lt(demandIntervals.startAt, range.end.getTime()),
          eq(demandIntervals.organizationId, r.organizationId),
        ),
      ),
    db
      .select({ laborPercent: laborTargets.laborPercent, salesPerLaborHour: laborTargets.salesPerLaborHour })
      .from(laborTargets)
      .where(and(eq(laborTargets.locationId, r.location.id), eq(laborTargets.organizationId, r.organizationId))),
    db.select({ currencyCode: organizations.currencyCode }).from(organizations).where(eq(organizations.id, r.organizationId)),
    db
      .select({
        employeeId: scheduleChanges.employeeId,
        entryDate: scheduleChanges.entryDate,
        premiumHours: scheduleChanges.premiumHours,
        premiumAmount: scheduleChanges.premiumAmount,
        premiumRule: scheduleChanges.premiumRule,
      })
      .from(scheduleChanges)
      .where(
        and(
          eq(scheduleChanges.organizationId, r.organizationId),
          eq(scheduleChanges.locationId, r.location.id),
          gte(scheduleChanges.entryDate, r.startDate),
          lte(scheduleChanges.entryDate, r.endDate),
          sql`${scheduleChanges.premiumRule} IS NOT NULL`,
          isNull(scheduleChanges.deletedAt),
        ),
      ),
    packVersionsStatement(db, r.organizationId),
  ] as const;
}

/** endDate before startDate, or a range over MAX_SCHEDULE_COST_DAYS days: 400 naming endDate. */
export function assertRange(startDate: string, endDate: string): void {
  const problem = calendarRangeProblem(startDate, endDate, MAX_SCHEDULE_COST_DAYS);
  if (problem) throw invalidField(problem.path, problem.message);
}

/**
 * GET …/schedules/cost: one round trip of reads, then pure work: the projected shifts (domain/schedule-cost), the
 * pay engine over them, and the location's figures per date.
 */
export async function readScheduleCost(db: Database, r: ScheduleCostRequest) {
  const [sets, shiftRows, entryRows, rateRows, staffRows, roleRows, typeRows, intervals, targetRows, organization, changeRows, packRows] =
    await db.batch(scheduleCostStatements(db, r));
  const { ruleSetRows, projected, shiftsForPay, wageOf } = projectionOf(
    [sets, shiftRows, entryRows, rateRows, staffRows, roleRows, typeRows],
    r.now,
  );
  const ruleSets = ruleSetRows.map(ruleSetOfRow);
  const premiums = locationPremiums(r.location.id, shiftsForPay, changeRows, packRows, wageOf);
  const window = payReadWindow(r.startDate, r.endDate);
  const isHoliday = await holidayCalendarFor(db, r.organizationId, ruleSetRows, window.from, window.to);
  const employees = computeChargedPay({
    startDate: r.startDate,
    endDate: r.endDate,
    shifts: shiftsForPay,
    timeOff: [],
    ruleSets,
    premiums,
    isHoliday,
    mealWaivers: staffRows.flatMap((s) => s.mealWaivers.map((w) => ({ ...w, employeeId: s.id }))),
    minorUnits: minorUnitsOf(organization[0]?.currencyCode),
  });
  const targets = { laborPercent: targetRows[0]?.laborPercent ?? null, salesPerLaborHour: targetRows[0]?.salesPerLaborHour ?? null };
  const cost = scheduleCost({
    employees,
    startDate: r.startDate,
    endDate: r.endDate,
    locationId: r.location.id,
    shifts: projected,
    sales: salesByDate(intervals, r.location.timezone),
    targets,
  });
  return {
    locationId: r.location.id,
    startDate: r.startDate,
    endDate: r.endDate,
    includeDrafts: r.includeDrafts,
    currencyCode: organization[0]?.currencyCode ?? "USD",
    targets,
    ...cost,
  };
}

/**
 * The Fair Workweek premiums the location owes, as pay prices them: the priced changes of its entries (PREDICTABILITY)
 * and the REST premiums of the projected shifts (worked and planned) that start there inside a pack's rest window.
 */
function locationPremiums(
  locationId: string,
  shiftsForPay: ReturnType<typeof payShiftFromStored>[],
  changeRows: readonly {
    employeeId: string;
    entryDate: string;
    premiumHours: number | null;
    premiumAmount: number | null;
    premiumRule: string | null;
  }[],
  packRows: readonly PackVersionRow[],
  wageOf: (id: string) => number | null,
): PremiumOwed[] {
  const rest = packRows.length ? restPremiums(shiftsForPay, packsOnDates(packRows), wageOf).filter((p) => p.locationId === locationId) : [];
  const predictability = changeRows.map(
    (row): PremiumOwed => ({
      employeeId: row.employeeId,
      date: row.entryDate,
      kind: "PREDICTABILITY",
      hours: row.premiumHours,
      amount: row.premiumAmount,
      rule: row.premiumRule as `${string}.${string}`,
      hourlyWage: wageOf(row.employeeId),
      locationId,
    }),
  );
  return [...rest, ...predictability];
}
