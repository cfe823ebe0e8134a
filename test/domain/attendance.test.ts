import { describe, expect, it } from "vitest";
import {
  autoClockOutAt,
  clockInFindings,
  clockOutFindings,
  DEFAULT_ATTENDANCE_SETTINGS,
  entryWorkedAt,
  mandatoryBreakFindings,
} from "@/domain/attendance";

const at = (text: string) => new Date(`2027-03-05T${text}:00Z`);
const nine = { id: "nine", start: at("09:00"), end: at("17:00") };
const evening = { id: "evening", start: at("18:00"), end: at("22:00") };
const settings = DEFAULT_ATTENDANCE_SETTINGS;

describe("the entry a clock-in works", () => {
  it("is one whose span, opened two hours early, holds the instant", () => {
    expect(entryWorkedAt([evening, nine], at("07:00"))?.id).toBe("nine");
    expect(entryWorkedAt([evening, nine], at("06:59"))).toBeNull();
    expect(entryWorkedAt([evening, nine], at("17:00"))?.id).toBe("evening");
    expect(entryWorkedAt([evening, nine], at("22:00"))).toBeNull();
  });
  it("of two that hold it, the one whose start is nearest: early for the evening, not late for the morning", () => {
    expect(entryWorkedAt([evening, nine], at("16:30"))?.id).toBe("evening");
    expect(entryWorkedAt([evening, nine], at("13:00"))?.id).toBe("nine");
    const twin = { id: "twin", start: at("09:00"), end: at("12:00") };
    expect(entryWorkedAt([nine, twin], at("09:30"))?.id).toBe("nine");
  });
});

describe("clock-in findings", () => {
  it("no entry: an unscheduled shift", () => {
    expect(clockInFindings(at("12:00"), [evening], settings)).toEqual([
      { type: "UNSCHEDULED_SHIFT", scheduleEntryId: null, minutes: null },
    ]);
  });
  it("within the grace (inclusive) nothing; after it, late by whole minutes since the start", () => {
    expect(clockInFindings(at("09:05"), [nine], settings)).toEqual([]);
    expect(clockInFindings(new Date(at("09:05").getTime() + 1000), [nine], settings)).toEqual([
      { type: "LATE_CLOCK_IN", scheduleEntryId: "nine", minutes: 5 },
    ]);
    expect(clockInFindings(at("10:12"), [nine], { ...settings, lateGraceMinutes: 0 })).toEqual([
      { type: "LATE_CLOCK_IN", scheduleEntryId: "nine", minutes: 72 },
    ]);
  });
  it("an early arrival is neither late nor unscheduled", () => {
    expect(clockInFindings(at("08:10"), [nine], settings)).toEqual([]);
  });
});

describe("clock-out findings", () => {
  it("early by whole minutes before the end of the entry the shift works, beyond the grace", () => {
    expect(clockOutFindings(at("09:00"), at("16:55"), [nine], settings)).toEqual([]);
    expect(clockOutFindings(at("09:00"), at("15:30"), [nine], settings)).toEqual([
      { type: "EARLY_CLOCK_OUT", scheduleEntryId: "nine", minutes: 90 },
    ]);
  });
  it("an unscheduled shift or a late clock-out is not early", () => {
    expect(clockOutFindings(at("12:00"), at("13:00"), [evening], settings)).toEqual([]);
    expect(clockOutFindings(at("09:00"), at("18:30"), [nine], settings)).toEqual([]);
  });
});

describe("auto clock-out", () => {
  const base = { start: at("09:00"), lastPunch: at("09:00"), entryEnd: null, afterMinutes: 960 };
  it("is not due before the threshold, nor when it is off", () => {
    expect(autoClockOutAt({ ...base, now: at("23:59") })).toBeNull();
    expect(autoClockOutAt({ ...base, afterMinutes: null, now: new Date("2027-03-09T00:00:00Z") })).toBeNull();
  });
  it("closes at start + threshold without an entry, at the entry's end with one", () => {
    const now = new Date("2027-03-06T02:00:00Z");
    expect(autoClockOutAt({ ...base, now })).toEqual(new Date("2027-03-06T01:00:00Z"));
    expect(autoClockOutAt({ ...base, entryEnd: at("17:00"), now })).toEqual(at("17:00"));
  });
  it("waits for an entry that has not ended, and never closes before the last punch", () => {
    const now = new Date("2027-03-06T02:00:00Z");
    expect(autoClockOutAt({ ...base, entryEnd: new Date("2027-03-06T03:00:00Z"), now })).toBeNull();
    expect(autoClockOutAt({ ...base, entryEnd: at("17:00"), lastPunch: at("18:30"), now })).toEqual(at("18:30"));
  });
});

describe("attendance edges", () => {
  it("of two entries as near, the earlier start; of two starting together, the smaller id (in either order)", () => {
    const early = { id: "b-early", start: at("09:00"), end: at("12:00") };
    const late = { id: "a-late", start: at("11:00"), end: at("15:00") };
    expect(entryWorkedAt([early, late], at("10:00"))?.id).toBe("b-early");
    expect(entryWorkedAt([late, early], at("10:00"))?.id).toBe("b-early");
    const a = { id: "a", start: at("09:00"), end: at("12:00") };
    const b = { id: "b", start: at("09:00"), end: at("17:00") };
    expect(entryWorkedAt([a, b], at("09:30"))?.id).toBe("a");
    expect(entryWorkedAt([b, a], at("09:30"))?.id).toBe("a");
  });
  it("auto clock-out is due exactly at start + threshold, and at an entry's end exactly then", () => {
    const start = at("09:00");
    const limit = new Date("2027-03-05T17:00:00Z");
    expect(autoClockOutAt({ start, lastPunch: start, entryEnd: null, afterMinutes: 480, now: limit })).toEqual(limit);
    expect(autoClockOutAt({ start, lastPunch: start, entryEnd: null, afterMinutes: 480, now: new Date(limit.getTime() - 1) })).toBeNull();
    const end = at("18:00");
    expect(autoClockOutAt({ start, lastPunch: start, entryEnd: end, afterMinutes: 480, now: end })).toEqual(end);
  });
  it("a mandatory break not taken: the shift's minutes past the earliest one due", () => {
    // 09:00 to 15:30 is 390 minutes; the first break was due after 300.
    expect(mandatoryBreakFindings(at("09:00"), at("15:30"), [{ frequencyMinutes: 300 }, { frequencyMinutes: 360 }])).toEqual([
      { type: "MISSED_MEAL_BREAK", scheduleEntryId: null, minutes: 90 },
    ]);
    expect(mandatoryBreakFindings(at("09:00"), at("15:30"), [])).toEqual([]);
  });
});
