import { describe, expect, it } from "vitest";
import type { LimitSettings } from "@/domain/accrual";
import {
  accrualDayOfMonth,
  cappedIncrement,
  carryoverExpiry,
  carryoverYearsDue,
  earnedForShift,
  entriesDue,
  fixedAccrualsDue,
} from "@/domain/accrual";

const periodic = (fixedAmount: LimitSettings["fixedAmount"]): LimitSettings => ({
  isFixedAmount: true,
  fixedAmount: { hours: 4, accrualCycle: "Periodic", ...fixedAmount },
});

const dates = (entries: { effectiveDate: string }[]) => entries.map((e) => e.effectiveDate);

describe("fixedAccrualsDue", () => {
  it("weekly on a weekday: every such date from the start to today, inclusive", () => {
    const due = fixedAccrualsDue(periodic({ accrualFrequency: "EveryOneWeek", accrualDay: "Sunday" }), 8, "2026-03-01", null, "2026-03-22");
    expect(dates(due)).toEqual(["2026-03-01", "2026-03-08", "2026-03-15", "2026-03-22"]);
    expect(due[0]).toEqual({ periodKey: "week:2026-03-01", effectiveDate: "2026-03-01", hours: 4 });
  });

  it("continues after the watermark only: a second run adds nothing, a late run catches up the missed weeks", () => {
    const limit = periodic({ accrualFrequency: "EveryOneWeek", accrualDay: "Monday" });
    expect(fixedAccrualsDue(limit, 8, "2026-01-01", "2026-01-12", "2026-01-12")).toEqual([]);
    expect(dates(fixedAccrualsDue(limit, 8, "2026-01-01", "2026-01-12", "2026-02-02"))).toEqual(["2026-01-19", "2026-01-26", "2026-02-02"]);
  });

  it("grants nothing before the inclusion date, even after a watermark from before it", () => {
    const limit = periodic({ accrualFrequency: "EveryOneWeek", accrualDay: "Monday" });
    // Included Wednesday 14 January; the watermark (Monday 5 January) predates it, so Monday 12 January is not due.
    expect(dates(fixedAccrualsDue(limit, 8, "2026-01-14", "2026-01-05", "2026-01-26"))).toEqual(["2026-01-19", "2026-01-26"]);
  });

  it("every two weeks keeps one parity whoever starts when", () => {
    const limit = periodic({ accrualFrequency: "EveryTwoWeeks", accrualDay: "Friday" });
    const a = dates(fixedAccrualsDue(limit, 8, "2026-01-01", null, "2026-02-28"));
    const b = dates(fixedAccrualsDue(limit, 8, "2026-01-10", null, "2026-02-28"));
    expect(a.length).toBe(4);
    expect(b).toEqual(a.filter((d) => d >= "2026-01-10"));
    for (let i = 1; i < a.length; i++) expect(Date.parse(a[i]!) - Date.parse(a[i - 1]!)).toBe(14 * 86_400_000);
  });

  it("monthly on the 31st falls on each month's last day, leap February included", () => {
    const limit = periodic({ accrualFrequency: "EveryMonth", accrualDate: "31st" });
    expect(dates(fixedAccrualsDue(limit, 8, "2028-01-01", null, "2028-04-30"))).toEqual([
      "2028-01-31",
      "2028-02-29",
      "2028-03-31",
      "2028-04-30",
    ]);
    expect(fixedAccrualsDue(limit, 8, "2028-01-01", null, "2028-04-30").map((e) => e.periodKey)).toEqual([
      "month:2028-01",
      "month:2028-02",
      "month:2028-03",
      "month:2028-04",
    ]);
  });

  it("monthly on `last` and on the 1st, across a year end", () => {
    expect(
      dates(fixedAccrualsDue(periodic({ accrualFrequency: "EveryMonth", accrualDate: "last" }), 8, "2026-11-15", null, "2027-02-28")),
    ).toEqual(["2026-11-30", "2026-12-31", "2027-01-31", "2027-02-28"]);
    expect(
      dates(fixedAccrualsDue(periodic({ accrualFrequency: "EveryMonth", accrualDate: "1st" }), 8, "2026-11-15", null, "2027-01-01")),
    ).toEqual(["2026-12-01", "2027-01-01"]);
  });

  it("yearly grants each 1 January after the start", () => {
    expect(
      fixedAccrualsDue(periodic({ accrualFrequency: "EveryYear" }), 8, "2025-06-01", null, "2027-03-01").map((e) => e.periodKey),
    ).toEqual(["year:2026", "year:2027"]);
  });

  it("AllAtOnce grants on inclusion and again each 1 January, daysEarned counting full days", () => {
    const limit: LimitSettings = { isFixedAmount: true, fixedAmount: { daysEarned: 10, accrualCycle: "AllAtOnce" } };
    expect(fixedAccrualsDue(limit, 7.5, "2026-05-20", null, "2028-01-01")).toEqual([
      { periodKey: "year:2026", effectiveDate: "2026-05-20", hours: 75 },
      { periodKey: "year:2027", effectiveDate: "2027-01-01", hours: 75 },
      { periodKey: "year:2028", effectiveDate: "2028-01-01", hours: 75 },
    ]);
  });

  it("nothing without isFixedAmount, without an amount, or before the start", () => {
    expect(fixedAccrualsDue({ fixedAmount: { hours: 4, accrualCycle: "AllAtOnce" } }, 8, "2026-01-01", null, "2026-02-01")).toEqual([]);
    expect(fixedAccrualsDue(periodic({ hours: 0, accrualFrequency: "EveryYear" }), 8, "2026-01-01", null, "2027-02-01")).toEqual([]);
    expect(fixedAccrualsDue(periodic({ accrualFrequency: "EveryOneWeek" }), 8, "2026-03-01", null, "2026-02-01")).toEqual([]);
  });
});

describe("entriesDue", () => {
  const policy = {
    limitSettings: periodic({ accrualFrequency: "EveryMonth", accrualDate: "1st" }),
    fullDayDuration: 8,
    carryoverLimit: 16,
  };

  it("reads dates in the organization's zone: 23:30 UTC on 31 March is already 1 April in Berlin", () => {
    const now = new Date("2026-03-31T23:30:00Z");
    expect(entriesDue(policy, new Date("2026-03-15T00:00:00Z"), now, "UTC").accruals).toEqual([]);
    expect(dates(entriesDue(policy, new Date("2026-03-15T00:00:00Z"), now, "Europe/Berlin").accruals)).toEqual(["2026-04-01"]);
  });

  it("the DST change day is one local date like any other (New York, 8 March 2026)", () => {
    const weekly = { ...policy, limitSettings: periodic({ accrualFrequency: "EveryOneWeek", accrualDay: "Sunday" }) };
    const due = entriesDue(weekly, new Date("2026-03-01T12:00:00Z"), new Date("2026-03-09T03:30:00Z"), "America/New_York");
    expect(dates(due.accruals)).toEqual(["2026-03-01", "2026-03-08"]);
    expect(due.today).toBe("2026-03-08");
  });

  it("names each year boundary's carryover once, at 1 January in the zone", () => {
    expect(entriesDue(policy, new Date("2025-06-01T00:00:00Z"), new Date("2027-01-01T06:00:00Z"), "Asia/Tokyo").carryovers).toEqual([
      { periodKey: "year:2026", effectiveDate: "2026-01-01" },
      { periodKey: "year:2027", effectiveDate: "2027-01-01" },
    ]);
    expect(
      entriesDue(policy, new Date("2025-06-01T00:00:00Z"), new Date("2026-12-31T23:00:00Z"), "America/Los_Angeles").carryovers,
    ).toEqual([{ periodKey: "year:2026", effectiveDate: "2026-01-01" }]);
    expect(
      entriesDue({ ...policy, carryoverLimit: null }, new Date("2025-06-01T00:00:00Z"), new Date("2027-01-02T00:00:00Z"), "UTC").carryovers,
    ).toEqual([]);
  });
});

describe("carryover and per-hour earnings", () => {
  it("carryoverYearsDue skips boundaries at or before the watermark", () => {
    expect(carryoverYearsDue("2024-03-01", "2025-12-31", "2026-01-01")).toEqual([{ periodKey: "year:2026", effectiveDate: "2026-01-01" }]);
    expect(carryoverYearsDue("2024-03-01", "2026-01-01", "2026-06-01")).toEqual([]);
  });

  it("carryoverExpiry is what exceeds the limit, never negative", () => {
    expect(carryoverExpiry(50, 40)).toBe(10);
    expect(carryoverExpiry(30, 40)).toBe(0);
    expect(carryoverExpiry(-5, 0)).toBe(0);
  });

  it("earnedForShift: hoursEarned per hoursWorked of payable time", () => {
    const limit: LimitSettings = { perHourEarnings: { hoursEarned: 1, hoursWorked: 30 } };
    expect(earnedForShift(limit, 30 * 60)).toBe(1);
    expect(earnedForShift(limit, 450)).toBe(0.25);
    expect(earnedForShift({}, 600)).toBe(0);
  });

  it("cappedIncrement keeps the balance at or under the maximum; decrements pass", () => {
    const limit: LimitSettings = {
      perHourEarnings: { hoursEarned: 1, hoursWorked: 10, isLimitedMaximumBalance: true, maximumHoursBalance: 40 },
    };
    expect(cappedIncrement(limit, 2, 39)).toBe(1);
    expect(cappedIncrement(limit, 2, 45)).toBe(0);
    expect(cappedIncrement(limit, -2, 45)).toBe(-2);
    expect(cappedIncrement({ perHourEarnings: { hoursEarned: 1, hoursWorked: 10 } }, 2, 100)).toBe(2);
  });

  it("accrualDayOfMonth clamps to the month", () => {
    expect(accrualDayOfMonth("30th", 2026, 2)).toBe(28);
    expect(accrualDayOfMonth("last", 2024, 2)).toBe(29);
    expect(accrualDayOfMonth("15th", 2026, 4)).toBe(15);
  });
});

describe("accrual edges", () => {
  it("accrualDayOfMonth: clamps to the month's end; no number, or day 0, is the 1st", () => {
    expect(accrualDayOfMonth("31st", 2026, 2)).toBe(28);
    expect(accrualDayOfMonth("last", 2028, 2)).toBe(29);
    expect(accrualDayOfMonth("15th", 2026, 2)).toBe(15);
    expect(accrualDayOfMonth("0th", 2026, 2)).toBe(1);
    expect(accrualDayOfMonth("-3", 2026, 2)).toBe(1);
    expect(accrualDayOfMonth("soon", 2026, 2)).toBe(1);
    expect(accrualDayOfMonth(undefined, 2026, 2)).toBe(1);
  });

  it("weekly and fortnightly grants fall on Mondays without an accrualDay; fortnights counted from 1970-01-05", () => {
    // 2026-06-01 is a Monday of an odd week since 1970-01-05 (2,943 weeks): the fortnights open 8 and 22 June.
    const weekly = periodic({ accrualFrequency: "EveryOneWeek" });
    expect(dates(fixedAccrualsDue(weekly, 8, "2026-06-01", null, "2026-06-14"))).toEqual(["2026-06-01", "2026-06-08"]);
    const fortnightly = periodic({ accrualFrequency: "EveryTwoWeeks" });
    expect(dates(fixedAccrualsDue(fortnightly, 8, "2026-06-01", null, "2026-06-28"))).toEqual(["2026-06-08", "2026-06-22"]);
    expect(fixedAccrualsDue(fortnightly, 8, "2026-06-01", null, "2026-06-28")[0]).toEqual({
      periodKey: "fortnight:2026-06-08",
      effectiveDate: "2026-06-08",
      hours: 4,
    });
  });

  it("a periodic policy without a frequency grants nothing", () => {
    expect(fixedAccrualsDue(periodic({}), 8, "2026-06-01", null, "2026-12-31")).toEqual([]);
  });

  it("AllAtOnce: the inclusion date is granted once; a watermark on it starts the day after, one before it at the start", () => {
    const once: LimitSettings = { isFixedAmount: true, fixedAmount: { hours: 40, accrualCycle: "AllAtOnce" } };
    expect(dates(fixedAccrualsDue(once, 8, "2026-03-10", null, "2026-03-12"))).toEqual(["2026-03-10"]);
    expect(fixedAccrualsDue(once, 8, "2026-03-10", "2026-03-10", "2026-03-12")).toEqual([]);
    expect(dates(fixedAccrualsDue(once, 8, "2026-03-10", "2026-03-09", "2026-03-12"))).toEqual(["2026-03-10"]);
  });

  it("carryoverYearsDue: a watermark from before the inclusion counts from the inclusion", () => {
    expect(carryoverYearsDue("2025-03-01", "2024-06-01", "2026-02-01")).toEqual([{ periodKey: "year:2026", effectiveDate: "2026-01-01" }]);
  });

  it("cappedIncrement: no cap without per-hour earnings or without a maximum", () => {
    expect(cappedIncrement({ isFixedAmount: false }, 5, 100)).toBe(5);
    expect(
      cappedIncrement(
        { isFixedAmount: false, perHourEarnings: { hoursEarned: 1, hoursWorked: 30, isLimitedMaximumBalance: true } },
        5,
        100,
      ),
    ).toBe(5);
    expect(
      cappedIncrement(
        {
          isFixedAmount: false,
          perHourEarnings: { hoursEarned: 1, hoursWorked: 30, isLimitedMaximumBalance: false, maximumHoursBalance: 40 },
        },
        5,
        100,
      ),
    ).toBe(5);
  });
});
