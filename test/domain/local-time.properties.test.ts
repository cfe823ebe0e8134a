import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays, businessDate, localDayBounds, localWallClock, offsetMinutesAt } from "@/domain/local-time";
import { instantInZone } from "@/domain/zoned-wall-clock";
import { instantNearChangesIn, offsetIn, wallClockIn, ZONES } from "../helpers/wall-clock-oracle";

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** A zone and an instant in it, often close to one of its DST changes. */
const zonedInstant = fc.constantFrom(...ZONES).chain((zone) => instantNearChangesIn(zone).map((ms) => ({ zone, ms })));
const zonedMinute = zonedInstant.map(({ zone, ms }) => ({ zone, ms: Math.floor(ms / MINUTE_MS) * MINUTE_MS }));

describe("local time across DST (properties, checked against Intl's own reading)", () => {
  it("offsetMinutesAt, localWallClock and businessDate read what the zone's clocks show at the instant", () => {
    fc.assert(
      fc.property(zonedInstant, ({ zone, ms }) => {
        const offset = offsetMinutesAt(zone, new Date(ms));
        expect(offset).toBe(offsetIn(zone, ms));
        const minute = Math.floor(ms / MINUTE_MS) * MINUTE_MS;
        expect(localWallClock(new Date(minute), offset)).toBe(wallClockIn(zone, minute));
        expect(businessDate(new Date(ms), offset)).toBe(wallClockIn(zone, ms).slice(0, 10));
      }),
      { numRuns: 200 },
    );
  });

  it("instant → wall clock → instant comes back, or to the first instant showing that reading (the fall-back hour)", () => {
    fc.assert(
      fc.property(zonedMinute, ({ zone, ms }) => {
        const reading = wallClockIn(zone, ms);
        const back = instantInZone(new Date(reading), zone).getTime();
        // Zones step by 30 or 60 minutes: the earliest of the instants up to 2 h before that show the same reading.
        const first = Math.min(...[0, 1, 2, 3, 4].map((k) => ms - k * 30 * MINUTE_MS).filter((t) => wallClockIn(zone, t) === reading));
        expect(new Date(back).toISOString()).toBe(new Date(first).toISOString());
      }),
      { numRuns: 200 },
    );
  });

  it("wall clock → instant → wall clock comes back, or moves forward by the gap when the reading never happens", () => {
    const zonedReading = zonedMinute.chain(({ zone, ms }) =>
      fc.integer({ min: -90, max: 90 }).map((shift) => ({ zone, reading: ms + offsetIn(zone, ms) * MINUTE_MS + shift * MINUTE_MS })),
    );
    fc.assert(
      fc.property(zonedReading, ({ zone, reading }) => {
        const instant = instantInZone(new Date(reading), zone).getTime();
        const shown = Date.parse(wallClockIn(zone, instant));
        if (shown === reading) return;
        // Moved: no instant within 14 h shows the reading, and it moved forward by the size of the clocks' jump.
        for (let t = reading - 14 * HOUR_MS; t <= reading + 14 * HOUR_MS; t += 15 * MINUTE_MS) {
          expect(wallClockIn(zone, t)).not.toBe(new Date(reading).toISOString());
        }
        const jump = offsetIn(zone, reading + 14 * HOUR_MS) - offsetIn(zone, reading - 14 * HOUR_MS);
        expect(jump).toBeGreaterThan(0);
        expect(shown - reading).toBe(jump * MINUTE_MS);
      }),
      { numRuns: 150 },
    );
  });

  it("offsetMinutesAt: UTC's offset, answered without Intl, is what Intl reads at any instant", () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2200, 11, 31) }), (ms) => {
        expect(offsetMinutesAt("UTC", new Date(ms))).toBe(offsetIn("UTC", ms));
      }),
      { numRuns: 200 },
    );
  });

  it("localDayBounds: the first instant of the date and of the next one, 22 to 26 hours apart", () => {
    fc.assert(
      fc.property(zonedInstant, ({ zone, ms }) => {
        const date = wallClockIn(zone, ms).slice(0, 10);
        const { start, end } = localDayBounds(date, zone);
        expect(wallClockIn(zone, start.getTime()).slice(0, 10)).toBe(date);
        expect(wallClockIn(zone, start.getTime() - MINUTE_MS).slice(0, 10) < date).toBe(true);
        expect(wallClockIn(zone, end.getTime()).slice(0, 10)).toBe(addDays(date, 1));
        expect(wallClockIn(zone, end.getTime() - MINUTE_MS).slice(0, 10)).toBe(date);
        expect(start.getTime()).toBeLessThanOrEqual(ms);
        expect(end.getTime()).toBeGreaterThan(ms);
        expect(end.getTime() - start.getTime()).toBeGreaterThanOrEqual(22 * HOUR_MS);
        expect(end.getTime() - start.getTime()).toBeLessThanOrEqual(26 * HOUR_MS);
      }),
      { numRuns: 200 },
    );
  });
});
