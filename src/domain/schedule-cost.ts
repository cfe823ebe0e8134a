import { addDays, businessDate, offsetMinutesAt } from "./local-time";
import { centsToAmount, roundTo } from "./pay-amounts";
import type { ChargedEmployeePay, ChargedLine } from "./pay-classification";
import type { StoredShiftForPay } from "./pay-shift";
import { type BreakRule, breakSettingsOf, closeShift, type ShiftBreak } from "./shift-totals";
import { isSalaried } from "./shift-wage";
import { resolveWage, type WageRateRow } from "./wage-rate";

/* Schedule cost: the pay engine over each workweek's worked shifts plus the schedule entries still to come. */

/** The longest range one schedule cost read covers (both dates counted). */
export const MAX_SCHEDULE_COST_DAYS = 31;

const MINUTE_MS = 60_000;

/** A break type as an entry names it: where it is due, how long, paid or not, at which location. */
export interface PlannedBreakType extends BreakRule {
  paid: boolean;
  locationId: string;
}

/** A live schedule entry: UTC instants, the offset at its start, the break types it plans. */
export interface ScheduledEntry {
  id: string;
  employeeId: string;
  locationId: string;
  roleId: string;
  startAt: Date;
  endAt: Date;
  utcOffset: number;
  breakTypeIds: readonly string[];
}

/** A break as shifts.breaks_json keeps it (epoch milliseconds), with its type when it had one. */
export type StoredBreak = StoredShiftForPay["breaks"][number] & { typeId?: string | null };

/** A stored shift as pay reads it, open (endAt null) or closed. */
export type WorkedShift = StoredShiftForPay & { breaks: readonly StoredBreak[] };

/**
 * The breaks of a planned shift: each break type the entry names is taken where its type makes it due, at start +
 * frequencyMinutes, moved earlier so that it ends by the shift's end and later so that it starts after the previous
 * one (in due order), lasting its durationMinutes (cut at the end). A name that is no break type is left out.
 */
export function plannedBreaks(start: Date, end: Date, named: readonly PlannedBreakType[]): ShiftBreak[] {
  const startMs = start.getTime();
  const endMs = end.getTime();
  const breaks: ShiftBreak[] = [];
  let free = startMs;
  for (const type of [...named].sort((a, b) => a.frequencyMinutes - b.frequencyMinutes)) {
    const due = startMs + type.frequencyMinutes * MINUTE_MS;
    const latest = endMs - type.durationMinutes * MINUTE_MS;
    const at = Math.max(free, startMs, Math.min(due, latest));
    const until = Math.min(endMs, at + type.durationMinutes * MINUTE_MS);
    if (until <= at) continue;
    breaks.push({ ...breakSettingsOf(type), startTime: new Date(at), endTime: new Date(until), automatic: false });
    free = until;
  }
  return breaks;
}

const storedBreak = (b: ShiftBreak): StoredBreak => ({
  startAt: b.startTime.getTime(),
  endAt: b.endTime === null ? null : b.endTime.getTime(),
  paid: b.paid,
  automatic: b.automatic === true,
  durationInSettingsMinutes: b.durationInSettingsMinutes,
  typeId: b.typeId,
});

const domainBreak = (b: StoredBreak): ShiftBreak => ({
  startTime: new Date(b.startAt),
  endTime: b.endAt === null ? null : new Date(b.endAt),
  paid: b.paid,
  automatic: b.automatic,
  durationInSettingsMinutes: b.durationInSettingsMinutes,
  typeId: b.typeId ?? null,
  name: "",
  mandatory: false,
  frequencyMinutes: 0,
});

/** What resolving an entry's wage reads: the staff member's rates, the roles' and staff members' wages. */
export interface WageSources {
  rates: ReadonlyMap<string, readonly WageRateRow[]>;
  roles: ReadonlyMap<string, { hourlyWage: number | null }>;
  staff: ReadonlyMap<string, { hourlyWage: number | null; wageType: string | null }>;
}

/**
 * The wage an entry would be paid at, resolved as a clock-in on its start date would (domain/wage-rate: the most
 * specific rate effective that day, else the role's wage, else the staff member's); null for a salaried staff member.
 */
export function entryWage(entry: ScheduledEntry, date: string, sources: WageSources): number | null {
  const staff = sources.staff.get(entry.employeeId);
  if (isSalaried(staff)) return null;
  const role = sources.roles.get(entry.roleId);
  const on = { roleId: entry.roleId, locationId: entry.locationId, date };
  return resolveWage(sources.rates.get(entry.employeeId) ?? [], on, role, staff).hourlyRate;
}

/**
 * An entry as the shift it plans: its start and end, its breaks (plannedBreaks) closed as a clock-out closes a shift
 * (closeShift: a mandatory break type it does not plan is not deducted, as it would not be at clock-out), its wage.
 */
export function plannedShift(entry: ScheduledEntry, typesAtLocation: readonly PlannedBreakType[], wage: number | null): WorkedShift {
  const named = entry.breakTypeIds.flatMap((id) => typesAtLocation.filter((t) => t.id === id));
  const breaks = plannedBreaks(entry.startAt, entry.endAt, named);
  const closed = closeShift({ start: entry.startAt, end: entry.endAt, breaks });
  return {
    id: entry.id,
    employeeId: entry.employeeId,
    locationId: entry.locationId,
    businessDate: businessDate(entry.startAt, entry.utcOffset),
    startAt: entry.startAt,
    endAt: entry.endAt,
    utcOffset: entry.utcOffset,
    hourlyWage: wage,
    breaks: closed.breaks.map(storedBreak),
  };
}

const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start < b.end && a.end > b.start;

/**
 * An open shift as it is expected to close: at the later of `now` and the planned end of the entries it covers
 * (those of its staff member overlapping it so far, [start, now]); its open break ends at the later of now and the
 * break's planned length; as at clock-out, a break not taken is not deducted.
 */
function projectedOpenShift(shift: WorkedShift, covered: readonly ScheduledEntry[], now: number) {
  const end = Math.max(now, shift.startAt.getTime(), ...covered.map((e) => e.endAt.getTime()));
  const breaks = shift.breaks
    .map(domainBreak)
    .map((b) =>
      b.endTime === null
        ? { ...b, endTime: new Date(Math.min(end, Math.max(now, b.startTime.getTime() + b.durationInSettingsMinutes * MINUTE_MS))) }
        : b,
    );
  const closed = closeShift({ start: shift.startAt, end: new Date(end), breaks });
  return { ...shift, endAt: new Date(end), breaks: closed.breaks.map(storedBreak) };
}

/**
 * The shifts a projection classifies, at instant `now`: every closed shift as worked; every open shift as it is
 * expected to close (projectedOpenShift); and every entry not yet represented by a shift — no closed shift of its
 * staff member overlaps its planned span and no open shift covers it — whose planned end is still to come (an entry
 * under way without a clock-in still counts whole; one that ended without a shift counts nothing). Entries come as
 * the shifts they plan (plannedShift), with their wages (entryWage).
 */
export function projectedShifts(input: {
  now: Date;
  shifts: readonly WorkedShift[];
  entries: readonly ScheduledEntry[];
  breakTypes: readonly PlannedBreakType[];
  wages: WageSources;
}): WorkedShift[] {
  const now = input.now.getTime();
  const typesAt = (locationId: string) => input.breakTypes.filter((t) => t.locationId === locationId);
  const entriesOf = new Map<string, ScheduledEntry[]>();
  for (const entry of input.entries) entriesOf.set(entry.employeeId, [...(entriesOf.get(entry.employeeId) ?? []), entry]);
  const represented = new Set<string>();
  const out: WorkedShift[] = [];
  for (const shift of input.shifts) {
    const start = shift.startAt.getTime();
    const span = { start, end: shift.endAt === null ? Math.max(now, start + 1) : shift.endAt.getTime() };
    const covered = (entriesOf.get(shift.employeeId) ?? []).filter((e) =>
      overlaps(span, { start: e.startAt.getTime(), end: e.endAt.getTime() }),
    );
    for (const entry of covered) represented.add(entry.id);
    out.push(shift.endAt === null ? projectedOpenShift(shift, covered, now) : shift);
  }
  for (const entry of input.entries) {
    if (represented.has(entry.id) || entry.endAt.getTime() <= now) continue;
    const date = businessDate(entry.startAt, entry.utcOffset);
    out.push(plannedShift(entry, typesAt(entry.locationId), entryWage(entry, date, input.wages)));
  }
  return out;
}

/** A location's labor targets, each null until set. */
export interface LaborTargets {
  laborPercent: number | null;
  salesPerLaborHour: number | null;
}

export interface ScheduleCostFigures {
  scheduledMinutes: number;
  regularMinutes: number;
  overtimeMinutes: number;
  doubleTimeMinutes: number;
  penaltyHours: number;
  /** Fair Workweek premiums (PREDICTABILITY and REST lines), to the cent: part of laborCost. */
  premiumAmount: number;
  laborCost: number;
  sales: number | null;
  laborPercent: number | null;
  salesPerLaborHour: number | null;
  /** Labor % above its target or sales per labor hour below its; null without sales or without a target. */
  overTarget: boolean | null;
}

export type ScheduleCostDay = ScheduleCostFigures & { date: string };

/** Forecast sales by the local date (in `timeZone`) of each interval's start, to the cent. */
export function salesByDate(intervals: readonly { startAt: number; value: number }[], timeZone: string): Map<string, number> {
  const sums = new Map<string, number>();
  for (const interval of intervals) {
    const at = new Date(interval.startAt);
    const date = businessDate(at, offsetMinutesAt(timeZone, at));
    sums.set(date, (sums.get(date) ?? 0) + interval.value);
  }
  return new Map([...sums].map(([date, sum]) => [date, roundTo(sum, 2)]));
}

interface Accumulator {
  regularMinutes: number;
  overtimeMinutes: number;
  doubleTimeMinutes: number;
  penaltyHours: number;
  premiumCents: number;
  cents: number;
  sales: number | null;
}

const empty = (): Accumulator => ({
  regularMinutes: 0,
  overtimeMinutes: 0,
  doubleTimeMinutes: 0,
  penaltyHours: 0,
  premiumCents: 0,
  cents: 0,
  sales: null,
});

const isPremium = (kind: string) => kind === "PREDICTABILITY" || kind === "REST";

function add(into: Accumulator, { line, cents }: ChargedLine): void {
  if (line.kind === "REGULAR") into.regularMinutes += line.minutes;
  else if (line.kind === "OVERTIME") into.overtimeMinutes += line.minutes;
  else if (line.kind === "DOUBLE_TIME") into.doubleTimeMinutes += line.minutes;
  else if (isPremium(line.kind)) into.premiumCents += cents ?? 0;
  // Meal penalties only, as pay's totals count them: an award's or a state's lines (PENALTY, HOLIDAY…) are money.
  else if (line.kind === "MEAL_PENALTY") into.penaltyHours += line.hours;
  into.cents += cents ?? 0;
}

function figuresOf(sum: Accumulator, targets: LaborTargets): ScheduleCostFigures {
  const scheduledMinutes = sum.regularMinutes + sum.overtimeMinutes + sum.doubleTimeMinutes;
  const laborCost = centsToAmount(sum.cents);
  const sales = sum.sales;
  const laborPercent = sales ? roundTo((laborCost / sales) * 100, 2) : null;
  const salesPerLaborHour = sales !== null && scheduledMinutes > 0 ? roundTo(sales / (scheduledMinutes / 60), 2) : null;
  const checks = [
    laborPercent !== null && targets.laborPercent !== null ? laborPercent > targets.laborPercent : null,
    salesPerLaborHour !== null && targets.salesPerLaborHour !== null ? salesPerLaborHour < targets.salesPerLaborHour : null,
  ].filter((c): c is boolean => c !== null);
  return {
    scheduledMinutes,
    regularMinutes: sum.regularMinutes,
    overtimeMinutes: sum.overtimeMinutes,
    doubleTimeMinutes: sum.doubleTimeMinutes,
    penaltyHours: roundTo(sum.penaltyHours, 4),
    premiumAmount: centsToAmount(sum.premiumCents),
    laborCost,
    sales,
    laborPercent,
    salesPerLaborHour,
    overTarget: checks.length === 0 ? null : checks.some(Boolean),
  };
}

/**
 * The location's figures per date of [startDate, endDate] and in total, from the charged lines of a pay computation
 * of the projected shifts (computeChargedPay): the lines charged to a shift or planned entry at `locationId` — its
 * own minutes, and a meal penalty where the day passed the rule, as labor cost charges them; laborCost sums the
 * lines' cents, as grossPay does. Time off is charged to no shift: it is not counted. Premium lines (PREDICTABILITY,
 * REST) are charged to no shift either: the computation is given only the location's premiums, so each counts here,
 * in premiumAmount and laborCost.
 */
export function scheduleCost(input: {
  employees: readonly ChargedEmployeePay[];
  startDate: string;
  endDate: string;
  locationId: string;
  /** Every shift and planned entry the computation classified, with its location. */
  shifts: readonly { id: string; locationId: string }[];
  sales: ReadonlyMap<string, number>;
  targets: LaborTargets;
}): { dates: ScheduleCostDay[]; totals: ScheduleCostFigures } {
  const locationOf = new Map(input.shifts.map((s) => [s.id, s.locationId]));
  const days = new Map<string, Accumulator>();
  for (let date = input.startDate; date <= input.endDate; date = addDays(date, 1)) days.set(date, empty());
  for (const employee of input.employees) {
    for (const charged of employee.lines) {
      const day = days.get(charged.line.date);
      if (!day) continue;
      const here = charged.chargedShiftId !== null && locationOf.get(charged.chargedShiftId) === input.locationId;
      if (here || (charged.chargedShiftId === null && isPremium(charged.line.kind))) add(day, charged);
    }
  }
  const total = empty();
  for (const [date, day] of days) {
    day.sales = input.sales.get(date) ?? null;
    total.regularMinutes += day.regularMinutes;
    total.overtimeMinutes += day.overtimeMinutes;
    total.doubleTimeMinutes += day.doubleTimeMinutes;
    total.penaltyHours += day.penaltyHours;
    total.premiumCents += day.premiumCents;
    total.cents += day.cents;
    if (day.sales !== null) total.sales = roundTo((total.sales ?? 0) + day.sales, 2);
  }
  return {
    dates: [...days].map(([date, day]) => ({ date, ...figuresOf(day, input.targets) })),
    totals: figuresOf(total, input.targets),
  };
}
