import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type AddedBandSpan, type AddedPremiumBand, addedBandSpan } from "@/domain/fair-workweek/change-premium";

/*
 * addedBandSpan writes an ADDED band's notice and length bounds as bounds on an entry's instants (what the publish's
 * UPDATE compares, published-additions.data): an entry falls in the span exactly when its notice and length, as the
 * change log computes them (whole minutes of notice, truncated and at least 0; the length rounded half up), fall in
 * the band as addedPremiumOf tests it.
 */

const MINUTE = 60_000;

const inBand = (b: AddedPremiumBand, at: number, start: number, end: number) => {
  const notice = Math.max(0, Math.trunc((start - at) / MINUTE));
  const minutes = Math.round((end - start) / MINUTE);
  return (
    notice >= b.minNoticeMinutes &&
    notice < b.maxNoticeMinutes &&
    (b.longerThan === null || minutes > b.longerThan) &&
    (b.atMost === null || minutes <= b.atMost)
  );
};

const inSpan = (span: AddedBandSpan | null, start: number, end: number) =>
  span !== null &&
  (span.startFrom === null || start >= span.startFrom) &&
  start < span.startBefore &&
  (span.lengthFrom === null || end - start >= span.lengthFrom) &&
  (span.lengthBelow === null || end - start < span.lengthBelow);

const band = (over: Partial<AddedPremiumBand>): AddedPremiumBand => ({
  minNoticeMinutes: 0,
  maxNoticeMinutes: 14 * 24 * 60,
  longerThan: null,
  atMost: null,
  premium: { hours: null, amount: 10, rule: "X" },
  ...over,
});

describe("addedBandSpan: an ADDED band as bounds on an entry's instants", () => {
  it("holds exactly when the band holds, at any instant, notice and length, whole or fractional bounds (properties)", () => {
    const bounds = fc.oneof(fc.integer({ min: -100, max: 30_000 }), fc.double({ min: -100, max: 30_000, noNaN: true }));
    fc.assert(
      fc.property(
        fc.record({ min: bounds, max: bounds, longerThan: fc.option(bounds), atMost: fc.option(bounds) }),
        fc.integer({ min: 0, max: 4_000_000_000_000 }),
        fc.integer({ min: -3 * 24 * 60 * MINUTE, max: 30 * 24 * 60 * MINUTE }),
        fc.integer({ min: 1, max: 24 * 60 * MINUTE }),
        (b, at, notice, length) => {
          const tested = band({ minNoticeMinutes: b.min, maxNoticeMinutes: b.max, longerThan: b.longerThan, atMost: b.atMost });
          const start = at + notice;
          expect(inSpan(addedBandSpan(tested, at), start, start + length)).toBe(inBand(tested, at, start, start + length));
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it("at the edges: exactly 14 days' notice is out, a minute less is in; 240 minutes and 30 seconds is longer than 240", () => {
    const at = Date.UTC(2026, 10, 27, 12);
    const within = addedBandSpan(band({ maxNoticeMinutes: 14 * 24 * 60 }), at)!;
    expect(inSpan(within, at + 14 * 24 * 60 * MINUTE, at + 15 * 24 * 60 * MINUTE)).toBe(false);
    expect(inSpan(within, at + (14 * 24 * 60 - 1) * MINUTE, at + 15 * 24 * 60 * MINUTE)).toBe(true);
    const longer = addedBandSpan(band({ longerThan: 240 }), at)!;
    expect(inSpan(longer, at, at + 240 * MINUTE + 29_999)).toBe(false);
    expect(inSpan(longer, at, at + 240 * MINUTE + 30_000)).toBe(true);
    expect(addedBandSpan(band({ maxNoticeMinutes: 0 }), at)).toBeNull();
  });
});
