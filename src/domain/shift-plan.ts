import { businessDate } from "./local-time";
import { overlappingIndexes, within } from "./shift-overlap";
import { closeShift, type ShiftBreak, type ShiftTotals } from "./shift-totals";

/** A manual or edited shift is at most this long; a longer one is almost always a typo in a date. */
export const MAX_SHIFT_MINUTES = 24 * 60;

/**
 * The longest a stored schedule entry lasts: MAX_SHIFT_MINUTES when written, but a bulk copy keeps its wall-clock
 * times (schedule-copy), so across changes of its zone's offset (≤ 2 h each, at either end) the copy's instants last
 * a few hours longer. A query finding the entries that END near an instant by their START reads from this far before.
 */
export const MAX_ENTRY_SPAN_MINUTES = MAX_SHIFT_MINUTES + 12 * 60;

const MINUTE_MS = 60_000;

export interface FieldProblem {
  path: string;
  message: string;
}

export interface ShiftPlanInput {
  start: Date;
  /** Null keeps the shift open (an edit of a shift still clocked in). */
  end: Date | null;
  utcOffset: number;
  breaks: readonly ShiftBreak[];
  /** Where break problems are reported: "breaks" for the request's own list. */
  breaksPath?: string;
}

export type ShiftPlan =
  | { ok: true; businessDate: string; breaks: ShiftBreak[]; totals: ShiftTotals }
  | { ok: false; errors: FieldProblem[] };

const OPEN_TOTALS: ShiftTotals = { duration: 0, totalPaidBreaks: 0, totalUnpaidBreaks: 0, payableDuration: 0 };

function breakProblems(input: ShiftPlanInput): FieldProblem[] {
  const path = input.breaksPath ?? "breaks";
  const shift = { start: input.start, end: input.end };
  const real = input.breaks.filter((b) => !b.automatic);
  const problems: FieldProblem[] = [];
  real.forEach((b, i) => {
    if (b.endTime && b.endTime.getTime() <= b.startTime.getTime()) {
      problems.push({ path: `${path}.${i}.endTime`, message: "must be after the break's startTime" });
    } else if (!within({ start: b.startTime, end: b.endTime ?? input.end }, shift)) {
      problems.push({ path: `${path}.${i}.startTime`, message: "the break must lie within the shift" });
    }
  });
  if (problems.length > 0) return problems;
  const spans = real.map((b) => ({ start: b.startTime, end: b.endTime }));
  return overlappingIndexes(spans).map((i) => ({ path: `${path}.${i}.startTime`, message: "overlaps another break" }));
}

/**
 * The stored form of a manual or edited shift: its business date (local date of the start), its breaks and
 * totals from the same closeShift as clock-out (a break not taken is never deducted). An open shift keeps its
 * breaks and reads 0 until it is closed.
 */
export function planShift(input: ShiftPlanInput): ShiftPlan {
  const { start, end } = input;
  const errors: FieldProblem[] = [];
  if (end && end.getTime() <= start.getTime()) errors.push({ path: "endTime", message: "must be after startTime" });
  else if (end && end.getTime() - start.getTime() > MAX_SHIFT_MINUTES * MINUTE_MS) {
    errors.push({ path: "endTime", message: `a shift lasts at most ${MAX_SHIFT_MINUTES / 60} hours` });
  }
  if (errors.length === 0) errors.push(...breakProblems(input));
  if (errors.length > 0) return { ok: false, errors };
  const date = businessDate(start, input.utcOffset);
  if (!end) return { ok: true, businessDate: date, breaks: [...input.breaks], totals: OPEN_TOTALS };
  const closed = closeShift({ start, end, breaks: input.breaks });
  return { ok: true, businessDate: date, breaks: closed.breaks, totals: closed.totals };
}
