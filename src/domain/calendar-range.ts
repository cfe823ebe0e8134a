const DAY_MS = 86_400_000;

/**
 * What is wrong with an inclusive range of calendar dates [startDate, endDate] that may span at most `maxDays`
 * days (both dates counted), as a field problem naming endDate; null when it is acceptable.
 */
export function calendarRangeProblem(startDate: string, endDate: string, maxDays: number): { path: "endDate"; message: string } | null {
  if (startDate > endDate) return { path: "endDate", message: "must not be before startDate" };
  if (Date.parse(endDate) - Date.parse(startDate) >= maxDays * DAY_MS)
    return { path: "endDate", message: `the range is at most ${maxDays} days` };
  return null;
}
