/** Demand is recorded per 15-minute interval (sales or transactions of a location). */
export const INTERVAL_MS = 15 * 60_000;

/** At most this many intervals in one upload: about three weeks of a location's quarter hours. */
export const MAX_INTERVALS_PER_UPLOAD = 2000;

/** The longest range one demand read covers. */
export const MAX_DEMAND_RANGE_DAYS = 92;

export const DEMAND_KINDS = ["ACTUAL", "FORECAST"] as const;

/** The built-in metrics; a client may name its own (upper snake case, e.g. `COVERS`). */
export const DEMAND_METRICS = ["SALES", "TRANSACTIONS"] as const;
export const METRIC_PATTERN = /^[A-Z][A-Z0-9_]{0,63}$/;

/** An instant on a quarter-hour boundary of UTC (every time zone in use is offset by whole quarter hours). */
export const onIntervalBoundary = (at: Date) => at.getTime() % INTERVAL_MS === 0;

/** The index of the first interval whose start repeats an earlier one's, or -1 when every start differs. */
export function firstRepeatedStart(starts: readonly Date[]): number {
  const seen = new Set<number>();
  for (const [index, start] of starts.entries()) {
    if (seen.has(start.getTime())) return index;
    seen.add(start.getTime());
  }
  return -1;
}

/** The span an upload covers: from its earliest start to the end of its latest interval. */
export function spanOf(starts: readonly Date[]): { start: Date; end: Date } {
  const times = starts.map((s) => s.getTime());
  return { start: new Date(Math.min(...times)), end: new Date(Math.max(...times) + INTERVAL_MS) };
}
