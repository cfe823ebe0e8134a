import { wageRates } from "@db/schema";
import { and, desc, eq, isNull, lte } from "drizzle-orm";
import type { Database } from "./client";

/** The staff member's live rates effective by `date` (the newest first): what resolving a shift on that date reads. */
export const ratesEffectiveBy = (db: Database, organizationId: string, employeeId: string, date: string) =>
  db
    .select({
      id: wageRates.id,
      roleId: wageRates.roleId,
      locationId: wageRates.locationId,
      hourlyRate: wageRates.hourlyRate,
      effectiveFrom: wageRates.effectiveFrom,
    })
    .from(wageRates)
    .where(
      and(
        eq(wageRates.organizationId, organizationId),
        eq(wageRates.employeeId, employeeId),
        isNull(wageRates.deletedAt),
        lte(wageRates.effectiveFrom, date),
      ),
    )
    .orderBy(desc(wageRates.effectiveFrom));
