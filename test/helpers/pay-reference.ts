/**
 * A reference pay calculator for property tests: the pay rules of API.md written the plainest way, sharing no code
 * with src/domain, so a property can compare the engine against it. It covers the rules as they stand: punch
 * rounding, the governing rule set, daily overtime and double time, weekly overtime without pyramiding. Not
 * covered (generate no such input): the seventh consecutive day, meal penalties, automatic breaks, time off.
 * When the pay rules change, change this file with them.
 */

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

export interface ReferenceBreak {
  startTime: Date;
  endTime: Date | null;
  paid: boolean;
}

export interface ReferenceShift {
  employeeId: string;
  locationId: string;
  /** The workday: the local date the shift started on. */
  businessDate: string;
  startTime: Date;
  endTime: Date;
  breaks: readonly ReferenceBreak[];
}

export interface ReferenceRules {
  workweekStartsOn: string;
  dailyOvertimeAfterMinutes: number | null;
  dailyDoubleTimeAfterMinutes: number | null;
  weeklyOvertimeAfterMinutes: number | null;
  rounding: { incrementMinutes: number; mode: "NEAREST" | "UP" | "DOWN" };
}

export interface ReferenceRuleSet extends ReferenceRules {
  id: string;
  locationId: string | null;
  effectiveFrom: string;
}

const NO_RULES: ReferenceRules = {
  workweekStartsOn: "Monday",
  dailyOvertimeAfterMinutes: null,
  dailyDoubleTimeAfterMinutes: null,
  weeklyOvertimeAfterMinutes: null,
  rounding: { incrementMinutes: 0, mode: "NEAREST" },
};

/** The location's own set in force on the date (latest effectiveFrom, then id), else the organization's, else none. */
export function referenceRules(sets: readonly ReferenceRuleSet[], locationId: string, date: string): ReferenceRules {
  const latest = (scope: string | null) =>
    sets
      .filter((s) => s.locationId === scope && s.effectiveFrom <= date)
      .reduce<ReferenceRuleSet | null>(
        (best, s) =>
          !best || s.effectiveFrom > best.effectiveFrom || (s.effectiveFrom === best.effectiveFrom && s.id > best.id) ? s : best,
        null,
      );
  return latest(locationId) ?? latest(null) ?? NO_RULES;
}

/** A punch rounded to the increment (ties to the later time), or as punched for 0. */
function rounded(at: Date, rounding: ReferenceRules["rounding"]): number {
  const ms = at.getTime();
  if (rounding.incrementMinutes === 0) return ms;
  const unit = rounding.incrementMinutes * MINUTE_MS;
  const below = Math.floor(ms / unit) * unit;
  if (below === ms) return ms;
  if (rounding.mode === "DOWN") return below;
  if (rounding.mode === "UP") return below + unit;
  return ms - below < unit / 2 ? below : below + unit;
}

/** Payable minutes of a closed shift for pay: whole minutes between the rounded punches less unpaid break minutes inside them. */
export function referencePayable(shift: ReferenceShift, rules: ReferenceRules): number {
  const start = rounded(shift.startTime, rules.rounding);
  const end = Math.max(start, rounded(shift.endTime, rules.rounding));
  let unpaid = 0;
  for (const b of shift.breaks) {
    if (b.paid) continue;
    const from = Math.max(b.startTime.getTime(), start);
    const to = Math.min(b.endTime?.getTime() ?? end, end);
    if (to > from) unpaid += Math.floor((to - from) / MINUTE_MS);
  }
  return Math.max(0, Math.floor((end - start) / MINUTE_MS) - unpaid);
}

export interface ReferenceDay {
  regularMinutes: number;
  overtimeMinutes: number;
  doubleTimeMinutes: number;
}

/** The first day of the workweek holding `date`. */
function weekStart(date: string, startsOn: string): string {
  const ms = Date.parse(`${date}T00:00:00Z`);
  const back = (new Date(ms).getUTCDay() - WEEKDAYS.indexOf(startsOn) + 7) % 7;
  return new Date(ms - back * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Minutes per employee and workday under one rule set for every shift: daily overtime past the daily threshold,
 * double time past its own; then, in date order through each workweek, regular minutes past the weekly threshold
 * become overtime (minutes already overtime or double time do not count toward it).
 */
export function referenceClassification(shifts: readonly ReferenceShift[], rules: ReferenceRules): Map<string, Map<string, ReferenceDay>> {
  const payable = new Map<string, Map<string, number>>();
  for (const shift of shifts) {
    const days = payable.get(shift.employeeId) ?? new Map<string, number>();
    days.set(shift.businessDate, (days.get(shift.businessDate) ?? 0) + referencePayable(shift, rules));
    payable.set(shift.employeeId, days);
  }
  const result = new Map<string, Map<string, ReferenceDay>>();
  for (const [employeeId, days] of payable) {
    const out = new Map<string, ReferenceDay>();
    const regularSoFar = new Map<string, number>();
    for (const date of [...days.keys()].sort()) {
      const minutes = days.get(date)!;
      const dt = rules.dailyDoubleTimeAfterMinutes === null ? 0 : Math.max(0, minutes - rules.dailyDoubleTimeAfterMinutes);
      const ot = rules.dailyOvertimeAfterMinutes === null ? 0 : Math.max(0, minutes - dt - rules.dailyOvertimeAfterMinutes);
      let regular = minutes - dt - ot;
      let weekly = 0;
      if (rules.weeklyOvertimeAfterMinutes !== null) {
        const week = weekStart(date, rules.workweekStartsOn);
        const before = regularSoFar.get(week) ?? 0;
        weekly = Math.max(0, Math.min(regular, before + regular - rules.weeklyOvertimeAfterMinutes));
        regularSoFar.set(week, before + regular);
        regular -= weekly;
      }
      out.set(date, { regularMinutes: regular, overtimeMinutes: ot + weekly, doubleTimeMinutes: dt });
    }
    result.set(employeeId, out);
  }
  return result;
}
