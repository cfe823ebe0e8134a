import type { MealPeriod } from "./pay-rules";

/*
 * Meal periods of a workday (Cal. Labor Code 512(a); 226.7(c)): each period is due once the day's work passes its
 * afterMinutes and met by its own unpaid break begun by then; a waived period is excused on a short enough day; a
 * workday earns at most one meal premium, however many periods it missed.
 */

/** A break that may meet a meal period: where the day's work stood when it began, and how long it lasted. */
export interface MealOpportunity {
  workedBefore: number;
  minutes: number;
}

/** A dated waiver on a staff member: from effectiveFrom (a local date) on, which meal periods they waived. */
export interface MealWaiver {
  employeeId: string;
  effectiveFrom: string;
  firstMeal: boolean;
  secondMeal: boolean;
}

/** The waiver in force on a date, as one flag per meal period (first, second); none waived without one. */
export function waivedMealsOn(waivers: readonly MealWaiver[], employeeId: string, date: string): readonly boolean[] {
  let found: MealWaiver | undefined;
  for (const w of waivers) {
    if (w.employeeId === employeeId && w.effectiveFrom <= date && (!found || w.effectiveFrom > found.effectiveFrom)) found = w;
  }
  return found ? [found.firstMeal, found.secondMeal] : [];
}

/**
 * The first meal period a workday missed, or null: periods in order of afterMinutes; one is due when the day's
 * payable minutes exceed its afterMinutes; a due period is excused when the employee waived it (`waived[i]`), it is
 * waivable and the day's work is at most its waivableUpToMinutes, and no earlier period was excused so (the second
 * meal may be waived only when the first was not); else it is met by the earliest opportunity not used by an earlier
 * period, at least its minimumMinutes long, begun when at most afterMinutes had been worked (exactly then is in time).
 */
export function missedMealPeriod(
  periods: readonly MealPeriod[],
  dayMinutes: number,
  opportunities: readonly MealOpportunity[],
  waived: readonly boolean[] = [],
): MealPeriod | null {
  const open = [...opportunities].sort((a, b) => a.workedBefore - b.workedBefore);
  const used = new Set<number>();
  let waiverUsed = false;
  for (const [index, period] of periods.entries()) {
    if (dayMinutes <= period.afterMinutes) return null;
    const limit = period.waivableUpToMinutes;
    if (waived[index] && !waiverUsed && limit !== undefined && limit !== null && dayMinutes <= limit) {
      waiverUsed = true;
      continue;
    }
    const met = open.findIndex((o, i) => !used.has(i) && o.minutes >= period.minimumMinutes && o.workedBefore <= period.afterMinutes);
    if (met === -1) return period;
    used.add(met);
  }
  return null;
}
