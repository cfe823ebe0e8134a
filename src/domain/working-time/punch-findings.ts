import type { AttendanceFinding } from "@/domain/attendance";
import { addDays } from "@/domain/local-time";
import {
  breakViolation,
  dailyViolations,
  minorViolations,
  optedOutOn,
  restViolations,
  spanDate,
  type Worker,
  type WorkSpan,
  workedMinutes,
} from "./checks";
import type { WorkingTimePack } from "./packs";

const overBy = (actual: number, limit: number) => Math.round((actual - limit) * 60);

/**
 * A clock-out's working-time exceptions, about the shift it closes (`closing`) among the worker's `earlier` closed
 * shifts: REST_TOO_SHORT (minutes short of the rest), DAILY_MAXIMUM_EXCEEDED (minutes over the day's cap),
 * BREAK_TOO_SHORT (minutes of break short), MINOR_HOURS (minutes over a minor's cap; null for a time of day), and
 * WEEKLY_AVERAGE_EXCEEDED (minutes a week over the average, over the reference weeks ending on the shift's date, from
 * `minutesByDate` of the worker's earlier shifts) unless the worker's opt-out is in force where the pack allows one.
 */
export function clockOutWorkingTimeFindings(
  pack: WorkingTimePack,
  closing: WorkSpan,
  earlier: readonly WorkSpan[],
  worker: Worker,
  terms: readonly { startDate: string; endDate: string }[],
  minutesByDate: ReadonlyMap<string, number>,
): AttendanceFinding[] {
  const found: AttendanceFinding[] = [];
  const spans = [...earlier.filter((s) => s.id !== closing.id), closing];
  const about = (ids: readonly string[]) => ids.includes(closing.id);
  const rest = restViolations(pack, spans, worker).find((v) => v.spanIds[1] === closing.id);
  if (rest) found.push({ type: "REST_TOO_SHORT", scheduleEntryId: null, minutes: -overBy(rest.actual, rest.limit) });
  const daily = dailyViolations(pack, spans).find((v) => about(v.spanIds));
  if (daily) found.push({ type: "DAILY_MAXIMUM_EXCEEDED", scheduleEntryId: null, minutes: overBy(daily.actual, daily.limit) });
  const breaks = breakViolation(pack, closing, worker);
  if (breaks) found.push({ type: "BREAK_TOO_SHORT", scheduleEntryId: null, minutes: breaks.limit - breaks.actual });
  const minor = minorViolations(pack, spans, worker, terms).find((v) => about(v.spanIds));
  if (minor)
    found.push({ type: "MINOR_HOURS", scheduleEntryId: null, minutes: minor.unit === "HOURS" ? overBy(minor.actual, minor.limit) : null });
  const average = pack.weeklyAverage;
  const date = spanDate(closing);
  if (average && !(average.optOutAllowed && optedOutOn(worker, date))) {
    const from = addDays(date, -(average.referenceWeeks * 7 - 1));
    let minutes = workedMinutes(closing);
    for (const [day, worked] of minutesByDate) if (from <= day && day <= date) minutes += worked;
    const perWeek = minutes / average.referenceWeeks;
    if (perWeek > average.hours * 60)
      found.push({ type: "WEEKLY_AVERAGE_EXCEEDED", scheduleEntryId: null, minutes: Math.round(perWeek - average.hours * 60) });
  }
  return found;
}
