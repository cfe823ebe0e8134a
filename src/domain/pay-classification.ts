import { DEFAULT_MINOR_UNITS } from "./currency-minor-units";
import { addDays } from "./local-time";
import { centsToAmount, hoursAmountCents, hoursOfMinutes, lineRate, rateOf, roundCentsToMinorUnits, roundTo } from "./pay-amounts";
import {
  type CalendarSegment,
  organizationCalendar,
  type Workday,
  type WorkweekOverlap,
  weekEndDate,
  withOverlapsInOldWeek,
  workdayAt,
  workweekOverlaps,
} from "./pay-calendar";
import {
  type EmployeePay,
  type LineWithCents,
  makeLine,
  mergeByDate,
  type PayComputation,
  type PayLine,
  type PayLineKind,
  type PayLineRule,
  sumPayTotals,
  totalsOf,
  type Workweek,
} from "./pay-lines";
import { wageWarnings } from "./pay-wage-warnings";

export type { EmployeePay, PayComputation, PayLine, PayLineKind, PayLineRule, PayTotals, Workweek } from "./pay-lines";
export { sumPayTotals } from "./pay-lines";

import { type MealOpportunity, type MealWaiver, missedMealPeriod, waivedMealsOn } from "./meal-periods";
import { conditionsOf } from "./pay-presets";
import { type Employment, type MonthlyOvertimeBand, NO_EMPLOYMENT, type Penalty } from "./pay-presets/award";
import { callInMinutes, reportingTimeMinutes, splitShiftPremium } from "./pay-presets/shift-minimums";
import { allocateFlsaOvertime, premiumOverStraightTimeCents, qualifiedPremiumCents } from "./pay-qualified-overtime";
import { type GoverningSet, governingRuleSets, type MealPeriod, type PayRuleSet, type PunchRounding } from "./pay-rules";
import { type BreakSpan, shiftTotals } from "./shift-totals";

/** A shift as stored, with its times (and its breaks') as local wall clock readings written with Z. */
export interface PayShift {
  id: string;
  employeeId: string;
  locationId: string;
  /** The local date the shift started on (its minutes count in the workdays they were worked in). */
  businessDate: string;
  startTime: Date;
  /** Null while clocked in: an open shift is not paid until it is closed. */
  endTime: Date | null;
  /** Null when the employee is not paid by the hour (salary): lines then carry minutes but no rate or amount. */
  hourlyWage: number | null;
  breaks: readonly BreakSpan[];
  /** The staff member's employment type and school-student status, as an award reads them (absent: neither). */
  employment?: Employment;
  /**
   * The scheduled minutes of the published schedule entry the shift answers (absent or null: none, so no
   * reporting-time or call-in pay is judged). The Worker reads them with the shift (data/pay/pay-shift-columns).
   */
  scheduledMinutes?: number | null;
  /** That entry: the shifts answering one entry are judged together, on the first of them. */
  scheduleEntryId?: string | null;
}

/** Approved time off on a paid policy: its hours on one date. */
export interface PaidTimeOffDay {
  employeeId: string;
  date: string;
  hours: number;
  hourlyWage: number | null;
  /** The policy's type (Vacation, Sick, …): the line names it, so payroll maps it to its earning code. */
  policyType?: string;
}

/**
 * A Fair Workweek premium owed on a date (the changed entry's original date; the shift a rest violation was worked
 * on): hours at the workweek's regular rate, or a flat amount, named by the pack's rule.
 */
export interface PremiumOwed {
  employeeId: string;
  date: string;
  kind: "PREDICTABILITY" | "REST";
  hours: number | null;
  amount: number | null;
  rule: `${string}.${string}`;
  /** The rate of hours when the employee worked nothing that workweek (no regular rate): their hourly wage. */
  hourlyWage: number | null;
  /** Where it is owed: the location of the changed entry, or of the shift worked inside the rest (schedule cost). */
  locationId?: string;
}

const MINUTE_MS = 60_000;
const AS_PUNCHED: PunchRounding = { incrementMinutes: 0, mode: "NEAREST" };

/** A punch (a local wall-clock reading) rounded for pay; increment 0 leaves it as punched, NEAREST rounds ties up. */
export function roundPunch(wallClock: Date, rounding: PunchRounding): Date {
  if (rounding.incrementMinutes === 0) return wallClock;
  const unit = rounding.incrementMinutes * MINUTE_MS;
  const steps = wallClock.getTime() / unit;
  const rounded = rounding.mode === "UP" ? Math.ceil(steps) : rounding.mode === "DOWN" ? Math.floor(steps) : Math.round(steps);
  return new Date(rounded * unit);
}

interface PreparedShift {
  shift: PayShift & { endTime: Date };
  governing: GoverningSet;
  start: Date;
  end: Date;
  payable: number;
}

/** A closed shift's start and end rounded under its set (or as punched), and its payable minutes between them. */
function prepare(shift: PayShift & { endTime: Date }, governing: GoverningSet, rounded = true): PreparedShift {
  const rounding = rounded ? governing.rules.rounding : AS_PUNCHED;
  const start = roundPunch(shift.startTime, rounding);
  const roundedEnd = roundPunch(shift.endTime, rounding);
  const end = roundedEnd < start ? start : roundedEnd;
  return { shift, governing, start, end, payable: shiftTotals({ start, end, breaks: shift.breaks }).payableDuration };
}

/**
 * Payable minutes of a closed shift for pay: after its punches are rounded under the set governing the workday it
 * starts in (the organization's calendar under `ruleSets`).
 */
export function payableMinutesForPay(shift: PayShift & { endTime: Date }, ruleSets: readonly PayRuleSet[]): number {
  const governing = governingRuleSets(ruleSets);
  const day = workdayAt(organizationCalendar(ruleSets), shift.startTime.getTime());
  return prepare(shift, governing(shift.locationId, day.date)).payable;
}

/**
 * The breaks of a workday that may meet a meal period, with the day's work before each: a break qualifies when it is
 * unpaid and taken (a legacy automatic deduction is not); the time between two of the day's shifts counts as one
 * (clocking out and back in is how many take their meal).
 */
function mealOpportunities(day: readonly PreparedShift[]): MealOpportunity[] {
  const found: MealOpportunity[] = [];
  let workedBefore = 0;
  for (const [index, prepared] of day.entries()) {
    const previous = day[index - 1];
    if (previous) found.push({ workedBefore, minutes: Math.floor((prepared.start.getTime() - previous.end.getTime()) / MINUTE_MS) });
    const taken = prepared.shift.breaks.filter((b) => !b.automatic);
    for (const b of taken) {
      if (b.paid) continue;
      const breakEnd = b.endTime ?? prepared.end;
      const minutes = Math.floor((breakEnd.getTime() - b.startTime.getTime()) / MINUTE_MS);
      const at = b.startTime < prepared.start ? prepared.start : b.startTime > prepared.end ? prepared.end : b.startTime;
      found.push({ workedBefore: workedBefore + shiftTotals({ start: prepared.start, end: at, breaks: taken }).payableDuration, minutes });
    }
    workedBefore += prepared.payable;
  }
  return found;
}

/**
 * The meal period a workday of prepared shifts (in start order) missed, with the shift during which the day passed
 * that period's afterMinutes and the day's payable minutes beyond it; null when every period due was met or waived.
 */
function judgeMeals(day: readonly PreparedShift[], periods: readonly MealPeriod[], waived: readonly boolean[]) {
  const total = day.reduce((sum, p) => sum + p.payable, 0);
  const missed = missedMealPeriod(periods, total, mealOpportunities(day), waived);
  if (!missed) return null;
  let worked = 0;
  let crossing = day[day.length - 1]!;
  for (const prepared of day) {
    worked += prepared.payable;
    if (worked > missed.afterMinutes) {
      crossing = prepared;
      break;
    }
  }
  return { crossing, minutesPast: total - missed.afterMinutes };
}

/**
 * Whether one employee's workday of closed shifts missed a meal period of its rules (as the MEAL_PENALTY line reads
 * it, whatever the penalty's hours): the shift during which the day passed the missed period's afterMinutes, and the
 * day's payable minutes beyond it; null when every period was met or waived, or there is none. `waived`: the
 * employee's waivers in force that day (waivedMealsOn). Judged on the punches as they were, never rounded ones
 * (Donohue v. AMN Services, 11 Cal.5th 58 (2021)).
 */
export function missedMealBreak(
  day: readonly (PayShift & { endTime: Date })[],
  governing: GoverningSet,
  waived: readonly boolean[] = [],
): { shiftId: string; minutesPast: number } | null {
  const periods = governing.rules.mealBreaks;
  if (periods.length === 0) return null;
  const prepared = [...day].sort((a, b) => a.startTime.getTime() - b.startTime.getTime()).map((shift) => prepare(shift, governing, false));
  const missed = judgeMeals(prepared, periods, waived);
  return missed && { shiftId: missed.crossing.shift.id, minutesPast: missed.minutesPast };
}

/** One employee's workweek as classification fills it: the weekly threshold's count, the run of days, the pay basis. */
interface WorkweekState {
  from: number;
  to: number;
  timeline: readonly CalendarSegment[];
  regularMinutes: number;
  /** Minutes made overtime by the weekly threshold so far (a preset's second weekly band counts from them). */
  weeklyOvertimeMinutes: number;
  lastWorkedDate: string | null;
  consecutiveDays: number;
  /** Every minute worked in it, and those with an hourly wage with their straight-time pay (Σ minutes × wage). */
  minutes: number;
  paidMinutes: number;
  straightTime: number;
  /** As shown (4 decimals); `exactRegularRate` is what lines are paid from. */
  regularRate: number | null;
  exactRegularRate: number | null;
}

interface Segment {
  kind: PayLineKind;
  rule: PayLineRule | null;
  minutes: number;
}

/** Minutes of [from, to) that fall in [low, high). */
const overlap = (from: number, to: number, low: number, high: number) => Math.max(0, Math.min(to, high) - Math.max(from, low));

/**
 * One part of a shift's minutes, at positions [from, from + minutes) of its workday, split by its set's rules.
 * Regular minutes then meet the weekly threshold against the workweek's regular minutes so far (overtime and double
 * time never count toward it: no pyramiding, 29 CFR 778.201–778.202; Cal. Labor Code 510(a)), and the state is
 * advanced. The seventh consecutive workday of a workweek: its first 8 hours overtime, the rest double time
 * (Cal. Labor Code 510(a)). A preset's consecutive-hours limit makes overtime of the part's minutes past that many
 * payable minutes of its shift (`shiftMinutesBefore`: the shift's payable minutes before the part), whatever workday
 * they fall in (CONSECUTIVE_OVERTIME where the daily threshold has not already made them overtime).
 */
function classifyPart(
  from: number,
  minutes: number,
  governing: GoverningSet,
  seventhDay: boolean,
  week: WorkweekState,
  wage: number | null,
  shiftMinutesBefore = 0,
): Segment[] {
  const rules = governing.rules;
  const { dailyOvertimeBelowWage, weeklyDoubleTimeAfterMinutes, consecutiveOvertimeAfterMinutes } = conditionsOf(governing.preset);
  const daily = dailyOvertimeBelowWage === null || (wage !== null && wage < dailyOvertimeBelowWage);
  const to = from + minutes;
  if (seventhDay && rules.seventhConsecutiveDay) {
    return [
      { kind: "OVERTIME", rule: "SEVENTH_DAY_OVERTIME", minutes: overlap(from, to, 0, 480) },
      { kind: "DOUBLE_TIME", rule: "SEVENTH_DAY_DOUBLE_TIME", minutes: overlap(from, to, 480, Infinity) },
    ];
  }
  const doubleFrom = daily ? (rules.dailyDoubleTimeAfterMinutes ?? Infinity) : Infinity;
  const overtimeFrom = Math.min(daily ? (rules.dailyOvertimeAfterMinutes ?? Infinity) : Infinity, doubleFrom);
  const consecutiveFrom =
    consecutiveOvertimeAfterMinutes === null ? Infinity : from + Math.max(0, consecutiveOvertimeAfterMinutes - shiftMinutesBefore);
  const regular = overlap(from, to, 0, Math.min(overtimeFrom, consecutiveFrom));
  const weeklyRoom =
    rules.weeklyOvertimeAfterMinutes === null ? Infinity : Math.max(0, rules.weeklyOvertimeAfterMinutes - week.regularMinutes);
  const keptRegular = Math.min(regular, weeklyRoom);
  week.regularMinutes += keptRegular;
  const weeklyOvertime = regular - keptRegular;
  // A second weekly band (France: + 50 % from the 44th hour) takes the weekly overtime past its first band's room.
  const firstBand =
    weeklyDoubleTimeAfterMinutes === null || rules.weeklyOvertimeAfterMinutes === null
      ? Infinity
      : Math.max(0, weeklyDoubleTimeAfterMinutes - rules.weeklyOvertimeAfterMinutes - week.weeklyOvertimeMinutes);
  const weeklyDouble = Math.max(0, weeklyOvertime - firstBand);
  week.weeklyOvertimeMinutes += weeklyOvertime;
  return [
    { kind: "REGULAR", rule: null, minutes: keptRegular },
    { kind: "OVERTIME", rule: "CONSECUTIVE_OVERTIME", minutes: overlap(from, to, consecutiveFrom, overtimeFrom) },
    { kind: "OVERTIME", rule: "DAILY_OVERTIME", minutes: overlap(from, to, overtimeFrom, doubleFrom) },
    { kind: "OVERTIME", rule: "WEEKLY_OVERTIME", minutes: weeklyOvertime - weeklyDouble },
    { kind: "DOUBLE_TIME", rule: "WEEKLY_DOUBLE_TIME", minutes: weeklyDouble },
    { kind: "DOUBLE_TIME", rule: "DAILY_DOUBLE_TIME", minutes: overlap(from, to, doubleFrom, Infinity) },
  ];
}

const multiplierOf = (kind: PayLineKind, governing: GoverningSet) =>
  kind === "OVERTIME" ? governing.rules.overtimeMultiplier : kind === "DOUBLE_TIME" ? governing.rules.doubleTimeMultiplier : 1;

/** A line before its workweek's regular rate is known. `premium` null: paid at the regular rate (a penalty). */
interface PendingLine {
  fields: Omit<PayLine, "hours" | "rate" | "amount">;
  hours: number;
  week: WorkweekState;
  wage: number | null;
  premium: number | null;
  /** An award's penalty or engagement: paid at `share` × the line's own wage (premium then unused). */
  share?: number;
  /** A rate set by law whatever the wage (spread of hours: the minimum wage); null without an hourly wage. */
  fixedRate?: number;
  /** Overtime under a set outside the FLSA (its preset's `underFlsa` false): never qualified overtime. */
  outsideFlsa?: true;
  /** The shift the line's cost is charged to: its own, or for a meal penalty the shift during which the day passed the rule. */
  chargedShiftId: string | null;
}

/** One workday's part of a shift: the payable minutes worked in it, under the set governing that workday. */
interface Part {
  prepared: PreparedShift;
  day: Workday;
  governing: GoverningSet;
  from: number;
  /** Where the part ends on the wall clock, and the shift's payable minutes before its start. */
  to: number;
  payableFrom: number;
  minutes: number;
}

/** Payable minutes of a prepared shift before an instant: its time less the unpaid breaks inside it so far. */
function payableBefore(prepared: PreparedShift, at: number): number {
  const startMs = prepared.start.getTime();
  const endMs = prepared.end.getTime();
  const to = Math.min(Math.max(at, startMs), endMs);
  let minutes = Math.floor((to - startMs) / MINUTE_MS);
  for (const b of prepared.shift.breaks) {
    if (b.paid) continue;
    const inside = Math.max(
      0,
      Math.floor((Math.min(b.endTime?.getTime() ?? endMs, to) - Math.max(b.startTime.getTime(), startMs)) / MINUTE_MS),
    );
    minutes -= b.automatic ? Math.min(b.durationInSettingsMinutes, inside) : inside;
  }
  return Math.min(prepared.payable, Math.max(0, minutes));
}

/**
 * A shift's minutes split where they were worked: at each workday (and so workweek) boundary of the organization's
 * calendar and at each of `cuts` (a 24-hour window's end: WorkStartWindows), each part under the set governing its workday. The parts' minutes always add up to the shift's payable
 * minutes (the last part takes what is left).
 */
function partsOf(
  prepared: PreparedShift,
  timeline: readonly CalendarSegment[],
  governing: (locationId: string, date: string) => GoverningSet,
  out: Part[],
  cuts: readonly number[] = [],
): void {
  const end = prepared.end.getTime();
  let at = prepared.start.getTime();
  let before = 0;
  do {
    const day = workdayAt(timeline, at);
    const cut = Math.min(day.to, end, cuts.find((c) => c > at) ?? Infinity);
    const upTo = cut >= end ? prepared.payable : Math.max(before, payableBefore(prepared, cut));
    out.push({
      prepared,
      day,
      governing: governing(prepared.shift.locationId, day.date),
      from: at,
      to: cut,
      payableFrom: before,
      minutes: upTo - before,
    });
    before = upTo;
    at = cut;
  } while (at < end);
}

const DAY_MS = 86_400_000;

/**
 * An employee's 24-hour windows from when work begins (a preset's dailyFromWorkStart; Nevada, NRS 608.0126): one opens
 * at the start of the first shift, and again at the first work at or after the previous one's end — mid-shift when
 * the work goes on past it. Shifts are opened in start order; each window counts the minutes classified in it so far.
 */
class WorkStartWindows {
  private readonly starts: number[] = [];
  private readonly worked = new Map<number, number>();

  /** Opens the windows a shift [start, end) begins or reaches; answers their starts strictly inside it (where to cut). */
  open(start: number, end: number): number[] {
    const cuts: number[] = [];
    let last = this.starts.at(-1);
    if (last === undefined || start >= last + DAY_MS) {
      last = start;
      this.starts.push(start);
    }
    while (end > last + DAY_MS) {
      last += DAY_MS;
      this.starts.push(last);
      cuts.push(last);
    }
    return cuts;
  }

  /** The window holding an instant (the latest opened at or before it). */
  private windowAt(at: number): number {
    for (let i = this.starts.length - 1; i >= 0; i--) if (this.starts[i]! <= at) return this.starts[i]!;
    return at;
  }

  /** The minutes counted in the window holding `at` so far, then adds `minutes` to it. */
  take(at: number, minutes: number): number {
    const window = this.windowAt(at);
    const before = this.worked.get(window) ?? 0;
    this.worked.set(window, before + minutes);
    return before;
  }
}

/**
 * Lines of one workday's parts, in start order: the day's total meets the daily thresholds, attributed in that order
 * (under a set whose preset counts from work's start, the minutes of the part's 24-hour window before it instead).
 */
function dayLines(parts: readonly Part[], week: WorkweekState, out: PendingLine[], award: AwardContext, windows: WorkStartWindows): void {
  const date = parts[0]!.day.date;
  let dayPayable = 0;
  for (const part of parts) dayPayable += part.minutes;
  if (dayPayable > 0) {
    week.consecutiveDays = week.lastWorkedDate === addDays(date, -1) ? week.consecutiveDays + 1 : 1;
    week.lastWorkedDate = date;
  }
  const seventhDay = dayPayable > 0 && week.consecutiveDays >= 7;
  let position = 0;
  for (const part of parts) {
    const wage = part.prepared.shift.hourlyWage;
    week.minutes += part.minutes;
    if (wage !== null) {
      week.paidMinutes += part.minutes;
      week.straightTime += part.minutes * wage;
    }
    const from = conditionsOf(part.governing.preset).dailyFromWorkStart ? windows.take(part.from, part.minutes) : position;
    const segments = classifyPart(from, part.minutes, part.governing, seventhDay, week, wage, part.payableFrom);
    for (const segment of segments) {
      if (segment.minutes === 0) continue;
      out.push({
        fields: { date, shiftId: part.prepared.shift.id, ...segment, ruleSetId: part.governing.ruleSetId },
        hours: hoursOfMinutes(segment.minutes),
        week,
        wage,
        premium: multiplierOf(segment.kind, part.governing) - 1,
        chargedShiftId: part.prepared.shift.id,
        ...(!conditionsOf(part.governing.preset).underFlsa && { outsideFlsa: true as const }),
      });
    }
    awardPenaltyLines(part, segments, week, award, out);
    position += part.minutes;
  }
}

/**
 * What an award's lines read beyond a part: the locations' public holidays, the shifts begun inside the rest owed,
 * and the employee's overtime minutes counted so far in each calendar month ("YYYY-MM"; parts come in time order).
 */
interface AwardContext {
  isHoliday: (locationId: string, date: string) => boolean;
  shortRest: ReadonlySet<string>;
  overtimeByMonth: Map<string, number>;
}

/**
 * Counts overtime minutes worked in a band on a workday toward its calendar month's limit (a band the limit does not
 * count adds nothing) and answers how many of them fall past it: the limit's own last minute is not past it.
 */
function countMonthlyOvertime(monthly: MonthlyOvertimeBand, counts: Map<string, number>, date: string, band: string, minutes: number) {
  if (monthly.uncountedBands.includes(band)) return 0;
  const month = date.slice(0, 7);
  const before = counts.get(month) ?? 0;
  counts.set(month, before + minutes);
  return Math.min(minutes, Math.max(0, before + minutes - monthly.afterMinutes));
}

/** A segment's place among a part's payable minutes: kept regular first, then weekly overtime, daily overtime, double time. */
const segmentOrder = (segment: Segment) =>
  segment.rule === null
    ? 0
    : segment.rule === "WEEKLY_OVERTIME"
      ? 1
      : segment.rule === "WEEKLY_DOUBLE_TIME"
        ? 1.5
        : segment.kind === "OVERTIME"
          ? 2
          : 3;

/**
 * The award's penalty lines of a part (its set's preset names the award; none: nothing): each segment's minutes cut
 * by the award's bands where they were worked — its kept regular minutes are the part's first payable minutes, its
 * overtime the last — each band's extra part a PENALTY line (HOLIDAY on a public holiday) at `share` × the wage.
 */
function awardPenaltyLines(part: Part, segments: readonly Segment[], week: WorkweekState, context: AwardContext, out: PendingLine[]) {
  const award = conditionsOf(part.governing.preset).award;
  if (!award || part.minutes === 0) return;
  const { prepared, governing } = part;
  const shift = prepared.shift;
  const employment = shift.employment ?? NO_EMPLOYMENT;
  const isHoliday = (date: string) => context.isHoliday(shift.locationId, date);
  const shortRest = context.shortRest.has(shift.id);
  const reached = (at: number) =>
    at >= part.to ? part.minutes : Math.min(part.minutes, Math.max(0, payableBefore(prepared, at) - part.payableFrom));
  const spans = award
    .bands(part.from, part.to, isHoliday)
    .map((span) => ({ ...span, first: reached(span.fromMs), last: reached(span.toMs) }));
  let index = 0;
  for (const segment of [...segments].sort((a, b) => segmentOrder(a) - segmentOrder(b))) {
    const from = index;
    index += segment.minutes;
    if (segment.minutes === 0) continue;
    const multiplier = multiplierOf(segment.kind, governing);
    const byRule = new Map<string, { share: number; minutes: number; band: string }>();
    const add = (penalty: Penalty, minutes: number, band: string) => {
      const key = `${penalty.rule}\u0000${penalty.share}`;
      const found = byRule.get(key);
      if (found) found.minutes += minutes;
      else byRule.set(key, { share: penalty.share, minutes, band });
    };
    for (const span of spans) {
      const minutes = Math.max(0, Math.min(index, span.last) - Math.max(from, span.first));
      if (minutes === 0) continue;
      const penalty =
        segment.kind === "REGULAR"
          ? award.ordinaryPenalty(span.band, employment, shortRest)
          : award.overtimePenalty(span.band, employment, multiplier);
      if (penalty) add(penalty, minutes, span.band);
      const monthly = award.monthlyOvertime;
      if (monthly && segment.kind !== "REGULAR") {
        const past = countMonthlyOvertime(monthly, context.overtimeByMonth, part.day.date, span.band, minutes);
        if (past > 0) add({ rule: monthly.rule, share: monthly.premium }, past, span.band);
      }
    }
    for (const [key, { share, minutes, band }] of byRule) {
      out.push({
        fields: {
          date: part.day.date,
          shiftId: shift.id,
          kind: band === "PUBLIC_HOLIDAY" ? "HOLIDAY" : "PENALTY",
          rule: key.split("\u0000")[0] as PayLineRule,
          minutes,
          ruleSetId: governing.ruleSetId,
        },
        hours: hoursOfMinutes(minutes),
        week,
        wage: shift.hourlyWage,
        premium: null,
        share,
        chargedShiftId: shift.id,
      });
    }
  }
}

/**
 * The award's minimum engagement of a shift (cl. 10.9, 11.3 of the retail award): the minutes short of it paid as a
 * MINIMUM_ENGAGEMENT line at the rate of an ordinary hour in the band the shift ended in (as though it had gone on).
 */
function minimumEngagementLine(prepared: PreparedShift, governing: GoverningSet, day: Workday, week: WorkweekState, context: AwardContext) {
  const award = conditionsOf(governing.preset).award;
  if (!award) return null;
  const shift = prepared.shift;
  const employment = shift.employment ?? NO_EMPLOYMENT;
  const startMs = prepared.start.getTime();
  const endMs = prepared.end.getTime();
  const short = award.minimumEngagementMinutes(employment, startMs, endMs) - prepared.payable;
  if (short <= 0 || prepared.payable === 0) return null;
  const isHoliday = (date: string) => context.isHoliday(shift.locationId, date);
  const lastBand = award.bands(Math.max(startMs, endMs - 60_000), endMs, isHoliday).at(-1)?.band ?? "ORDINARY";
  const share = 1 + (award.ordinaryPenalty(lastBand, employment, false)?.share ?? 0);
  const line: PendingLine = {
    fields: {
      date: day.date,
      shiftId: shift.id,
      kind: "MINIMUM_ENGAGEMENT",
      rule: award.minimumEngagementRule,
      minutes: short,
      ruleSetId: governing.ruleSetId,
    },
    hours: hoursOfMinutes(short),
    week,
    wage: shift.hourlyWage,
    premium: null,
    share,
    chargedShiftId: shift.id,
  };
  return line;
}

/**
 * The shifts begun inside the rest their award owes after the previous workday's work (the retail award's cl. 16.6:
 * 12 hours): judged between the end of one employee's last shift of an earlier workday and the start of the next.
 */
function shiftsInsideRest(shifts: readonly PreparedShift[], dayOf: (prepared: PreparedShift) => Workday): Set<string> {
  const found = new Set<string>();
  let previous: PreparedShift | null = null;
  for (const prepared of shifts) {
    const rest = conditionsOf(prepared.governing.preset).award?.restBetweenWorkdaysMinutes ?? null;
    if (previous && rest !== null && dayOf(previous).date < dayOf(prepared).date) {
      if (prepared.start.getTime() - previous.end.getTime() < rest * 60_000) found.add(prepared.shift.id);
    }
    if (!previous || prepared.end > previous.end) previous = prepared;
  }
  return found;
}

/**
 * Spread-of-hours pay of a workday (its preset's; New York 12 NYCRR 142-2.4): when its first shift's start to its last
 * shift's end passes the preset's limit, its hours at the preset's rate, charged to the day's last shift.
 */
function spreadOfHoursLine(meal: MealDay, week: WorkweekState): PendingLine | null {
  const spread = conditionsOf(meal.governing.preset).spreadOfHours;
  if (!spread || meal.shifts.length === 0) return null;
  const first = Math.min(...meal.shifts.map((p) => p.start.getTime()));
  const last = meal.shifts.reduce((a, b) => (b.end > a.end ? b : a));
  if (last.end.getTime() - first <= spread.afterMinutes * 60_000) return null;
  const minutes = Math.round(spread.hours * 60);
  return {
    fields: {
      date: meal.day.date,
      shiftId: null,
      kind: "SPREAD_OF_HOURS",
      rule: spread.rule,
      minutes,
      ruleSetId: meal.governing.ruleSetId,
    },
    hours: spread.hours,
    week,
    wage: last.shift.hourlyWage,
    premium: null,
    fixedRate: spread.rate,
    chargedShiftId: last.shift.id,
  };
}

/**
 * The split-shift premium of a workday (its preset's; California IWC Wage Orders §4(C)): an hour at the minimum wage
 * when an unpaid gap of more than an hour parts its shifts, less what the day's straight-time wages exceed the minimum
 * wage for the hours worked (DLSE Manual 45.2.1) — shown as one hour at that reduced rate, charged to the last shift.
 */
function splitShiftLine(meal: MealDay, week: WorkweekState): PendingLine | null {
  const rule = conditionsOf(meal.governing.preset).splitShift;
  if (!rule || meal.shifts.length < 2) return null;
  const spans = meal.shifts.map((p) => ({ start: p.start.getTime(), end: p.end.getTime() }));
  const worked = meal.shifts.reduce((sum, p) => sum + p.payable, 0);
  const wages = meal.shifts.reduce((sum, p) => sum + ((p.shift.hourlyWage ?? 0) * p.payable) / 60, 0);
  const premium = splitShiftPremium(rule, spans, worked, wages);
  if (premium <= 0) return null;
  const last = meal.shifts.reduce((a, b) => (b.end > a.end ? b : a));
  const wage = meal.shifts.some((p) => p.shift.hourlyWage === null) ? null : last.shift.hourlyWage;
  const fields = { date: meal.day.date, shiftId: null, kind: "SPLIT_SHIFT" as const, rule: rule.rule, ruleSetId: meal.governing.ruleSetId };
  return {
    fields: { ...fields, minutes: Math.round(rule.hours * 60) },
    hours: rule.hours,
    week,
    wage,
    premium: null,
    fixedRate: premium / rule.hours,
    chargedShiftId: last.shift.id,
  };
}

/**
 * A shift's pay for reporting as scheduled beyond the minutes worked (PayShift.scheduledMinutes): California's
 * reporting-time pay at the regular rate (IWC Wage Orders §5(A)), New York's call-in pay at the minimum wage (12
 * NYCRR 142-2.3) — the minutes short, paid and not worked.
 */
function reportingLines(prepared: PreparedShift, day: Workday, week: WorkweekState, worked: number | undefined): PendingLine[] {
  const scheduled = prepared.shift.scheduledMinutes;
  if (scheduled === undefined || scheduled === null || worked === undefined || worked === 0) return [];
  const { reportingTime, callIn } = conditionsOf(prepared.governing.preset);
  const lines: PendingLine[] = [];
  const base = { date: day.date, shiftId: prepared.shift.id, ruleSetId: prepared.governing.ruleSetId };
  const common = { week, wage: prepared.shift.hourlyWage, premium: null, chargedShiftId: prepared.shift.id };
  const reporting = reportingTime ? reportingTimeMinutes(reportingTime, scheduled, worked) : 0;
  if (reportingTime && reporting > 0) {
    lines.push({
      ...common,
      fields: { ...base, kind: "REPORTING_TIME", rule: reportingTime.rule, minutes: reporting },
      hours: hoursOfMinutes(reporting),
    });
  }
  const short = callIn ? callInMinutes(callIn, scheduled, worked) : 0;
  if (callIn && short > 0) {
    lines.push({
      ...common,
      fields: { ...base, kind: "CALL_IN", rule: callIn.rule, minutes: short },
      hours: hoursOfMinutes(short),
      fixedRate: callIn.rate,
    });
  }
  return lines;
}

/**
 * The minutes worked for each shift's schedule entry, by shift id: every shift answering one entry counts toward it,
 * and only the first of them (in start order) is judged, so clocking out and in again is never paid twice. A shift
 * answering no entry stands alone.
 */
function workedForEntries(prepared: readonly PreparedShift[]): Map<string, number> {
  const first = new Map<string, PreparedShift>();
  const worked = new Map<string, number>();
  for (const p of prepared) {
    const entryId = p.shift.scheduleEntryId;
    const lead = entryId ? first.get(entryId) : undefined;
    if (!lead) {
      if (entryId) first.set(entryId, p);
      worked.set(p.shift.id, p.payable);
    } else worked.set(lead.shift.id, worked.get(lead.shift.id)! + p.payable);
  }
  return worked;
}

/** The workday a shift starts in, with its shifts so far: what the meal rule judges. */
interface MealDay {
  day: Workday;
  governing: GoverningSet;
  shifts: PreparedShift[];
}

/**
 * The meal premium of a workday judged on its shifts' actual punches (Cal. Labor Code 512(a)): one per workday at
 * most, however many meal periods it missed (226.7(c)).
 */
function mealPenalty(meal: MealDay, week: WorkweekState, waived: readonly boolean[]): PendingLine | null {
  const { mealBreaks, mealPenaltyHours } = meal.governing.rules;
  if (mealBreaks.length === 0 || mealPenaltyHours <= 0) return null;
  const actual = meal.shifts.map((p) => (p.governing.rules.rounding.incrementMinutes === 0 ? p : prepare(p.shift, p.governing, false)));
  const missed = judgeMeals(actual, mealBreaks, waived);
  if (!missed) return null;
  const { crossing } = missed;
  const minutes = Math.round(mealPenaltyHours * 60);
  return {
    fields: { date: meal.day.date, shiftId: null, kind: "MEAL_PENALTY", rule: "MEAL_BREAK", minutes, ruleSetId: meal.governing.ruleSetId },
    hours: mealPenaltyHours,
    week,
    wage: null,
    premium: null,
    chargedShiftId: crossing.shift.id,
  };
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const compareShifts = (a: PayShift, b: PayShift) =>
  compareText(a.employeeId, b.employeeId) || a.startTime.getTime() - b.startTime.getTime() || compareText(a.id, b.id);

const compareParts = (a: Part, b: Part) => a.day.from - b.day.from || compareText(a.day.key, b.day.key) || a.from - b.from;

const isClosed = (shift: PayShift): shift is PayShift & { endTime: Date } => shift.endTime !== null;

type Governing = ReturnType<typeof governingRuleSets>;
type Timeline = readonly CalendarSegment[];

/** Which of a workday's meal periods the employee waived (by the staff member's dated waivers). */
type Waived = (date: string) => readonly boolean[];

/** Whether a date is a public holiday at a location (PayInput.isHoliday). */
type Holidays = (locationId: string, date: string) => boolean;
const NO_HOLIDAYS: Holidays = () => false;

/**
 * Every closed shift's lines of one employee (in start order), before their rates: parts classified workday by
 * workday in time order, each workweek apart; then each workday's meal penalty after its shift lines.
 */

function employeeShiftLines(
  shifts: readonly (PayShift & { endTime: Date })[],
  governing: Governing,
  timeline: Timeline,
  waived: Waived,
  isHoliday: Holidays,
) {
  const parts: Part[] = [];
  const meals = new Map<string, MealDay>();
  const starts: { prepared: PreparedShift; day: Workday }[] = [];
  const windows = new WorkStartWindows();
  for (const shift of shifts) {
    const day = workdayAt(timeline, shift.startTime.getTime());
    const rules = governing(shift.locationId, day.date);
    const prepared = prepare(shift, rules);
    starts.push({ prepared, day });
    const cuts = windows.open(prepared.start.getTime(), prepared.end.getTime());
    partsOf(prepared, timeline, governing, parts, conditionsOf(rules.preset).dailyFromWorkStart ? cuts : []);
    const meal = meals.get(day.key);
    if (meal) meal.shifts.push(prepared);
    else meals.set(day.key, { day, governing: rules, shifts: [prepared] });
  }
  parts.sort(compareParts);
  const weeks = new Map<string, WorkweekState>();
  const weekOf = (day: Workday) => {
    let week = weeks.get(day.weekKey);
    if (!week) {
      week = {
        from: day.weekFrom,
        to: day.weekTo,
        timeline,
        regularMinutes: 0,
        weeklyOvertimeMinutes: 0,
        lastWorkedDate: null,
        consecutiveDays: 0,
        minutes: 0,
        paidMinutes: 0,
        straightTime: 0,
        regularRate: null,
        exactRegularRate: null,
      };
      weeks.set(day.weekKey, week);
    }
    return week;
  };
  const pending: PendingLine[] = [];
  const dayOfShift = new Map(starts.map((s) => [s.prepared.shift.id, s.day]));
  const award: AwardContext = {
    isHoliday,
    overtimeByMonth: new Map(),
    shortRest: shiftsInsideRest(
      starts.map((s) => s.prepared),
      (p) => dayOfShift.get(p.shift.id)!,
    ),
  };
  for (let i = 0; i < parts.length; ) {
    const key = parts[i]!.day.key;
    let j = i + 1;
    while (j < parts.length && parts[j]!.day.key === key) j++;
    dayLines(parts.slice(i, j), weekOf(parts[i]!.day), pending, award, windows);
    i = j;
  }
  const penalties: PendingLine[] = [];
  const worked = workedForEntries(starts.map((s) => s.prepared));
  for (const { prepared, day } of starts) {
    const line = minimumEngagementLine(prepared, prepared.governing, day, weekOf(day), award);
    if (line) penalties.push(line);
    penalties.push(...reportingLines(prepared, day, weekOf(day), worked.get(prepared.shift.id)));
  }
  for (const meal of meals.values()) {
    const line = mealPenalty(meal, weekOf(meal.day), waived(meal.day.date));
    if (line) penalties.push(line);
    const spread = spreadOfHoursLine(meal, weekOf(meal.day));
    if (spread) penalties.push(spread);
    const split = splitShiftLine(meal, weekOf(meal.day));
    if (split) penalties.push(split);
  }
  penalties.sort((a, b) => compareText(a.fields.date, b.fields.date));
  return { lines: penalties.length ? mergePending(pending, penalties) : pending, weeks };
}

/** Shift lines then penalties, by date (each list already in date order), shift lines first on a date. */
function mergePending(a: readonly PendingLine[], b: readonly PendingLine[]): PendingLine[] {
  const merged: PendingLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]!.fields.date <= b[j]!.fields.date)) merged.push(a[i++]!);
    else merged.push(b[j++]!);
  }
  return merged;
}

/**
 * The regular rate of a workweek (29 CFR 778.115: the total straight-time pay of the hours worked at their own
 * rates ÷ the total hours worked; Cal. Labor Code 510 as the DLSE reads it, Alvarado v. Dart Container (2018) for
 * what enters it), exact: what every premium of the week is computed from, never rounded before a line's amount is
 * (shown to 4 decimals). Null without an hourly wage.
 */
function setRegularRate(week: WorkweekState): void {
  week.exactRegularRate = week.paidMinutes === 0 ? null : week.straightTime / week.paidMinutes;
  week.regularRate = rateOf(week.exactRegularRate);
}

/**
 * A line's rate as shown (4 decimals) and the exact rate its amount is computed from: REGULAR its own wage; OVERTIME
 * and DOUBLE_TIME their own wage + (multiplier − 1) × the workweek's regular rate (29 CFR 778.107, 778.115; Cal.
 * Labor Code 510(a)); a penalty the regular rate (Cal. Labor Code 226.7(c); Ferra v. Loews Hollywood Hotel, 11
 * Cal.5th 858 (2021)).
 */
function rateOfLine(line: PendingLine): { rate: number | null; basis: number | null } {
  const exact = (value: number | null) => ({ rate: rateOf(value), basis: value });
  const regularRate = line.week.exactRegularRate;
  if (line.share !== undefined) return exact(line.wage === null ? null : line.wage * line.share);
  if (line.fixedRate !== undefined) return exact(line.wage === null ? null : line.fixedRate);
  if (line.premium === null) return exact(regularRate);
  if (line.wage === null) return exact(null);
  if (line.premium === 0 || regularRate === null) return exact(line.wage);
  return exact(line.wage + line.premium * regularRate);
}

/** A workweek's overtime as its lines paid it: premium over straight time and its qualified part, in cents. */
interface WeekOvertime {
  premiumCents: number | null;
  qualifiedCents: number | null;
  qualifiedMinutes: number;
}

function workweekOf(week: WorkweekState, overtime: WeekOvertime | undefined, minorUnits: number): Workweek {
  const amount = (cents: number | null | undefined) =>
    cents === null || cents === undefined ? (week.paidMinutes === 0 ? null : 0) : centsToAmount(cents);
  return {
    startDate: workdayAt(week.timeline, week.from).date,
    endDate: weekEndDate(week.timeline, week.to),
    regularRate: week.regularRate,
    minutes: week.minutes,
    straightTimePay: week.paidMinutes === 0 ? null : centsToAmount(roundCentsToMinorUnits((week.straightTime * 100) / 60, minorUnits)),
    overtimePremium: amount(overtime?.premiumCents),
    qualifiedOvertimePremium: amount(overtime?.qualifiedCents),
    qualifiedOvertimeMinutes: overtime?.qualifiedMinutes ?? 0,
  };
}

const addCents = (sum: number | null, cents: number | null) => (cents === null ? sum : (sum ?? 0) + cents);

/**
 * Every line of an employee rated (rateOfLine, makeLine), and of its OVERTIME and DOUBLE_TIME lines the part FLSA
 * section 7 requires (pay-qualified-overtime.ts): each workweek's minutes over 40 laid on its premium lines, over
 * the whole workweek so that no figure depends on the range asked; with each workweek's sums.
 */
function ratedWithOvertime(pending: readonly PendingLine[], minorUnits: number) {
  const made = new Map<PendingLine, LineWithCents>();
  const byWeek = new Map<WorkweekState, PendingLine[]>();
  for (const l of pending) {
    const { rate, basis } = rateOfLine(l);
    made.set(l, makeLine(l.fields, l.hours, rate, basis, minorUnits));
    if (l.fields.kind !== "OVERTIME" && l.fields.kind !== "DOUBLE_TIME") continue;
    const list = byWeek.get(l.week);
    if (list) list.push(l);
    else byWeek.set(l.week, [l]);
  }
  const weeks = new Map<WorkweekState, WeekOvertime>();
  for (const [week, lines] of byWeek) {
    const allocated = allocateFlsaOvertime(
      week.minutes,
      lines.map((l) => ({ minutes: l.fields.minutes, premium: (l.premium ?? 0) > 0 && !l.outsideFlsa })),
    );
    const sums: WeekOvertime = { premiumCents: null, qualifiedCents: null, qualifiedMinutes: 0 };
    lines.forEach((l, i) => {
      const rated = made.get(l)!;
      const input = {
        minutes: l.fields.minutes,
        qualifiedMinutes: allocated[i]!,
        wage: l.wage,
        premium: l.premium ?? 0,
        regularRate: week.exactRegularRate,
        amountCents: rated.cents,
      };
      const qualified = qualifiedPremiumCents(input, minorUnits);
      sums.premiumCents = addCents(sums.premiumCents, premiumOverStraightTimeCents(input, minorUnits));
      sums.qualifiedCents = addCents(sums.qualifiedCents, qualified);
      sums.qualifiedMinutes += input.qualifiedMinutes;
      rated.line = {
        ...rated.line,
        qualifiedOvertimePremium: qualified === null ? null : centsToAmount(qualified),
        qualifiedOvertimeMinutes: input.qualifiedMinutes,
      };
    });
    weeks.set(week, sums);
  }
  return { made, weeks };
}

function timeOffLine(day: PaidTimeOffDay, minorUnits: number): LineWithCents {
  const minutes = Math.round(day.hours * 60);
  return makeLine(
    {
      date: day.date,
      shiftId: null,
      kind: "TIME_OFF",
      minutes,
      rule: null,
      ruleSetId: null,
      ...(day.policyType !== undefined && { policyType: day.policyType }),
    },
    roundTo(day.hours, 4),
    lineRate(day.hourlyWage, 1),
    undefined,
    minorUnits,
  );
}

const NOON_MS = 12 * 3_600_000;

/**
 * A premium's line. Hours are paid at the regular rate of the workweek holding its date, as a meal penalty is (a
 * premium is not hours worked and never enters the regular rate: 29 CFR 778.224); without one (nothing worked that
 * week) at the employee's wage. A flat amount is its own line of 0 minutes and no rate.
 */
function premiumLine(premium: PremiumOwed, weeks: Iterable<WorkweekState>, minorUnits: number): LineWithCents {
  const fields = { date: premium.date, shiftId: null, kind: premium.kind, rule: premium.rule, ruleSetId: null };
  if (premium.hours === null) {
    const cents = premium.amount === null ? null : roundCentsToMinorUnits(premium.amount * 100, minorUnits);
    return { line: { ...fields, minutes: 0, hours: 0, rate: null, amount: cents === null ? null : centsToAmount(cents) }, cents };
  }
  const at = Date.parse(`${premium.date}T00:00:00Z`) + NOON_MS;
  let regularRate: number | null = null;
  for (const week of weeks) if (week.from <= at && at < week.to) regularRate = week.exactRegularRate;
  const basis = regularRate ?? premium.hourlyWage;
  // Exact hours × the exact rate, rounded once (a 15-minute cut at half: 0.125 h, not 8 minutes); minutes for reading.
  const cents = hoursAmountCents(premium.hours, basis, minorUnits);
  const line: PayLine = {
    ...fields,
    minutes: Math.round(premium.hours * 60),
    hours: roundTo(premium.hours, 4),
    rate: rateOf(basis),
    amount: cents === null ? null : centsToAmount(cents),
  };
  return { line, cents };
}

/** An employee's lines with their workweeks' regular rates set. */
function ratedLines(
  shifts: readonly (PayShift & { endTime: Date })[],
  governing: Governing,
  timeline: Timeline,
  waived: Waived,
  isHoliday: Holidays,
) {
  const computed = employeeShiftLines(shifts, governing, timeline, waived, isHoliday);
  for (const week of computed.weeks.values()) setRegularRate(week);
  return computed;
}

/** What lines pay before any rounding: minutes ÷ 60 × each line's exact rate. */
const exactAmountOf = (lines: readonly PendingLine[]) =>
  lines.reduce((sum, l) => sum + (l.fields.minutes / 60) * (rateOfLine(l).basis ?? 0), 0);

/**
 * Two computations compared exactly, not by their lines rounded to cents: a shift split in two pays the same exact
 * amount but may round a cent apart, and must not change which count the employee is owed. A millionth of a dollar
 * absorbs floating-point noise.
 */
const PAYS_MORE_BY = 1e-6;

/** The organization's timeline, its changes of workweek, and the timeline with some of their overlaps in the old week. */
interface OverlapCounts {
  timeline: Timeline;
  overlaps: readonly WorkweekOverlap[];
  inOldWeek: (overlaps: readonly WorkweekOverlap[]) => Timeline;
}

function overlapCounts(timeline: Timeline): OverlapCounts {
  const memo = new Map<string, Timeline>();
  return {
    timeline,
    overlaps: workweekOverlaps(timeline),
    inOldWeek: (overlaps) => {
      const key = overlaps.map((o) => o.index).join(",");
      let found = memo.get(key);
      if (!found) {
        found = withOverlapsInOldWeek(timeline, overlaps);
        memo.set(key, found);
      }
      return found;
    },
  };
}

/** A punch may round this far into an overlap (the largest rounding increment). */
const ROUNDING_REACH_MS = 15 * MINUTE_MS;

/**
 * An employee's lines at a change of workweek: the greater of the two computations of 29 CFR 778.302(a) — the
 * overlap's hours counted in the old workweek only, then in the new only — for each change whose overlap the
 * employee worked in (otherwise both are one computation). The new-week count wins a tie. Each change is decided
 * on the employee's whole computation: the weeks of other changes are the same in both.
 */
function linesAtTheGreaterCount(
  shifts: readonly (PayShift & { endTime: Date })[],
  governing: Governing,
  counts: OverlapCounts,
  waived: Waived,
  isHoliday: Holidays,
) {
  let best = ratedLines(shifts, governing, counts.timeline, waived, isHoliday);
  let inOld: WorkweekOverlap[] = [];
  let bestAmount: number | null = null;
  for (const overlap of counts.overlaps) {
    const worked = shifts.some(
      (s) => s.startTime.getTime() - ROUNDING_REACH_MS < overlap.to && s.endTime.getTime() + ROUNDING_REACH_MS > overlap.from,
    );
    if (!worked) continue;
    const trial = [...inOld, overlap];
    const other = ratedLines(shifts, governing, counts.inOldWeek(trial), waived, isHoliday);
    bestAmount ??= exactAmountOf(best.lines);
    const otherAmount = exactAmountOf(other.lines);
    if (otherAmount > bestAmount + PAYS_MORE_BY) {
      best = other;
      bestAmount = otherAmount;
      inOld = trial;
    }
  }
  return best;
}

/** The input of a pay computation: every shift of the workweeks the range touches, paid time off and the rule sets. */
export interface PayInput {
  startDate: string;
  endDate: string;
  shifts: readonly PayShift[];
  timeOff: readonly PaidTimeOffDay[];
  ruleSets: readonly PayRuleSet[];
  /** Fair Workweek premiums (change log and rest); those dated outside the range are left out. */
  premiums?: readonly PremiumOwed[];
  /** Whether a date is a public holiday at a location, for an award's holiday rates (absent: none is). */
  isHoliday?: (locationId: string, date: string) => boolean;
  /** The employees' dated meal waivers (none: nobody waived a meal). */
  mealWaivers?: readonly MealWaiver[];
  /**
   * The organization's currency's minor units (ISO 4217 decimals: minorUnitsOf its currencyCode; absent: 2): every
   * amount is rounded to them, half away from zero, once per line (JPY: whole yen).
   */
  minorUnits?: number;
}

/**
 * A line with the shift its cost is charged to: a shift line's own shift (overtime and double time are lines of the
 * shifts whose minutes became overtime: a day's or week's last minutes, split at each shift), a meal penalty's the
 * shift during which the day passed the rule, time off and Fair Workweek premiums none (a premium is charged to the
 * location of the entry that earned it).
 */
export interface ChargedLine extends LineWithCents {
  chargedShiftId: string | null;
  /** A Fair Workweek premium's location (of the entry or shift that earned it); absent for other lines. */
  chargedLocationId?: string | null;
}

/** An employee's pay with its lines as computed (in cents, with the shift each is charged to). */
export interface ChargedEmployeePay {
  pay: EmployeePay;
  lines: ChargedLine[];
}

/**
 * Pay lines of every employee for workdays [startDate, endDate], each with its cents and the shift it is charged to
 * (what labor cost groups). computePay is this without the charges.
 */
export function computeChargedPay(input: PayInput): ChargedEmployeePay[] {
  return [...chargedPayByEmployee(input)];
}

/**
 * computeChargedPay one employee at a time, in employee id order: a caller that writes each employee out as it comes
 * (GET /timesheets/pay streams its answer) holds one employee's lines at a time instead of the page's.
 */
export function* chargedPayByEmployee(input: PayInput): Generator<ChargedEmployeePay> {
  const { startDate, endDate, mealWaivers = [], isHoliday = NO_HOLIDAYS, minorUnits = DEFAULT_MINOR_UNITS } = input;
  const governing = governingRuleSets(input.ruleSets);
  const timelines = overlapCounts(organizationCalendar(input.ruleSets));
  const closed = input.shifts.filter(isClosed).sort(compareShifts);
  const timeOff = input.timeOff
    .filter((d) => d.date >= startDate && d.date <= endDate && d.hours !== 0)
    .sort((a, b) => compareText(a.employeeId, b.employeeId) || compareText(a.date, b.date));
  const premiums = (input.premiums ?? [])
    .filter((p) => p.date >= startDate && p.date <= endDate)
    .sort((a, b) => compareText(a.employeeId, b.employeeId) || compareText(a.date, b.date) || compareText(a.rule, b.rule));
  const employeeIds = [
    ...new Set([...closed.map((s) => s.employeeId), ...timeOff.map((d) => d.employeeId), ...premiums.map((p) => p.employeeId)]),
  ].sort(compareText);
  let s = 0;
  let t = 0;
  let q = 0;
  for (const employeeId of employeeIds) {
    const from = s;
    while (s < closed.length && closed[s]!.employeeId === employeeId) s++;
    const fromTimeOff = t;
    while (t < timeOff.length && timeOff[t]!.employeeId === employeeId) t++;
    const fromPremiums = q;
    while (q < premiums.length && premiums[q]!.employeeId === employeeId) q++;
    const waived = (date: string) => waivedMealsOn(mealWaivers, employeeId, date);
    const { lines: pending, weeks } = linesAtTheGreaterCount(closed.slice(from, s), governing, timelines, waived, isHoliday);
    const rated = ratedWithOvertime(pending, minorUnits);
    const answered = pending.filter((l) => l.fields.date >= startDate && l.fields.date <= endDate);
    const shiftLines: ChargedLine[] = answered.map((l) => ({ ...rated.made.get(l)!, chargedShiftId: l.chargedShiftId }));
    const timeOffLines: ChargedLine[] = timeOff.slice(fromTimeOff, t).map((d) => ({ ...timeOffLine(d, minorUnits), chargedShiftId: null }));
    const premiumLines: ChargedLine[] = premiums
      .slice(fromPremiums, q)
      .map((p) => ({ ...premiumLine(p, weeks.values(), minorUnits), chargedShiftId: null, chargedLocationId: p.locationId ?? null }));
    const lines = mergeByDate(mergeByDate(shiftLines, timeOffLines), premiumLines);
    if (lines.length === 0) continue;
    const workweeks = [...new Set(answered.map((l) => l.week))]
      .sort((a, b) => a.from - b.from || a.to - b.to)
      .map((week) => workweekOf(week, rated.weeks.get(week), minorUnits));
    const qualified = qualifiedOf(lines);
    const warnings = wageWarnings(closed.slice(from, s), governing, startDate, endDate);
    const warned = warnings.length > 0 ? { warnings } : {};
    yield { pay: { employeeId, ...totalsOf(lines), ...qualified, workweeks, ...warned, lines: lines.map((l) => l.line) }, lines };
  }
}

/** An employee's qualified overtime: Σ of their lines' premiums (through cents) and minutes. */
function qualifiedOf(lines: readonly LineWithCents[]) {
  let cents = 0;
  let minutes = 0;
  for (const { line } of lines) {
    cents += Math.round((line.qualifiedOvertimePremium ?? 0) * 100);
    minutes += line.qualifiedOvertimeMinutes ?? 0;
  }
  return { qualifiedOvertimePremium: centsToAmount(cents), qualifiedOvertimeMinutes: minutes };
}

/** computePay's employees one at a time (chargedPayByEmployee without the charges); their totals: sumPayTotals. */
export function* payByEmployee(input: PayInput): Generator<EmployeePay> {
  for (const employee of chargedPayByEmployee(input)) yield employee.pay;
}

/**
 * Pay lines and totals of every employee for workdays [startDate, endDate]. `shifts` must hold every shift of the
 * workweeks the range touches (payReadWindow: more is harmless): a workweek is computed whole — its classification
 * and its regular rate — and only the lines dated inside the range are answered, so no figure depends on the window.
 * Open shifts are left out. One sort, then one pass per employee.
 */
export function computePay(input: PayInput): PayComputation {
  const employees = computeChargedPay(input).map((e) => e.pay);
  return { startDate: input.startDate, endDate: input.endDate, employees, totals: sumPayTotals(employees) };
}
