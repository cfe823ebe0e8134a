import { businessDate, offsetMinutesAt } from "@/domain/local-time";
import type { RulePack } from "./packs";

export type RestViolation = {
  gapMinutes: number;
  /** The part of the next shift that falls inside the rest window (minHours after the previous end). */
  minutesInsideWindow: number;
  consentRequired: boolean;
  rule: string;
};

/** hours at the regular rate, or flat dollars; both null with `flagged` where the pack publishes no premium. */
export type RestPremium = { hours: number | null; amount: number | null; rule: string; flagged: boolean };

const MINUTE_MS = 60_000;
const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

/**
 * Whether the next shift starts too soon after the previous one ended under `pack` (a gap of exactly minHours is
 * enough rest). A CONSECUTIVE_DAYS pack (NYC §20-1231's clopening; "the previous day's shift" elsewhere) counts
 * only a next shift on a later calendar day in `zone` than the previous one: its start where given (pass it: a
 * closing shift that spans midnight counts), else the day its last minute falls on.
 */
export function restViolation(
  pack: RulePack,
  previousEnd: Date,
  nextStart: Date,
  nextEnd: Date,
  zone: string,
  previousStart?: Date,
): RestViolation | null {
  const rest = pack.rest;
  if (!rest || rest.minHours <= 0) return null;
  const gapMinutes = Math.round((nextStart.getTime() - previousEnd.getTime()) / MINUTE_MS);
  const windowMinutes = Math.round(rest.minHours * 60);
  if (gapMinutes < 0 || gapMinutes >= windowMinutes) return null;
  if (rest.scope === "CONSECUTIVE_DAYS") {
    const previousDay = localDate(previousStart ?? new Date(previousEnd.getTime() - 1), zone);
    if (previousDay >= localDate(nextStart, zone)) return null;
  }
  const windowEnd = previousEnd.getTime() + windowMinutes * MINUTE_MS;
  const insideMs = Math.min(nextEnd.getTime(), windowEnd) - nextStart.getTime();
  const minutesInsideWindow = Math.max(0, Math.round(insideMs / MINUTE_MS));
  return { gapMinutes, minutesInsideWindow, consentRequired: rest.consentRequired, rule: `${pack.id}.REST_UNDER_${rest.minHours}H` };
}

const localDate = (instant: Date, zone: string) => businessDate(instant, offsetMinutesAt(zone, instant));

/**
 * The premium a worked rest violation earns: FLAT → `value` dollars; MULTIPLIER → (value − 1) × the hours inside
 * the window, the part above the straight time already paid (Seattle, Oregon, LA 0.5; Chicago 0.25). Where the
 * pack publishes no figure the result is flagged with neither hours nor amount.
 */
export function restPremium(pack: RulePack, violation: RestViolation): RestPremium {
  const rest = pack.rest;
  if (!rest?.published || rest.value === null) return { hours: null, amount: null, rule: violation.rule, flagged: true };
  if (rest.premium === "FLAT") return { hours: null, amount: rest.value, rule: violation.rule, flagged: false };
  const hours = round4(((rest.value - 1) * violation.minutesInsideWindow) / 60);
  return { hours, amount: null, rule: violation.rule, flagged: false };
}
