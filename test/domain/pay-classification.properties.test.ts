import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays } from "@/domain/local-time";
import { computePay, type PayComputation, type PayShift } from "@/domain/pay-classification";
import { PAY_PRESETS, ROUNDING_INCREMENTS, ROUNDING_MODES, WORKWEEK_DAYS } from "@/domain/pay-rules";
import { payReadStartDate } from "@/domain/pay-workweek";
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

describe("computePay properties", () => {
  it("regular + overtime + double time = the payable minutes (after rounding), as the reference calculator reads them", () => {
    fc.assert(
      fc.property(scenarioArb, ({ shifts, ruleSets }) => {
        const result = computePay({ startDate: FIRST_DAY, endDate: LAST_DAY, shifts, timeOff: [], ruleSets });
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

  it("a later punch never changes (so never lowers) earlier days' figures", () => {
    fc.assert(
      fc.property(scenarioArb, shiftArb, fc.integer({ min: 1, max: 3 }), ({ shifts, ruleSets }, extra, daysLater) => {
        const lastIndex = shifts
          .filter((s) => s.employeeId === extra.employeeId)
          .reduce((max, s) => Math.max(max, dayIndex(s.businessDate)), -1);
        const punched = toShift({ ...extra, day: lastIndex + daysLater }, 9999);
        const endDate = addDays(LAST_DAY, 10);
        const before = computePay({ startDate: FIRST_DAY, endDate, shifts, timeOff: [], ruleSets });
        const after = computePay({ startDate: FIRST_DAY, endDate, shifts: [...shifts, punched], timeOff: [], ruleSets });
        const earlier = addDays(punched.businessDate, -1);
        expect(linesByEmployee(after, FIRST_DAY, earlier)).toEqual(linesByEmployee(before, FIRST_DAY, earlier));
      }),
      { numRuns: 300 },
    );
  });

  it("the lines inside a window equal the same lines computed from a wider window", () => {
    fc.assert(
      fc.property(
        scenarioArb,
        fc.integer({ min: 0, max: DAYS - 1 }),
        fc.integer({ min: 0, max: DAYS - 1 }),
        ({ shifts, ruleSets }, a, b) => {
          const startDate = addDays(FIRST_DAY, Math.min(a, b));
          const endDate = addDays(FIRST_DAY, Math.max(a, b));
          const readFrom = payReadStartDate(startDate, ruleSets);
          const read = shifts.filter((s) => s.businessDate >= readFrom && s.businessDate <= endDate);
          const narrow = computePay({ startDate, endDate, shifts: read, timeOff: [], ruleSets });
          const wide = computePay({ startDate: addDays(FIRST_DAY, -7), endDate: LAST_DAY, shifts, timeOff: [], ruleSets });
          expect(linesByEmployee(narrow, startDate, endDate)).toEqual(linesByEmployee(wide, startDate, endDate));
          expect(readFrom >= addDays(startDate, -6)).toBe(true);
        },
      ),
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
    expect(result.employees.reduce((n, e) => n + new Set(e.lines.map((l) => l.shiftId)).size, 0)).toBe(5000);
  });
});
