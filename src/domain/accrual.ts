import { addDays, businessDate, offsetMinutesAt } from "./local-time";

export interface LimitSettings {
  isFixedAmount?: boolean;
  fixedAmount?: {
    hours?: number;
    daysEarned?: number;
    accrualCycle?: "AllAtOnce" | "Periodic";
    accrualFrequency?: "EveryOneWeek" | "EveryTwoWeeks" | "EveryMonth" | "EveryYear";
    accrualDay?: string;
    accrualDate?: string;
  };
  perHourEarnings?: {
    hoursEarned?: number;
    hoursWorked?: number;
    isLimitedMaximumBalance?: boolean;
    maximumHoursBalance?: number;
  };
}

/** One ledger entry a balance is due: `periodKey` makes it unique per (worker policy, kind). */
export interface DueEntry {
  periodKey: string;
  effectiveDate: string;
  hours: number;
}

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;

const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** `1st`, `2nd`, `15th`, `31st` or `last` → the day of that month it falls on (clamped to the month's end). */
export function accrualDayOfMonth(accrualDate: string | undefined, year: number, month: number): number {
  const last = daysInMonth(year, month);
  if (!accrualDate || accrualDate.toLowerCase() === "last") return accrualDate ? last : 1;
  const n = Number.parseInt(accrualDate, 10);
  return Number.isFinite(n) && n >= 1 ? Math.min(n, last) : 1;
}

/** Weeks are counted from Monday 1970-01-05, so every-two-weeks keeps the same parity whoever starts when. */
const fortnightParity = (date: string) => Math.floor((Date.parse(`${date}T00:00:00Z`) - Date.UTC(1970, 0, 5)) / (7 * 86_400_000)) % 2;

/** The hours a fixed amount grants each time (`daysEarned` counts full days). */
export function fixedAmountHours(limit: LimitSettings, fullDayDuration: number): number {
  const fixed = limit.fixedAmount ?? {};
  if (fixed.hours !== undefined) return fixed.hours;
  return (fixed.daysEarned ?? 0) * fullDayDuration;
}

/** The period a local date opens under the policy's fixed-amount cycle, or null when it opens none. */
function periodOpenedOn(limit: LimitSettings, date: string, start: string): string | null {
  const fixed = limit.fixedAmount ?? {};
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const newYear = month === 1 && day === 1;
  if (fixed.accrualCycle === "AllAtOnce") return date === start || newYear ? `year:${year}` : null;
  switch (fixed.accrualFrequency) {
    case "EveryOneWeek":
      return WEEKDAYS[weekday(date)] === (fixed.accrualDay ?? "Monday") ? `week:${date}` : null;
    case "EveryTwoWeeks":
      return WEEKDAYS[weekday(date)] === (fixed.accrualDay ?? "Monday") && fortnightParity(date) === 0 ? `fortnight:${date}` : null;
    case "EveryMonth":
      return day === accrualDayOfMonth(fixed.accrualDate, year, month) ? `month:${date.slice(0, 7)}` : null;
    case "EveryYear":
      return newYear ? `year:${year}` : null;
    default:
      return null;
  }
}

/**
 * The fixed-amount accruals due to a balance included from local date `start`, for local dates after
 * `watermark` (exclusive; null: none written yet) up to `today` (inclusive). AllAtOnce grants on inclusion and
 * again each 1 January; Periodic grants on each period's date. Keys repeat for the same period whenever this
 * runs, so writing them with ON CONFLICT DO NOTHING adds each period exactly once.
 */
export function fixedAccrualsDue(
  limit: LimitSettings,
  fullDayDuration: number,
  start: string,
  watermark: string | null,
  today: string,
): DueEntry[] {
  if (!limit.isFixedAmount) return [];
  const hours = fixedAmountHours(limit, fullDayDuration);
  if (!(hours > 0)) return [];
  const due: DueEntry[] = [];
  const first = watermark && watermark >= start ? addDays(watermark, 1) : start;
  for (let date = first; date <= today; date = addDays(date, 1)) {
    const periodKey = periodOpenedOn(limit, date, start);
    if (periodKey) due.push({ periodKey, effectiveDate: date, hours });
  }
  return due;
}

/** The year boundaries (1 January, as `year:YYYY`) after `start` up to `today` whose carryover is due. */
export function carryoverYearsDue(start: string, watermark: string | null, today: string): { periodKey: string; effectiveDate: string }[] {
  const years: { periodKey: string; effectiveDate: string }[] = [];
  const after = watermark && watermark > start ? watermark : start;
  for (let year = Number(after.slice(0, 4)) + 1; year <= Number(today.slice(0, 4)); year++) {
    years.push({ periodKey: `year:${year}`, effectiveDate: `${year}-01-01` });
  }
  return years;
}

/** What expires at a year boundary: the balance above the limit (never a negative amount). */
export const carryoverExpiry = (balance: number, limitHours: number): number => Math.max(0, balance - limitHours);

/** Hours a shift of `payableMinutes` earns under perHourEarnings. */
export function earnedForShift(limit: LimitSettings, payableMinutes: number): number {
  const earnings = limit.perHourEarnings;
  if (!earnings?.hoursEarned || !earnings.hoursWorked) return 0;
  return ((payableMinutes / 60) * earnings.hoursEarned) / earnings.hoursWorked;
}

/** A positive increment trimmed so the balance stays at or under the maximum; decrements pass unchanged. */
export function cappedIncrement(limit: LimitSettings, increment: number, balance: number): number {
  const earnings = limit.perHourEarnings;
  if (increment <= 0 || !earnings?.isLimitedMaximumBalance || earnings.maximumHoursBalance === undefined) return increment;
  return Math.max(0, Math.min(increment, earnings.maximumHoursBalance - balance));
}

/** The local date of an instant in a zone. */
export const localDate = (instant: Date, timeZone: string) => businessDate(instant, offsetMinutesAt(timeZone, instant));

export interface AccrualPolicy {
  limitSettings: LimitSettings;
  fullDayDuration: number;
  carryoverLimit: number | null;
}

/**
 * Everything a balance is due between its inclusion and `now`, in the organization's zone: the fixed-amount
 * accruals, and the year boundaries whose carryover must be settled (its amount depends on the balance then).
 * `watermark` is the last local date already handled (exclusive start), or null.
 */
export function entriesDue(policy: AccrualPolicy, inclusionStart: Date, now: Date, timeZone: string, watermark: string | null = null) {
  const start = localDate(inclusionStart, timeZone);
  const today = localDate(now, timeZone);
  return {
    today,
    accruals: fixedAccrualsDue(policy.limitSettings, policy.fullDayDuration, start, watermark, today),
    carryovers: policy.carryoverLimit === null ? [] : carryoverYearsDue(start, watermark, today),
  };
}
