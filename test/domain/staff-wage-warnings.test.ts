import { describe, expect, it } from "vitest";
import { governingRuleSets } from "@/domain/pay-rules";
import { ratesInForce, staffWageWarnings, type WarnedStaffMember } from "@/domain/staff-wage-warnings";
import type { WageRateRow } from "@/domain/wage-rate";
import { ruleSet } from "../helpers/pay-fixtures";

/*
 * A staff member's current wages against the General Retail Industry Award's minimum (cl. 17.1, Retail Employee
 * Level 1: $26.55 from 2025-07-01; casual $33.19, cl. 11.2) at the location whose rule set is AU_GENERAL_RETAIL.
 * Figures written out by hand.
 */

const SOURCE =
  "General Retail Industry Award 2020 [MA000004] cl. 17.1, Retail Employee Level 1 (FWO pay guide, 1 July 2025); casual + 25 % cl. 11.2";
const AU = "loc_au";
const US = "loc_us";
const governing = governingRuleSets([
  ruleSet("prs_us", "FLSA"),
  ruleSet("prs_au", "AU_GENERAL_RETAIL", { locationId: AU, effectiveFrom: "2025-01-01" }),
]);

const member = (overrides: Partial<WarnedStaffMember> = {}): WarnedStaffMember => ({
  wageType: "hourly",
  hourlyWage: 25,
  employmentType: "full_time",
  locationIds: [AU],
  ...overrides,
});

const rate = (id: string, hourlyRate: number, effectiveFrom: string, scope: Partial<WageRateRow> = {}): WageRateRow => ({
  id,
  roleId: null,
  locationId: null,
  hourlyRate,
  effectiveFrom,
  ...scope,
});

describe("staffWageWarnings (GRIA cl. 17.1)", () => {
  it.each([
    ["$25.00 < $26.55", 25, [{ wage: 25, minimum: 26.55 }]],
    ["$26.54, a cent below", 26.54, [{ wage: 26.54, minimum: 26.55 }]],
    ["exactly $26.55", 26.55, []],
    ["$26.56", 26.56, []],
  ])("a full-time hourly wage of %s", (_, wage, expected) => {
    const warnings = staffWageWarnings(member({ hourlyWage: wage as number }), [], governing, "2026-12-06");
    expect(warnings).toEqual(
      (expected as { wage: number; minimum: number }[]).map((e) => ({
        code: "WAGE_BELOW_AWARD_MINIMUM",
        locationId: AU,
        wageRateId: null,
        source: SOURCE,
        ...e,
      })),
    );
  });

  it("a casual's wage with the 25 % loading against $33.19: $26.55 → 33.19 none; $26.54 → 33.18 below", () => {
    expect(staffWageWarnings(member({ employmentType: "casual", hourlyWage: 26.55 }), [], governing, "2026-12-06")).toEqual([]);
    expect(staffWageWarnings(member({ employmentType: "casual", hourlyWage: 26.54 }), [], governing, "2026-12-06")).toMatchObject([
      { wage: 33.18, minimum: 33.19 },
    ]);
  });

  it("before 2025-07-01 there is no minimum in the pack; from that day there is", () => {
    expect(staffWageWarnings(member(), [], governing, "2025-06-30")).toEqual([]);
    expect(staffWageWarnings(member(), [], governing, "2025-07-01")).toHaveLength(1);
  });

  it("only at a location whose preset has a minimum; none for a salaried member or without a wage", () => {
    expect(staffWageWarnings(member({ locationIds: [US] }), [], governing, "2026-12-06")).toEqual([]);
    expect(staffWageWarnings(member({ locationIds: [US, AU] }), [], governing, "2026-12-06")).toMatchObject([{ locationId: AU }]);
    expect(staffWageWarnings(member({ wageType: "salary" }), [], governing, "2026-12-06")).toEqual([]);
    expect(staffWageWarnings(member({ hourlyWage: null }), [], governing, "2026-12-06")).toEqual([]);
  });

  it("judges each wage rate in force at its own location, or at every assigned location when it names none", () => {
    const rates = [
      rate("wr_old", 20, "2026-01-01", { locationId: AU }),
      rate("wr_new", 27, "2026-06-01", { locationId: AU }),
      rate("wr_any", 25.5, "2026-01-01"),
      rate("wr_us", 15, "2026-01-01", { locationId: US }),
      rate("wr_later", 10, "2027-01-01", { locationId: AU }),
    ];
    const warnings = staffWageWarnings(member({ hourlyWage: 30 }), rates, governing, "2026-12-06");
    // wr_old is replaced by wr_new ($27.00 ≥ $26.55); wr_us is at a FLSA location; wr_later is not in force yet.
    expect(warnings).toEqual([
      { code: "WAGE_BELOW_AWARD_MINIMUM", locationId: AU, wageRateId: "wr_any", wage: 25.5, minimum: 26.55, source: SOURCE },
    ]);
    // Before wr_new, wr_old is the one in force at the location: $20.00 below.
    expect(staffWageWarnings(member({ hourlyWage: 30 }), rates, governing, "2026-05-31").map((w) => [w.wageRateId, w.wage])).toEqual([
      ["wr_old", 20],
      ["wr_any", 25.5],
    ]);
  });
});

describe("ratesInForce", () => {
  it("keeps the newest of each role-and-location scope effective by the date (the newer id on a tie)", () => {
    const rates = [
      rate("a", 1, "2026-01-01"),
      rate("b", 2, "2026-02-01"),
      rate("c", 3, "2026-02-01"),
      rate("d", 4, "2026-01-01", { roleId: "r" }),
      rate("e", 5, "2026-03-02"),
    ];
    expect(ratesInForce(rates, "2026-03-01").map((r) => r.id)).toEqual(["c", "d"]);
    expect(ratesInForce(rates, "2026-03-02").map((r) => r.id)).toEqual(["e", "d"]);
  });
});
