import { describe, expect, it } from "vitest";
import type { Worker, WorkSpan } from "@/domain/working-time/checks";
import { workingTimePack } from "@/domain/working-time/packs";
import { referencePeriods, summarizePeriod, weeklyAverageViolation } from "@/domain/working-time/report";
import { shiftSpan } from "../../helpers/work-spans";

const uk = workingTimePack("UK", "2026-06-01")!;
const jp = workingTimePack("JP", "2026-06-01")!;
const DAY = 86_400_000;

/** `weeks` weeks from Monday 2026-01-05, five days a week of `minutesPerDay` from 08:00 UTC. */
const weeksOf = (weeks: number, minutesPerDay: number, days = 5): WorkSpan[] => {
  const spans: WorkSpan[] = [];
  for (let w = 0; w < weeks; w++)
    for (let d = 0; d < days; d++) {
      const start = Date.parse("2026-01-05T08:00:00Z") + (w * 7 + d) * DAY;
      spans.push({
        id: `s${w}-${d}`,
        kind: "SHIFT",
        start: new Date(start),
        end: new Date(start + minutesPerDay * 60_000),
        breakBlocks: [],
        utcOffset: 0,
      });
    }
  return spans;
};
const worker: Worker = { birthDate: null, optOut: null };
// 17 weeks: 2026-01-05 .. 2026-05-03 (119 days).
const range = { start: "2026-01-05", end: "2026-05-03" };

describe("UK 17-week average (WTR 1998 reg. 4)", () => {
  it("one period of 17 weeks", () => expect(referencePeriods(uk, range.start, range.end)).toEqual([range]));
  it("exactly 48 h a week on average passes", () => {
    // 5 days x 9 h 36 min = 48 h a week.
    const found = summarizePeriod(uk, weeksOf(17, 576), range, range, worker);
    expect(found.averageWeeklyHours).toBe(48);
    expect(found.violations.filter((v) => v.rule === "WEEKLY_AVERAGE")).toEqual([]);
  });
  it("50 h a week on average is reported, with its source", () => {
    // 5 days x 10 h = 50 h a week.
    const found = summarizePeriod(uk, weeksOf(17, 600), range, range, worker);
    expect(found.averageWeeklyHours).toBe(50);
    expect(found.longestDayHours).toBe(10);
    expect(found.shortestRestHours).toBe(14); // 18:00 to 08:00
    expect(found.violations.filter((v) => v.rule === "WEEKLY_AVERAGE")).toEqual([
      {
        rule: "WEEKLY_AVERAGE",
        limit: 48,
        actual: 50,
        unit: "HOURS",
        date: "2026-01-05",
        spanIds: [],
        source: "WTR 1998 reg. 4(1), 4(3)(b); opt-out reg. 5",
      },
    ]);
  });
  it("is not reported while the worker's opt-out is in force, and is once it is withdrawn", () => {
    const optedOut: Worker = { birthDate: null, optOut: { signedOn: "2025-12-01", withdrawnOn: null } };
    expect(summarizePeriod(uk, weeksOf(17, 600), range, range, optedOut).violations.filter((v) => v.rule === "WEEKLY_AVERAGE")).toEqual([]);
    const withdrawn: Worker = { birthDate: null, optOut: { signedOn: "2025-12-01", withdrawnOn: "2026-05-03" } };
    expect(
      summarizePeriod(uk, weeksOf(17, 600), range, range, withdrawn).violations.filter((v) => v.rule === "WEEKLY_AVERAGE"),
    ).toHaveLength(1);
  });
  it("counts a week with no 24-hour rest (reg. 11)", () => {
    // Seven days a week of 18 h (08:00-02:00): the longest rest is 6 h each week.
    const found = summarizePeriod(
      uk,
      weeksOf(2, 18 * 60, 7),
      { start: "2026-01-05", end: "2026-01-18" },
      { start: "2026-01-05", end: "2026-01-18" },
      worker,
    );
    expect(found.weeksWithoutWeeklyRest).toBe(2);
  });
});

describe("Japan's monthly overtime cap (art. 36)", () => {
  it("45 h of overtime in a month passes, more is reported", () => {
    // January 2026 weeks starting 5, 12, 19, 26: 4 weeks x 5 days. 10 h 15 min a day: 2 h 15 over 8 → 11.25 h a week → 45 h.
    const january = { start: "2026-01-01", end: "2026-01-31" };
    const overtime = (minutes: number) =>
      summarizePeriod(jp, weeksOf(4, minutes), january, january, worker).violations.filter((v) => v.rule === "MONTHLY_OVERTIME");
    expect(overtime(615)).toEqual([]);
    expect(overtime(616)).toMatchObject([{ rule: "MONTHLY_OVERTIME", limit: 45, actual: 45.33 }]); // 2 h 16 x 20 = 45 h 20
  });
});

describe("a clean period and the worst window", () => {
  it("6 h a day, five days a week, breaks none: no violation at all", () => {
    expect(summarizePeriod(uk, weeksOf(17, 360), range, range, worker).violations).toEqual([]);
  });
  it("of windows as heavy, the earliest names the violation", () => {
    // 18 weeks from Monday 2026-01-05; 11 h each weekday from 12 January to Friday 1 May (80 days, 52,800 minutes).
    const byDate = new Map<string, number>();
    for (let day = Date.parse("2026-01-12T00:00:00Z"); day <= Date.parse("2026-05-01T00:00:00Z"); day += DAY) {
      const date = new Date(day);
      if (date.getUTCDay() !== 0 && date.getUTCDay() !== 6) byDate.set(date.toISOString().slice(0, 10), 660);
    }
    expect(byDate.size).toBe(80);
    const longer = { start: "2026-01-05", end: "2026-05-10" };
    // Every 119-day window from 5 to 12 January holds all of it: 52,800 / 17 weeks = 51.76 h a week.
    expect(weeklyAverageViolation(uk, byDate, longer, longer, worker)).toMatchObject({
      rule: "WEEKLY_AVERAGE",
      actual: 51.76,
      date: "2026-01-05",
    });
  });
});

describe("a reference period's edges (summarizePeriod): what lies outside the period is context, never reported", () => {
  const span = (id: string, from: string, to: string) => shiftSpan(id, `${from}Z`, `${to}Z`);
  // Period Mon 2026-06-01 – Sun 06-07. Rests between shifts: z→a 5 h (a on 05-31, before the period), a→b 8 h (b on
  // the period's first day), b→c 144 h, c→d 6 h (d on 06-08, after it). The UK's minimum is 11 h (WTR 1998 reg. 10).
  const spans = [
    span("z", "2026-05-31T00:00:00", "2026-05-31T09:00:00"),
    span("a", "2026-05-31T14:00:00", "2026-05-31T22:00:00"),
    span("b", "2026-06-01T06:00:00", "2026-06-01T14:00:00"),
    span("c", "2026-06-07T14:00:00", "2026-06-07T22:00:00"),
    span("d", "2026-06-08T04:00:00", "2026-06-08T12:00:00"),
  ];
  // Inside each test, not at collection: mutation testing maps the code each test runs.
  const summary = () =>
    summarizePeriod(uk, spans, { start: "2026-06-01", end: "2026-06-07" }, { start: "2026-05-25", end: "2026-06-14" }, worker);

  it("hours, the longest day and the shortest rest count the period's own shifts (b and c), the rest before b included", () => {
    const found = summary();
    expect(found.averageWeeklyHours).toBe(16); // b 8 h + c 8 h over 7 days
    expect(found.longestDayHours).toBe(8);
    expect(found.shortestRestHours).toBe(8); // a→b; c→d (6 h) and z→a (5 h) end outside the period
    expect(found.weeksWithoutWeeklyRest).toBe(0);
  });

  it("reports the short rest ending on its first day, not those ending the day before or after, and each long shift's break", () => {
    expect(summary().violations).toEqual([
      {
        rule: "REST_BETWEEN_SHIFTS",
        limit: 11,
        actual: 8,
        unit: "HOURS",
        date: "2026-06-01",
        spanIds: ["a", "b"],
        source: "WTR 1998 reg. 10(1)",
      },
      // Over 6 h with no break (WTR 1998 reg. 12): b and c; z, a and d are outside the period.
      { rule: "BREAK", limit: 20, actual: 0, unit: "MINUTES", date: "2026-06-01", spanIds: ["b"], source: "WTR 1998 reg. 12(1)-(3)" },
      { rule: "BREAK", limit: 20, actual: 0, unit: "MINUTES", date: "2026-06-07", spanIds: ["c"], source: "WTR 1998 reg. 12(1)-(3)" },
    ]);
  });
});
