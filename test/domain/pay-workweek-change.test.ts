import { describe, expect, it } from "vitest";
import { addDays } from "@/domain/local-time";
import { organizationCalendar, withOverlapsInOldWeek, workdayAt, workweekOverlaps } from "@/domain/pay-calendar";
import { computePay, type PayShift } from "@/domain/pay-classification";
import { payShift, ruleSet } from "../helpers/pay-fixtures";

/*
 * A change of workweek (29 CFR 778.301–778.302): Monday weeks, then Sunday weeks from Wednesday 2025-06-11. The
 * change takes effect at the end of the old week holding 2025-06-11 (Mon 06-16 00:00); the first Sunday week starts
 * Sun 06-22. The old week as it was constituted, Mon 06-16 – Sun 06-22, and the first new week, Sun 06-22 – Sat
 * 06-28, share Sunday 06-22: the overlap. Pay is the greater of (1) the overlap counted in the old week only and
 * (2) in the new week only.
 */
const MONDAY_WEEKS = ruleSet("prs_mon", "FLSA", { workweekStartsOn: "Monday", effectiveFrom: "2025-01-01" });
const SUNDAY_WEEKS = ruleSet("prs_sun", "FLSA", { workweekStartsOn: "Sunday", effectiveFrom: "2025-06-11" });
const SETS = [MONDAY_WEEKS, SUNDAY_WEEKS];
const ms = (at: string) => Date.parse(`${at}Z`);

/** `hours` a day from 08:00 on each of `count` dates from `first`. */
const daily = (first: string, count: number, hours: number): PayShift[] =>
  Array.from({ length: count }, (_, i) => payShift(addDays(first, i), "08:00", hours * 60));

const gross = (shifts: PayShift[]) =>
  computePay({ startDate: "2025-06-16", endDate: "2025-06-28", shifts, timeOff: [], ruleSets: SETS }).totals.grossPay;

describe("the overlap of a change of workweek", () => {
  it("is Sunday 2025-06-22: the old week Mon 06-16 – Sun 06-22, the new Sun 06-22 – Sat 06-28", () => {
    const overlaps = workweekOverlaps(organizationCalendar(SETS));
    expect(overlaps).toEqual([
      {
        index: expect.any(Number),
        oldFrom: ms("2025-06-16T00:00:00"),
        from: ms("2025-06-22T00:00:00"),
        to: ms("2025-06-23T00:00:00"),
        newTo: ms("2025-06-29T00:00:00"),
      },
    ]);
  });

  it("counted in the old week: the old week runs seven days, the first new week is what is left of it", () => {
    const timeline = organizationCalendar(SETS);
    const inOld = withOverlapsInOldWeek(timeline, workweekOverlaps(timeline));
    const weekOf = (at: string, segments = inOld) => {
      const day = workdayAt(segments, ms(at));
      return [new Date(day.weekFrom).toISOString(), new Date(day.weekTo).toISOString()];
    };
    // One minute either side of each edge of the overlap.
    expect(weekOf("2025-06-21T23:59:00")).toEqual(["2025-06-16T00:00:00.000Z", "2025-06-23T00:00:00.000Z"]);
    expect(weekOf("2025-06-22T00:00:00")).toEqual(["2025-06-16T00:00:00.000Z", "2025-06-23T00:00:00.000Z"]);
    expect(weekOf("2025-06-22T23:59:00")).toEqual(["2025-06-16T00:00:00.000Z", "2025-06-23T00:00:00.000Z"]);
    expect(weekOf("2025-06-23T00:00:00")).toEqual(["2025-06-23T00:00:00.000Z", "2025-06-29T00:00:00.000Z"]);
    expect(weekOf("2025-06-29T00:00:00")).toEqual(["2025-06-29T00:00:00.000Z", "2025-07-06T00:00:00.000Z"]);
    // The timeline itself counts the overlap in the new week.
    expect(weekOf("2025-06-21T23:59:00", timeline)).toEqual(["2025-06-16T00:00:00.000Z", "2025-06-22T00:00:00.000Z"]);
    expect(weekOf("2025-06-22T00:00:00", timeline)).toEqual(["2025-06-22T00:00:00.000Z", "2025-06-29T00:00:00.000Z"]);
  });
});

describe("pay at a change of workweek is the greater of the two counts (29 CFR 778.302(a)), at $20 an hour", () => {
  it.each([
    {
      // 36 h Mon 06-16 – Sat 06-21 (6 × 6 h), 10 h Sun 06-22, 30 h Mon 06-23 – Fri 06-27 (5 × 6 h).
      // (1) In the old week: 46 h → 40 × 20 + 6 × 30 = 980; new week (06-23..06-28) 30 h → 600; total 1,580.
      // (2) In the new week: old 36 h → 720; new 40 h → 800; total 1,520. The greater: 1,580.
      name: "the old-week count wins: $1,580 (not $1,520)",
      shifts: () => [...daily("2025-06-16", 6, 6), ...daily("2025-06-22", 1, 10), ...daily("2025-06-23", 5, 6)],
      gross: 1580,
    },
    {
      // 30 h Mon 06-16 – Fri 06-20 (5 × 6 h), 10 h Sun 06-22, 36 h Mon 06-23 – Sat 06-28 (6 × 6 h).
      // (1) In the old week: 40 h → 800; new week 36 h → 720; total 1,520.
      // (2) In the new week: old 30 h → 600; new 46 h → 40 × 20 + 6 × 30 = 980; total 1,580. The greater: 1,580.
      name: "the new-week count wins: $1,580 (not $1,520)",
      shifts: () => [...daily("2025-06-16", 5, 6), ...daily("2025-06-22", 1, 10), ...daily("2025-06-23", 6, 6)],
      gross: 1580,
    },
    {
      // 36 h before, 4 h Sun 06-22, 30 h after: (1) 40 h + 30 h, (2) 36 h + 34 h: no overtime either way, 70 × 20.
      name: "exactly 40 h in the old week: no overtime either way, $1,400",
      shifts: () => [...daily("2025-06-16", 6, 6), ...daily("2025-06-22", 1, 4), ...daily("2025-06-23", 5, 6)],
      gross: 1400,
    },
    {
      // The Sunday shift 08:00–12:06 (4.1 h): (1) old week 40.1 h → 40 × 20 + 0.1 × 30 = 803; new 30 h → 600;
      // total 1,403. (2) 36 h + 34.1 h, no overtime → 70.1 × 20 = 1,402. The greater: 1,403.
      name: "six minutes over 40 h in the old week: $1,403 (not $1,402)",
      shifts: () => [...daily("2025-06-16", 6, 6), payShift("2025-06-22", "08:00", 246), ...daily("2025-06-23", 5, 6)],
      gross: 1403,
    },
    {
      // Nothing worked on the overlap: both counts are one. 36 h + 30 h = 66 × 20.
      name: "no hour in the overlap: $1,320 either way",
      shifts: () => [...daily("2025-06-16", 6, 6), ...daily("2025-06-23", 5, 6)],
      gross: 1320,
    },
  ])("$name", ({ shifts, gross: expected }) => {
    expect(gross(shifts())).toBe(expected);
  });

  it("the lines of the old-week count: the Sunday's 6 h past 40 are weekly overtime at $30, dated 06-22", () => {
    const shifts = [...daily("2025-06-16", 6, 6), ...daily("2025-06-22", 1, 10), ...daily("2025-06-23", 5, 6)];
    const [employee] = computePay({ startDate: "2025-06-22", endDate: "2025-06-22", shifts, timeOff: [], ruleSets: SETS }).employees;
    // A range of the Sunday alone answers the same count as the whole fortnight: 4 h regular, 6 h overtime.
    expect(employee!.lines.map((l) => [l.date, l.kind, l.minutes, l.rate, l.amount])).toEqual([
      ["2025-06-22", "REGULAR", 240, 20, 80],
      ["2025-06-22", "OVERTIME", 360, 30, 180],
    ]);
    expect(employee!.workweeks.map((w) => [w.startDate, w.endDate, w.minutes])).toEqual([["2025-06-16", "2025-06-22", 2760]]);
  });
});
