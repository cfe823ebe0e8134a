import { describe, expect, it } from "vitest";
import { shiftPay, shiftWage, wireWage } from "@/domain/shift-wage";

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

describe("shiftPay and wireWage", () => {
  it("a salaried staff member's shift stores no wage and reads null; anyone else's the explicit (SET_BY_HAND), role's or own wage", () => {
    const salaried = { hourlyWage: 40, wageType: "salary" };
    const rate = { hourlyRate: 25, wageRateId: "wr_1" };
    expect(shiftPay({ hourlyWage: 21.5 }, salaried, undefined, rate)).toEqual({
      hourlyWage: 0,
      salaried: true,
      wageRateId: null,
      wageSource: "RESOLVED",
    });
    expect(shiftPay({ hourlyWage: 21.5 }, { hourlyWage: 18, wageType: "hourly" })).toEqual({
      hourlyWage: 21.5,
      salaried: false,
      wageRateId: null,
      wageSource: "RESOLVED",
    });
    // A wage given by hand wins over a resolved rate; a resolved rate wins over the role's and the member's.
    expect(shiftPay({ hourlyWage: 21.5 }, { hourlyWage: 18, wageType: null }, 30, rate)).toEqual({
      hourlyWage: 30,
      salaried: false,
      wageRateId: null,
      wageSource: "SET_BY_HAND",
    });
    expect(shiftPay({ hourlyWage: 21.5 }, { hourlyWage: 18, wageType: "hourly" }, undefined, rate)).toEqual({
      hourlyWage: 25,
      salaried: false,
      wageRateId: "wr_1",
      wageSource: "RESOLVED",
    });
    expect(shiftPay({ hourlyWage: null }, null)).toEqual({ hourlyWage: 0, salaried: false, wageRateId: null, wageSource: "RESOLVED" });
    expect(wireWage({ hourlyWage: 0, salaried: true })).toBeNull();
    expect(wireWage({ hourlyWage: 0, salaried: false })).toBe(0);
    expect(wireWage({ hourlyWage: 18, salaried: false })).toBe(18);
  });
});
