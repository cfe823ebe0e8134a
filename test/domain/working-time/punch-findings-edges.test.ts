import { describe, expect, it } from "vitest";
import type { Worker } from "@/domain/working-time/checks";
import { workingTimePack } from "@/domain/working-time/packs";
import { clockOutWorkingTimeFindings } from "@/domain/working-time/punch-findings";
import { shiftSpan } from "../../helpers/work-spans";

const pack = (id: Parameters<typeof workingTimePack>[0]) => workingTimePack(id, "2026-06-01")!;
const adult: Worker = { birthDate: new Date("1990-01-01T00:00:00Z"), optOut: null };
const minor: Worker = { birthDate: new Date("2012-01-01T00:00:00Z"), optOut: null }; // 14 in 2026
const span = shiftSpan;
const none = new Map<string, number>();

describe("clockOutWorkingTimeFindings", () => {
  // Germany (ArbZG): 11 h rest, 10 h a day, 30 min break over 6 h and 45 over 9 in blocks of 15.
  const yesterday = span("a", "2026-06-01T14:00:00Z", "2026-06-01T22:00:00Z");
  // 10 h after `a` ends; 10 h 31 with a 30-minute break: 601 minutes worked.
  const closing = span("b", "2026-06-02T08:00:00Z", "2026-06-02T18:31:00Z", [30]);

  it("DE: 60 minutes short of the rest, 1 minute over the day, 15 minutes of break short", () => {
    expect(clockOutWorkingTimeFindings(pack("DE"), closing, [yesterday], adult, [], none)).toEqual([
      { type: "REST_TOO_SHORT", scheduleEntryId: null, minutes: 60 },
      { type: "DAILY_MAXIMUM_EXCEEDED", scheduleEntryId: null, minutes: 1 },
      { type: "BREAK_TOO_SHORT", scheduleEntryId: null, minutes: 15 },
    ]);
  });

  it("DE: exactly 11 h rest, exactly 10 h and a 45-minute break over 9 h find nothing", () => {
    const ok = span("b", "2026-06-02T09:00:00Z", "2026-06-02T19:45:00Z", [45]); // 600 minutes worked
    expect(clockOutWorkingTimeFindings(pack("DE"), ok, [yesterday], adult, [], none)).toEqual([]);
  });

  it("reads the closing shift as given, not a stale copy of it among the earlier ones", () => {
    const stale = span("b", "2026-06-02T08:00:00Z", "2026-06-02T08:00:00Z");
    expect(clockOutWorkingTimeFindings(pack("DE"), closing, [yesterday, stale], adult, [], none)).toEqual(
      clockOutWorkingTimeFindings(pack("DE"), closing, [yesterday], adult, [], none),
    );
    const ok = span("b", "2026-06-02T09:00:00Z", "2026-06-02T12:00:00Z");
    const longStale = span("b", "2026-06-02T09:00:00Z", "2026-06-02T20:00:00Z");
    expect(clockOutWorkingTimeFindings(pack("DE"), ok, [yesterday, longStale], adult, [], none)).toEqual([]);
  });

  it("reports only what concerns the closing shift, not earlier shifts' own violations", () => {
    const earlier = [
      span("x", "2026-06-01T08:00:00Z", "2026-06-01T22:00:00Z", [45]), // 13 h 15 worked, over the day
      span("y", "2026-06-02T05:00:00Z", "2026-06-02T06:00:00Z"), // 7 h after x: short rest
    ];
    const later = span("z", "2026-06-03T09:00:00Z", "2026-06-03T12:00:00Z");
    expect(clockOutWorkingTimeFindings(pack("DE"), later, earlier, adult, [], none)).toEqual([]);
  });

  describe("a minor (US 29 CFR 570.35)", () => {
    const term = [{ startDate: "2026-01-05", endDate: "2026-06-10" }];
    it("3 h 01 on a school day: 1 minute over", () => {
      const shift = span("m", "2026-05-05T15:00:00Z", "2026-05-05T18:01:00Z");
      expect(clockOutWorkingTimeFindings(pack("US_MINORS"), shift, [], minor, term, none)).toEqual([
        { type: "MINOR_HOURS", scheduleEntryId: null, minutes: 1 },
      ]);
      expect(clockOutWorkingTimeFindings(pack("US_MINORS"), shift, [], adult, term, none)).toEqual([]);
    });
    it("past 19:00 outside summer: a time of day, no minutes", () => {
      const shift = span("m", "2026-05-05T17:30:00Z", "2026-05-05T19:30:00Z");
      expect(clockOutWorkingTimeFindings(pack("US_MINORS"), shift, [], minor, [], none)).toEqual([
        { type: "MINOR_HOURS", scheduleEntryId: null, minutes: null },
      ]);
    });
    it("not for another day's excess", () => {
      const monday = span("l", "2026-05-04T14:00:00Z", "2026-05-04T18:00:00Z"); // 4 h on a school day
      const shift = span("m", "2026-05-05T15:00:00Z", "2026-05-05T17:00:00Z");
      expect(clockOutWorkingTimeFindings(pack("US_MINORS"), shift, [monday], minor, term, none)).toEqual([]);
    });
  });

  describe("the weekly average", () => {
    // FR: 44 h a week over 12 weeks (L3121-22) = 31,680 minutes; the weeks ending 2026-06-02 start 2026-03-11.
    const four = span("f", "2026-06-02T08:00:00Z", "2026-06-02T12:00:00Z"); // 240 minutes
    const found = (minutes: number) => [{ type: "WEEKLY_AVERAGE_EXCEEDED", scheduleEntryId: null, minutes }];
    it.each([
      ["exactly 44 h a week", { "2026-03-11": 31_440 }, []],
      ["30 minutes a week over, from the first day", { "2026-03-11": 31_800 }, found(30)],
      ["30 minutes a week over, the same day", { "2026-06-02": 31_800 }, found(30)],
      ["the day before the weeks", { "2026-03-10": 31_800 }, []],
      ["the day after", { "2026-06-03": 31_800 }, []],
      ["spread over the weeks", { "2026-03-11": 10_000, "2026-04-15": 11_000, "2026-05-30": 10_800 }, found(30)],
    ] as const)("FR: %s", (_, byDate, expected) => {
      const minutesByDate = new Map(Object.entries(byDate));
      expect(clockOutWorkingTimeFindings(pack("FR"), four, [], adult, [], minutesByDate)).toEqual(expected);
    });

    // UK: 48 h over 17 weeks (reg. 4) = 48,960 minutes; a worker's opt-out (reg. 5) excuses it while in force.
    const overUk = new Map([["2026-06-02", 48_960 - 240 + 17 * 30]]);
    it.each([
      ["no opt-out", null, found(30)],
      ["an opt-out in force", { signedOn: "2026-06-02", withdrawnOn: null }, []],
      ["an opt-out withdrawn that day", { signedOn: "2026-01-01", withdrawnOn: "2026-06-02" }, found(30)],
      ["an opt-out signed the day after", { signedOn: "2026-06-03", withdrawnOn: null }, found(30)],
    ] as const)("UK: %s", (_, optOut, expected) => {
      expect(clockOutWorkingTimeFindings(pack("UK"), four, [], { ...adult, optOut }, [], overUk)).toEqual(expected);
    });

    it("FR allows no opt-out", () => {
      const optedOut: Worker = { ...adult, optOut: { signedOn: "2026-01-01", withdrawnOn: null } };
      expect(clockOutWorkingTimeFindings(pack("FR"), four, [], optedOut, [], new Map([["2026-06-02", 31_800]]))).toEqual(found(30));
    });

    it("a pack without an average finds none", () => {
      expect(clockOutWorkingTimeFindings(pack("ON"), four, [], adult, [], new Map([["2026-06-02", 100_000]]))).toEqual([]);
    });
  });
});
