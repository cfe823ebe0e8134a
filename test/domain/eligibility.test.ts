import { describe, expect, it } from "vitest";
import { projectedOvertime, rankEligibility } from "@/domain/eligibility";

const at = (text: string) => new Date(`${text}Z`);
const span = (employeeId: string, start: string, end: string) => ({ employeeId, start: at(start), end: at(end) });
const base = {
  slot: { start: at("2027-03-05T09:00:00"), end: at("2027-03-05T17:00:00") },
  week: { start: at("2027-03-01T00:00:00"), end: at("2027-03-08T00:00:00") },
  weeklyOvertimeAfterMinutes: 2400,
  unavailable: [],
  preferred: [],
  timeOff: [],
  entries: [],
};

describe("eligibility for a slot", () => {
  it("names every reason, and orders eligible, then preferred, then fewest minutes scheduled", () => {
    const ranked = rankEligibility({
      ...base,
      staffIds: ["a", "b", "c", "d", "e"],
      unavailable: [span("a", "2027-03-05T08:00:00", "2027-03-05T10:00:00")],
      timeOff: [span("a", "2027-03-05T00:00:00", "2027-03-06T00:00:00")],
      entries: [
        span("b", "2027-03-05T16:00:00", "2027-03-05T20:00:00"),
        span("c", "2027-03-01T09:00:00", "2027-03-01T17:00:00"),
        span("d", "2027-02-28T09:00:00", "2027-02-28T17:00:00"),
      ],
      preferred: [span("e", "2027-03-05T09:00:00", "2027-03-05T12:00:00")],
    });
    expect(ranked.map((r) => [r.employeeId, r.eligible, r.reasons, r.preferred, r.scheduledMinutesThisWeek])).toEqual([
      ["e", true, [], true, 0],
      ["d", true, [], false, 0],
      ["c", true, [], false, 480],
      ["a", false, ["UNAVAILABLE", "TIME_OFF"], false, 0],
      ["b", false, ["SCHEDULE_OVERLAP"], false, 240],
    ]);
  });

  it("a span that only touches the slot is no reason; an entry starting at the week's end is next week's", () => {
    const ranked = rankEligibility({
      ...base,
      staffIds: ["f", "g"],
      unavailable: [span("f", "2027-03-05T17:00:00", "2027-03-05T20:00:00")],
      timeOff: [span("g", "2027-03-05T06:00:00", "2027-03-05T09:00:00")],
      entries: [
        span("f", "2027-03-01T00:00:00", "2027-03-01T01:00:00"),
        span("f", "2027-03-05T17:00:00", "2027-03-05T18:00:00"),
        span("g", "2027-03-08T00:00:00", "2027-03-08T08:00:00"),
      ],
    });
    expect(ranked.map((r) => [r.employeeId, r.eligible, r.reasons, r.scheduledMinutesThisWeek])).toEqual([
      ["g", true, [], 0],
      ["f", true, [], 120],
    ]);
  });

  it("projects only the weekly overtime the slot adds", () => {
    expect(projectedOvertime(2000, 480, 2400)).toBe(80);
    expect(projectedOvertime(2500, 480, 2400)).toBe(480);
    expect(projectedOvertime(1000, 480, 2400)).toBe(0);
    expect(projectedOvertime(3000, 480, null)).toBe(0);
    const [row] = rankEligibility({
      ...base,
      staffIds: ["a"],
      entries: [span("a", "2027-03-01T00:00:00", "2027-03-01T20:00:00"), span("a", "2027-03-02T00:00:00", "2027-03-02T20:00:00")],
    });
    expect(row).toMatchObject({ scheduledMinutesThisWeek: 2400, projectedOvertimeMinutes: 480 });
  });
});

describe("eligibility ties", () => {
  it("equal on every count: by staff id, whatever order they are asked in", () => {
    for (const staffIds of [
      ["c", "a", "b"],
      ["b", "c", "a"],
      ["a", "b", "c"],
    ]) {
      expect(rankEligibility({ ...base, staffIds }).map((r) => r.employeeId)).toEqual(["a", "b", "c"]);
    }
  });
});
