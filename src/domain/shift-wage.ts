interface Wage {
  hourlyWage: number | null;
}

/** The hourly wage a shift is paid at: the role's, else the staff member's, else 0 (a role's 0 is kept). */
export const shiftWage = (role: Wage, staff: Wage | null | undefined): number => role.hourlyWage ?? staff?.hourlyWage ?? 0;
