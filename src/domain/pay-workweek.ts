import { addDays } from "./local-time";
import { DEFAULT_RULES, type Weekday, WORKWEEK_DAYS } from "./pay-rules";

const weekdayIndex = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

/** The first day of the workweek holding `date` when workweeks start on `startsOn`. */
export function workweekStart(date: string, startsOn: Weekday): string {
  const back = (weekdayIndex(date) - WORKWEEK_DAYS.indexOf(startsOn) + 7) % 7;
  return back === 0 ? date : addDays(date, -back);
}

/**
 * The business dates (local start dates) of the shifts a pay computation of workdays [startDate, endDate] must
 * read so that every workweek the range touches is computed whole, its regular rate included. A workweek starts at
 * most 6 days before a workday it holds (a workday starts at most 23:59 after its date's midnight) and ends at most
 * 7 days after; at a change of workweek both counts of the overlap are computed (29 CFR 778.302), over the old
 * week and the new one, less than 14 days together, so a date's workweeks reach at most 14 days either side; a
 * shift that began up to 2 days before a week's start may still run into it. More is harmless.
 */
export const payReadWindow = (startDate: string, endDate: string) => ({ from: addDays(startDate, -16), to: addDays(endDate, 14) });

/**
 * Where the read must start instead when a set counts overtime by the calendar month (an award's monthlyOvertime,
 * JP_STATUTORY): the month of startDate counted from its first day, whose workweeks reach 16 days before it.
 */
export const monthlyCountReadFrom = (startDate: string) => addDays(`${startDate.slice(0, 7)}-01`, -16);

/**
 * The day the organization's workweek starts on each date: the workweekStartsOn of its organization-wide rule set
 * (locationId null) in force that day — the latest effectiveFrom on or before it — else the default (Monday).
 */
export function organizationWorkweekStartsOn(
  sets: readonly { id: string; locationId: string | null; effectiveFrom: string; workweekStartsOn: string }[],
): (date: string) => Weekday {
  const versions = sets
    .filter((set) => set.locationId === null)
    .sort((a, b) => (a.effectiveFrom === b.effectiveFrom ? (a.id < b.id ? -1 : 1) : a.effectiveFrom < b.effectiveFrom ? -1 : 1));
  return (date) => {
    let found: Weekday = DEFAULT_RULES.workweekStartsOn;
    for (const set of versions) if (set.effectiveFrom <= date) found = set.workweekStartsOn as Weekday;
    return found;
  };
}
