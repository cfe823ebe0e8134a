import { addDays, businessDate } from "./local-time";
import { DEFAULT_RULES, type PayRuleSet, type Weekday, WORKWEEK_DAYS } from "./pay-rules";

/** The business dates a close of a period freezes, both included. */
export interface FrozenDates {
  from: string;
  to: string;
}

type WorkweekSet = Pick<PayRuleSet, "locationId" | "effectiveFrom" | "workweekStartsOn"> & Partial<Pick<PayRuleSet, "workdayStartsAt">>;

const weekdayIndex = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

/** The first day of the seven-day workweek holding `date` when workweeks start on `startsOn`. */
const weekStart = (date: string, startsOn: Weekday) => addDays(date, -((weekdayIndex(date) - WORKWEEK_DAYS.indexOf(startsOn) + 7) % 7));

/**
 * The workweek starts that can govern a day of [first, last]: each scope's set in force on `first` and every later
 * one taking effect by `last`, and the default rules' while the organization has no set of its own in force yet
 * (a location without a set of its own follows the organization's).
 */
function setsInForce(sets: readonly WorkweekSet[], first: string, last: string): { days: Set<Weekday>; lateWorkdays: boolean } {
  const byScope = new Map<string | null, WorkweekSet[]>();
  for (const set of sets) byScope.set(set.locationId, [...(byScope.get(set.locationId) ?? []), set]);
  const days = new Set<Weekday>();
  let lateWorkdays = false;
  for (const versions of byScope.values()) {
    const sorted = [...versions].sort((a, b) => (a.effectiveFrom < b.effectiveFrom ? -1 : a.effectiveFrom > b.effectiveFrom ? 1 : 0));
    sorted.forEach((set, index) => {
      const next = sorted[index + 1];
      if (set.effectiveFrom > last || (next && next.effectiveFrom <= first)) return;
      days.add(set.workweekStartsOn);
      if ((set.workdayStartsAt ?? "00:00") !== "00:00") lateWorkdays = true;
    });
  }
  const organizationsOwn = sets.filter((s) => s.locationId === null).map((s) => s.effectiveFrom);
  if (!organizationsOwn.some((date) => date <= first)) days.add(DEFAULT_RULES.workweekStartsOn);
  return { days, lateWorkdays };
}

/**
 * What a close of the period freezes: every date of every workweek overlapping it, from the first day of the
 * workweek holding its start to the last day of the workweek holding its end. Overtime is counted by workweek, so a
 * day of such a week outside the period (a Sunday before a Monday-to-Sunday period under Sunday workweeks) still
 * changes the period's pay. With sets of different `workweekStartsOn` in force (per location, or a change of
 * workweek near the period), every such week counts: the widest range is frozen. At most 6 days either side (7 after,
 * when a workday starts after midnight).
 */
export function frozenDates(period: { startDate: string; endDate: string }, sets: readonly WorkweekSet[]): FrozenDates {
  const { days, lateWorkdays } = setsInForce(sets, addDays(period.startDate, -6), addDays(period.endDate, 6));
  let from = period.startDate;
  let to = period.endDate;
  for (const day of days) {
    const first = weekStart(period.startDate, day);
    const last = addDays(weekStart(period.endDate, day), 6);
    if (first < from) from = first;
    if (last > to) to = last;
  }
  // A workday starting after midnight ends on the next date's morning: a shift dated the day after the last workweek
  // may still count in it, so that date is frozen too (its later hours with it: a close errs on the frozen side).
  return { from, to: lateWorkdays ? addDays(to, 1) : to };
}

/**
 * Whether a period can be closed on `today` (the organization's local date): only once it has ended, and with it
 * every workweek overlapping it — a close freezes those dates, so an earlier close would refuse today's punches.
 */
export const periodEnded = (period: { endDate: string }, frozen: FrozenDates, today: string): boolean =>
  period.endDate < today && frozen.to < today;

/** The local dates a span of work touches: the date of its first minute through the date of its last. */
export interface WorkedDates {
  date: string;
  through: string;
}

const MINUTE_MS = 60_000;

/**
 * The local dates (at `utcOffset` minutes) of the minutes of [start, end): a span ending at midnight touches no
 * minute of the next date; an open span (no end yet) touches its start's date.
 */
export function workedDates(start: Date, end: Date | null, utcOffset: number): WorkedDates {
  const date = businessDate(start, utcOffset);
  if (!end || end.getTime() <= start.getTime()) return { date, through: date };
  return { date, through: businessDate(new Date(Math.max(start.getTime(), end.getTime() - MINUTE_MS)), utcOffset) };
}
