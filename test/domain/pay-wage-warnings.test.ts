import { describe, expect, it } from "vitest";
import { computePay, type PayShift } from "@/domain/pay-classification";
import { awardMinimumWageOn } from "@/domain/pay-presets/award-minimum-wages";
import { governingRuleSets } from "@/domain/pay-rules";
import { wageWarnings } from "@/domain/pay-wage-warnings";
import { payShift, ruleSet, WEEK } from "../helpers/pay-fixtures";

const [MON, , , , , , SUN] = WEEK;
const RETAIL = ruleSet("prs_au", "AU_GENERAL_RETAIL", { effectiveFrom: "2025-01-01" });
const FLSA = ruleSet("prs_flsa", "FLSA");
const governing = governingRuleSets([RETAIL]);

const warn = (shift: PayShift, from = "2025-01-01", to = "2026-12-31") => wageWarnings([shift], governing, from, to);

describe("General Retail Industry Award [MA000004] minimum hourly rate (cl. 17.1, FWO pay guide 1 July 2025)", () => {
  it("Retail Employee Level 1: $26.55 an hour from 1 July 2025, a casual's $33.19 (26.55 × 1.25 = 33.1875); none before", () => {
    expect(awardMinimumWageOn("AU_GENERAL_RETAIL", "2025-07-01")).toMatchObject({ hourly: 26.55, casualHourly: 33.19 });
    expect(awardMinimumWageOn("AU_GENERAL_RETAIL", "2025-06-30")).toBeNull();
    expect(awardMinimumWageOn("FLSA", "2026-06-01")).toBeNull();
  });

  it.each([
    // [wage, employment type, wage compared, minimum] — null: no warning
    [25, "full_time", 25, 26.55],
    [26.54, "part_time", 26.54, 26.55], // one cent under
    [26.55, "full_time", null, null], // exactly the minimum
    [27, "full_time", null, null],
    [25, "casual", 31.25, 33.19], // 25 × 1.25 = 31.25 < 33.19
    [26.54, "casual", 33.18, 33.19], // 26.54 × 1.25 = 33.175 → 33.18
    [26.55, "casual", null, null], // 26.55 × 1.25 = 33.1875 → 33.19: not below
  ])("$%s %s → compared %s against %s", (hourlyWage, type, wage, minimum) => {
    const warnings = warn(payShift(MON, "09:00", 480, { hourlyWage, employment: { type, schoolStudent: false } }));
    expect(warnings.map((w) => [w.wage, w.minimum])).toEqual(wage === null ? [] : [[wage, minimum]]);
  });

  it("applies from 1 July 2025: a shift of 30 June 2025 at $25 has none, one of 1 July has one", () => {
    expect(warn(payShift("2025-06-30", "09:00", 480, { hourlyWage: 25 }))).toEqual([]);
    expect(warn(payShift("2025-07-01", "09:00", 480, { hourlyWage: 25 }))).toHaveLength(1);
  });

  it("none for a salaried shift, a shift outside the range, or a preset without a minimum", () => {
    expect(warn(payShift(MON, "09:00", 480, { hourlyWage: null }))).toEqual([]);
    expect(warn(payShift(MON, "09:00", 480, { hourlyWage: 25 }), SUN, SUN)).toEqual([]);
    expect(wageWarnings([payShift(MON, "09:00", 480, { hourlyWage: 25 })], governingRuleSets([FLSA]), MON, SUN)).toEqual([]);
  });

  it("computePay carries the warning and still pays the wage paid: 8 h × $25.00 = $200.00, not 8 × 26.55 = 212.40", () => {
    const shift = payShift(MON, "09:00", 480, { hourlyWage: 25, employment: { type: "full_time", schoolStudent: false } });
    const [employee] = computePay({ startDate: MON, endDate: SUN, shifts: [shift], timeOff: [], ruleSets: [RETAIL] }).employees;
    expect(employee!.grossPay).toBe(200);
    expect(employee!.warnings).toEqual([
      {
        code: "WAGE_BELOW_AWARD_MINIMUM",
        date: MON,
        shiftId: shift.id,
        wage: 25,
        minimum: 26.55,
        source: expect.stringContaining("MA000004"),
      },
    ]);
  });

  it("an employee paid at or above the minimum has no warnings field", () => {
    const shift = payShift(MON, "09:00", 480, { hourlyWage: 27 });
    const [employee] = computePay({ startDate: MON, endDate: SUN, shifts: [shift], timeOff: [], ruleSets: [RETAIL] }).employees;
    expect(employee).not.toHaveProperty("warnings");
  });
});
