import { type FieldProblem, MAX_SHIFT_MINUTES } from "./shift-plan";
import { type OffsetRule, offsetUnder, readWallClock } from "./zoned-wall-clock";

const MINUTE_MS = 60_000;

export type EntrySpanPlan = { ok: true; start: Date; end: Date; utcOffset: number } | { ok: false; errors: FieldProblem[] };

/**
 * The instants of a planned shift from its wall-clock times (written with Z) under the offset rule: the body's
 * utcOffset, else the location's zone at each time. It must end after it starts and last at most 24 hours.
 */
export function planEntrySpan(
  wallClock: { start: Date; end: Date },
  rule: OffsetRule,
  paths: { start: string; end: string } = { start: "startTime", end: "endTime" },
): EntrySpanPlan {
  const start = readWallClock(wallClock.start, rule);
  const end = readWallClock(wallClock.end, rule);
  if (end.getTime() <= start.getTime()) return { ok: false, errors: [{ path: paths.end, message: `must be after ${paths.start}` }] };
  if (end.getTime() - start.getTime() > MAX_SHIFT_MINUTES * MINUTE_MS) {
    return { ok: false, errors: [{ path: paths.end, message: `a shift lasts at most ${MAX_SHIFT_MINUTES / 60} hours` }] };
  }
  return { ok: true, start, end, utcOffset: offsetUnder(start, rule) };
}

/** Break type ids that are not among the location's. */
export const unknownBreakIds = (ids: readonly string[], locationBreakIds: readonly string[]): string[] =>
  ids.filter((id) => !locationBreakIds.includes(id));
