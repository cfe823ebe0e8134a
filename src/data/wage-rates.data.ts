import { wageRates } from "@db/schema";
import { and, desc, eq, inArray, isNull, lte, type SQL } from "drizzle-orm";
import type { Database } from "./client";

/** A wage rate as resolving a shift reads it. */
const rateColumns = {
  id: wageRates.id,
  roleId: wageRates.roleId,
  locationId: wageRates.locationId,
  hourlyRate: wageRates.hourlyRate,
  effectiveFrom: wageRates.effectiveFrom,
};

/** Live rates of the staff `staff` picks, effective by `date`. */
const effectiveBy = (organizationId: string, staff: SQL | undefined, date: string) =>
  and(eq(wageRates.organizationId, organizationId), staff, isNull(wageRates.deletedAt), lte(wageRates.effectiveFrom, date));

/** The staff member's live rates effective by `date` (the newest first): what resolving a shift on that date reads. */
export const ratesEffectiveBy = (db: Database, organizationId: string, employeeId: string, date: string) =>
  db
    .select(rateColumns)
    .from(wageRates)
    .where(effectiveBy(organizationId, eq(wageRates.employeeId, employeeId), date))
    .orderBy(desc(wageRates.effectiveFrom));

/** The same for several staff members (ids within one statement's parameters), each row naming its staff member. */
export const staffRatesEffectiveBy = (db: Database, organizationId: string, employeeIds: readonly string[], date: string) =>
  db
    .select({ employeeId: wageRates.employeeId, ...rateColumns })
    .from(wageRates)
    .where(effectiveBy(organizationId, inArray(wageRates.employeeId, [...employeeIds]), date));
