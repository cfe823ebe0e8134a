import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cappedIncrement, carryoverExpiry, earnedForShift, fixedAccrualsDue, type LimitSettings } from "@/domain/accrual";
import { addDays } from "@/domain/local-time";

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;
const FIRST = "2026-01-01";
const dateArb = fc.integer({ min: 0, max: 800 }).map((n) => addDays(FIRST, n));

const fixedArb: fc.Arbitrary<LimitSettings> = fc
  .oneof(
    fc.record({
      accrualFrequency: fc.constant("EveryOneWeek" as const),
      accrualDay: fc.constantFrom(...WEEKDAYS),
      hours: fc.integer({ min: 1, max: 40 }),
    }),
    fc.record({
      accrualFrequency: fc.constant("EveryMonth" as const),
      accrualDate: fc.constantFrom("1st", "2nd", "15th", "28th", "29th", "30th", "31st", "last"),
      hours: fc.integer({ min: 1, max: 40 }),
    }),
    fc.record({ accrualFrequency: fc.constant("EveryYear" as const), hours: fc.integer({ min: 1, max: 40 }) }),
  )
  .map((fixed) => ({ isFixedAmount: true, fixedAmount: { accrualCycle: "Periodic" as const, ...fixed } }));

/** The dates each accrual falls on, from the rule read straight off the policy: one day at a time. */
function oracleDates(limit: LimitSettings, start: string, today: string): string[] {
  const fixed = limit.fixedAmount!;
  const dates: string[] = [];
  for (let date = start; date <= today; date = addDays(date, 1)) {
    const d = new Date(`${date}T00:00:00Z`);
    const lastOfMonth = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
    if (fixed.accrualFrequency === "EveryOneWeek" && WEEKDAYS[d.getUTCDay()] === fixed.accrualDay) dates.push(date);
    if (fixed.accrualFrequency === "EveryYear" && date.endsWith("-01-01")) dates.push(date);
    if (fixed.accrualFrequency === "EveryMonth") {
      const wanted = fixed.accrualDate === "last" ? lastOfMonth : Math.min(Number.parseInt(fixed.accrualDate!, 10), lastOfMonth);
      if (d.getUTCDate() === wanted) dates.push(date);
    }
  }
  return dates;
}

describe("accrual (properties)", () => {
  it("fixed accruals fall on exactly the rule's dates from inclusion to today, each a positive grant with its own key", () => {
    fc.assert(
      fc.property(fixedArb, dateArb, fc.integer({ min: 0, max: 400 }), (limit, start, length) => {
        const today = addDays(start, length);
        const due = fixedAccrualsDue(limit, 8, start, null, today);
        expect(due.map((e) => e.effectiveDate)).toEqual(oracleDates(limit, start, today));
        expect(due.every((e) => e.hours === limit.fixedAmount!.hours)).toBe(true);
        expect(new Set(due.map((e) => e.periodKey)).size).toBe(due.length);
      }),
      { numRuns: 150 },
    );
  });

  it("however the passes fall (any watermarks), together they grant exactly what one pass would", () => {
    fc.assert(
      fc.property(fixedArb, dateArb, fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 5 }), (limit, start, cuts) => {
        const passes = [...new Set(cuts)].sort((a, b) => a - b).map((n) => addDays(start, n));
        const today = passes.at(-1)!;
        let watermark: string | null = null;
        const granted: ReturnType<typeof fixedAccrualsDue> = [];
        for (const passDate of passes) {
          granted.push(...fixedAccrualsDue(limit, 8, start, watermark, passDate));
          watermark = passDate;
        }
        expect(granted).toEqual(fixedAccrualsDue(limit, 8, start, null, today));
        // A pass that sees an older watermark again grants nothing the keys have not already granted.
        const again = fixedAccrualsDue(limit, 8, start, passes[0]!, today).map((e) => e.periodKey);
        expect(again.every((key) => granted.some((e) => e.periodKey === key))).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it("capped per-hour earnings reach the same balance in any order and never pass the maximum", () => {
    const limitArb = fc.record({
      hoursEarned: fc.integer({ min: 1, max: 4 }),
      hoursWorked: fc.integer({ min: 10, max: 40 }),
      isLimitedMaximumBalance: fc.boolean(),
      maximumHoursBalance: fc.integer({ min: 0, max: 80 }),
    });
    fc.assert(
      fc.property(
        limitArb,
        fc.integer({ min: 0, max: 80 }),
        fc
          .array(fc.integer({ min: 0, max: 900 }), { maxLength: 12 })
          .chain((shifts) =>
            fc.tuple(fc.constant(shifts), fc.shuffledSubarray(shifts, { minLength: shifts.length, maxLength: shifts.length })),
          ),
        (earnings, opening, [shifts, reordered]) => {
          const limit: LimitSettings = { perHourEarnings: earnings };
          const run = (order: number[]) =>
            order.reduce((balance, minutes) => balance + cappedIncrement(limit, earnedForShift(limit, minutes), balance), opening);
          const total = shifts.reduce((sum, minutes) => sum + ((minutes / 60) * earnings.hoursEarned) / earnings.hoursWorked, 0);
          const uncapped = opening + total;
          const expected = earnings.isLimitedMaximumBalance
            ? Math.max(opening, Math.min(uncapped, earnings.maximumHoursBalance))
            : uncapped;
          expect(run(shifts)).toBeCloseTo(expected, 9);
          expect(run(reordered)).toBeCloseTo(expected, 9);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("never negative: grants, capped earnings and year-end carryover keep a non-negative balance at or above zero", () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant("grant" as const), hours: fc.integer({ min: 1, max: 16 }) }),
      fc.record({ kind: fc.constant("shift" as const), minutes: fc.integer({ min: 0, max: 900 }) }),
      fc.record({ kind: fc.constant("yearEnd" as const) }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 100 }),
        fc.array(step, { maxLength: 30 }),
        (opening, carryoverLimit, maximum, steps) => {
          const limit: LimitSettings = {
            perHourEarnings: { hoursEarned: 1, hoursWorked: 30, isLimitedMaximumBalance: true, maximumHoursBalance: maximum },
          };
          let balance = opening;
          for (const s of steps) {
            if (s.kind === "grant") balance += s.hours;
            else if (s.kind === "shift") balance += cappedIncrement(limit, earnedForShift(limit, s.minutes), balance);
            else {
              const expiring = carryoverExpiry(balance, carryoverLimit);
              expect(expiring).toBeGreaterThanOrEqual(0);
              balance -= expiring;
              expect(balance).toBe(Math.min(balance + expiring, carryoverLimit));
            }
            expect(balance).toBeGreaterThanOrEqual(0);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
