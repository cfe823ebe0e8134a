import { describe, expect, it } from "vitest";
import { availabilityProblems, expandAvailability, materializedOccurrences, parseRecurrence } from "@/domain/availability";

const wall = (text: string) => new Date(`${text}Z`);
const weeklyNineToFive = {
  startTime: wall("2026-03-02T09:00:00"),
  endTime: wall("2026-03-02T17:00:00"),
  timezone: "America/New_York",
  recurrence: "FREQ=WEEKLY;BYDAY=MO,WE",
};

describe("availability recurrence", () => {
  it("keeps 09:00 local across the spring-forward change: the instant moves from 14:00Z to 13:00Z", () => {
    const occurrences = expandAvailability(weeklyNineToFive, wall("2026-03-02T00:00:00"), wall("2026-03-17T00:00:00"));
    expect(occurrences.map((o) => o.startTime.toISOString())).toEqual([
      "2026-03-02T09:00:00.000Z",
      "2026-03-04T09:00:00.000Z",
      "2026-03-09T09:00:00.000Z",
      "2026-03-11T09:00:00.000Z",
      "2026-03-16T09:00:00.000Z",
    ]);
    expect(occurrences[1]!.utcStartTime.toISOString()).toBe("2026-03-04T14:00:00.000Z");
    expect(occurrences[2]!.utcStartTime.toISOString()).toBe("2026-03-09T13:00:00.000Z");
    expect(occurrences[2]!.utcEndTime.toISOString()).toBe("2026-03-09T21:00:00.000Z");
  });

  it("answers an occurrence that overlaps the range's start, and none of a one-off outside it", () => {
    const overnight = {
      startTime: wall("2026-03-01T22:00:00"),
      endTime: wall("2026-03-02T06:00:00"),
      timezone: "UTC",
      recurrence: "FREQ=DAILY",
    };
    const [first] = expandAvailability(overnight, wall("2026-03-02T00:00:00"), wall("2026-03-03T00:00:00"));
    expect(first!.startTime.toISOString()).toBe("2026-03-01T22:00:00.000Z");
    const oneOff = { ...overnight, recurrence: null };
    expect(expandAvailability(oneOff, wall("2026-03-03T00:00:00"), wall("2026-03-04T00:00:00"))).toEqual([]);
  });

  it("stops at UNTIL and COUNT, and writes out at most two years of an endless rule", () => {
    expect(
      expandAvailability(
        { ...weeklyNineToFive, recurrence: "FREQ=WEEKLY;BYDAY=MO;COUNT=3" },
        wall("2026-01-01T00:00:00"),
        wall("2027-01-01T00:00:00"),
      ),
    ).toHaveLength(3);
    const until = { ...weeklyNineToFive, recurrence: "FREQ=DAILY;UNTIL=20260305T000000Z" };
    expect(expandAvailability(until, wall("2026-03-01T00:00:00"), wall("2026-04-01T00:00:00"))).toHaveLength(3);
    const daily = materializedOccurrences({ ...weeklyNineToFive, recurrence: "FREQ=DAILY" });
    expect(daily).toHaveLength(731);
    expect(daily.at(-1)!.startTime.toISOString()).toBe("2028-03-01T09:00:00.000Z");
  });

  it("refuses what is not an RRULE, sub-daily frequencies, DTSTART, and bad spans", () => {
    for (const bad of [
      "FREQ=HOURLY",
      "FREQ=DAILY;BYHOUR=9,17",
      "BYDAY=MO",
      "FREQ=WEEKLY;BYDAY=XX",
      "DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY",
      "FREQ=DAILY;COUNT=0",
    ]) {
      expect(parseRecurrence(bad).ok, bad).toBe(false);
    }
    expect(parseRecurrence("RRULE:FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20270101T000000Z").ok).toBe(true);
    expect(availabilityProblems({ ...weeklyNineToFive, endTime: weeklyNineToFive.startTime }).map((p) => p.path)).toEqual(["endTime"]);
    expect(availabilityProblems({ ...weeklyNineToFive, endTime: wall("2026-03-10T09:00:00") }).map((p) => p.path)).toEqual(["endTime"]);
    expect(availabilityProblems({ ...weeklyNineToFive, recurrence: "FREQ=SECONDLY" }).map((p) => p.path)).toEqual(["recurrence"]);
  });
});
