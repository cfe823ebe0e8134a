import { instantFromWallClock, offsetMinutesAt } from "./local-time";

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/** How a wall-clock reading becomes an instant: a fixed offset (the wire's utcOffset) or a zone's rules. */
export type OffsetRule = { utcOffset: number } | { timeZone: string };

/**
 * The instant a zone's clocks show `wallClock` (written with Z), the way calendars resolve it: a reading that
 * happens twice (the fall-back hour) is its first occurrence; one that never happens (the spring-forward gap)
 * moves forward by the gap, so 02:30 on a New York spring-forward night is 03:30 EDT.
 */
export function instantInZone(wallClock: Date, timeZone: string): Date {
  const wallMs = wallClock.getTime();
  const before = offsetMinutesAt(timeZone, new Date(wallMs - 14 * HOUR_MS));
  const after = offsetMinutesAt(timeZone, new Date(wallMs + 14 * HOUR_MS));
  const valid = [...new Set([before, after])]
    .map((offset) => wallMs - offset * MINUTE_MS)
    .filter((ms) => ms + offsetMinutesAt(timeZone, new Date(ms)) * MINUTE_MS === wallMs);
  return new Date(valid.length > 0 ? Math.min(...valid) : wallMs - before * MINUTE_MS);
}

/** A wall-clock reading as an instant under a rule. */
export const readWallClock = (wallClock: Date, rule: OffsetRule): Date =>
  "utcOffset" in rule ? instantFromWallClock(wallClock, rule.utcOffset) : instantInZone(wallClock, rule.timeZone);

/** The utcOffset a shift starting at `start` keeps: the given one, or the zone's at that instant. */
export const offsetUnder = (start: Date, rule: OffsetRule): number =>
  "utcOffset" in rule ? rule.utcOffset : offsetMinutesAt(rule.timeZone, start);
