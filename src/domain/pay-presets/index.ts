import type { PayPreset } from "../pay-rules";
import { AU_GENERAL_RETAIL_AWARD } from "./au-general-retail";
import type { Award } from "./award";
import { JP_STATUTORY_PREMIUMS } from "./jp-statutory";
import type { CallInRule, ReportingTimeRule, SplitShiftRule } from "./shift-minimums";

/**
 * What a preset governs beyond the thresholds it fills (pay-rules.ts PRESET_RULES): its award's penalty rates,
 * loadings and engagements, and a daily rule that applies only below a wage. Data keyed by preset: classification
 * reads it, never a jurisdiction's name.
 */
export interface PresetConditions {
  award: Award | null;
  /**
   * The daily thresholds apply only to a shift paid below this hourly wage (null: to every shift). Nevada: 1½ × the
   * state minimum wage of $12.00 (NRS 608.018(1), 608.250; $12.00 from 1 July 2024, AB 456 (2019)).
   */
  dailyOvertimeBelowWage: number | null;
  /**
   * Weekly overtime past this many minutes of the week is DOUBLE_TIME (WEEKLY_DOUBLE_TIME) at the set's
   * doubleTimeMultiplier (null: one weekly band). France: from the 44th hour (Code du travail L3121-36).
   */
  weeklyDoubleTimeAfterMinutes: number | null;
  /**
   * A workday whose spread (its first shift's start to its last shift's end) passes `afterMinutes` earns `hours` at
   * `rate` (null: none). New York: one hour at the minimum wage past 10 hours (12 NYCRR 142-2.4, 146-1.6).
   */
  spreadOfHours: { afterMinutes: number; hours: number; rate: number; rule: `${string}.${string}` } | null;
  /**
   * A shift's payable minutes past this many are overtime whatever workday they fall in (null: none), unpaid breaks
   * not counted and not ending the run; a minute the daily threshold already made overtime is paid once. Colorado:
   * 12 consecutive hours "without regard to the starting and ending time of the workday (excluding duty free meal
   * periods), whichever calculation results in the greater payment of wages" (COMPS Order #39, 7 CCR 1103-1 Rule
   * 4.1.1(C)). A run is one shift: two shifts are never joined into one.
   */
  consecutiveOvertimeAfterMinutes: number | null;
  /**
   * The daily thresholds count the minutes worked in the 24 hours from when the employee begins work, not in the
   * calendar workday: a window opens at the start of the employee's first shift, and again at the first work at or after
   * the end of the one before (mid-shift when work goes on past it). Nevada: "'Workday' means a period of 24
   * consecutive hours which begins when the employee begins work" (NRS 608.0126), so a Tuesday 06:00 start after a
   * Monday 08:00–16:00 shift makes Tuesday's first 2 hours overtime. Lines keep the calendar workday's date; the
   * workweek is unchanged.
   */
  dailyFromWorkStart: boolean;
  /** A workday split by an unpaid gap of more than an hour earns a premium (shift-minimums.ts; null: none). */
  splitShift: SplitShiftRule | null;
  /**
   * A shift reported to and worked less than half of, as scheduled, is paid half (2 to 4 hours) at the regular rate
   * (null: none). Needs the shift's scheduled minutes (PayShift.scheduledMinutes).
   */
  reportingTime: ReportingTimeRule | null;
  /** A shift reported to is paid at least so many hours, or its scheduled length if shorter (null: none). */
  callIn: CallInRule | null;
  /**
   * Whether the set's employees are under the FLSA, so that their hours over 40 in the workweek are section 7
   * overtime, the part IRC §225 calls qualified (pay-qualified-overtime.ts). False outside the US: no qualified split.
   */
  underFlsa: boolean;
}

const NONE: PresetConditions = {
  award: null,
  dailyOvertimeBelowWage: null,
  weeklyDoubleTimeAfterMinutes: null,
  consecutiveOvertimeAfterMinutes: null,
  dailyFromWorkStart: false,
  spreadOfHours: null,
  splitShift: null,
  reportingTime: null,
  callIn: null,
  underFlsa: true,
};
/** Outside the US: no FLSA, so no qualified overtime. */
const ABROAD: PresetConditions = { ...NONE, underFlsa: false };

export const PRESET_CONDITIONS: Readonly<Partial<Record<PayPreset, PresetConditions>>> = {
  AU_GENERAL_RETAIL: { ...ABROAD, award: AU_GENERAL_RETAIL_AWARD },
  CA_ON: ABROAD,
  CA_BC: ABROAD,
  US_NV: { ...NONE, dailyOvertimeBelowWage: 18, dailyFromWorkStart: true },
  US_CO: { ...NONE, consecutiveOvertimeAfterMinutes: 720 },
  FR_STATUTORY: { ...ABROAD, weeklyDoubleTimeAfterMinutes: 43 * 60 },
  JP_STATUTORY: { ...ABROAD, award: JP_STATUTORY_PREMIUMS },
  // The minimum wage of New York City, Long Island and Westchester from 1 January 2026 ($17.00; Labor Law 652(1)); the
  // rest of the state's $16.00 needs a CUSTOM set until a location's region is read.
  // Call-in pay: 12 NYCRR 142-2.3 (the miscellaneous industries order: 4 hours, or the regularly scheduled shift if
  // shorter, at the basic minimum hourly wage); the hospitality order (146-1.5) counts 3 hours and needs a CUSTOM set.
  US_NY: {
    ...NONE,
    spreadOfHours: { afterMinutes: 600, hours: 1, rate: 17, rule: "US_NY.SPREAD_OF_HOURS" },
    callIn: { minimumMinutes: 240, rate: 17, rule: "US_NY.CALL_IN" },
  },
  // The state minimum wage from 1 January 2026: $16.90 (Labor Code 1182.12(c), the Department of Finance's 2025
  // adjustment); a city's higher minimum needs a CUSTOM set. Split shift: IWC Wage Orders §4(C) (8 CCR 11050 §4(C)),
  // DLSE Enforcement Policies and Interpretations Manual 45.2.1 — more than an hour between shifts, not a bona fide
  // meal period. Reporting time: IWC Wage Orders §5(A) — half the scheduled day, at least 2 and at most 4 hours.
  CALIFORNIA: {
    ...NONE,
    splitShift: { gapOverMinutes: 60, hours: 1, minimumWage: 16.9, rule: "CALIFORNIA.SPLIT_SHIFT" },
    reportingTime: { share: 0.5, minMinutes: 120, maxMinutes: 240, rule: "CALIFORNIA.REPORTING_TIME" },
  },
};

export const conditionsOf = (preset: PayPreset): PresetConditions => PRESET_CONDITIONS[preset] ?? NONE;

/** The presets whose award counts overtime by the calendar month: pay reads their months from the first day. */
export const MONTHLY_COUNT_PRESETS: readonly PayPreset[] = (Object.keys(PRESET_CONDITIONS) as PayPreset[]).filter(
  (preset) => conditionsOf(preset).award?.monthlyOvertime,
);
