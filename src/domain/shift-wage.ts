interface Wage {
  hourlyWage: number | null;
}

/** The hourly wage a shift is paid at: the role's, else the staff member's, else 0 (a role's 0 is kept). */
export const shiftWage = (role: Wage, staff: Wage | null | undefined): number => role.hourlyWage ?? staff?.hourlyWage ?? 0;

/** A salaried staff member (wage type `salary`) is not paid by the hour: their shifts carry no hourly wage. */
export const isSalaried = (staff: { wageType: string | null } | null | undefined): boolean => staff?.wageType === "salary";

/**
 * What a shift stores of its pay: a salaried staff member's shift is `salaried` with wage 0 (no amount), anyone
 * else's the explicit wage, else the role's, else the staff member's (shiftWage).
 */
export function shiftPay(
  role: Wage,
  staff: (Wage & { wageType: string | null }) | null | undefined,
  explicit?: number,
): { hourlyWage: number; salaried: boolean } {
  if (isSalaried(staff)) return { hourlyWage: 0, salaried: true };
  return { hourlyWage: explicit ?? shiftWage(role, staff), salaried: false };
}

/** The wire's hourlyWage of a stored shift: null when it is a salaried staff member's (as pay lines' rate is). */
export const wireWage = (shift: { hourlyWage: number; salaried: boolean }): number | null => (shift.salaried ? null : shift.hourlyWage);
