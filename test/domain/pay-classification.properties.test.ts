import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays } from "@/domain/local-time";
import { organizationCalendar, workweekOverlaps } from "@/domain/pay-calendar";
import { computePay, type PayComputation, type PayShift } from "@/domain/pay-classification";
import { AWARD_KINDS } from "@/domain/pay-lines";
import { PAY_PRESETS, type PayRuleSet, ROUNDING_INCREMENTS, ROUNDING_MODES, WORKWEEK_DAYS } from "@/domain/pay-rules";
import { payReadWindow } from "@/domain/pay-workweek";
import { payShift, ruleSet, unpaidBreak } from "../helpers/pay-fixtures";
import { referencePayable, referenceRules } from "../helpers/pay-reference";

const FIRST_DAY = "2026-05-25";
const DAYS = 21;
const LAST_DAY = addDays(FIRST_DAY, DAYS - 1);
const dayIndex = (date: string) => Math.round((Date.parse(date) - Date.parse(FIRST_DAY)) / 86_400_000);
const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

const shiftArb = fc.record({
  employeeId: fc.constantFrom("emp_a", "emp_b"),
  locationId: fc.constantFrom("loc_1", "loc_2"),
  day: fc.integer({ min: 0, max: DAYS - 1 }),
  start: fc.integer({ min: 0, max: 1439 }),
  minutes: fc.integer({ min: 0, max: 900 }),
  breakAt: fc.option(fc.record({ after: fc.integer({ min: 0, max: 600 }), length: fc.integer({ min: 1, max: 60 }), paid: fc.boolean() })),
  wage: fc.option(
    fc.integer({ min: 0, max: 5000 }).map((cents) => cents / 100),
    { freq: 5 },
  ),
});

const ruleSetArb = fc.record({
  preset: fc.constantFrom(...PAY_PRESETS),
  locationId: fc.constantFrom(null, "loc_1"),
  effectiveDay: fc.integer({ min: -7, max: DAYS - 1 }),
  workweekStartsOn: fc.constantFrom(...WORKWEEK_DAYS),
  workdayStartsAt: fc.constantFrom("00:00", "04:00", "22:30"),
  daily: fc.option(fc.integer({ min: 0, max: 720 })),
  doubleExtra: fc.option(fc.integer({ min: 0, max: 480 })),
  weekly: fc.option(fc.integer({ min: 0, max: 3000 })),
  seventh: fc.boolean(),
  incrementMinutes: fc.constantFrom(...ROUNDING_INCREMENTS),
  mode: fc.constantFrom(...ROUNDING_MODES),
});

type Value<A> = A extends fc.Arbitrary<infer T> ? T : never;
type ShiftSpec = Value<typeof shiftArb>;
type SetSpec = Value<typeof ruleSetArb>;

const toShift = (spec: ShiftSpec, index: number): PayShift => {
  const date = addDays(FIRST_DAY, spec.day);
  const shift = payShift(date, hhmm(spec.start), spec.minutes, {
    id: `shf_${index}`,
    employeeId: spec.employeeId,
    locationId: spec.locationId,
    hourlyWage: spec.wage,
  });
  if (!spec.breakAt || spec.breakAt.after >= spec.minutes) return shift;
  const breakStart = new Date(shift.startTime.getTime() + spec.breakAt.after * 60_000);
  const breakSpan = unpaidBreak(breakStart.toISOString().slice(0, 10), breakStart.toISOString().slice(11, 16), spec.breakAt.length, {
    paid: spec.breakAt.paid,
  });
  return { ...shift, breaks: [breakSpan] };
};

const toRuleSet = (spec: SetSpec, index: number) =>
  ruleSet(`prs_${index}`, spec.preset, {
    locationId: spec.locationId,
    effectiveFrom: addDays(FIRST_DAY, spec.effectiveDay),
    workweekStartsOn: spec.workweekStartsOn,
    workdayStartsAt: spec.workdayStartsAt,
    rounding: { incrementMinutes: spec.incrementMinutes, mode: spec.mode },
    ...(spec.preset === "CUSTOM"
      ? {
          dailyOvertimeAfterMinutes: spec.daily,
          dailyDoubleTimeAfterMinutes: spec.daily === null || spec.doubleExtra === null ? null : spec.daily + spec.doubleExtra,
          weeklyOvertimeAfterMinutes: spec.weekly,
          seventhConsecutiveDay: spec.seventh,
        }
      : {}),
  });

const scenarioArb = fc.record({
  // Scattered shifts, and (often) a run of one shift a day so that seventh consecutive days occur.
  shifts: fc
    .tuple(fc.array(shiftArb, { maxLength: 30 }), fc.option(fc.array(shiftArb, { minLength: DAYS, maxLength: DAYS }), { freq: 2 }))
    .map(([scattered, run]) =>
      [...scattered, ...(run ?? []).map((spec, day) => ({ ...spec, employeeId: "emp_a" as const, day }))].map(toShift),
    ),
  ruleSets: fc.array(ruleSetArb, { maxLength: 3 }).map((specs) => specs.map(toRuleSet)),
});

const linesByEmployee = (result: PayComputation, from: string, to: string) =>
  Object.fromEntries(
    result.employees
      .map((e) => [e.employeeId, e.lines.filter((l) => l.date >= from && l.date <= to)] as const)
      .filter(([, lines]) => lines.length > 0),
  );

/** A scenario and a range of its days. */
const windowedArb = fc
  .tuple(scenarioArb, fc.integer({ min: 0, max: DAYS - 1 }), fc.integer({ min: 0, max: DAYS - 1 }))
  .map(([scenario, a, b]) => ({
    ...scenario,
    startDate: addDays(FIRST_DAY, Math.min(a, b)),
    endDate: addDays(FIRST_DAY, Math.max(a, b)),
  }));

/** Pay of the range from only the shifts the pay read would fetch for it (its whole workweeks and the days around). */
function payOfWindow(shifts: PayShift[], ruleSets: PayRuleSet[], startDate: string, endDate: string): PayComputation {
  const window = payReadWindow(startDate, endDate);
  const read = shifts.filter((s) => s.businessDate >= window.from && s.businessDate <= window.to);
  return computePay({ startDate, endDate, shifts: read, timeOff: [], ruleSets });
}

const earliest = (a: string, b: string) => (a < b ? a : b);

/**
 * The last date a later punch leaves alone at a change of workweek: the overlap is counted the greater way over the
 * old and the new week (29 CFR 778.302), so a punch before the new week ends may recount the days from the old
 * week's start (a late workday start puts its first line on the date before).
 */
function recountedFrom(ruleSets: readonly PayRuleSet[], punched: PayShift): string {
  let date = "9999-12-31";
  for (const overlap of workweekOverlaps(organizationCalendar(ruleSets))) {
    if (punched.startTime.getTime() >= overlap.newTo) continue;
    date = earliest(date, addDays(new Date(overlap.oldFrom).toISOString().slice(0, 10), -2));
  }
  return date;
}

describe("computePay properties", () => {
  it("regular + overtime + double time = the payable minutes (after rounding), as the reference calculator reads them", () => {
    fc.assert(
      fc.property(scenarioArb, ({ shifts, ruleSets: drawn }) => {
        // Workdays from midnight, so a shift's workday is its business date, as the reference reads the set in force;
        // the properties below cover other workday starts.
        const ruleSets = drawn.map((set) => ({ ...set, workdayStartsAt: "00:00" }));
        // A shift may run past the last day's end: its minutes count on the next workday.
        const result = computePay({ startDate: addDays(FIRST_DAY, -1), endDate: addDays(LAST_DAY, 2), shifts, timeOff: [], ruleSets });
        for (const employeeId of ["emp_a", "emp_b"]) {
          const employee = result.employees.find((e) => e.employeeId === employeeId);
          const classified = (employee?.regularMinutes ?? 0) + (employee?.overtimeMinutes ?? 0) + (employee?.doubleTimeMinutes ?? 0);
          const payable = shifts
            .filter((s) => s.employeeId === employeeId)
            .reduce(
              (sum, s) => sum + referencePayable({ ...s, endTime: s.endTime! }, referenceRules(ruleSets, s.locationId, s.businessDate)),
              0,
            );
          expect(classified).toBe(payable);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("grossPay is the sum of the lines' amounts, to the cent", () => {
    fc.assert(
      fc.property(scenarioArb, ({ shifts, ruleSets }) => {
        const result = computePay({ startDate: FIRST_DAY, endDate: LAST_DAY, shifts, timeOff: [], ruleSets });
        for (const employee of result.employees) {
          const cents = employee.lines.reduce((sum, l) => sum + Math.round((l.amount ?? 0) * 100), 0);
          expect(Math.round(employee.grossPay * 100)).toBe(cents);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("a later punch never changes earlier days' minutes, nor any figure of an earlier workweek", () => {
    fc.assert(
      fc.property(scenarioArb, shiftArb, fc.integer({ min: 1, max: 3 }), ({ shifts, ruleSets }, extra, daysLater) => {
        const lastIndex = shifts
          .filter((s) => s.employeeId === extra.employeeId)
          .reduce((max, s) => Math.max(max, dayIndex(s.businessDate)), -1);
        const punched = toShift({ ...extra, day: lastIndex + daysLater }, 9999);
        const endDate = addDays(LAST_DAY, 10);
        const before = computePay({ startDate: FIRST_DAY, endDate, shifts, timeOff: [], ruleSets });
        const after = computePay({ startDate: FIRST_DAY, endDate, shifts: [...shifts, punched], timeOff: [], ruleSets });
        // Until its workweek ends, a later shift may change the regular rate of the week's earlier overtime.
        const reached = recountedFrom(ruleSets, punched);
        const minutesOf = (result: PayComputation) =>
          Object.fromEntries(
            Object.entries(linesByEmployee(result, FIRST_DAY, earliest(addDays(punched.businessDate, -2), reached))).map(([id, lines]) => [
              id,
              lines.map((l) => [l.date, l.shiftId, l.kind, l.rule, l.minutes, l.ruleSetId]),
            ]),
          );
        expect(minutesOf(after)).toEqual(minutesOf(before));
        const earlierWeeks = earliest(addDays(punched.businessDate, -9), reached);
        expect(linesByEmployee(after, FIRST_DAY, earlierWeeks)).toEqual(linesByEmployee(before, FIRST_DAY, earlierWeeks));
      }),
      { numRuns: 300 },
    );
  });

  it("the lines inside a window equal the same lines computed from a wider window", () => {
    fc.assert(
      fc.property(windowedArb, ({ shifts, ruleSets, startDate, endDate }) => {
        const narrow = payOfWindow(shifts, ruleSets, startDate, endDate);
        const wide = computePay({ startDate: addDays(FIRST_DAY, -7), endDate: LAST_DAY, shifts, timeOff: [], ruleSets });
        expect(linesByEmployee(narrow, startDate, endDate)).toEqual(linesByEmployee(wide, startDate, endDate));
      }),
      { numRuns: 300 },
    );
  });
});

describe("computePay properties: pay you can defend", () => {
  // Every workweek whole: the range reaches well past the first and last shift.
  const WIDE = { startDate: addDays(FIRST_DAY, -10), endDate: addDays(LAST_DAY, 10) };
  /**
   * One timeline for everyone (organization-wide sets), so workweeks never overlap; workdays from midnight, as
   * without any set, so no workday is cut by a change of workweek and no date is in two workweeks.
   */
  const orgWide = (ruleSets: PayRuleSet[]) =>
    ruleSets.map((set, i) => ({
      ...set,
      locationId: null,
      effectiveFrom: addDays(set.effectiveFrom, i),
      workdayStartsAt: "00:00",
    }));
  const cents = (amount: number | null) => Math.round((amount ?? 0) * 100);
  const days = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

  it("every total is the sum of its lines, to the cent: employees' figures and the overall totals", () => {
    fc.assert(
      fc.property(scenarioArb, ({ shifts, ruleSets }) => {
        const result = computePay({ ...WIDE, shifts, timeOff: [], ruleSets });
        const sum = { regularMinutes: 0, overtimeMinutes: 0, doubleTimeMinutes: 0, grossCents: 0 };
        for (const employee of result.employees) {
          const of = (kind: string) => employee.lines.filter((l) => l.kind === kind).reduce((n, l) => n + l.minutes, 0);
          expect([employee.regularMinutes, employee.overtimeMinutes, employee.doubleTimeMinutes]).toEqual([
            of("REGULAR"),
            of("OVERTIME"),
            of("DOUBLE_TIME"),
          ]);
          expect(cents(employee.grossPay)).toBe(employee.lines.reduce((n, l) => n + cents(l.amount), 0));
          for (const line of employee.lines) {
            // amount = minutes ÷ 60 × the exact rate, rounded once; the rate is shown to 4 decimals (±0.00005 an hour),
            // so re-added from what it shows the amount is within half a cent plus that much per hour.
            if (line.rate !== null)
              expect(Math.abs(cents(line.amount) - (line.minutes * line.rate * 100) / 60)).toBeLessThanOrEqual(
                0.5 + (line.minutes / 60) * 0.005 + 1e-9,
              );
          }
          sum.regularMinutes += employee.regularMinutes;
          sum.overtimeMinutes += employee.overtimeMinutes;
          sum.doubleTimeMinutes += employee.doubleTimeMinutes;
          sum.grossCents += cents(employee.grossPay);
        }
        expect(result.totals).toMatchObject({
          regularMinutes: sum.regularMinutes,
          overtimeMinutes: sum.overtimeMinutes,
          doubleTimeMinutes: sum.doubleTimeMinutes,
        });
        expect(cents(result.totals.grossPay)).toBe(sum.grossCents);
      }),
      { numRuns: 200 },
    );
  });

  it("straight time + premium = gross: each workweek's straight-time pay, plus (multiplier − 1) × its regular rate per overtime hour and its regular rate per penalty hour", () => {
    fc.assert(
      fc.property(scenarioArb, ({ shifts, ruleSets: sets }) => {
        const ruleSets = orgWide(sets);
        const byId = new Map(ruleSets.map((set) => [set.id, set]));
        const result = computePay({ ...WIDE, shifts, timeOff: [], ruleSets });
        for (const employee of result.employees) {
          const weekOf = (date: string) => employee.workweeks.find((w) => w.startDate <= date && date <= w.endDate)!;
          let expected = employee.workweeks.reduce((n, w) => n + (w.straightTimePay ?? 0), 0);
          let hours = 0;
          for (const line of employee.lines) {
            // An award's line is paid at its share of the wage, not from the regular rate: it adds its own amount.
            if (AWARD_KINDS.includes(line.kind)) {
              expected += line.amount ?? 0;
              continue;
            }
            hours += line.minutes / 60;
            const regularRate = weekOf(line.date).regularRate ?? 0;
            if (line.kind === "MEAL_PENALTY") expected += (line.minutes / 60) * regularRate;
            if (line.rate === null || (line.kind !== "OVERTIME" && line.kind !== "DOUBLE_TIME")) continue;
            const set = line.ruleSetId === null ? null : byId.get(line.ruleSetId)!;
            const multiplier = line.kind === "OVERTIME" ? (set?.overtimeMultiplier ?? 1.5) : (set?.doubleTimeMultiplier ?? 2);
            expected += (line.minutes / 60) * (multiplier - 1) * regularRate;
          }
          // Each line and each workweek rounds once to the cent; rates and regular rates to 4 decimals.
          const tolerance = 0.006 * (employee.lines.length + employee.workweeks.length) + 0.0002 * hours;
          expect(Math.abs(employee.grossPay - expected)).toBeLessThanOrEqual(tolerance);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("splitting a shift at any minute never changes a workweek's minutes", () => {
    fc.assert(
      fc.property(scenarioArb, fc.nat(), fc.integer({ min: 1, max: 899 }), ({ shifts, ruleSets: sets }, pick, at) => {
        // At a change of workweek the weeks owed depend on the amounts (29 CFR 778.302: the greater of two counts, and
        // a split can change them: a meal owed in one workday is not owed in two), and a split dates its second half
        // anew, which can put it under another set's rates: the property is about one calendar, so the first set
        // takes effect three weeks before any shift (the change from the default calendar is then no one's).
        const wide = orgWide(sets);
        const first = wide.reduce<(typeof wide)[number] | null>((a, b) => (a === null || b.effectiveFrom < a.effectiveFrom ? b : a), null);
        const ruleSets = wide.map((set) => ({
          ...set,
          effectiveFrom: set === first ? addDays(FIRST_DAY, -21) : set.effectiveFrom,
          rounding: { incrementMinutes: 0, mode: "NEAREST" as const },
        }));
        fc.pre(new Set(ruleSets.map((set) => `${set.workweekStartsOn} ${set.workdayStartsAt}`)).size === 1);
        const candidates = shifts.filter((s) => s.breaks.length === 0 && s.endTime!.getTime() - s.startTime.getTime() > at * 60_000);
        fc.pre(candidates.length > 0);
        const whole = candidates[pick % candidates.length]!;
        const cut = new Date(whole.startTime.getTime() + at * 60_000);
        const halves = [
          { ...whole, id: `${whole.id}_a`, endTime: cut },
          { ...whole, id: `${whole.id}_b`, startTime: cut, businessDate: cut.toISOString().slice(0, 10) },
        ];
        const weeks = (list: PayShift[]) =>
          computePay({ ...WIDE, shifts: list, timeOff: [], ruleSets }).employees.map((e) => [
            e.employeeId,
            e.workweeks.map((w) => [w.startDate, w.endDate, w.minutes]),
          ]);
        expect(weeks([...shifts.filter((s) => s !== whole), ...halves])).toEqual(weeks(shifts));
      }),
      { numRuns: 300 },
    );
  });

  it("no hour leaves the seven-day window it was worked in: workweeks of at most 7 days, in order, holding every line", () => {
    fc.assert(
      fc.property(scenarioArb, ({ shifts, ruleSets: sets }) => {
        const ruleSets = orgWide(sets);
        for (const employee of computePay({ ...WIDE, shifts, timeOff: [], ruleSets }).employees) {
          employee.workweeks.forEach((week, i) => {
            expect(days(week.startDate, week.endDate)).toBeGreaterThanOrEqual(0);
            expect(days(week.startDate, week.endDate)).toBeLessThanOrEqual(6);
            if (i > 0) expect(week.startDate >= employee.workweeks[i - 1]!.endDate).toBe(true);
          });
          const worked = employee.lines
            .filter((l) => l.kind !== "MEAL_PENALTY" && !AWARD_KINDS.includes(l.kind))
            .reduce((n, l) => n + l.minutes, 0);
          expect(employee.workweeks.reduce((n, w) => n + w.minutes, 0)).toBe(worked);
          for (const line of employee.lines)
            expect(employee.workweeks.some((w) => w.startDate <= line.date && line.date <= w.endDate)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("the workweeks answered never depend on the window: a week the range cuts reads as it does whole", () => {
    fc.assert(
      fc.property(windowedArb, ({ shifts, ruleSets, startDate, endDate }) => {
        const narrow = payOfWindow(shifts, ruleSets, startDate, endDate);
        const wide = computePay({ ...WIDE, shifts, timeOff: [], ruleSets });
        for (const employee of narrow.employees) {
          const all = wide.employees.find((e) => e.employeeId === employee.employeeId)!;
          for (const week of employee.workweeks) expect(all.workweeks).toContainEqual(week);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("computePay at scale", () => {
  it("5,000 shifts (500 staff × 2 weeks): every employee and every shift answered", () => {
    const shifts: PayShift[] = [];
    for (let e = 0; e < 500; e++) {
      for (let d = 0; d < 10; d++) {
        const date = addDays("2026-06-01", d < 5 ? d : d + 2);
        shifts.push(
          payShift(date, "08:00", 540 + (e % 5) * 30, {
            id: `shf_${e}_${d}`,
            employeeId: `emp_${String(e).padStart(3, "0")}`,
            breaks: [unpaidBreak(date, "12:00", 30)],
          }),
        );
      }
    }
    // How long it takes is a figure of the bench (bench/pay-classification.ts), not a test's assertion.
    const result = computePay({
      startDate: "2026-06-01",
      endDate: "2026-06-14",
      shifts,
      timeOff: [],
      ruleSets: [ruleSet("prs_ca", "CALIFORNIA")],
    });
    expect(result.employees).toHaveLength(500);
    // Shift lines only: a day over 600 minutes also earns a MEAL_PENALTY line (shiftId null) for its second meal.
    expect(result.employees.reduce((n, e) => n + new Set(e.lines.flatMap((l) => (l.shiftId ? [l.shiftId] : []))).size, 0)).toBe(5000);
  });
});
