import type { ChangeBand, ChangeKind, RulePack } from "./packs";

export const INITIATORS = ["EMPLOYER", "EMPLOYEE"] as const;
export type Initiator = (typeof INITIATORS)[number];
export const EXEMPTIONS = ["EMPLOYEE_REQUEST", "MUTUAL_CONSENT", "FORCE_MAJEURE"] as const;
export type Exemption = (typeof EXEMPTIONS)[number];

export type ScheduleChange = {
  kind: ChangeKind;
  /** Minutes from when the worker was told of the change to the start of the shift (the earlier of old and new). */
  noticeMinutes: number;
  minutesLost: number;
  minutesAdded: number;
  /** The entry's scheduled length before the change (0 for ADDED). */
  originalMinutes: number;
  initiatedBy: Initiator;
  exemption: Exemption | null;
  /** How far the entry's start moved, in minutes (signed: later is positive); its end moved by this + added − lost. */
  movedMinutes?: number;
};

/** Hours are paid at the workweek's regular rate by the pay engine; `amount` is flat dollars. */
export type PremiumOwed = { hours: number | null; amount: number | null; rule: string };

const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

/** The kind a change is matched as: a MOVED entry that loses time is a cut. */
export const effectiveKind = (change: ScheduleChange): ChangeKind =>
  change.kind === "MOVED" && change.minutesLost > 0 ? "SHORTENED" : change.kind;

/**
 * The pack's grace: an extension by at most graceMinutes, or a cut (a shortened or moved entry losing time) by less
 * than graceMinutes, is no change. A move with no loss is a change whatever its size (LAMC: "does not result in a
 * loss of time").
 */
function withinGrace(pack: RulePack, change: ScheduleChange): boolean {
  if (pack.graceMinutes <= 0) return false;
  const kind = effectiveKind(change);
  if (kind === "EXTENDED") return change.minutesAdded <= pack.graceMinutes;
  if (kind === "SHORTENED") return change.minutesLost < pack.graceMinutes;
  return false;
}

/**
 * The pack's grace for moved times (Oregon, ORS 653.455(3)(a)): a change of the same shift's times (EXTENDED,
 * SHORTENED, MOVED) whose start and end each moved by at most timeChangeGraceMinutes is no change. Without the start's
 * move (movedMinutes) the end's is unknown: no grace.
 */
function withinTimeChangeGrace(pack: RulePack, change: ScheduleChange): boolean {
  if (pack.timeChangeGraceMinutes <= 0 || change.movedMinutes === undefined) return false;
  if (change.kind !== "EXTENDED" && change.kind !== "SHORTENED" && change.kind !== "MOVED") return false;
  const endMovedMinutes = change.movedMinutes + change.minutesAdded - change.minutesLost;
  return Math.abs(change.movedMinutes) <= pack.timeChangeGraceMinutes && Math.abs(endMovedMinutes) <= pack.timeChangeGraceMinutes;
}

export function findBand(pack: RulePack, change: ScheduleChange): ChangeBand | null {
  const kind = effectiveKind(change);
  return (
    pack.changePay.find(
      (band) => band.kinds.includes(kind) && change.noticeMinutes >= band.minNoticeMinutes && change.noticeMinutes < band.maxNoticeMinutes,
    ) ?? null
  );
}

/**
 * The predictability premium one change to a published entry earns under `pack`, or null: notice at or beyond the
 * pack's window, a change the worker initiated or an exempt one, a change within the pack's grace or its grace for
 * moved times, or one no band pays for.
 */
export function changePremium(pack: RulePack, change: ScheduleChange): PremiumOwed | null {
  if (change.initiatedBy === "EMPLOYEE" || change.exemption !== null) return null;
  if (change.noticeMinutes >= pack.noticeDays * 24 * 60) return null;
  if (withinGrace(pack, change) || withinTimeChangeGrace(pack, change)) return null;
  const band = findBand(pack, change);
  if (!band) return null;
  if (band.minMinutesAdded && change.kind === "EXTENDED" && change.minutesAdded <= band.minMinutesAdded) return null;
  const rule = `${pack.id}.${band.code}`;
  const premium = band.premium;
  switch (premium.type) {
    case "FLAT":
      return premium.amount > 0 ? { hours: null, amount: premium.amount, rule } : null;
    case "HOURS":
      return premium.hours > 0 ? { hours: premium.hours, amount: null, rule } : null;
    case "FRACTION_OF_LOST_HOURS": {
      const hours = round4((premium.fraction * change.minutesLost) / 60);
      return hours > 0 ? { hours, amount: null, rule } : null;
    }
    case "HOURS_BY_SHIFT_LENGTH": {
      const shiftMinutes = change.kind === "ADDED" ? change.minutesAdded : change.originalMinutes;
      const hours = shiftMinutes <= premium.maxShiftMinutes ? premium.hoursUpTo : premium.hoursOver;
      return hours > 0 ? { hours, amount: null, rule } : null;
    }
  }
}

/**
 * The premium of an ADDED change (an entry first published, employer initiated, not exempt) by its notice and its
 * length, as a list a set-based write applies in order (the first band whose notice range and length hold decides;
 * a band with a null premium pays nothing and stops the search, as findBand's first match does). Only notice inside
 * the pack's window is covered: a change at or beyond it is not recorded. The same answer as changePremium for every
 * ADDED change (test/domain/fair-workweek/change-premium.test.ts).
 */
export type AddedPremiumBand = {
  /** Notice in [minNoticeMinutes, maxNoticeMinutes). */
  minNoticeMinutes: number;
  maxNoticeMinutes: number;
  /** The entry's minutes: more than `longerThan` (null: any), at most `atMost` (null: any). */
  longerThan: number | null;
  atMost: number | null;
  premium: PremiumOwed | null;
};

export function addedPremiumBands(pack: RulePack): AddedPremiumBand[] {
  const window = pack.noticeDays * 24 * 60;
  return pack.changePay.flatMap((band): AddedPremiumBand[] => {
    if (!band.kinds.includes("ADDED")) return [];
    const minNoticeMinutes = band.minNoticeMinutes;
    const maxNoticeMinutes = Math.min(band.maxNoticeMinutes, window);
    if (minNoticeMinutes >= maxNoticeMinutes) return [];
    const rule = `${pack.id}.${band.code}`;
    const of = (premium: PremiumOwed | null, longerThan: number | null = null, atMost: number | null = null): AddedPremiumBand => ({
      minNoticeMinutes,
      maxNoticeMinutes,
      longerThan,
      atMost,
      premium,
    });
    const premium = band.premium;
    switch (premium.type) {
      case "FLAT":
        return [of(premium.amount > 0 ? { hours: null, amount: premium.amount, rule } : null)];
      case "HOURS":
        return [of(premium.hours > 0 ? { hours: premium.hours, amount: null, rule } : null)];
      case "FRACTION_OF_LOST_HOURS":
        // An ADDED change loses no minutes: nothing, and no later band is looked at.
        return [of(null)];
      case "HOURS_BY_SHIFT_LENGTH": {
        const hours = (value: number) => (value > 0 ? { hours: value, amount: null, rule } : null);
        return [of(hours(premium.hoursUpTo), null, premium.maxShiftMinutes), of(hours(premium.hoursOver), premium.maxShiftMinutes, null)];
      }
    }
    return [];
  });
}

/**
 * An ADDED band as bounds on an entry's own instants, for a write published at `at` (ms), so a set-based write
 * compares columns and does no arithmetic per row; null when no entry can fall in it. The notice is whole minutes,
 * max(0, trunc((start − at) / 60000)), so notice ≥ a ⇔ start ≥ at + ⌈a⌉ min (always, when ⌈a⌉ ≤ 0) and notice < b ⇔
 * start < at + ⌈b⌉ min (never, when ⌈b⌉ ≤ 0). The length rounds halves up, round((end − start) / 60000), so for a
 * positive length, length > x ⇔ end − start ≥ (⌊x⌋ + ½) min and length ≤ y ⇔ end − start < (⌊y⌋ + ½) min. A null
 * bound is no bound. The same answer as addedPremiumOf's band test (test/domain/fair-workweek/added-band-span).
 */
export type AddedBandSpan = { startFrom: number | null; startBefore: number; lengthFrom: number | null; lengthBelow: number | null };

export function addedBandSpan(band: AddedPremiumBand, at: number): AddedBandSpan | null {
  if (Math.ceil(band.maxNoticeMinutes) <= 0) return null;
  const halfMinuteAbove = (minutes: number) => Math.floor(minutes) * 60_000 + 30_000;
  return {
    startFrom: Math.ceil(band.minNoticeMinutes) <= 0 ? null : at + Math.ceil(band.minNoticeMinutes) * 60_000,
    startBefore: at + Math.ceil(band.maxNoticeMinutes) * 60_000,
    lengthFrom: band.longerThan === null ? null : halfMinuteAbove(band.longerThan),
    lengthBelow: band.atMost === null ? null : halfMinuteAbove(band.atMost),
  };
}

/** What `bands` give an ADDED change of `noticeMinutes` and `entryMinutes` (the lookup a set-based write does in SQL). */
export const addedPremiumOf = (bands: readonly AddedPremiumBand[], noticeMinutes: number, entryMinutes: number): PremiumOwed | null =>
  bands.find(
    (b) =>
      noticeMinutes >= b.minNoticeMinutes &&
      noticeMinutes < b.maxNoticeMinutes &&
      (b.longerThan === null || entryMinutes > b.longerThan) &&
      (b.atMost === null || entryMinutes <= b.atMost),
  )?.premium ?? null;
