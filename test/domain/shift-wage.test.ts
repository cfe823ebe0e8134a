import { describe, expect, it } from "vitest";
import { shiftWage } from "@/domain/shift-wage";

describe("shiftWage", () => {
  it("is the role's wage, else the staff member's, else 0", () => {
    expect(shiftWage({ hourlyWage: 21.5 }, { hourlyWage: 18 })).toBe(21.5);
    expect(shiftWage({ hourlyWage: null }, { hourlyWage: 18 })).toBe(18);
    expect(shiftWage({ hourlyWage: null }, { hourlyWage: null })).toBe(0);
    expect(shiftWage({ hourlyWage: null }, null)).toBe(0);
  });

  it("keeps a wage of 0 set on the role (unpaid role) instead of falling through", () => {
    expect(shiftWage({ hourlyWage: 0 }, { hourlyWage: 18 })).toBe(0);
  });
});
