import { describe, expect, it } from "vitest";
import { hoursOfMinutes, lineAmountCents, lineRate, roundHalfAwayFromZero } from "@/domain/pay-amounts";

describe("pay amounts", () => {
  it.each([
    [0.5, 1],
    [1.5, 2],
    [2.5, 3],
    [-0.5, -1],
    [-2.5, -3],
    [1.49, 1],
    [-1.49, -1],
    [0, 0],
  ])("rounds %d half away from zero to %d", (value, expected) => {
    expect(roundHalfAwayFromZero(value)).toBe(expected);
  });

  it("never reads binary noise as a half: 18.15/h for an hour is 1815 cents, 1.005 × 100 rounds to 101", () => {
    expect(lineAmountCents(60, 18.15, 1)).toBe(1815);
    expect(roundHalfAwayFromZero(1.005 * 100)).toBe(101);
    expect(lineAmountCents(60, 10.01, 1.5)).toBe(1502); // 15.015 → 15.02
  });

  it("a half cent rounds up: 1 minute at 0.30/h is 0.5 cents → 1", () => {
    expect(lineAmountCents(1, 0.3, 1)).toBe(1);
  });

  it("amount = wage × hours × multiplier", () => {
    expect(lineAmountCents(90, 20, 1.5)).toBe(4500);
    expect(lineAmountCents(90, 20, 2)).toBe(6000);
  });

  it("no hourly wage: no rate and no amount", () => {
    expect(lineAmountCents(60, null, 1)).toBeNull();
    expect(lineRate(null, 1.5)).toBeNull();
    expect(lineRate(18.15, 1.5)).toBe(27.225);
  });

  it("hours to two decimals", () => {
    expect([450, 20, 0, 61].map(hoursOfMinutes)).toEqual([7.5, 0.33, 0, 1.02]);
  });
});
