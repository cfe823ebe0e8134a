import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isoTimestamp } from "@/domain/iso-timestamp";

const YEAR_0 = -62_167_219_200_000;
const YEAR_10000 = 253_402_300_800_000;

const asToISOString = (ms: number) => {
  try {
    return new Date(ms).toISOString();
  } catch (error) {
    return error instanceof RangeError ? "RangeError" : "other";
  }
};
const asIsoTimestamp = (ms: number) => {
  try {
    return isoTimestamp(ms);
  } catch (error) {
    return error instanceof RangeError ? "RangeError" : "other";
  }
};

describe("isoTimestamp writes what toISOString writes", () => {
  it("at any millisecond of years 0000–9999 (properties)", () => {
    fc.assert(
      fc.property(fc.integer({ min: YEAR_0, max: YEAR_10000 - 1 }), (ms) => {
        expect(isoTimestamp(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 20_000 },
    );
  });

  it("around the API's years, where every instant it stores lies (properties)", () => {
    const from = Date.UTC(1969, 0, 1);
    const to = Date.UTC(2201, 0, 1);
    fc.assert(
      fc.property(fc.integer({ min: from, max: to }), (ms) => {
        expect(isoTimestamp(ms)).toBe(new Date(ms).toISOString());
      }),
      {
        numRuns: 20_000,
      },
    );
  });

  it.each([
    ["the epoch", 0],
    ["the last millisecond before it", -1],
    ["a leap day", Date.UTC(2028, 1, 29, 23, 59, 59, 999)],
    ["the day after a century's non-leap February", Date.UTC(2100, 2, 1)],
    ["a 400-year leap day", Date.UTC(2000, 1, 29, 12)],
    ["the last year of the range", YEAR_10000 - 1],
    ["the first instant of year 0000", YEAR_0],
    ["year 999 (padded to four digits)", Date.UTC(999, 11, 31, 23, 59, 59)],
    ["year 10000 (toISOString's extended form)", YEAR_10000],
    ["before year 0000 (extended form)", YEAR_0 - 1],
    ["a fraction of a millisecond", 1.5],
    ["a negative fraction", -0.5],
    ["the largest time value", 8.64e15],
    ["negative zero", -0],
  ])("%s", (_, ms) => expect(isoTimestamp(ms)).toBe(new Date(ms).toISOString()));

  it.each([
    ["NaN", Number.NaN],
    ["past the largest time value", 8.64e15 + 1],
    ["infinity", Number.POSITIVE_INFINITY],
  ])("throws toISOString's RangeError for %s", (_, ms) => expect(asIsoTimestamp(ms)).toBe(asToISOString(ms)));

  it("any number at all (properties)", () => {
    fc.assert(
      fc.property(fc.double(), (ms) => {
        expect(asIsoTimestamp(ms)).toBe(asToISOString(ms));
      }),
      { numRuns: 5_000 },
    );
  });
});
