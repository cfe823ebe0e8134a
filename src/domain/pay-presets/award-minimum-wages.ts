import type { PayPreset } from "../pay-rules";

/**
 * An award's minimum hourly rate from a date: what a wage paid under the preset is held to. A wage below it is a
 * warning on the pay, never raised: the award's classification of the employee is the employer's to make, and this
 * is the lowest one's.
 */
export interface AwardMinimumWage {
  /** The first day it applies (the Annual Wage Review's operative date; earlier dates: the version before, if any). */
  from: string;
  /** The adult full-time and part-time minimum hourly rate of the lowest classification. */
  hourly: number;
  /** A casual's: `hourly` with the 25 % casual loading, to the cent, as the pay guide prints it. */
  casualHourly: number;
  source: string;
}

/**
 * General Retail Industry Award 2020 [MA000004] cl. 17.1 (minimum rates) and cl. 11.2 (casual loading 25 %): Retail
 * Employee Level 1, $26.55 an hour ($1,008.90 a week of 38 hours) from the first full pay period on or after
 * 1 July 2025 (Annual Wage Review 2024–25, + 3.5 % on $25.65); casual $33.19 (26.55 × 1.25 = 33.1875 → 33.19).
 * Fair Work Ombudsman, "Pay Guide — General Retail Industry Award [MA000004]", 1 July 2025; matched against
 * RosterElf's "General Retail Award Rates 2025/26" table (rosterelf.com/guides/award-rates/general-retail).
 */
export const AU_GENERAL_RETAIL_MINIMUM_WAGES: readonly AwardMinimumWage[] = [
  {
    from: "2025-07-01",
    hourly: 26.55,
    casualHourly: 33.19,
    source:
      "General Retail Industry Award 2020 [MA000004] cl. 17.1, Retail Employee Level 1 (FWO pay guide, 1 July 2025); " +
      "casual + 25 % cl. 11.2",
  },
];

/** Minimum wages by preset, each list in date order; a preset without one has no minimum checked. */
export const AWARD_MINIMUM_WAGES: Readonly<Partial<Record<PayPreset, readonly AwardMinimumWage[]>>> = {
  AU_GENERAL_RETAIL: AU_GENERAL_RETAIL_MINIMUM_WAGES,
};

/** The preset's minimum wage in force on `date` (YYYY-MM-DD), or null. */
export function awardMinimumWageOn(preset: PayPreset, date: string): AwardMinimumWage | null {
  let found: AwardMinimumWage | null = null;
  for (const version of AWARD_MINIMUM_WAGES[preset] ?? []) if (version.from <= date) found = version;
  return found;
}
