import { describe, expect, it } from "vitest";
import { resolveWage, type WageRateRow } from "@/domain/wage-rate";

const rate = (
  id: string,
  hourlyRate: number,
  effectiveFrom: string,
  roleId: string | null = null,
  locationId: string | null = null,
): WageRateRow => ({
  id,
  hourlyRate,
  effectiveFrom,
  roleId,
  locationId,
});

const rates = [
  rate("emp-old", 15, "2026-01-01"),
  rate("emp-new", 16, "2026-03-01"),
  rate("loc", 17, "2026-01-01", null, "L1"),
  rate("role", 18, "2026-01-01", "R1"),
  rate("role-loc", 19, "2026-01-01", "R1", "L1"),
  rate("role-loc-raise", 21, "2026-06-01", "R1", "L1"),
];

describe("resolveWage", () => {
  it.each([
    ["role and location beat the rest", "R1", "L1", "2026-04-01", "role-loc", 19],
    ["a future-dated raise applies from its date", "R1", "L1", "2026-06-01", "role-loc-raise", 21],
    ["the day before the raise keeps the old rate", "R1", "L1", "2026-05-31", "role-loc", 19],
    ["role beats location", "R1", "L2", "2026-04-01", "role", 18],
    ["location beats employee only", "R2", "L1", "2026-04-01", "loc", 17],
    ["employee only: the newest effective that day", "R2", "L2", "2026-04-01", "emp-new", 16],
    ["employee only: before the newer one", "R2", "L2", "2026-02-28", "emp-old", 15],
  ])("%s", (_, roleId, locationId, date, id, hourlyRate) => {
    expect(resolveWage(rates, { roleId, locationId, date }, { hourlyWage: 12 }, { hourlyWage: 11 })).toEqual({
      hourlyRate,
      wageRateId: id,
      source: "WAGE_RATE",
    });
  });

  it("no rate effective yet: the role's wage, else the staff member's, else 0", () => {
    const shift = { roleId: "R1", locationId: "L1", date: "2025-12-31" };
    expect(resolveWage(rates, shift, { hourlyWage: 12 }, { hourlyWage: 11 })).toEqual({ hourlyRate: 12, wageRateId: null, source: "ROLE" });
    expect(resolveWage(rates, shift, { hourlyWage: 0 }, { hourlyWage: 11 })).toEqual({ hourlyRate: 0, wageRateId: null, source: "ROLE" });
    expect(resolveWage(rates, shift, { hourlyWage: null }, { hourlyWage: 11 })).toEqual({
      hourlyRate: 11,
      wageRateId: null,
      source: "STAFF_MEMBER",
    });
    expect(resolveWage([], shift, null, null)).toEqual({ hourlyRate: 0, wageRateId: null, source: "STAFF_MEMBER" });
  });

  it("a rate for another role or location never applies", () => {
    const only = [rate("other", 30, "2020-01-01", "R9", "L9")];
    expect(resolveWage(only, { roleId: "R1", locationId: "L1", date: "2026-01-01" }, { hourlyWage: 12 }, null).source).toBe("ROLE");
  });
});

describe("resolveWage ties", () => {
  it("two rates as specific and from the same date: the greater id, in either order; a newer date beats a greater id", () => {
    const shift = { roleId: "R1", locationId: "L1", date: "2026-04-01" };
    const a = rate("wr_a", 30, "2026-01-01", "R1", "L1");
    const b = rate("wr_b", 31, "2026-01-01", "R1", "L1");
    expect(resolveWage([a, b], shift, null, null)).toMatchObject({ wageRateId: "wr_b", hourlyRate: 31 });
    expect(resolveWage([b, a], shift, null, null)).toMatchObject({ wageRateId: "wr_b", hourlyRate: 31 });
    const newer = rate("wr_0", 32, "2026-02-01", "R1", "L1");
    expect(resolveWage([b, newer], shift, null, null)).toMatchObject({ wageRateId: "wr_0" });
    expect(resolveWage([newer, b], shift, null, null)).toMatchObject({ wageRateId: "wr_0" });
  });
});
