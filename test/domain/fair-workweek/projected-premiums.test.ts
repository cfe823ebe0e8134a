import { describe, expect, it } from "vitest";
import { projectedPremiumCents } from "@/domain/fair-workweek/projected-premiums";
import type { PremiumOwed } from "@/domain/pay-classification";
import { payShift, ruleSet, WEEK } from "../../helpers/pay-fixtures";

/* What premiums not yet recorded would cost, at the regular rate of the workweek the shifts give (a dry run's projection). */

const [MON, TUE, , , , , SUN] = WEEK;
const FLSA = ruleSet("prs_flsa", "FLSA");
const hour = (date: string, over: Partial<PremiumOwed> = {}): PremiumOwed => ({
  employeeId: "emp_a",
  date,
  kind: "PREDICTABILITY",
  hours: 1,
  amount: null,
  rule: "SEATTLE.ADDED_UNDER_14_DAYS",
  hourlyWage: 15,
  ...over,
});
const cents = (shifts: ReturnType<typeof payShift>[], premiums: PremiumOwed[]) =>
  projectedPremiumCents({ startDate: MON, endDate: SUN, shifts, ruleSets: [FLSA], premiums });

describe("projectedPremiumCents", () => {
  it("an hour at the week's blended regular rate: (4 h × $20 + 8 h × $30) / 12 h = $26.666… → 2667 cents", () => {
    const shifts = [payShift(MON, "00:00", 240, { hourlyWage: 20 }), payShift(TUE, "08:00", 480, { hourlyWage: 30 })];
    expect(cents(shifts, [hour(MON)])).toEqual(new Map([["emp_a", 2667]]));
  });

  it("each hour rounded once: two hours on two days are 2667 + 2667 = 5334 cents, not 2 × 26.666… = 5333", () => {
    const shifts = [payShift(MON, "00:00", 240, { hourlyWage: 20 }), payShift(TUE, "08:00", 480, { hourlyWage: 30 })];
    expect(cents(shifts, [hour(MON), hour(TUE)])).toEqual(new Map([["emp_a", 5334]]));
  });

  it("nothing worked that week: the wage ($15 → 1500 cents); a flat amount as it is ($15 + $10 → 2500)", () => {
    expect(cents([], [hour(MON)])).toEqual(new Map([["emp_a", 1500]]));
    expect(cents([], [hour(MON), hour(TUE, { hours: null, amount: 10, rule: "NYC_FAST_FOOD.ADDED_7_TO_13_DAYS" })])).toEqual(
      new Map([["emp_a", 2500]]),
    );
  });

  it("hours with no rate at all (no shift, no wage) add nothing; no premium, no employee", () => {
    expect(cents([], [hour(MON, { hourlyWage: null })])).toEqual(new Map([["emp_a", 0]]));
    expect(cents([payShift(MON, "08:00", 480)], [])).toEqual(new Map());
  });
});
