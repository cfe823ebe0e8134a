import { describe, expect, it } from "vitest";
import { frozenDates, periodEnded, workedDates } from "@/domain/pay-period-freeze";
import type { Weekday } from "@/domain/pay-rules";

/** 2026-09-14 is a Monday: the weekly period Monday 14 … Sunday 20. */
const PERIOD = { startDate: "2026-09-14", endDate: "2026-09-20" };

const set = (workweekStartsOn: Weekday, effectiveFrom = "2026-01-01", locationId: string | null = null) => ({
  workweekStartsOn,
  effectiveFrom,
  locationId,
});

describe("frozenDates: every date of every workweek overlapping the period", () => {
  it.each([
    ["no set: the default Monday workweek is the period", PERIOD, [], { from: "2026-09-14", to: "2026-09-20" }],
    ["Monday workweeks", PERIOD, [set("Monday")], { from: "2026-09-14", to: "2026-09-20" }],
    // The case: the Sunday before the period and the week after its last Sunday change its overtime.
    ["Sunday workweeks: Sunday 13 … Saturday 26", PERIOD, [set("Sunday")], { from: "2026-09-13", to: "2026-09-26" }],
    [
      "a location's Wednesday set beside the organization's Monday",
      PERIOD,
      [set("Monday"), set("Wednesday", "2026-01-01", "loc")],
      {
        from: "2026-09-09",
        to: "2026-09-22",
      },
    ],
    [
      "a Sunday set taking effect inside the period, the default before it",
      PERIOD,
      [set("Sunday", "2026-09-16")],
      {
        from: "2026-09-13",
        to: "2026-09-26",
      },
    ],
    [
      "a set taking effect more than 6 days after the period does not count",
      PERIOD,
      [set("Monday"), set("Sunday", "2026-09-27")],
      {
        from: "2026-09-14",
        to: "2026-09-20",
      },
    ],
    [
      "a set replaced more than 6 days before the period does not count",
      PERIOD,
      [set("Sunday"), set("Monday", "2026-09-01")],
      {
        from: "2026-09-14",
        to: "2026-09-20",
      },
    ],
    [
      "a semimonthly period from a Tuesday, Monday workweeks",
      { startDate: "2026-09-01", endDate: "2026-09-15" },
      [set("Monday")],
      {
        from: "2026-08-31",
        to: "2026-09-20",
      },
    ],
    [
      "a monthly period, Saturday workweeks",
      { startDate: "2026-02-01", endDate: "2026-02-28" },
      [set("Saturday")],
      {
        from: "2026-01-31",
        to: "2026-03-06",
      },
    ],
  ])("%s", (_, period, sets, expected) => {
    expect(frozenDates(period, sets)).toEqual(expected);
  });

  it("a workday starting after midnight freezes the date after the last workweek too: its early hours count in it", () => {
    // Sunday workweeks from 04:00: Sunday 27 at 02:00 is still Saturday 26's workday, in the last frozen week.
    expect(frozenDates(PERIOD, [{ ...set("Sunday"), workdayStartsAt: "04:00" }])).toEqual({ from: "2026-09-13", to: "2026-09-27" });
    expect(frozenDates(PERIOD, [{ ...set("Sunday"), workdayStartsAt: "00:00" }])).toEqual({ from: "2026-09-13", to: "2026-09-26" });
    // A later set's late workday counts only once it is in force near the period.
    expect(frozenDates(PERIOD, [set("Sunday"), { ...set("Sunday", "2027-01-03"), workdayStartsAt: "04:00" }])).toEqual({
      from: "2026-09-13",
      to: "2026-09-26",
    });
  });

  it("never reaches more than 6 days beyond either end", () => {
    const days: Weekday[] = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
    const frozen = frozenDates(
      PERIOD,
      days.map((d, i) => set(d, "2026-01-01", `loc${i}`)),
    );
    expect(frozen).toEqual({ from: "2026-09-08", to: "2026-09-26" });
  });
});

describe("periodEnded", () => {
  const frozen = { from: "2026-09-13", to: "2026-09-26" };
  it.each([
    ["on its last day", "2026-09-20", false],
    ["after it, inside the last overlapping workweek", "2026-09-21", false],
    ["on the last frozen day", "2026-09-26", false],
    ["once every overlapping workweek has ended", "2026-09-27", true],
  ])("%s", (_, today, ended) => {
    expect(periodEnded(PERIOD, frozen, today)).toBe(ended);
  });

  it("a period far in the future has not ended", () => {
    const far = { startDate: "2199-12-30", endDate: "2200-01-05" };
    expect(periodEnded(far, frozenDates(far, []), "2026-11-27")).toBe(false);
  });
});

describe("workedDates: the local dates of a span's first and last minute", () => {
  const at = (iso: string) => new Date(iso);
  it.each([
    ["a day shift", "2025-09-27T14:00:00Z", "2025-09-27T20:00:00Z", 0, "2025-09-27", "2025-09-27"],
    [
      "ending exactly at midnight: no minute of the next date",
      "2025-09-27T16:00:00Z",
      "2025-09-28T00:00:00Z",
      0,
      "2025-09-27",
      "2025-09-27",
    ],
    ["one minute past midnight", "2025-09-27T16:00:00Z", "2025-09-28T00:01:00Z", 0, "2025-09-27", "2025-09-28"],
    ["crossing midnight", "2025-09-27T22:00:00Z", "2025-09-28T08:00:00Z", 0, "2025-09-27", "2025-09-28"],
    ["crossing local midnight at UTC−4", "2025-09-28T02:00:00Z", "2025-09-28T12:00:00Z", -240, "2025-09-27", "2025-09-28"],
    ["before local midnight at UTC−4 though after UTC's", "2025-09-28T00:00:00Z", "2025-09-28T03:59:00Z", -240, "2025-09-27", "2025-09-27"],
  ])("%s", (_, start, end, offset, date, through) => {
    expect(workedDates(at(start), at(end), offset)).toEqual({ date, through });
  });

  it("an open span touches its start's date", () => {
    expect(workedDates(at("2025-09-27T22:00:00Z"), null, 0)).toEqual({ date: "2025-09-27", through: "2025-09-27" });
  });
});
