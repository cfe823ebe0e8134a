import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expandAvailability, parseRecurrence } from "@/domain/availability";
import { addDays } from "@/domain/local-time";
import { wallClockIn, ZONES } from "../helpers/wall-clock-oracle";

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const BYDAY = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const;

/** Rules valid today: FREQ=DAILY or WEEKLY (with BYDAY), INTERVAL, COUNT; a first occurrence in 2026–2027. */
const ruleArb = fc.record({
  zone: fc.constantFrom(...ZONES),
  day: fc.integer({ min: 0, max: 700 }).map((n) => addDays("2026-01-01", n)),
  minuteOfDay: fc.integer({ min: 0, max: 95 }).map((q) => q * 15),
  lengthMinutes: fc.integer({ min: 15, max: 26 * 60 }),
  freq: fc.constantFrom("DAILY" as const, "WEEKLY" as const),
  interval: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
  byDay: fc.option(fc.subarray([...BYDAY], { minLength: 1 }), { nil: undefined }),
  count: fc.option(fc.integer({ min: 1, max: 60 }), { nil: undefined }),
  windowFrom: fc.integer({ min: -20, max: 200 }),
  windowDays: fc.integer({ min: 1, max: 92 }),
});
type RuleSpec = typeof ruleArb extends fc.Arbitrary<infer T> ? T : never;

const recurrenceOf = (r: RuleSpec) =>
  [
    `FREQ=${r.freq}`,
    r.interval === undefined ? "" : `INTERVAL=${r.interval}`,
    r.freq === "WEEKLY" && r.byDay ? `BYDAY=${r.byDay.join(",")}` : "",
    r.count === undefined ? "" : `COUNT=${r.count}`,
  ]
    .filter(Boolean)
    .join(";");

/**
 * The rule's occurrences read straight from RFC 5545, a day at a time from the first: DAILY every INTERVAL-th day;
 * WEEKLY on the BYDAY days (else the first's weekday) of every INTERVAL-th week, weeks starting Monday (WKST=MO);
 * COUNT occurrences at most. Each starts at the first occurrence's local time.
 */
function oracleStarts(r: RuleSpec, untilMs: number): number[] {
  const firstMs = Date.parse(`${r.day}T00:00:00Z`);
  const weekday = (ms: number) => (new Date(ms).getUTCDay() + 6) % 7; // Monday 0
  const firstMonday = firstMs - weekday(firstMs) * DAY_MS;
  const days = new Set(r.freq === "WEEKLY" && r.byDay ? r.byDay.map((d) => BYDAY.indexOf(d)) : [weekday(firstMs)]);
  const interval = r.interval ?? 1;
  const starts: number[] = [];
  for (let dayMs = firstMs; dayMs <= untilMs; dayMs += DAY_MS) {
    if (r.count !== undefined && starts.length >= r.count) break;
    const matches =
      r.freq === "DAILY"
        ? Math.round((dayMs - firstMs) / DAY_MS) % interval === 0
        : days.has(weekday(dayMs)) && Math.floor(Math.round((dayMs - firstMonday) / DAY_MS) / 7) % interval === 0;
    if (matches) starts.push(dayMs + r.minuteOfDay * MINUTE_MS);
  }
  return starts;
}

describe("availability RRULE expansion (properties, against a day-by-day reading of RFC 5545)", () => {
  it("every occurrence matches the rule, none is skipped, each keeps its local time and length across DST", () => {
    fc.assert(
      fc.property(ruleArb, (r) => {
        const recurrence = recurrenceOf(r);
        expect(parseRecurrence(recurrence).ok).toBe(true);
        const startMs = Date.parse(`${r.day}T00:00:00Z`) + r.minuteOfDay * MINUTE_MS;
        const lengthMs = r.lengthMinutes * MINUTE_MS;
        const rule = { startTime: new Date(startMs), endTime: new Date(startMs + lengthMs), timezone: r.zone, recurrence };
        const from = Date.parse(`${addDays(r.day, r.windowFrom)}T00:00:00Z`);
        const to = from + r.windowDays * DAY_MS;
        const occurrences = expandAvailability(rule, new Date(from), new Date(to));
        // Overlapping the window [from, to): starts before its end and ends after its start.
        const expected = oracleStarts(r, to).filter((s) => s < to && s + lengthMs > from);
        expect(occurrences.map((o) => o.startTime.toISOString())).toEqual(expected.map((s) => new Date(s).toISOString()));
        for (const o of occurrences) {
          expect(o.endTime.getTime() - o.startTime.getTime()).toBe(lengthMs);
          for (const [wall, instant] of [
            [o.startTime, o.utcStartTime],
            [o.endTime, o.utcEndTime],
          ] as const) {
            const reading = wall.toISOString();
            const shown = wallClockIn(r.zone, instant.getTime());
            if (shown === reading) continue;
            // Only a reading the zone's clocks skip (spring forward) may move, and only forward, by under 2 h.
            expect(shown > reading).toBe(true);
            expect(Date.parse(shown) - wall.getTime()).toBeLessThanOrEqual(2 * HOUR_MS);
            for (let t = wall.getTime() - 14 * HOUR_MS; t <= wall.getTime() + 14 * HOUR_MS; t += 15 * MINUTE_MS) {
              expect(wallClockIn(r.zone, t)).not.toBe(reading);
            }
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});
