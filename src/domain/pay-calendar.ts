import { DEFAULT_RULES, type PayRuleSet, type PayRules, WORKWEEK_DAYS } from "./pay-rules";

/*
 * Workdays and workweeks on the local wall clock (instants written with Z, read as UTC milliseconds). A workday is
 * the 24 hours from the rule set's workdayStartsAt; a workweek seven workdays from workweekStartsOn at that time
 * (29 CFR 778.105: "a fixed and regularly recurring period of 168 hours"; Cal. Labor Code 500(a)/(b)).
 */

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
const MINUTE_MS = 60_000;

export interface Calendar {
  /** 0 = Sunday … 6 = Saturday. */
  startsOn: number;
  /** workdayStartsAt as milliseconds after midnight. */
  offset: number;
}

export const calendarOf = (rules: Pick<PayRules, "workweekStartsOn" | "workdayStartsAt">): Calendar => ({
  startsOn: WORKWEEK_DAYS.indexOf(rules.workweekStartsOn),
  offset: (Number(rules.workdayStartsAt.slice(0, 2)) * 60 + Number(rules.workdayStartsAt.slice(3, 5))) * MINUTE_MS,
});

const sameCalendar = (a: Calendar, b: Calendar) => a.startsOn === b.startsOn && a.offset === b.offset;

/** The start of the workday holding the instant. */
const dayStartAt = (calendar: Calendar, at: number) => Math.floor((at - calendar.offset) / DAY_MS) * DAY_MS + calendar.offset;

/** The start of the (regular, seven-day) workweek holding the instant. 1970-01-01 was a Thursday (4). */
function weekStartAt(calendar: Calendar, at: number): number {
  const day = dayStartAt(calendar, at);
  const weekday = (((Math.floor(day / DAY_MS) + 4) % 7) + 7) % 7;
  return day - ((weekday - calendar.startsOn + 7) % 7) * DAY_MS;
}

/** The first workweek start of the calendar at or after the instant. */
function weekBoundaryFrom(calendar: Calendar, at: number): number {
  const start = weekStartAt(calendar, at);
  return start === at ? at : start + WEEK_MS;
}

/**
 * A stretch of time cut by one calendar; a short one is a single workweek: of fewer than seven days, or an old
 * calendar's last week run whole beside the new calendar's first (withOverlapsInOldWeek).
 */
interface Segment {
  from: number;
  to: number;
  calendar: Calendar;
  short: boolean;
  /** Its workdays by start, built on first use (a pay computation asks for the same few days again and again). */
  days?: Map<number, Workday>;
}

/** Where one instant falls: its workday (clipped to its workweek) and its workweek. */
export interface Workday {
  /** The workday's date: the local date on which it starts. */
  date: string;
  /** Unique among the workdays of one timeline: "<week start>/<week end>/<day start>". */
  key: string;
  weekKey: string;
  from: number;
  to: number;
  weekFrom: number;
  weekTo: number;
}

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function workdayIn(segment: Segment, at: number): Workday {
  const { calendar } = segment;
  const day = dayStartAt(calendar, at);
  segment.days ??= new Map();
  let workday = segment.days.get(day);
  if (!workday) {
    workday = newWorkday(segment, day, at);
    segment.days.set(day, workday);
  }
  return workday;
}

function newWorkday(segment: Segment, day: number, at: number): Workday {
  const { calendar } = segment;
  const weekFrom = segment.short ? segment.from : Math.max(weekStartAt(calendar, at), segment.from);
  const weekTo = segment.short ? segment.to : Math.min(weekFrom + WEEK_MS, segment.to);
  const weekKey = `${weekFrom}/${weekTo}`;
  return {
    date: isoDate(day),
    key: `${weekKey}/${day}`,
    weekKey,
    from: Math.max(day, weekFrom),
    to: Math.min(day + DAY_MS, weekTo),
    weekFrom,
    weekTo,
  };
}

/**
 * The calendar segments of one scope from its changes in date order. A change of workweek (another
 * workweekStartsOn or workdayStartsAt) takes effect at the first boundary of the old workweek at or after the
 * start of its effectiveFrom workday; the days until the new calendar's first workweek begins form one short
 * workweek, so no hour ever leaves the seven-day window it was worked in (29 CFR 778.105: a workweek may be
 * changed if the change is intended to be permanent). A change superseded before it took effect never does. The
 * short workweek is the old calendar's last week less the overlap with the new calendar's first (29 CFR 778.301):
 * this timeline counts the overlap in the new week; workweekOverlaps and withOverlapsInOldWeek give the other count.
 */
export function calendarTimeline(changes: readonly { date: string; calendar: Calendar }[]): Segment[] {
  const segments: Segment[] = [{ from: -Infinity, to: Infinity, calendar: calendarOf(DEFAULT_RULES), short: false }];
  for (const change of changes) {
    const midnight = Date.parse(`${change.date}T00:00:00.000Z`);
    while (segments.length > 1 && segments.at(-1)!.from > midnight + segments.at(-1)!.calendar.offset) segments.pop();
    let current = segments.at(-1)!;
    const at = midnight + current.calendar.offset;
    if (!current.short && sameCalendar(current.calendar, change.calendar)) {
      current.to = Infinity;
      continue;
    }
    const takesEffect = current.short ? current.to : weekBoundaryFrom(current.calendar, at);
    if (takesEffect <= current.from && segments.length > 1) {
      segments.pop();
      current = segments.at(-1)!;
    }
    current.to = takesEffect;
    const firstWeek = weekBoundaryFrom(change.calendar, takesEffect);
    if (firstWeek > takesEffect) segments.push({ from: takesEffect, to: firstWeek, calendar: change.calendar, short: true });
    segments.push({ from: firstWeek, to: Infinity, calendar: change.calendar, short: false });
  }
  return segments;
}

/** The workday of an instant in a timeline (segments few: a scan from the latest). */
export function workdayAt(segments: readonly Segment[], at: number): Workday {
  for (let i = segments.length - 1; i > 0; i--) {
    if (at >= segments[i]!.from) return workdayIn(segments[i]!, at);
  }
  return workdayIn(segments[0]!, at);
}

/**
 * The organization's timeline: the changes of calendar among its own sets (locationId null), in date order. One
 * workweek and one workday per employee at every location (29 CFR 778.103–778.105; Cal. Labor Code 500(a)): a
 * location's set changes rates and rules, never the boundaries.
 */
export function organizationCalendar(sets: readonly PayRuleSet[]): Segment[] {
  const own = sets
    .filter((set) => set.locationId === null)
    .sort((a, b) => (a.effectiveFrom === b.effectiveFrom ? (a.id < b.id ? -1 : 1) : a.effectiveFrom < b.effectiveFrom ? -1 : 1));
  const latestOfDate = own.filter((set, i) => own[i + 1]?.effectiveFrom !== set.effectiveFrom);
  return calendarTimeline(latestOfDate.map((set) => ({ date: set.effectiveFrom, calendar: calendarOf(set) })));
}

/**
 * A change of workweek's overlap (29 CFR 778.301): the last old workweek [oldFrom, to) and the first new one
 * [from, newTo) share [from, to). `index` is the timeline's short segment [oldFrom, from): the old week without the
 * overlap, as the timeline counts the overlap by default (in the new week).
 */
export interface WorkweekOverlap {
  index: number;
  oldFrom: number;
  from: number;
  to: number;
  newTo: number;
}

/**
 * The overlaps of a timeline: each short segment between a full old calendar and a full new one that lasts at least
 * the new week (a change superseded within a week of another keeps its short workweek: it has no whole old week).
 */
export function workweekOverlaps(timeline: readonly Segment[]): WorkweekOverlap[] {
  const overlaps: WorkweekOverlap[] = [];
  timeline.forEach((segment, index) => {
    const before = timeline[index - 1];
    const after = timeline[index + 1];
    if (!segment.short || !before || before.short || !after || after.short || before.to !== segment.from) return;
    const overlap = { index, oldFrom: segment.from, from: segment.to, to: segment.from + WEEK_MS, newTo: segment.to + WEEK_MS };
    if (after.from === segment.to && after.to >= overlap.newTo && overlap.to > overlap.from) overlaps.push(overlap);
  });
  return overlaps;
}

/**
 * The timeline with each given overlap counted in the old workweek instead (29 CFR 778.302(a)(1)): the old
 * calendar's week runs its seven days [oldFrom, to), the new calendar's first week is what is left of it [to, newTo).
 */
export function withOverlapsInOldWeek(timeline: readonly Segment[], overlaps: readonly WorkweekOverlap[]): Segment[] {
  const out: Segment[] = [];
  timeline.forEach((segment, index) => {
    const overlap = overlaps.find((o) => o.index === index);
    const previous = overlaps.find((o) => o.index + 1 === index);
    if (overlap) {
      out.push({ from: overlap.oldFrom, to: overlap.to, calendar: timeline[index - 1]!.calendar, short: true });
      out.push({ from: overlap.to, to: overlap.newTo, calendar: segment.calendar, short: true });
    } else if (previous) {
      out.push({ from: previous.newTo, to: segment.to, calendar: segment.calendar, short: false });
    } else {
      out.push(segment);
    }
  });
  return out;
}

/** The last date of a workweek [from, to): the date of the workday holding its last instant. */
export const weekEndDate = (segments: readonly Segment[], weekTo: number) => workdayAt(segments, weekTo - 1).date;

export type { Segment as CalendarSegment };
