import { addDays } from "./local-time";
import { DEFAULT_RULES, type PayRuleSet, type Weekday, WORKWEEK_DAYS } from "./pay-rules";

const weekdayIndex = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

/** The first day of the workweek holding `date` when workweeks start on `startsOn`. */
export function workweekStart(date: string, startsOn: Weekday): string {
  const back = (weekdayIndex(date) - WORKWEEK_DAYS.indexOf(startsOn) + 7) % 7;
  return back === 0 ? date : addDays(date, -back);
}

/**
 * The first business date a pay computation for a range starting at `startDate` must read, so that every
 * workweek the range touches is computed whole: the earliest start of the week holding `startDate` under any
 * set's workweekStartsOn (and the default Monday). At most 6 days before `startDate`.
 */
export function payReadStartDate(startDate: string, ruleSets: readonly Pick<PayRuleSet, "workweekStartsOn">[]): string {
  const startsOn = new Set<Weekday>([DEFAULT_RULES.workweekStartsOn, ...ruleSets.map((s) => s.workweekStartsOn)]);
  let earliest = startDate;
  for (const day of startsOn) {
    const start = workweekStart(startDate, day);
    if (start < earliest) earliest = start;
  }
  return earliest;
}
