import { businessDate } from "./local-time";

const MINUTE_MS = 60_000;

/** One element of a shift's `breaks`, with instants as Dates. */
export interface ShiftBreak {
  /** The stored break's id, carried through unchanged (absent on a break not stored yet). */
  id?: string;
  startTime: Date;
  endTime: Date | null;
  paid: boolean;
  typeId: string | null;
  name: string;
  mandatory: boolean;
  frequencyMinutes: number;
  durationInSettingsMinutes: number;
  automatic?: boolean;
}

/** What totals read of a break: pay code passes breaks in this shape without the type's settings. */
export type BreakSpan = Pick<ShiftBreak, "startTime" | "endTime" | "paid" | "automatic" | "durationInSettingsMinutes">;

export interface BreakRule {
  id: string;
  name: string;
  mandatory: boolean;
  enabled?: boolean;
  frequencyMinutes: number;
  durationMinutes: number;
}

export interface ShiftTotals {
  duration: number;
  totalPaidBreaks: number;
  totalUnpaidBreaks: number;
  payableDuration: number;
}

/** What a break copies from its type when taken: later edits of the type leave breaks already taken alone. */
export const breakSettingsOf = (type: BreakRule & { paid: boolean }) => ({
  typeId: type.id,
  name: type.name,
  paid: type.paid,
  mandatory: type.mandatory,
  frequencyMinutes: type.frequencyMinutes,
  durationInSettingsMinutes: type.durationMinutes,
});

/** Every duration is the floor of real elapsed time (UTC instants) in whole minutes: DST never adds or loses any. */
const wholeMinutes = (fromMs: number, toMs: number) => Math.max(0, Math.floor((toMs - fromMs) / MINUTE_MS));

/** Ends an open break at the clock-out instant (never before the break began). */
export const closeBreaks = (breaks: readonly ShiftBreak[], at: Date): ShiftBreak[] =>
  breaks.map((b) => (b.endTime ? b : { ...b, endTime: at < b.startTime ? b.startTime : at }));

/**
 * The mandatory, enabled break types a closed shift longer than their frequencyMinutes did not take (no break of that
 * type), earliest due first. Nothing is deducted for them (29 CFR 785.19(a): only a meal actually taken is unpaid
 * time); clock-out raises MISSED_MEAL_BREAK instead, and the pay rules' meal periods judge any premium.
 */
export function mandatoryBreaksNotTaken<T extends BreakRule>(input: {
  start: Date;
  end: Date;
  breaks: readonly Pick<ShiftBreak, "typeId" | "automatic">[];
  breakTypes: readonly T[];
}): T[] {
  const shiftMinutes = wholeMinutes(input.start.getTime(), input.end.getTime());
  const taken = new Set(input.breaks.filter((b) => !b.automatic).map((b) => b.typeId));
  return input.breakTypes
    .filter((t) => t.mandatory && t.enabled !== false && shiftMinutes > t.frequencyMinutes && !taken.has(t.id))
    .sort((a, b) => a.frequencyMinutes - b.frequencyMinutes);
}

/**
 * A real break counts only its time inside the shift; an automatic one (recorded before breaks not taken stopped being
 * deducted, kept as stored until the shift is edited) its configured minutes.
 */
function breakMinutes(b: BreakSpan, shiftStartMs: number, shiftEndMs: number): number {
  if (b.automatic) return b.durationInSettingsMinutes;
  const from = Math.max(b.startTime.getTime(), shiftStartMs);
  const to = Math.min(b.endTime?.getTime() ?? shiftEndMs, shiftEndMs);
  return wholeMinutes(from, to);
}

/**
 * Totals of a shift in whole minutes. An open shift counts up to `now` when given (else it is 0 long, as a
 * just-opened shift reads), and so does an open break. payableDuration = duration - totalUnpaidBreaks, but
 * never below 0 (an automatic deduction can be longer than a short shift).
 */
export function shiftTotals(input: { start: Date; end: Date | null; breaks: readonly BreakSpan[]; now?: Date }): ShiftTotals {
  const startMs = input.start.getTime();
  const endMs = Math.max(startMs, (input.end ?? input.now ?? input.start).getTime());
  let totalPaidBreaks = 0;
  let totalUnpaidBreaks = 0;
  for (const b of input.breaks) {
    const minutes = breakMinutes(b, startMs, endMs);
    if (b.paid) totalPaidBreaks += minutes;
    else totalUnpaidBreaks += minutes;
  }
  const duration = wholeMinutes(startMs, endMs);
  return { duration, totalPaidBreaks, totalUnpaidBreaks, payableDuration: Math.max(0, duration - totalUnpaidBreaks) };
}

/**
 * Clock-out and every edit of a closed shift: close the open break and total. A break not taken is never added
 * (mandatoryBreaksNotTaken says which were due), and an automatic deduction recorded before is dropped, so every
 * minute between the punches not spent on a break taken is paid. Breaks come back by start time.
 */
export function closeShift(input: { start: Date; end: Date; breaks: readonly ShiftBreak[] }): {
  breaks: ShiftBreak[];
  totals: ShiftTotals;
} {
  const breaks = closeBreaks(
    input.breaks.filter((b) => !b.automatic),
    input.end,
  ).sort((a, b) => a.startTime.getTime() - b.startTime.getTime());
  return { breaks, totals: shiftTotals({ start: input.start, end: input.end, breaks }) };
}

export interface WorkedShift {
  start: Date;
  end: Date | null;
  /** Minutes east of UTC at the shift's start: it fixes the shift's business date. */
  utcOffset: number;
  breaks: readonly ShiftBreak[];
}

/**
 * totalShiftTimeToday: the payable minutes (time on shift less unpaid breaks) of the shifts that belong to
 * `date`, i.e. started on it in local time; the open shift counts up to `now`. A shift that began the day
 * before counts on that day, as the timesheets do.
 */
export function minutesWorkedOnBusinessDay(input: { date: string; shifts: readonly WorkedShift[]; now: Date }): number {
  return input.shifts
    .filter((s) => businessDate(s.start, s.utcOffset) === input.date)
    .reduce((sum, s) => sum + shiftTotals({ ...s, now: input.now }).payableDuration, 0);
}
