import type { AttendanceFinding } from "@/domain/attendance";
import { addDays } from "@/domain/local-time";
import {
  breakViolation,
  dailyRestViolations,
  dailyViolations,
  minorViolations,
  optedOutOn,
  overtimeByMonth,
  restViolations,
  spanDate,
  type Worker,
  type WorkSpan,
  weeklyViolations,
  weekStart,
  workedMinutes,
} from "./checks";
import type { WorkingTimePack } from "./packs";

const overBy = (actual: number, limit: number) => Math.round((actual - limit) * 60);

/**
 * A clock-out's working-time exceptions, about the shift it closes (`closing`) among the worker's `earlier` closed
 * shifts: REST_TOO_SHORT (minutes short of the rest between shifts, or else of the rest in a day), DAILY_MAXIMUM_EXCEEDED (minutes over the day's cap),
 * WEEKLY_MAXIMUM_EXCEEDED (minutes the shift's Monday-to-Sunday week is over the pack's weekly maximum),
 * BREAK_TOO_SHORT (minutes of break short), MINOR_HOURS (minutes over a minor's cap; null for a time of day),
 * WEEKLY_AVERAGE_EXCEEDED (minutes a week over the average, over the reference weeks ending on the shift's date, from
 * `minutesByDate` of the worker's earlier shifts) unless the worker's opt-out is in force where the pack allows one, and
 * MONTHLY_OVERTIME_CAP_EXCEEDED (minutes of overtime over the monthly cap, in the month the shift's week starts, when
 * the shift adds overtime to it). `earlier` must hold the shift's week; `minutesByDate` its month's weeks.
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
  // Short of the rest between shifts, else of the rest in a day (Ontario's 11 hours in each day): one REST_TOO_SHORT.
  const dayRest = rest ? undefined : dailyRestViolations(pack, spans).find((v) => about(v.spanIds));
  const short = rest ?? dayRest;
  if (short) found.push({ type: "REST_TOO_SHORT", scheduleEntryId: null, minutes: -overBy(short.actual, short.limit) });
  const daily = dailyViolations(pack, spans).find((v) => about(v.spanIds));
  if (daily) found.push({ type: "DAILY_MAXIMUM_EXCEEDED", scheduleEntryId: null, minutes: overBy(daily.actual, daily.limit) });
  const weekly = weeklyViolations(pack, spans).find((v) => about(v.spanIds));
  if (weekly) found.push({ type: "WEEKLY_MAXIMUM_EXCEEDED", scheduleEntryId: null, minutes: overBy(weekly.actual, weekly.limit) });
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
  const overtime = monthlyOvertimeFinding(pack, closing, minutesByDate);
  if (overtime) found.push(overtime);
  return found;
}

/** The month's overtime over the pack's cap when the closing shift adds to it (exactly the cap is allowed). */
function monthlyOvertimeFinding(
  pack: WorkingTimePack,
  closing: WorkSpan,
  minutesByDate: ReadonlyMap<string, number>,
): AttendanceFinding | null {
  const cap = pack.overtimeCap;
  if (!cap) return null;
  const date = spanDate(closing);
  const month = weekStart(date).slice(0, 7);
  const without = overtimeByMonth(pack, minutesByDate).get(month) ?? 0;
  const withShift = new Map(minutesByDate);
  withShift.set(date, (withShift.get(date) ?? 0) + workedMinutes(closing));
  const minutes = overtimeByMonth(pack, withShift).get(month) ?? 0;
  if (minutes <= cap.monthHours * 60 || minutes <= without) return null;
  return { type: "MONTHLY_OVERTIME_CAP_EXCEEDED", scheduleEntryId: null, minutes: minutes - cap.monthHours * 60 };
}
