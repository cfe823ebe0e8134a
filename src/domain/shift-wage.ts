interface Wage {
  hourlyWage: number | null;
}

/** The hourly wage a shift is paid at: the role's, else the staff member's, else 0 (a role's 0 is kept). */
export const shiftWage = (role: Wage, staff: Wage | null | undefined): number => role.hourlyWage ?? staff?.hourlyWage ?? 0;

/** A salaried staff member (wage type `salary`) is not paid by the hour: their shifts carry no hourly wage. */
export const isSalaried = (staff: { wageType: string | null } | null | undefined): boolean => staff?.wageType === "salary";

/**
 * Where a shift's wage came from: RESOLVED by the wage rules (domain/wage-rate's resolveWage), which a wage rate
 * written later with an effectiveFrom on or before the shift's date re-rates; or SET_BY_HAND, which stays.
 */
export type ShiftWageSource = "RESOLVED" | "SET_BY_HAND";

/**
 * What a shift stores of its pay: a salaried staff member's shift is `salaried` with wage 0 (no amount) and no
 * rate, anyone else's the explicit wage, else the resolved wage rate (domain/wage-rate's resolveWage: a rate, else
 * the role's, else the staff member's), else the role's, else the staff member's (shiftWage).
 */
export function shiftPay(
  role: Wage,
  staff: (Wage & { wageType: string | null }) | null | undefined,
  explicit?: number,
  resolved?: { hourlyRate: number; wageRateId: string | null },
): { hourlyWage: number; salaried: boolean; wageRateId: string | null; wageSource: ShiftWageSource } {
  if (isSalaried(staff)) return { hourlyWage: 0, salaried: true, wageRateId: null, wageSource: "RESOLVED" };
  if (explicit !== undefined) return { hourlyWage: explicit, salaried: false, wageRateId: null, wageSource: "SET_BY_HAND" };
  if (resolved) return { hourlyWage: resolved.hourlyRate, salaried: false, wageRateId: resolved.wageRateId, wageSource: "RESOLVED" };
  return { hourlyWage: shiftWage(role, staff), salaried: false, wageRateId: null, wageSource: "RESOLVED" };
}

/** The wire's hourlyWage of a stored shift: null when it is a salaried staff member's (as pay lines' rate is). */
export const wireWage = (shift: { hourlyWage: number; salaried: boolean }): number | null => (shift.salaried ? null : shift.hourlyWage);
