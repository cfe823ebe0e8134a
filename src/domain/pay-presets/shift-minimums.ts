/*
 * Minimum pay for a day or a shift reported to, beyond the hours worked: California's split-shift premium and
 * reporting-time pay, New York's call-in pay. Pure rules over a preset's data (PresetConditions), in minutes and dollars.
 */

/** California's split-shift premium (IWC Wage Orders §4(C), e.g. 8 CCR 11050 §4(C); DLSE Manual 45.2.1). */
export interface SplitShiftRule {
  /** A gap between two of a workday's shifts longer than this is a split (a bona fide meal period of up to an hour is not). */
  gapOverMinutes: number;
  /** The premium: this many hours at `minimumWage`, less what the day's wages exceed the minimum wage for the hours worked. */
  hours: number;
  minimumWage: number;
  rule: `${string}.${string}`;
}

/** California's reporting-time pay (IWC Wage Orders §5(A)). */
export interface ReportingTimeRule {
  /** Worked less than this share of the scheduled shift: paid that share of it, between min and max minutes. */
  share: number;
  minMinutes: number;
  maxMinutes: number;
  rule: `${string}.${string}`;
}

/** New York's call-in pay (12 NYCRR 142-2.3): at least `minimumMinutes`, or the scheduled shift if shorter, at `rate`. */
export interface CallInRule {
  minimumMinutes: number;
  rate: number;
  rule: `${string}.${string}`;
}

/** A span of a workday's work, in epoch milliseconds of the wall clock. */
export interface WorkSpan {
  start: number;
  end: number;
}

/** Whether a workday's shifts (any order) leave a gap between two of them longer than the rule allows. */
export function isSplitShift(rule: SplitShiftRule, spans: readonly WorkSpan[]): boolean {
  const ordered = [...spans].sort((a, b) => a.start - b.start);
  let reached = Number.NEGATIVE_INFINITY;
  for (const span of ordered) {
    if (reached !== Number.NEGATIVE_INFINITY && span.start - reached > rule.gapOverMinutes * 60_000) return true;
    reached = Math.max(reached, span.end);
  }
  return false;
}

/**
 * The split-shift premium owed for a workday, in dollars (0: none). DLSE Manual 45.2.1: the premium is owed only as
 * far as the day's wages fall short of the minimum wage for every hour worked plus the premium's hour — so a wage
 * above the minimum wage offsets it: premium − (wages − minimum wage × hours worked), never below 0.
 */
export function splitShiftPremium(rule: SplitShiftRule, spans: readonly WorkSpan[], workedMinutes: number, dayWages: number): number {
  if (!isSplitShift(rule, spans)) return 0;
  const premium = rule.hours * rule.minimumWage;
  const excess = Math.max(0, dayWages - (rule.minimumWage * workedMinutes) / 60);
  return Math.max(0, premium - excess);
}

/**
 * The minutes of reporting-time pay owed for a scheduled shift (0: none): when the employee worked less than the
 * rule's share of it, that share (clamped to its 2 to 4 hours) less the minutes worked.
 */
export function reportingTimeMinutes(rule: ReportingTimeRule, scheduledMinutes: number, workedMinutes: number): number {
  if (scheduledMinutes <= 0 || workedMinutes >= scheduledMinutes * rule.share) return 0;
  const owed = Math.min(rule.maxMinutes, Math.max(rule.minMinutes, Math.round(scheduledMinutes * rule.share)));
  return Math.max(0, owed - workedMinutes);
}

/** The minutes of call-in pay owed for a shift reported to (0: none): the rule's minimum, or the scheduled shift if shorter, less the minutes worked. */
export function callInMinutes(rule: CallInRule, scheduledMinutes: number, workedMinutes: number): number {
  if (scheduledMinutes <= 0) return 0;
  return Math.max(0, Math.min(rule.minimumMinutes, scheduledMinutes) - workedMinutes);
}
