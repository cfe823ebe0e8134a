import { type AddedPremiumBand, addedPremiumBands, addedPremiumOf, changePremium } from "./change-premium";
import type { RulePack } from "./packs";

/*
 * Which change of a published schedule entry a write makes, for the Fair Workweek change log (predictability pay:
 * NYC Admin. Code 20-1222; Seattle SMC 14.22.050; Oregon ORS 653.455; and the other packs alike). Pure: the entry as
 * it was and as it will be, and the instant of the change.
 */

export type ScheduleChangeKind = "ADDED" | "EXTENDED" | "SHORTENED" | "MOVED" | "CANCELLED" | "REASSIGNED";

/** A schedule entry as the change log sees it: whose, when (instants), whether published and whether deleted. */
export interface EntryState {
  employeeId: string;
  start: Date;
  end: Date;
  published: boolean;
  deleted: boolean;
}

export interface ClassifiedChange {
  /** The worker the change is recorded for (a reassignment records one for each side). */
  employeeId: string;
  kind: ScheduleChangeKind;
  /** Whole minutes from the change to the earlier of the entry's original start and its new one (0 once started). */
  noticeMinutes: number;
  /** Scheduled minutes the worker loses (all of them when cancelled or reassigned away). */
  minutesLost: number;
  /** Scheduled minutes the worker gains. */
  minutesAdded: number;
  /** How far the start moved, in minutes (signed: later is positive); 0 unless the same worker's times changed. */
  movedMinutes: number;
}

const MINUTE_MS = 60_000;
const DAY_MINUTES = 1440;

const minutesOf = (e: EntryState) => Math.round((e.end.getTime() - e.start.getTime()) / MINUTE_MS);
const isLive = (e: EntryState | null): e is EntryState => e?.published === true && !e.deleted;
const noticeTo = (at: Date, start: Date) => Math.max(0, Math.floor((start.getTime() - at.getTime()) / MINUTE_MS));

/**
 * The changes a write makes to a published schedule (none for drafts). A draft or a new entry that becomes published
 * is ADDED; a published entry deleted is CANCELLED (its minutes lost); a published entry given to another worker is
 * REASSIGNED for the worker losing it (its minutes lost) and ADDED for the worker gaining it; a published entry of the
 * same worker whose times change is EXTENDED (it covers its old times and more), SHORTENED (it lies within them) or
 * otherwise MOVED, with the net minutes lost or added. Notice runs from the change to the earlier of the original
 * and the new start, so that a shift moved into the window from outside it counts.
 */
export function classifyChange(before: EntryState | null, after: EntryState | null, at: Date): ClassifiedChange[] {
  const was = isLive(before) ? before : null;
  const will = isLive(after) ? after : null;
  if (!was && !will) return [];
  if (!was) {
    const added = will!;
    return [
      {
        employeeId: added.employeeId,
        kind: "ADDED",
        noticeMinutes: noticeTo(at, added.start),
        minutesLost: 0,
        minutesAdded: minutesOf(added),
        movedMinutes: 0,
      },
    ];
  }
  if (!will) {
    return [
      {
        employeeId: was.employeeId,
        kind: "CANCELLED",
        noticeMinutes: noticeTo(at, was.start),
        minutesLost: minutesOf(was),
        minutesAdded: 0,
        movedMinutes: 0,
      },
    ];
  }
  const earlier = was.start.getTime() <= will.start.getTime() ? was.start : will.start;
  const noticeMinutes = noticeTo(at, earlier);
  if (was.employeeId !== will.employeeId) {
    return [
      { employeeId: was.employeeId, kind: "REASSIGNED", noticeMinutes, minutesLost: minutesOf(was), minutesAdded: 0, movedMinutes: 0 },
      { employeeId: will.employeeId, kind: "ADDED", noticeMinutes, minutesLost: 0, minutesAdded: minutesOf(will), movedMinutes: 0 },
    ];
  }
  const sameStart = was.start.getTime() === will.start.getTime();
  const sameEnd = was.end.getTime() === will.end.getTime();
  if (sameStart && sameEnd) return [];
  const covers = will.start.getTime() <= was.start.getTime() && will.end.getTime() >= was.end.getTime();
  const within = will.start.getTime() >= was.start.getTime() && will.end.getTime() <= was.end.getTime();
  const kind: ScheduleChangeKind = covers ? "EXTENDED" : within ? "SHORTENED" : "MOVED";
  const net = minutesOf(will) - minutesOf(was);
  const movedMinutes = Math.round((will.start.getTime() - was.start.getTime()) / MINUTE_MS);
  return [
    { employeeId: was.employeeId, kind, noticeMinutes, minutesLost: Math.max(0, -net), minutesAdded: Math.max(0, net), movedMinutes },
  ];
}

/**
 * Whether a change with this notice falls inside a pack's notice window: less than `noticeDays` whole days' notice
 * (exactly `noticeDays` days' notice is outside it). No pack (null): nothing is recorded.
 */
export const insideNoticeWindow = (noticeMinutes: number, noticeDays: number | null): boolean =>
  noticeDays !== null && noticeMinutes < noticeDays * DAY_MINUTES;

/** The changes of a write that a pack with `noticeDays` records (classifyChange, inside its window only). */
export const recordedChanges = (
  before: EntryState | null,
  after: EntryState | null,
  at: Date,
  noticeDays: number | null,
): ClassifiedChange[] => classifyChange(before, after, at).filter((c) => insideNoticeWindow(c.noticeMinutes, noticeDays));

/** What a change earns: hours at the workweek's regular rate, or a flat amount, and the pack's rule that priced it. */
export interface ChangePremium {
  hours: number | null;
  amount: number | null;
  rule: string;
}

/**
 * A location's change rules on a date, from its Fair Workweek rule pack: its name, its notice window and the price
 * of a change (`entryMinutes`: the entry's scheduled minutes before the change), or null when the pack pays nothing
 * for it.
 */
export interface ChangeRules {
  rulePack: string;
  noticeDays: number;
  premiumOf: (change: ClassifiedChange, entryMinutes: number) => ChangePremium | null;
  /** Rest between shifts where the pack asks the worker's consent to schedule inside it; null: no consent needed. */
  restConsent: { minHours: number; consecutiveDays: boolean } | null;
  /** premiumOf for an ADDED change, as bands a set-based write applies in SQL (addedPremiumBands). */
  addedBands: AddedPremiumBand[];
}

/**
 * A pack's change rules (an adapter over changePremium): the change as the log classifies it, employer initiated and
 * not exempt (the log prices nothing else), its original length for the bands that depend on it. An ADDED change is
 * priced by the pack's ADDED bands (addedPremiumOf), the one table the publish's set-based write prices in SQL: the
 * dry run, every other write and the publish price an added entry by the same builder.
 */
export const changeRulesOf = (pack: RulePack): ChangeRules => {
  const addedBands = addedPremiumBands(pack);
  return {
    rulePack: pack.id,
    noticeDays: pack.noticeDays,
    restConsent:
      pack.rest?.consentRequired && pack.rest.minHours > 0
        ? { minHours: pack.rest.minHours, consecutiveDays: pack.rest.scope === "CONSECUTIVE_DAYS" }
        : null,
    addedBands,
    premiumOf: (change, entryMinutes) =>
      change.kind === "ADDED"
        ? addedPremiumOf(addedBands, change.noticeMinutes, change.minutesAdded)
        : changePremium(pack, {
            kind: change.kind,
            noticeMinutes: change.noticeMinutes,
            minutesLost: change.minutesLost,
            minutesAdded: change.minutesAdded,
            originalMinutes: entryMinutes,
            initiatedBy: "EMPLOYER",
            exemption: null,
            movedMinutes: change.movedMinutes,
          }),
  };
};
