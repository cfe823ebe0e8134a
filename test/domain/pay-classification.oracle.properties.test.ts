import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays } from "@/domain/local-time";
import { computePay } from "@/domain/pay-classification";
import { ROUNDING_INCREMENTS, ROUNDING_MODES, WORKWEEK_DAYS } from "@/domain/pay-rules";
import { payShift, ruleSet, unpaidBreak } from "../helpers/pay-fixtures";
import { referenceClassification } from "../helpers/pay-reference";

const FIRST_DAY = "2026-05-25";
const DAYS = 21;
const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

/** Shifts inside one local day (a workday whatever its boundary rules), with an optional break, paid or not. */
const shiftArb = fc
  .record({
    employeeId: fc.constantFrom("emp_a", "emp_b"),
    locationId: fc.constantFrom("loc_1", "loc_2"),
    day: fc.integer({ min: 0, max: DAYS - 1 }),
    start: fc.integer({ min: 0, max: 1380 }),
    minutes: fc.integer({ min: 0, max: 900 }),
    breakAt: fc.option(fc.record({ after: fc.integer({ min: 0, max: 600 }), length: fc.integer({ min: 1, max: 60 }), paid: fc.boolean() })),
  })
  .map((spec) => {
    const minutes = Math.min(spec.minutes, 1439 - spec.start);
    const date = addDays(FIRST_DAY, spec.day);
    const shift = payShift(date, hhmm(spec.start), minutes, { employeeId: spec.employeeId, locationId: spec.locationId });
    if (!spec.breakAt || spec.breakAt.after + spec.breakAt.length > minutes) return shift;
    return {
      ...shift,
      breaks: [unpaidBreak(date, hhmm(spec.start + spec.breakAt.after), spec.breakAt.length, { paid: spec.breakAt.paid })],
    };
  });

const rulesArb = fc.record({
  workweekStartsOn: fc.constantFrom(...WORKWEEK_DAYS),
  daily: fc.option(fc.integer({ min: 0, max: 720 })),
  doubleExtra: fc.option(fc.integer({ min: 0, max: 480 })),
  weekly: fc.option(fc.integer({ min: 0, max: 3000 })),
  incrementMinutes: fc.constantFrom(...ROUNDING_INCREMENTS),
  mode: fc.constantFrom(...ROUNDING_MODES),
});

describe("computePay against the reference calculator (test/helpers/pay-reference.ts)", () => {
  it("regular, overtime and double-time minutes per employee and workday are what the rules say", () => {
    fc.assert(
      fc.property(fc.array(shiftArb, { maxLength: 40 }), rulesArb, (shifts, spec) => {
        const set = ruleSet("prs_1", "CUSTOM", {
          workweekStartsOn: spec.workweekStartsOn,
          dailyOvertimeAfterMinutes: spec.daily,
          dailyDoubleTimeAfterMinutes: spec.daily === null || spec.doubleExtra === null ? null : spec.daily + spec.doubleExtra,
          weeklyOvertimeAfterMinutes: spec.weekly,
          seventhConsecutiveDay: false,
          mealBreaks: [],
          rounding: { incrementMinutes: spec.incrementMinutes, mode: spec.mode },
        });
        // Whole workweeks either side, so that no figure depends on the window.
        const result = computePay({
          startDate: addDays(FIRST_DAY, -7),
          endDate: addDays(FIRST_DAY, DAYS + 7),
          shifts,
          timeOff: [],
          ruleSets: [set],
        });
        const engine: Record<string, Record<string, [number, number, number]>> = {};
        for (const employee of result.employees) {
          for (const line of employee.lines) {
            const day = ((engine[employee.employeeId] ??= {})[line.date] ??= [0, 0, 0]);
            const slot = { REGULAR: 0, OVERTIME: 1, DOUBLE_TIME: 2 }[line.kind as string];
            expect(slot, `unexpected ${line.kind} line`).toBeDefined();
            day[slot as 0 | 1 | 2] += line.minutes;
          }
        }
        const reference: Record<string, Record<string, [number, number, number]>> = {};
        for (const [employeeId, days] of referenceClassification(
          shifts.map((s) => ({ ...s, endTime: s.endTime! })),
          set,
        )) {
          for (const [date, d] of days) {
            if (d.regularMinutes + d.overtimeMinutes + d.doubleTimeMinutes === 0) continue;
            (reference[employeeId] ??= {})[date] = [d.regularMinutes, d.overtimeMinutes, d.doubleTimeMinutes];
          }
        }
        // Days the engine answers with zero minutes in every kind say nothing; drop them before comparing.
        for (const days of Object.values(engine)) {
          for (const [date, [r, o, d]] of Object.entries(days)) if (r + o + d === 0) delete days[date];
        }
        for (const [id, days] of Object.entries(engine)) if (Object.keys(days).length === 0) delete engine[id];
        expect(engine).toEqual(reference);
      }),
      { numRuns: 200 },
    );
  });
});
