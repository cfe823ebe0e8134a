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
    expect(lineAmountCents(60, 18.15)).toBe(1815);
    expect(roundHalfAwayFromZero(1.005 * 100)).toBe(101);
    expect(lineAmountCents(60, lineRate(10.01, 1.5))).toBe(1502); // 15.015 → 15.02
  });

  it("a half cent rounds up: 1 minute at 0.30/h is 0.5 cents → 1", () => {
    expect(lineAmountCents(1, 0.3)).toBe(1);
  });

  it("amount = minutes ÷ 60 × rate, never hours × rate: 301 minutes at 20 is 100.33 though its hours read 5.02", () => {
    expect(lineAmountCents(90, 30)).toBe(4500);
    expect(lineAmountCents(90, 40)).toBe(6000);
    expect(hoursOfMinutes(301)).toBe(5.02);
    expect(lineAmountCents(301, 20)).toBe(10033);
  });

  it("the amount is computed from the rate as shown (4 decimals), so a client re-adds it from the line", () => {
    // 20 × 1.333333 = 26.666666 shows as 26.6667; 891 minutes of it are 395.9998… → 396.00 (unrounded: 395.9999… → 396.00)
    const rate = lineRate(20, 1.333333)!;
    expect(rate).toBe(26.6667);
    for (const minutes of [1, 59, 301, 891, 1439]) {
      expect(lineAmountCents(minutes, rate)).toBe(Math.round(Number(((minutes / 60) * rate * 100).toPrecision(12))));
    }
  });

  it("no hourly wage: no rate and no amount", () => {
    expect(lineAmountCents(60, null)).toBeNull();
    expect(lineRate(null, 1.5)).toBeNull();
    expect(lineRate(18.15, 1.5)).toBe(27.225);
  });

  it("hours to two decimals", () => {
    expect([450, 20, 0, 61].map(hoursOfMinutes)).toEqual([7.5, 0.33, 0, 1.02]);
  });
});
