import { roundCentsToMinorUnits } from "./pay-amounts";

/**
 * Qualified overtime compensation (One Big Beautiful Bill Act, Pub. L. 119-21, §70202, adding IRC §225 for tax years
 * 2025–2028): "overtime compensation paid to an individual required under section 7 of the Fair Labor Standards Act
 * of 1938 that is in excess of the regular rate" (IRC §225(c)(1)). FLSA §7(a)(1) (29 U.S.C. 207(a)(1)) requires one
 * and one-half times the regular rate for hours over 40 in a workweek: the qualified part is the half, 0.5 × the
 * workweek's regular rate (29 CFR 778.107, 778.109) for each hour over 40. Overtime owed under a state rule alone
 * (California's daily overtime under 40 hours a week, Cal. Labor Code 510) and the part of double time beyond the
 * half are not required by §7, so not qualified; a daily premium paid on hours that are also over 40 in the week
 * does satisfy §7 for them (29 CFR 778.202(c)), so the FLSA minutes are found wherever the week's overtime lines are.
 */
export const QUALIFIED_OVERTIME = {
  source: "Pub. L. 119-21 §70202; 26 U.S.C. 225(c)(1); 29 U.S.C. 207(a)(1); 29 CFR 778.107, 778.202",
  effectiveFrom: "2025-01-01",
  effectiveTo: "2028-12-31",
  /** FLSA §7(a)(1): hours over 40 in the workweek. */
  weeklyThresholdMinutes: 2400,
  /** The part of the overtime rate "in excess of the regular rate" that §7 requires: one half. */
  requiredPremium: 0.5,
} as const;

/** An overtime line of a workweek as allocation reads it: its minutes, whether it carries a premium at all. */
export interface OvertimeLineMinutes {
  minutes: number;
  premium: boolean;
}

/**
 * The minutes of each of a workweek's lines that are over 40 hours in the FLSA workweek: the week's minutes worked
 * past 2400, laid on its premium lines (OVERTIME, DOUBLE_TIME) from the last backwards (the hours past 40 are the
 * week's last), each taking at most its own minutes. Lines without a premium take none: regular time is never
 * qualified. Minutes over 40 that no premium line paid stay unallocated (nothing was paid on them to qualify).
 */
export function allocateFlsaOvertime(weekMinutesWorked: number, lines: readonly OvertimeLineMinutes[]): number[] {
  let left = Math.max(0, weekMinutesWorked - QUALIFIED_OVERTIME.weeklyThresholdMinutes);
  const allocated = lines.map(() => 0);
  for (let i = lines.length - 1; i >= 0 && left > 0; i--) {
    const line = lines[i]!;
    if (!line.premium) continue;
    const taken = Math.min(left, line.minutes);
    allocated[i] = taken;
    left -= taken;
  }
  return allocated;
}

/** What one overtime line's qualified part is computed from. */
export interface QualifiedLineInput {
  minutes: number;
  /** Its minutes over 40 in the FLSA workweek (allocateFlsaOvertime). */
  qualifiedMinutes: number;
  /** Its own hourly wage (straight time); null: not paid by the hour. */
  wage: number | null;
  /** multiplier − 1: 0.5 for time and a half, 1 for double time. */
  premium: number;
  /** The workweek's exact regular rate. */
  regularRate: number | null;
  /** The line's amount in cents. */
  amountCents: number | null;
}

/** A line's premium over straight time, in cents: its amount less its minutes at its own wage. */
export function premiumOverStraightTimeCents(
  line: Pick<QualifiedLineInput, "minutes" | "wage" | "amountCents">,
  minorUnits = 2,
): number | null {
  if (line.wage === null || line.amountCents === null) return null;
  return Math.max(0, line.amountCents - roundCentsToMinorUnits((line.minutes * line.wage * 100) / 60, minorUnits));
}

/**
 * A line's qualified overtime premium in cents: 0.5 × the regular rate × its minutes over 40, never more than the
 * premium it paid over straight time. A line whose every minute is over 40 and whose premium is at most the half (a
 * time-and-a-half line of an FLSA week) qualifies its whole premium over straight time, to the cent. Null without a
 * wage or a regular rate.
 */
export function qualifiedPremiumCents(line: QualifiedLineInput, minorUnits = 2): number | null {
  const paid = premiumOverStraightTimeCents(line, minorUnits);
  if (paid === null || line.regularRate === null) return null;
  if (line.qualifiedMinutes === 0) return 0;
  if (line.qualifiedMinutes === line.minutes && line.premium <= QUALIFIED_OVERTIME.requiredPremium) return paid;
  const half = Math.min(line.premium, QUALIFIED_OVERTIME.requiredPremium);
  const required = roundCentsToMinorUnits((line.qualifiedMinutes * half * line.regularRate * 100) / 60, minorUnits);
  return Math.min(paid, Math.max(0, required));
}
