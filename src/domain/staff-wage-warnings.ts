import type { GoverningSet } from "./pay-rules";
import { awardShortfall } from "./pay-wage-warnings";
import type { WageRateRow } from "./wage-rate";

/**
 * A current wage of a staff member below the award's minimum at a location: the staff member's own hourly wage
 * (wageRateId null) or one of their wage rates in force, under the preset governing the location on the date judged.
 * The figures as pay compares them (pay-wage-warnings awardShortfall); nothing is raised.
 */
export interface StaffWageWarning {
  code: "WAGE_BELOW_AWARD_MINIMUM";
  locationId: string;
  wageRateId: string | null;
  wage: number;
  minimum: number;
  source: string;
}

export interface WarnedStaffMember {
  wageType: string | null;
  hourlyWage: number | null;
  employmentType: string | null;
  locationIds: readonly string[];
}

const scopeOf = (rate: WageRateRow) => `${rate.roleId ?? ""}\u0000${rate.locationId ?? ""}`;

/** The rates in force on `date`: of each role-and-location scope, the newest effective by then (the newer id on a tie). */
export function ratesInForce(rates: readonly WageRateRow[], date: string): WageRateRow[] {
  const newest = new Map<string, WageRateRow>();
  for (const rate of rates) {
    if (rate.effectiveFrom > date) continue;
    const found = newest.get(scopeOf(rate));
    if (!found || rate.effectiveFrom > found.effectiveFrom || (rate.effectiveFrom === found.effectiveFrom && rate.id > found.id)) {
      newest.set(scopeOf(rate), rate);
    }
  }
  return [...newest.values()];
}

/**
 * The staff member's wages below the award minimum on `date`: their hourly wage at each location they are assigned
 * to, and each rate in force at its own location (a rate naming none: at each assigned location). None for a
 * salaried staff member, a location whose preset has no minimum, or a wage at or above it.
 */
export function staffWageWarnings(
  staff: WarnedStaffMember,
  rates: readonly WageRateRow[],
  governing: (locationId: string, date: string) => GoverningSet,
  date: string,
): StaffWageWarning[] {
  if (staff.wageType === "salary") return [];
  const wages: { wageRateId: string | null; hourlyRate: number; locationIds: readonly string[] }[] = [];
  if (staff.hourlyWage !== null) wages.push({ wageRateId: null, hourlyRate: staff.hourlyWage, locationIds: staff.locationIds });
  for (const rate of ratesInForce(rates, date)) {
    wages.push({ wageRateId: rate.id, hourlyRate: rate.hourlyRate, locationIds: rate.locationId ? [rate.locationId] : staff.locationIds });
  }
  const warnings: StaffWageWarning[] = [];
  for (const wage of wages) {
    for (const locationId of wage.locationIds) {
      const below = awardShortfall(governing(locationId, date).preset, date, wage.hourlyRate, staff.employmentType);
      if (below) warnings.push({ code: "WAGE_BELOW_AWARD_MINIMUM", locationId, wageRateId: wage.wageRateId, ...below });
    }
  }
  return warnings;
}
