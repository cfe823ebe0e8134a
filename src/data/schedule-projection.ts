import { breakTypes, payRuleSets, roles, scheduleEntries, shifts, staffMembers, wageRates } from "@db/schema";
import { and, eq, gt, gte, isNull, lt, lte, type SQL, sql } from "drizzle-orm";
import type { BatchResponse } from "drizzle-orm/batch";
import { addDays } from "@/domain/local-time";
import { payWage } from "@/domain/pay-rules";
import { payShiftFromStored } from "@/domain/pay-shift";
import { payReadWindow } from "@/domain/pay-workweek";
import { projectedShifts, type ScheduledEntry, type WageSources, type WorkedShift } from "@/domain/schedule-cost";
import type { WageRateRow } from "@/domain/wage-rate";
import type { Database } from "./client";
import { shiftsReadFrom } from "./pay/pay-read-window";
import { payShiftColumns } from "./pay/pay-shift-columns";
import { readRows } from "./row-mapping";
import { inOrganization } from "./tenancy";

const DAY_MS = 86_400_000;

/** Whose schedule is projected, over which dates, at which instant; `staff` is a subquery of their ids. */
export interface ProjectionRequest {
  organizationId: string;
  staff: SQL;
  startDate: string;
  endDate: string;
  includeDrafts: boolean;
  now: Date;
}

/**
 * The reads of a schedule's projection (schedule cost's engine, and the publish's dry run pricing premium hours),
 * for a caller's read batch: the organization's rule sets, the staff members' shifts of every workweek the dates
 * touch (payReadWindow) and their entries still to end in it, anywhere (drafts too with includeDrafts); their wage
 * rates, staff rows, the organization's roles and break types. A handful of bound parameters each: the staff members
 * are a subquery, never an IN list.
 */
export function projectionStatements(db: Database, r: ProjectionRequest) {
  const window = payReadWindow(r.startDate, r.endDate);
  // Entries elsewhere may be in another zone: a day's margin either side of the window's local days.
  const entriesFrom = Date.parse(`${window.from}T00:00:00Z`) - 2 * DAY_MS;
  const entriesTo = Date.parse(`${addDays(window.to, 1)}T00:00:00Z`) + 2 * DAY_MS;
  return [
    db
      .select()
      .from(payRuleSets)
      .where(and(eq(payRuleSets.organizationId, r.organizationId), isNull(payRuleSets.deletedAt))),
    readRows(
      db,
      db
        .select(payShiftColumns)
        .from(shifts)
        .where(
          and(
            sql`${shifts.employeeId} IN (${r.staff})`,
            sql`+${shifts.organizationId} = ${r.organizationId}`,
            sql`${shifts.businessDate} >= ${shiftsReadFrom(r.organizationId, r.startDate)}`,
            lte(shifts.businessDate, window.to),
            isNull(shifts.deletedAt),
          ),
        ),
    ),
    db
      .select({
        id: scheduleEntries.id,
        employeeId: scheduleEntries.employeeId,
        locationId: scheduleEntries.locationId,
        roleId: scheduleEntries.roleId,
        startAt: scheduleEntries.startAt,
        endAt: scheduleEntries.endAt,
        utcOffset: scheduleEntries.utcOffset,
        breakTypeIds: scheduleEntries.breaks,
      })
      .from(scheduleEntries)
      .where(
        and(
          sql`${scheduleEntries.employeeId} IN (${r.staff})`,
          sql`+${scheduleEntries.organizationId} = ${r.organizationId}`,
          gte(scheduleEntries.startAt, new Date(entriesFrom)),
          lt(scheduleEntries.startAt, new Date(entriesTo)),
          gt(scheduleEntries.endAt, r.now),
          isNull(scheduleEntries.deletedAt),
          r.includeDrafts ? undefined : eq(scheduleEntries.isDraft, false),
        ),
      ),
    db
      .select({
        employeeId: wageRates.employeeId,
        id: wageRates.id,
        roleId: wageRates.roleId,
        locationId: wageRates.locationId,
        hourlyRate: wageRates.hourlyRate,
        effectiveFrom: wageRates.effectiveFrom,
      })
      .from(wageRates)
      .where(
        and(
          sql`${wageRates.employeeId} IN (${r.staff})`,
          eq(wageRates.organizationId, r.organizationId),
          isNull(wageRates.deletedAt),
          lte(wageRates.effectiveFrom, window.to),
        ),
      ),
    db
      .select({
        id: staffMembers.id,
        hourlyWage: staffMembers.hourlyWage,
        wageType: staffMembers.wageType,
        employmentType: staffMembers.employmentType,
        schoolStudent: staffMembers.schoolStudent,
        mealWaivers: staffMembers.mealWaivers,
      })
      .from(staffMembers)
      .where(and(sql`${staffMembers.id} IN (${r.staff})`, eq(staffMembers.organizationId, r.organizationId))),
    db.select({ id: roles.id, hourlyWage: roles.hourlyWage }).from(roles).where(eq(roles.organizationId, r.organizationId)),
    db
      .select({
        id: breakTypes.id,
        locationId: breakTypes.locationId,
        name: breakTypes.name,
        mandatory: breakTypes.mandatory,
        enabled: breakTypes.enabled,
        frequencyMinutes: breakTypes.frequencyMinutes,
        durationMinutes: breakTypes.durationMinutes,
        paid: breakTypes.paid,
      })
      .from(breakTypes)
      .where(inOrganization(breakTypes, r.organizationId)),
  ] as const;
}

/** What D1 answers the projection's statements with, in their order. */
export type ProjectionRows = BatchResponse<ReturnType<typeof projectionStatements>>;

const groupBy = <T extends { employeeId: string }>(rows: readonly T[]) => {
  const map = new Map<string, T[]>();
  for (const row of rows) map.set(row.employeeId, [...(map.get(row.employeeId) ?? []), row]);
  return map;
};

/**
 * What the projection's reads answer, as pay reads it: the shifts worked and those the entries still to end project
 * (domain/schedule-cost projectedShifts), as pay shifts; the staff rows, and each one's wage for hours in a workweek
 * they work nothing (payWage). The rule sets stay rows: the caller maps them.
 */
export function projectionOf(rows: ProjectionRows, now: Date) {
  const [sets, shiftRows, entryRows, rateRows, staffRows, roleRows, typeRows] = rows;
  const salaried = new Set(staffRows.filter((s) => s.wageType === "salary").map((s) => s.id));
  const worked: WorkedShift[] = shiftRows.map((row) => ({ ...row, hourlyWage: salaried.has(row.employeeId) ? null : row.hourlyWage }));
  const wages: WageSources = {
    rates: groupBy<WageRateRow & { employeeId: string }>(rateRows),
    roles: new Map(roleRows.map((role) => [role.id, role])),
    staff: new Map(staffRows.map((s) => [s.id, s])),
  };
  const entries: ScheduledEntry[] = entryRows;
  const projected = projectedShifts({ now, shifts: worked, entries, breakTypes: typeRows, wages });
  const wageOf = new Map(staffRows.map((s) => [s.id, payWage(s.wageType, s.hourlyWage)]));
  const employment = new Map(staffRows.map((s) => [s.id, { type: s.employmentType, schoolStudent: s.schoolStudent }]));
  return {
    ruleSetRows: sets,
    projected,
    // As pay reads them (data/pay/pay-inputs): each shift with its staff member's employment, for an award's rates.
    shiftsForPay: projected.map((shift) => ({ ...payShiftFromStored(shift), employment: employment.get(shift.employeeId) })),
    staffRows,
    wageOf: (id: string) => wageOf.get(id) ?? null,
  };
}
