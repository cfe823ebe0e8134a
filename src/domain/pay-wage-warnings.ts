import { roundTo } from "./pay-amounts";
import { CASUAL_LOADING } from "./pay-presets/au-general-retail";
import { awardMinimumWageOn } from "./pay-presets/award-minimum-wages";
import type { GoverningSet, PayPreset } from "./pay-rules";

/**
 * A shift paid below its award's minimum hourly rate: the figures compared — for a casual the wage with the casual
 * loading pay adds (to the cent) against the casual minimum — and the source. Pay stays the wage paid.
 */
export interface PayWarning {
  code: "WAGE_BELOW_AWARD_MINIMUM";
  date: string;
  shiftId: string;
  wage: number;
  minimum: number;
  source: string;
}

interface WarnedShift {
  id: string;
  locationId: string;
  businessDate: string;
  hourlyWage: number | null;
  employment?: { type: string | null };
}

/** A wage compared with its award's minimum: as pay adds the casual loading, against the minimum for the employment. */
export interface AwardShortfall {
  wage: number;
  minimum: number;
  source: string;
}

/**
 * The shortfall of an hourly wage paid under `preset` on `date` below the award's minimum (null: at or above it, or
 * no minimum): a casual's wage with the 25 % casual loading (to the cent) against the casual minimum.
 */
export function awardShortfall(
  preset: PayPreset,
  date: string,
  hourlyWage: number,
  employmentType: string | null | undefined,
): AwardShortfall | null {
  const minimum = awardMinimumWageOn(preset, date);
  if (!minimum) return null;
  const casual = employmentType === "casual";
  const wage = casual ? roundTo(hourlyWage * (1 + CASUAL_LOADING), 2) : hourlyWage;
  const floor = casual ? minimum.casualHourly : minimum.hourly;
  return wage < floor ? { wage, minimum: floor, source: minimum.source } : null;
}

/**
 * The warnings of an employee's shifts dated in [startDate, endDate] (by business date), each judged by the preset of
 * the rule set governing its location on its date: one per shift whose wage is below the minimum; none for a
 * salaried shift (no hourly wage) or a preset without a minimum.
 */
export function wageWarnings(
  shifts: readonly WarnedShift[],
  governing: (locationId: string, date: string) => GoverningSet,
  startDate: string,
  endDate: string,
): PayWarning[] {
  const warnings: PayWarning[] = [];
  for (const shift of shifts) {
    const date = shift.businessDate;
    if (shift.hourlyWage === null || date < startDate || date > endDate) continue;
    const below = awardShortfall(governing(shift.locationId, date).preset, date, shift.hourlyWage, shift.employment?.type);
    if (below) warnings.push({ code: "WAGE_BELOW_AWARD_MINIMUM", date, shiftId: shift.id, ...below });
  }
  return warnings;
}
