import { describe, expect, it } from "vitest";
import { planEntrySpan, unknownBreakIds } from "@/domain/schedule-entry";

const wall = (start: string, end: string) => ({ start: new Date(start), end: new Date(end) });

describe("planEntrySpan", () => {
  it("reads wall-clock times in the zone, DST-correct, or with a fixed offset", () => {
    const zoned = planEntrySpan(wall("2026-03-09T09:00:00Z", "2026-03-09T17:00:00Z"), { timeZone: "America/New_York" });
    expect(zoned).toMatchObject({ ok: true, utcOffset: -240, start: new Date("2026-03-09T13:00:00Z") });
    const fixed = planEntrySpan(wall("2026-03-09T09:00:00Z", "2026-03-09T17:00:00Z"), { utcOffset: 60 });
    expect(fixed).toMatchObject({ ok: true, utcOffset: 60, start: new Date("2026-03-09T08:00:00Z") });
  });

  it("refuses an end not after the start and a span over 24 hours, naming the field", () => {
    expect(planEntrySpan(wall("2026-03-09T09:00:00Z", "2026-03-09T09:00:00Z"), { utcOffset: 0 })).toMatchObject({
      ok: false,
      errors: [{ path: "endTime" }],
    });
    const long = planEntrySpan(
      wall("2026-03-09T09:00:00Z", "2026-03-10T09:01:00Z"),
      { utcOffset: 0 },
      { start: "startDate", end: "endDate" },
    );
    expect(long).toMatchObject({ ok: false, errors: [{ path: "endDate" }] });
  });
});

describe("unknownBreakIds", () => {
  it("lists the ids that are not the location's", () => {
    expect(unknownBreakIds(["a", "x"], ["a", "b"])).toEqual(["x"]);
  });
});
