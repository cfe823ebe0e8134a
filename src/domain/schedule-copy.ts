import { addDays, localWallClock, offsetMinutesAt } from "./local-time";
import { overlaps, type Span } from "./shift-overlap";
import { instantInZone } from "./zoned-wall-clock";

const DAY_MS = 86_400_000;

/** Whole days from one calendar date to another (negative when `to` is earlier). */
export const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

export interface CopySource {
  id: string;
  employeeId: string;
  start: Date;
  end: Date;
  utcOffset: number;
  timezone: string;
}

/**
 * The same wall-clock times `days` later in the entry's zone: 09:00–17:00 local stays 09:00–17:00 local across a
 * DST change (the instants move by 23 or 25 hours), and the copy takes the zone's offset at its new start.
 */
export function copyAcrossDays(source: CopySource, days: number): { start: Date; end: Date; utcOffset: number } {
  const shift = (instant: Date) => {
    const wall = localWallClock(instant, source.utcOffset);
    return instantInZone(new Date(`${addDays(wall.slice(0, 10), days)}${wall.slice(10)}`), source.timezone);
  };
  const start = shift(source.start);
  return { start, end: shift(source.end), utcOffset: offsetMinutesAt(source.timezone, start) };
}

export type SkipReason = "SCHEDULE_OVERLAP" | "TIME_OFF_CONFLICT" | "WORKER_UNAVAILABLE";

export interface PlannedCopy extends CopySource {
  sourceId: string;
}

export interface CopyPlan {
  copies: PlannedCopy[];
  skipped: { sourceId: string; employeeId: string; start: Date; end: Date; utcOffset: number; reason: SkipReason }[];
}

type EmployeeSpan = Span & { employeeId: string };

/**
 * Bulk copy: each source entry `days` later at the same local times, skipping a copy that would overlap an
 * existing entry of its staff member (or an earlier copy), fall on their approved time off, or meet an occurrence
 * of their unavailability.
 */
export function planCopies(
  sources: readonly CopySource[],
  days: number,
  existing: readonly EmployeeSpan[],
  timeOff: readonly EmployeeSpan[],
  newId: () => string,
  unavailable: readonly EmployeeSpan[] = [],
): CopyPlan {
  const plan: CopyPlan = { copies: [], skipped: [] };
  const taken: EmployeeSpan[] = [...existing];
  for (const source of sources) {
    const moved = copyAcrossDays(source, days);
    const span = { employeeId: source.employeeId, start: moved.start, end: moved.end };
    const clash = (other: EmployeeSpan) => other.employeeId === source.employeeId && overlaps(other, span);
    const reason: SkipReason | null = timeOff.some(clash)
      ? "TIME_OFF_CONFLICT"
      : unavailable.some(clash)
        ? "WORKER_UNAVAILABLE"
        : taken.some(clash)
          ? "SCHEDULE_OVERLAP"
          : null;
    if (reason) {
      plan.skipped.push({ sourceId: source.id, employeeId: source.employeeId, ...moved, reason });
      continue;
    }
    taken.push(span);
    plan.copies.push({ ...source, ...moved, id: newId(), sourceId: source.id });
  }
  return plan;
}
