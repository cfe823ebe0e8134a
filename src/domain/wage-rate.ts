/** A wage rate as the resolution reads it: who and where it applies to (null: any), from which local date. */
export interface WageRateRow {
  id: string;
  roleId: string | null;
  locationId: string | null;
  hourlyRate: number;
  effectiveFrom: string;
}

export type WageSource = "WAGE_RATE" | "ROLE" | "STAFF_MEMBER";

export interface ResolvedWage {
  hourlyRate: number;
  wageRateId: string | null;
  source: WageSource;
}

/**
 * What naming a role or a location adds to a rate's specificity: role and location (3) > role (2) > location (1) >
 * staff member only (0). The re-rating of recorded shifts orders rates in SQL by the same weights
 * (features/wage-rates/shift-rerating.data).
 */
export const RATE_SPECIFICITY = { role: 2, location: 1 } as const;

/** How specific a rate is for the shift (higher wins), or -1 when it does not apply to its role and location. */
function specificity(rate: WageRateRow, roleId: string | null, locationId: string | null): number {
  if (rate.roleId !== null && rate.roleId !== roleId) return -1;
  if (rate.locationId !== null && rate.locationId !== locationId) return -1;
  return (rate.roleId !== null ? RATE_SPECIFICITY.role : 0) + (rate.locationId !== null ? RATE_SPECIFICITY.location : 0);
}

/**
 * The hourly rate of a shift of the staff member starting on local date `date` in `roleId` at `locationId`: among
 * the staff member's rates effective that day (effectiveFrom ≤ date) that apply to its role and location, the most
 * specific (role and location > role > location > employee only), then the newest; else the role's hourlyWage,
 * else the staff member's, else 0 (shift-wage's rule).
 */
export function resolveWage(
  rates: readonly WageRateRow[],
  shift: { roleId: string | null; locationId: string | null; date: string },
  role: { hourlyWage: number | null } | null | undefined,
  staff: { hourlyWage: number | null } | null | undefined,
): ResolvedWage {
  let best: { rate: WageRateRow; rank: number } | null = null;
  for (const rate of rates) {
    if (rate.effectiveFrom > shift.date) continue;
    const rank = specificity(rate, shift.roleId, shift.locationId);
    if (rank < 0) continue;
    if (
      !best ||
      rank > best.rank ||
      (rank === best.rank &&
        (rate.effectiveFrom > best.rate.effectiveFrom || (rate.effectiveFrom === best.rate.effectiveFrom && rate.id > best.rate.id)))
    )
      best = { rate, rank };
  }
  if (best) return { hourlyRate: best.rate.hourlyRate, wageRateId: best.rate.id, source: "WAGE_RATE" };
  if (role?.hourlyWage !== null && role?.hourlyWage !== undefined) return { hourlyRate: role.hourlyWage, wageRateId: null, source: "ROLE" };
  return { hourlyRate: staff?.hourlyWage ?? 0, wageRateId: null, source: "STAFF_MEMBER" };
}
