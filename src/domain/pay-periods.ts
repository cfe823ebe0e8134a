import { addDays, isCalendarDate } from "./local-time";
import { workweekStart } from "./pay-workweek";
import type { FieldProblem } from "./shift-plan";

export const PAY_FREQUENCIES = ["WEEKLY", "BIWEEKLY", "SEMIMONTHLY", "MONTHLY"] as const;
export type PayFrequency = (typeof PAY_FREQUENCIES)[number];

export interface PayPeriodSettings {
  frequency: PayFrequency;
  /** The first day of one period: every other period is placed from it. */
  anchorDate: string;
}

export interface PayPeriodSpan {
  /** = startDate. */
  id: string;
  startDate: string;
  endDate: string;
}

/** The organization's settings until it sets its own: weekly, from the Monday of the week it was created in. */
export const defaultPayPeriodSettings = (createdOn: string): PayPeriodSettings => ({
  frequency: "WEEKLY",
  anchorDate: workweekStart(createdOn, "Monday"),
});

const dayOfMonth = (date: string) => Number(date.slice(8, 10));

/** What is wrong with settings a request asks for, as field problems (empty when acceptable). */
export function payPeriodSettingsProblems(input: { frequency: unknown; anchorDate: unknown }): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (!PAY_FREQUENCIES.includes(input.frequency as PayFrequency)) {
    problems.push({ path: "frequency", message: `must be one of ${PAY_FREQUENCIES.join(", ")}` });
  }
  if (typeof input.anchorDate !== "string" || !isCalendarDate(input.anchorDate)) {
    problems.push({ path: "anchorDate", message: "must be a calendar date (YYYY-MM-DD)" });
  } else if (input.frequency === "SEMIMONTHLY" && dayOfMonth(input.anchorDate) > 30) {
    // Semimonthly periods start on day d and d + 15 (d ≤ 15); day 31 has no partner 15 days earlier in every month.
    problems.push({ path: "anchorDate", message: "a semimonthly period starts on a day from 1 to 30" });
  }
  return problems;
}

const DAY_MS = 86_400_000;
const epochDay = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
const pad = (n: number) => String(n).padStart(2, "0");

/** Period starts in a calendar month (month 1–12, may be out of range: it is normalised). */
function monthlyStarts(settings: PayPeriodSettings, year: number, month: number): string[] {
  const normalised = new Date(Date.UTC(year, month - 1, 1));
  const y = normalised.getUTCFullYear();
  const m = normalised.getUTCMonth() + 1;
  const last = daysInMonth(y, m);
  const anchorDay = dayOfMonth(settings.anchorDate);
  const days =
    settings.frequency === "MONTHLY"
      ? [anchorDay]
      : [anchorDay > 15 ? anchorDay - 15 : anchorDay, (anchorDay > 15 ? anchorDay - 15 : anchorDay) + 15];
  return days.map((d) => `${y}-${pad(m)}-${pad(Math.min(d, last))}`);
}

/** The period holding a business date. */
export function payPeriodContaining(settings: PayPeriodSettings, date: string): PayPeriodSpan {
  if (settings.frequency === "WEEKLY" || settings.frequency === "BIWEEKLY") {
    const length = settings.frequency === "WEEKLY" ? 7 : 14;
    const offset = epochDay(date) - epochDay(settings.anchorDate);
    const startDate = addDays(settings.anchorDate, Math.floor(offset / length) * length);
    return { id: startDate, startDate, endDate: addDays(startDate, length - 1) };
  }
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const starts = [-1, 0, 1].flatMap((delta) => monthlyStarts(settings, year, month + delta));
  const index = starts.findLastIndex((start) => start <= date);
  const startDate = starts[index]!;
  return { id: startDate, startDate, endDate: addDays(starts[index + 1]!, -1) };
}

/** The periods overlapping [startDate, endDate], in order. */
export function payPeriodsOverlapping(settings: PayPeriodSettings, startDate: string, endDate: string): PayPeriodSpan[] {
  const periods: PayPeriodSpan[] = [];
  if (startDate > endDate) return periods;
  for (let period = payPeriodContaining(settings, startDate); period.startDate <= endDate; ) {
    periods.push(period);
    period = payPeriodContaining(settings, addDays(period.endDate, 1));
  }
  return periods;
}

/**
 * A period id names a period when it is the start date of one under the settings. A date at the edge of the
 * supported calendar whose period would start or end outside it names none.
 */
export function isPayPeriodId(settings: PayPeriodSettings, id: string): boolean {
  if (!isCalendarDate(id)) return false;
  try {
    return payPeriodContaining(settings, id).startDate === id;
  } catch (error) {
    if (error instanceof RangeError) return false;
    throw error;
  }
}
