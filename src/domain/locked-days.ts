/** A day locked at one location, as locked_days stores it. */
export interface LockedDay {
  locationId: string;
  date: string;
}

/**
 * Which shifts of a read are locked, from the locked days read beside them: one lookup per shift in memory
 * instead of one probe of locked_days per row in the statement.
 */
export function lockedDayLookup(days: readonly LockedDay[]) {
  const datesAt = new Map<string, Set<string>>();
  for (const d of days) datesAt.set(d.locationId, (datesAt.get(d.locationId) ?? new Set()).add(d.date));
  return (shift: { locationId: string; businessDate: string }) => datesAt.get(shift.locationId)?.has(shift.businessDate) ?? false;
}

/** The dates locked at any of these locations within [first, last], each once, in order. */
export function lockedDatesWithin(days: readonly LockedDay[], bounds: { first: string; last: string }): string[] {
  const dates = new Set(days.filter((d) => d.date >= bounds.first && d.date <= bounds.last).map((d) => d.date));
  return [...dates].sort();
}
