import { describe, expect, it } from "vitest";
import { deriveHourConfiguration, hourConfigurationProblem, localDatesOf, totalHours } from "@/domain/hour-configuration";
import { inclusionStart, isIncluded } from "@/domain/time-off-inclusion";
import { inUnits, toHours } from "@/domain/time-off-units";

describe("deriveHourConfiguration", () => {
  it("a partial day counts the hours inside the window", () => {
    expect(deriveHourConfiguration(new Date("2026-07-06T13:00:00Z"), new Date("2026-07-06T16:30:00Z"), false, "UTC", 8)).toEqual([
      { date: "2026-07-06", hours: 3.5 },
    ]);
  });

  it("a window across midnight splits by local date in the request's zone", () => {
    expect(
      deriveHourConfiguration(new Date("2026-07-07T02:00:00Z"), new Date("2026-07-07T06:00:00Z"), false, "America/New_York", 8),
    ).toEqual([
      { date: "2026-07-06", hours: 2 },
      { date: "2026-07-07", hours: 2 },
    ]);
  });

  it("the DST day is 23 h long: a whole local day off counts 23 h when not all-day", () => {
    const day = deriveHourConfiguration(new Date("2026-03-08T05:00:00Z"), new Date("2026-03-09T04:00:00Z"), false, "America/New_York", 8);
    expect(day).toEqual([{ date: "2026-03-08", hours: 23 }]);
  });

  it("all-day takes the full day for each local date; an end at midnight does not reach the next date", () => {
    const config = deriveHourConfiguration(new Date("2026-12-30T00:00:00Z"), new Date("2027-01-02T00:00:00Z"), true, "UTC", 7.5);
    expect(config.map((d) => d.date)).toEqual(["2026-12-30", "2026-12-31", "2027-01-01"]);
    expect(totalHours(config)).toBe(22.5);
    expect(localDatesOf(new Date("2028-02-28T00:00:00Z"), new Date("2028-03-01T00:00:00Z"), "UTC")).toEqual(["2028-02-28", "2028-02-29"]);
  });

  it("hourConfigurationProblem: every date of the window once, none outside it", () => {
    const start = new Date("2026-07-06T00:00:00Z");
    const end = new Date("2026-07-08T00:00:00Z");
    const limits = { isAllDay: true, fullDayHours: 8, mayExceedFullDay: false };
    expect(hourConfigurationProblem([], start, end, "UTC", limits)).toMatch(/missing 2026-07-06, 2026-07-07/);
    expect(hourConfigurationProblem([{ date: "2026-07-08", hours: 1 }], start, end, "UTC", limits)).toMatch(/outside/);
    const twice = [
      { date: "2026-07-06", hours: 1 },
      { date: "2026-07-06", hours: 1 },
    ];
    expect(hourConfigurationProblem(twice, start, end, "UTC", limits)).toMatch(/twice/);
    expect(hourConfigurationProblem([{ date: "2026-07-07", hours: 4 }], start, end, "UTC", limits)).toMatch(/missing 2026-07-06/);
    const both = [
      { date: "2026-07-07", hours: 4 },
      { date: "2026-07-06", hours: 8 },
    ];
    expect(hourConfigurationProblem(both, start, end, "UTC", limits)).toBeNull();
  });

  it("hourConfigurationProblem: one day of a Monday–Friday week is not the week", () => {
    const week = [new Date("2026-07-06T00:00:00Z"), new Date("2026-07-11T00:00:00Z")] as const;
    const limits = { isAllDay: true, fullDayHours: 8, mayExceedFullDay: false };
    expect(hourConfigurationProblem([{ date: "2026-07-06", hours: 0.01 }], ...week, "UTC", limits)).toMatch(/missing/);
  });

  it("hourConfigurationProblem: a partial day holds the window's hours that day, no more", () => {
    const [start, end] = [new Date("2026-07-06T09:00:00Z"), new Date("2026-07-06T10:00:00Z")];
    const limits = { isAllDay: false, fullDayHours: 8, mayExceedFullDay: true };
    expect(hourConfigurationProblem([{ date: "2026-07-06", hours: 20 }], start, end, "UTC", limits)).toMatch(
      /more than the window's hours that day \(1\)/,
    );
    expect(hourConfigurationProblem([{ date: "2026-07-06", hours: 1 }], start, end, "UTC", limits)).toBeNull();
    expect(hourConfigurationProblem([{ date: "2026-07-06", hours: 0.5 }], start, end, "UTC", limits)).toBeNull();
  });

  it("hourConfigurationProblem: an all-day date holds the policy's full day; a manager's up to the local day", () => {
    const [start, end] = [new Date("2026-11-01T04:00:00Z"), new Date("2026-11-02T05:00:00Z")];
    const employee = { isAllDay: true, fullDayHours: 8, mayExceedFullDay: false };
    expect(hourConfigurationProblem([{ date: "2026-11-01", hours: 9 }], start, end, "America/New_York", employee)).toMatch(
      /full day \(8\)/,
    );
    const manager = { ...employee, mayExceedFullDay: true };
    expect(hourConfigurationProblem([{ date: "2026-11-01", hours: 25 }], start, end, "America/New_York", manager)).toBeNull();
    expect(hourConfigurationProblem([{ date: "2026-11-01", hours: 25.5 }], start, end, "America/New_York", manager)).toMatch(
      /local day \(25\)/,
    );
  });

  it("the derived configuration of a 25-hour day passes the same check, so it can be sent back", () => {
    const [start, end] = [new Date("2026-11-01T04:00:00Z"), new Date("2026-11-02T05:00:00Z")];
    const derived = deriveHourConfiguration(start, end, false, "America/New_York", 8);
    expect(derived).toEqual([{ date: "2026-11-01", hours: 25 }]);
    const limits = { isAllDay: false, fullDayHours: 8, mayExceedFullDay: false };
    expect(hourConfigurationProblem(derived, start, end, "America/New_York", limits)).toBeNull();
  });
});

describe("inclusion", () => {
  const worker = { roleIds: ["r1"], locationIds: ["l1"], employmentType: "part_time" };

  it("an explicit choice wins over the rule", () => {
    expect(isIncluded(false, { type: "All" }, worker)).toBe(false);
    expect(isIncluded(true, undefined, worker)).toBe(true);
  });

  it("the rule decides otherwise; no rule includes nobody", () => {
    expect(isIncluded(null, { type: "All" }, worker)).toBe(true);
    expect(isIncluded(null, { type: "Role", value: "r1" }, worker)).toBe(true);
    expect(isIncluded(null, { type: "Role", value: "r2" }, worker)).toBe(false);
    expect(isIncluded(null, { type: "Location", value: "l1" }, worker)).toBe(true);
    expect(isIncluded(null, { type: "EmploymentType", value: "full_time" }, worker)).toBe(false);
    expect(isIncluded(null, undefined, worker)).toBe(false);
  });

  it("accrual starts at the latest of activation, the worker's creation and an explicit inclusion", () => {
    const a = new Date("2026-01-01T00:00:00Z");
    const b = new Date("2026-02-01T00:00:00Z");
    expect(inclusionStart(a, b, null)).toEqual(b);
    expect(inclusionStart(b, a, new Date("2026-03-01T00:00:00Z"))).toEqual(new Date("2026-03-01T00:00:00Z"));
  });
});

describe("units", () => {
  it("days show hours ÷ fullDayDuration; hours pass", () => {
    expect(inUnits(20, { units: "days", fullDayDuration: 8 })).toBe(2.5);
    expect(inUnits(20, { units: "hours", fullDayDuration: 8 })).toBe(20);
    expect(toHours(2.5, { units: "days", fullDayDuration: 8 })).toBe(20);
  });
});
