import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { availabilityProblems, expandAvailability, parseRecurrence } from "@/domain/availability";
import { rruleGarbage, rruleShaped } from "../helpers/rrule-arbitraries";

const wall = (text: string) => new Date(`${text}Z`);
const rule = (recurrence: string) => ({
  startTime: wall("2026-03-02T09:00:00"),
  endTime: wall("2026-03-02T17:00:00"),
  timezone: "America/New_York",
  recurrence,
  exdates: ["2026-03-09"],
});

describe("recurrence parsing and expansion never throw", () => {
  it("parses RRULE-shaped text in any case without throwing; an accepted rule is canonical and expands", () => {
    let accepted = 0;
    fc.assert(
      fc.property(rruleShaped, (text) => {
        const parsed = parseRecurrence(text);
        if (!parsed.ok) {
          expect(parsed.message).toEqual(expect.any(String));
          return;
        }
        accepted++;
        const { canonical } = parsed.recurrence;
        expect(canonical).toBe(canonical.toUpperCase());
        const again = parseRecurrence(canonical);
        expect(again.ok && again.recurrence.canonical).toBe(canonical);
        const problems = availabilityProblems(rule(canonical));
        expect(problems.every((p) => p.path === "recurrence")).toBe(true);
        const started = Date.now();
        const occurrences = expandAvailability(rule(canonical), wall("2031-01-01T00:00:00"), wall("2031-04-03T00:00:00"));
        expect(Date.now() - started).toBeLessThan(1_000);
        for (const o of occurrences) expect(o.utcEndTime.getTime()).toBeGreaterThan(o.utcStartTime.getTime());
      }),
      { numRuns: 400, seed: 29_01 },
    );
    // The generator reaches rrule, not only the parser's refusals.
    expect(accepted).toBeGreaterThan(40);
  });

  it("refuses every RRULE the fuzz sends as garbage", () => {
    fc.assert(
      fc.property(rruleGarbage, (text) => {
        expect(parseRecurrence(text).ok).toBe(false);
      }),
      { numRuns: 400, seed: 29_02 },
    );
  });
});
