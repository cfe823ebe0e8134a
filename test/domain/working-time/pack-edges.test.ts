import { describe, expect, it } from "vitest";
import {
  breakViolation,
  dailyRestViolations,
  dailyViolations,
  minorViolations,
  publicHolidayViolations,
  restViolations,
  type Worker,
  type WorkSpan,
  weeklyViolations,
} from "@/domain/working-time/checks";
import { applyWorkingTimeOverrides, refusedOverrides, type WorkingTimePackId, workingTimePack } from "@/domain/working-time/packs";
import { referencePeriods, summarizePeriod, weeklyAverageViolation, weeklyRestViolations } from "@/domain/working-time/report";

/*
 * Issue 47: every pack at every edge — exactly the figure, one minute either side — each figure written out by hand
 * from the article cited in the pack (never computed by the code under test). Times are UTC (offset 0).
 */

const pack = (id: WorkingTimePackId) => workingTimePack(id, "2026-06-01")!;
const adult: Worker = { birthDate: new Date("1990-01-01T00:00:00Z"), optOut: null };
const MINUTE = 60_000;
const span = (id: string, start: string, end: string, breakBlocks: number[] = []): WorkSpan => ({
  id,
  kind: "SHIFT",
  start: new Date(start),
  end: new Date(end),
  breakBlocks,
  utcOffset: 0,
});
/** From 08:00 on 2026-06-01: `worked` minutes of work plus the break blocks (the span is their sum). */
const working = (worked: number, blocks: number[] = []) =>
  span(
    "s",
    "2026-06-01T08:00:00Z",
    new Date(Date.parse("2026-06-01T08:00:00Z") + (worked + blocks.reduce((a, b) => a + b, 0)) * MINUTE).toISOString(),
    blocks,
  );
/** From 08:00 on 2026-06-01, `minutes` from start to finish, the break blocks inside them (NZ's work period). */
const period = (minutes: number, blocks: number[] = []) =>
  span("s", "2026-06-01T08:00:00Z", new Date(Date.parse("2026-06-01T08:00:00Z") + minutes * MINUTE).toISOString(), blocks);
const breakOf = (id: WorkingTimePackId, s: WorkSpan) => {
  const found = breakViolation(pack(id), s, adult);
  return found === null ? null : [found.limit, found.actual, found.source];
};

describe("rest between shifts: a shift ends 2026-06-01 22:00; the next starts after the figure, exactly, one minute under", () => {
  const restOf = (id: WorkingTimePackId, nextStart: string) =>
    restViolations(
      pack(id),
      [span("a", "2026-06-01T14:00:00Z", "2026-06-01T22:00:00Z"), span("b", nextStart, "2026-06-02T18:00:00Z")],
      adult,
    ).map((v) => [v.limit, v.actual, v.source]);
  it.each([
    ["EU", "2026-06-02T09:00:00Z", []],
    ["EU", "2026-06-02T08:59:00Z", [[11, 10.98, "Directive 2003/88/EC art. 3"]]],
    ["UK", "2026-06-02T09:00:00Z", []],
    ["UK", "2026-06-02T08:59:00Z", [[11, 10.98, "WTR 1998 reg. 10(1)"]]],
    ["DE", "2026-06-02T09:01:00Z", []],
    ["FR", "2026-06-02T09:00:00Z", []],
    ["FR", "2026-06-02T08:59:00Z", [[11, 10.98, "Code du travail L3131-1"]]],
    ["ES", "2026-06-02T09:59:00Z", [[12, 11.98, "Estatuto de los Trabajadores art. 34.3"]]],
    ["AU_RETAIL", "2026-06-02T10:00:00Z", []],
    ["AU_RETAIL", "2026-06-02T09:59:00Z", [[12, 11.98, "General Retail Industry Award 2020 cl. 16.6"]]],
    ["JP", "2026-06-02T00:00:00Z", []], // the Labour Standards Act sets no rest between shifts
    ["US_MINORS", "2026-06-02T00:00:00Z", []],
  ] as const)("%s, next at %s", (id, nextStart, expected) => expect(restOf(id, nextStart)).toEqual(expected));
});

describe("Ontario: 8 hours between shifts unless the two total 13 hours' work or less (ESA 2000 s. 18(3))", () => {
  // The first shift 14:00–22:00 (8 h); the next from `start` to `end` the following day.
  const restOf = (start: string, end: string) =>
    restViolations(pack("ON"), [span("a", "2026-06-01T14:00:00Z", "2026-06-01T22:00:00Z"), span("b", start, end)], adult).map((v) => [
      v.limit,
      v.actual,
      v.source,
    ]);
  it.each([
    ["8 h apart, 13 h 01 in all", "2026-06-02T06:00:00Z", "2026-06-02T11:01:00Z", []],
    ["7 h 59 apart, 13 h 02 in all", "2026-06-02T05:59:00Z", "2026-06-02T11:01:00Z", [[8, 7.98, "ESA 2000 s. 18(3)"]]],
    ["7 h 59 apart, exactly 13 h in all: waived", "2026-06-02T05:59:00Z", "2026-06-02T10:59:00Z", []],
    ["1 h apart, 13 h 01 in all", "2026-06-01T23:00:00Z", "2026-06-02T04:01:00Z", [[8, 1, "ESA 2000 s. 18(3)"]]],
  ] as const)("%s", (_, start, end, expected) => expect(restOf(start, end)).toEqual(expected));
});

describe("Ontario: 11 consecutive hours free in each day (ESA 2000 s. 18(1))", () => {
  const on = pack("ON");
  it("06:00–19:00 leaves exactly 11 hours free to 06:00 the next day", () => {
    expect(dailyRestViolations(on, [span("a", "2026-06-01T06:00:00Z", "2026-06-01T19:00:00Z")])).toEqual([]);
  });
  it("06:00–19:01 leaves 10 h 59", () => {
    expect(dailyRestViolations(on, [span("a", "2026-06-01T06:00:00Z", "2026-06-01T19:01:00Z")])).toEqual([
      { rule: "DAILY_REST", limit: 11, actual: 10.98, unit: "HOURS", date: "2026-06-01", spanIds: ["a"], source: "ESA 2000 s. 18(1)" },
    ]);
  });
  it("a split day, 06:00–10:00 and 18:00–22:00: 8 hours free twice, never 11, though 8 h between shifts is kept", () => {
    const day = [span("a", "2026-06-01T06:00:00Z", "2026-06-01T10:00:00Z"), span("b", "2026-06-01T18:00:00Z", "2026-06-01T22:00:00Z")];
    expect(restViolations(on, day, adult)).toEqual([]); // s. 18(3)'s 8 hours between shifts is not the rule broken here
    expect(dailyRestViolations(on, day)).toMatchObject([{ rule: "DAILY_REST", limit: 11, actual: 8, spanIds: ["a", "b"] }]);
  });
  it("the next day's early start inside the 24 hours counts: 08:00–14:00, then 03:00 next day leaves 13 hours", () => {
    const days = [span("a", "2026-06-01T08:00:00Z", "2026-06-01T14:00:00Z"), span("b", "2026-06-02T03:00:00Z", "2026-06-02T07:00:00Z")];
    expect(dailyRestViolations(on, days)).toEqual([]);
    const closer = [span("a", "2026-06-01T08:00:00Z", "2026-06-01T18:00:00Z"), span("b", "2026-06-02T04:59:00Z", "2026-06-02T07:00:00Z")];
    expect(dailyRestViolations(on, closer)).toMatchObject([{ date: "2026-06-01", actual: 10.98, spanIds: ["a", "b"] }]);
  });
  it("no other pack sets it", () => {
    for (const id of ["EU", "UK", "DE", "FR", "ES", "NZ", "JP", "AU_RETAIL", "US_MINORS"] as const)
      expect(dailyRestViolations(pack(id), [span("a", "2026-06-01T06:00:00Z", "2026-06-01T22:00:00Z")])).toEqual([]);
  });
});

describe("daily maximums: exactly the cap, one minute over", () => {
  const dayOf = (id: WorkingTimePackId, end: string) =>
    dailyViolations(pack(id), [span("a", "2026-06-01T08:00:00Z", end)]).map((v) => [v.limit, v.actual, v.source]);
  it.each([
    ["FR", "2026-06-01T18:00:00Z", []],
    ["FR", "2026-06-01T18:01:00Z", [[10, 10.02, "Code du travail L3121-18"]]],
    ["ON", "2026-06-01T16:00:00Z", []],
    ["ON", "2026-06-01T16:01:00Z", [[8, 8.02, "ESA 2000 s. 17(1)(a)"]]],
    ["ES", "2026-06-01T17:01:00Z", [[9, 9.02, "Estatuto de los Trabajadores art. 34.3"]]],
    ["EU", "2026-06-01T23:00:00Z", []], // the Directive sets no daily cap
    ["UK", "2026-06-01T23:00:00Z", []],
  ] as const)("%s until %s", (id, end, expected) => expect(dayOf(id, end)).toEqual(expected));
});

describe("weekly maximums (Monday 2026-06-01 to Sunday 2026-06-07)", () => {
  /** Monday to Friday 08:00 for `perDay` minutes each. */
  const week = (perDay: number, extra = 0) => [
    ...[1, 2, 3, 4, 5].map((d) =>
      span(`d${d}`, `2026-06-0${d}T08:00:00Z`, new Date(Date.parse(`2026-06-0${d}T08:00:00Z`) + perDay * MINUTE).toISOString()),
    ),
    ...(extra ? [span("sat", "2026-06-06T08:00:00Z", new Date(Date.parse("2026-06-06T08:00:00Z") + extra * MINUTE).toISOString())] : []),
  ];
  it("AU: 38 hours (Fair Work Act s 62) — 5 × 7 h 36 passes, a minute more is 38.02", () => {
    expect(weeklyViolations(pack("AU_RETAIL"), week(456))).toEqual([]);
    expect(weeklyViolations(pack("AU_RETAIL"), week(456, 1))).toMatchObject([
      { rule: "WEEKLY_MAXIMUM", limit: 38, actual: 38.02, source: "Fair Work Act 2009 s 62" },
    ]);
  });
  it("ON: 48 hours — 5 × 9 h 36 passes, a minute more is 48.02 (ESA s. 17(1)(b))", () => {
    expect(weeklyViolations(pack("ON"), week(576))).toEqual([]);
    expect(weeklyViolations(pack("ON"), week(576, 1))).toMatchObject([{ limit: 48, actual: 48.02, source: "ESA 2000 s. 17(1)(b)" }]);
  });
});

describe("breaks", () => {
  it.each([
    ["EU sets no figure (art. 4: by agreement or national law)", "EU", working(600), null],
    ["UK exactly 6 h, no break", "UK", working(360), null],
    ["UK 6 h 01 with 19 minutes (a block under 20 does not count)", "UK", working(361, [19]), [20, 0, "WTR 1998 reg. 12(1)-(3)"]],
    ["DE exactly 9 h with 30", "DE", working(540, [30]), null],
    ["FR 5 h 59, no break", "FR", working(359), null],
    ["FR exactly 6 h, no break: due once work reaches 6 h", "FR", working(360), [20, 0, "Code du travail L3121-16"]],
    ["FR exactly 6 h with 20", "FR", working(360, [20]), null],
    ["ES exactly 6 h, no break", "ES", working(360), null],
    ["ES 6 h 01 with 14", "ES", working(361, [14]), [15, 0, "Estatuto de los Trabajadores art. 34.4"]],
    ["ON exactly 5 h, no break", "ON", working(300), null],
    ["ON exactly 10 h with 30", "ON", working(600, [30]), null],
    ["ON 10 h 01 with 30: a second eating period", "ON", working(601, [30]), [60, 30, "ESA 2000 s. 20"]],
    ["JP exactly 6 h, no break", "JP", working(360), null],
    ["JP 6 h 01 with 44", "JP", working(361, [44]), [45, 44, "Labour Standards Act art. 34"]],
    ["AU exactly 5 h, no break", "AU_RETAIL", working(300), null],
    ["AU 5 h 01 with 29 (a meal break is 30 to 60)", "AU_RETAIL", working(301, [29]), [30, 0, "General Retail Industry Award 2020 cl. 16"]],
    ["AU 9 h 59 with 30", "AU_RETAIL", working(599, [30]), null],
    [
      "AU exactly 10 h with 30: a second meal break",
      "AU_RETAIL",
      working(600, [30]),
      [60, 30, "General Retail Industry Award 2020 cl. 16"],
    ],
    ["US_MINORS has none", "US_MINORS", working(600), null],
  ] as const)("%s", (_, id, s, expected) => expect(breakOf(id, s)).toEqual(expected));

  // NZ: by the work period, breaks included (ERA s 69ZC); 69ZD(2) "2 hours or more": 10; (3) over 4: 40; (4) over 6:
  // 50; (5)-(7) past 8 hours the subsequent period again: from 10 hours 60, over 12 90, over 14 100.
  it.each([
    ["1 h 59, no break", period(119), null],
    ["exactly 2 h, no break", period(120), [10, 0]],
    ["exactly 2 h with 10", period(120, [10]), null],
    ["exactly 4 h with 10", period(240, [10]), null],
    ["4 h 01 with 10", period(241, [10]), [40, 10]],
    ["6 h with 30 + 10", period(360, [30, 10]), null],
    ["6 h 01 with 30 + 10 (5 h 21 of work: the work period counts, breaks included)", period(361, [30, 10]), [50, 40]],
    ["9 h 59 with 30 + 10 + 10", period(599, [30, 10, 10]), null],
    ["exactly 10 h with 30 + 10 + 10", period(600, [30, 10, 10]), [60, 50]],
    ["12 h 01 with 30 + 10 + 10 + 10", period(721, [30, 10, 10, 10]), [90, 60]],
    ["a 9-minute break does not count (blocks of 10)", period(130, [9]), [10, 0]],
  ] as const)("NZ: %s", (_, s, expected) => expect(breakOf("NZ", s)).toEqual(expected === null ? null : [...expected, "ERA 2000 s 69ZD"]));
});

describe("weekly rest over a week from Monday 2026-06-01 (the report's WEEKLY_REST)", () => {
  /** Monday to Friday 08:00–20:00, nothing Saturday, and Sunday from `sundayStart` to 20:00. */
  const week = (sundayStart: string) => [
    ...[1, 2, 3, 4, 5].map((d) => span(`d${d}`, `2026-06-0${d}T08:00:00Z`, `2026-06-0${d}T20:00:00Z`)),
    span("sun", sundayStart, "2026-06-07T20:00:00Z"),
  ];
  const restOf = (id: WorkingTimePackId, sundayStart: string) =>
    weeklyRestViolations(pack(id), week(sundayStart), { start: "2026-06-01", end: "2026-06-07" }).map((v) => [v.limit, v.actual, v.source]);
  it.each([
    // Friday 20:00 to Sunday: 35 hours at 07:00.
    ["EU", "2026-06-07T07:00:00Z", []],
    ["EU", "2026-06-07T06:59:00Z", [[35, 34.98, "Directive 2003/88/EC art. 5"]]],
    ["FR", "2026-06-07T06:59:00Z", [[35, 34.98, "Code du travail L3132-2"]]],
    ["ES", "2026-06-07T08:00:00Z", []], // 36 hours: art. 37.1's day and a half
    ["ES", "2026-06-07T07:59:00Z", [[36, 35.98, "Estatuto de los Trabajadores art. 37.1"]]],
    // 24 hours: Friday 20:00 to Saturday 20:00.
    ["UK", "2026-06-06T20:00:00Z", []],
    ["UK", "2026-06-06T19:59:00Z", [[24, 23.98, "WTR 1998 reg. 11(1)"]]],
    ["DE", "2026-06-06T19:59:00Z", [[24, 23.98, "ArbZG §9(1)"]]],
    ["ON", "2026-06-06T19:59:00Z", [[24, 23.98, "ESA 2000 s. 18(4)"]]],
  ] as const)("%s, Sunday's shift from %s", (id, sundayStart, expected) => expect(restOf(id, sundayStart)).toEqual(expected));
});

describe("weekly averages: exactly the figure, one minute a week over", () => {
  const averageOf = (id: WorkingTimePackId, worker: Worker, end: string, byDate: Record<string, number>) => {
    const range = { start: "2026-01-05", end };
    return weeklyAverageViolation(pack(id), new Map(Object.entries(byDate)), range, range, worker);
  };
  // EU and UK: 17 weeks (119 days, to 2026-05-03): 48 h = 48,960 minutes; 17 minutes more is 2,881 a week (48.02 h).
  it.each(["EU", "UK"] as const)("%s: 48 h over 17 weeks", (id) => {
    expect(averageOf(id, adult, "2026-05-03", { "2026-05-03": 48_960 })).toBeNull();
    expect(averageOf(id, adult, "2026-05-03", { "2026-05-03": 48_977 })).toMatchObject({
      rule: "WEEKLY_AVERAGE",
      limit: 48,
      actual: 48.02,
    });
  });
  it("EU allows no opt-out; the UK does (reg. 5)", () => {
    const optedOut: Worker = { ...adult, optOut: { signedOn: "2025-01-01", withdrawnOn: null } };
    expect(averageOf("EU", optedOut, "2026-05-03", { "2026-05-03": 48_977 })).toMatchObject({ actual: 48.02 });
    expect(averageOf("UK", optedOut, "2026-05-03", { "2026-05-03": 48_977 })).toBeNull();
  });
  it("DE: 48 h over 24 weeks (168 days, to 2026-06-21): 69,120 minutes; 24 more is 48.02", () => {
    expect(averageOf("DE", adult, "2026-06-21", { "2026-06-21": 69_120 })).toBeNull();
    expect(averageOf("DE", adult, "2026-06-21", { "2026-06-21": 69_144 })).toMatchObject({
      limit: 48,
      actual: 48.02,
      source: "ArbZG §3 sentence 2",
    });
  });
  it("FR: 44 h over 12 weeks (84 days, to 2026-03-29): 31,680 minutes; 12 more is 44.02", () => {
    expect(averageOf("FR", adult, "2026-03-29", { "2026-03-29": 31_680 })).toBeNull();
    expect(averageOf("FR", adult, "2026-03-29", { "2026-03-29": 31_692 })).toMatchObject({
      limit: 44,
      actual: 44.02,
      source: "Code du travail L3121-22",
    });
  });
});

describe("Japan's yearly overtime cap (art. 36(4): 360 hours)", () => {
  /** 40 weeks from Monday 2026-01-05, five days of 9 h 48 (1 h 48 over 8 a day: 9 h a week), and `extra` on the last Friday. */
  const year = (extra: number) => {
    const spans: WorkSpan[] = [];
    for (let w = 0; w < 40; w++)
      for (let d = 0; d < 5; d++) {
        const start = Date.parse("2026-01-05T08:00:00Z") + (w * 7 + d) * 86_400_000;
        const minutes = 588 + (w === 39 && d === 4 ? extra : 0);
        spans.push({
          id: `s${w}-${d}`,
          kind: "SHIFT",
          start: new Date(start),
          end: new Date(start + minutes * MINUTE),
          breakBlocks: [],
          utcOffset: 0,
        });
      }
    return spans;
  };
  // 40 weeks end Sunday 2026-10-11; the 40th week starts Monday 2026-10-05.
  const range = { start: "2026-01-05", end: "2026-10-11" };
  const yearly = (extra: number) =>
    referencePeriods(pack("JP"), range.start, range.end).flatMap((p) =>
      summarizePeriod(pack("JP"), year(extra), p, range, adult).violations.filter((v) => v.rule === "YEARLY_OVERTIME"),
    );
  it("exactly 360 hours passes", () => expect(yearly(0)).toEqual([]));
  it("one minute more is reported once, in the week that crosses it", () =>
    expect(yearly(1)).toEqual([
      {
        rule: "YEARLY_OVERTIME",
        limit: 360,
        actual: 360.02,
        unit: "HOURS",
        date: "2026-10-05",
        spanIds: [],
        source: "Labour Standards Act art. 32, art. 36(4)",
      },
    ]));
});

describe("US minors (29 CFR 570.35(a)): outside school, the summer evening", () => {
  const fourteen: Worker = { birthDate: new Date("2012-01-01T00:00:00Z"), optOut: null };
  const minors = (spans: WorkSpan[]) => minorViolations(pack("US_MINORS"), spans, fourteen, []).map((v) => [v.rule, v.limit, v.actual]);
  it("8 hours on a non-school day passes, 8 h 01 does not", () => {
    expect(minors([span("a", "2026-07-11T09:00:00Z", "2026-07-11T17:00:00Z")])).toEqual([]);
    expect(minors([span("a", "2026-07-11T09:00:00Z", "2026-07-11T17:01:00Z")])).toEqual([["MINOR_DAILY_HOURS", 8, 8.02]]);
  });
  it("40 hours in a non-school week passes, 40 h 01 does not", () => {
    const week = [6, 7, 8, 9, 10].map((d) =>
      span(`d${d}`, `2026-07-${String(d).padStart(2, "0")}T09:00:00Z`, `2026-07-${String(d).padStart(2, "0")}T17:00:00Z`),
    );
    expect(minors(week)).toEqual([]);
    expect(minors([...week, span("sat", "2026-07-11T09:00:00Z", "2026-07-11T09:01:00Z")])).toEqual([["MINOR_WEEKLY_HOURS", 40, 40.02]]);
  });
  it("21:00 from June 1 through Labor Day (2026-09-07); 19:00 on May 31 and September 8", () => {
    expect(minors([span("a", "2026-06-01T17:00:00Z", "2026-06-01T21:00:00Z")])).toEqual([]);
    expect(minors([span("a", "2026-06-01T17:00:00Z", "2026-06-01T21:01:00Z")])).toEqual([["MINOR_TIME_OF_DAY", 21, 21.02]]);
    expect(minors([span("a", "2026-09-07T17:00:00Z", "2026-09-07T21:00:00Z")])).toEqual([]);
    expect(minors([span("a", "2026-05-31T17:00:00Z", "2026-05-31T19:01:00Z")])).toEqual([["MINOR_TIME_OF_DAY", 19, 19.02]]);
    expect(minors([span("a", "2026-09-08T17:00:00Z", "2026-09-08T19:01:00Z")])).toEqual([["MINOR_TIME_OF_DAY", 19, 19.02]]);
  });
});

describe("Germany: no work on public holidays (ArbZG §9(1)), unless the location's trade is exempt (§10)", () => {
  const christmas = (_: WorkSpan, date: string) => date === "2026-12-25";
  const days = [span("eve", "2026-12-24T08:00:00Z", "2026-12-24T16:00:00Z"), span("xmas", "2026-12-25T08:00:00Z", "2026-12-25T14:30:00Z")];
  it("lists the day worked with its hours", () => {
    expect(publicHolidayViolations(pack("DE"), days, christmas)).toEqual([
      { rule: "PUBLIC_HOLIDAY_WORK", limit: 0, actual: 6.5, unit: "HOURS", date: "2026-12-25", spanIds: ["xmas"], source: "ArbZG §9(1)" },
    ]);
  });
  it("an exempt location overrides it; no other pack has it, and an override elsewhere is refused", () => {
    expect(publicHolidayViolations(applyWorkingTimeOverrides(pack("DE"), { publicHolidayWorkAllowed: true }), days, christmas)).toEqual([]);
    expect(refusedOverrides(pack("DE"), { publicHolidayWorkAllowed: true })).toEqual([]);
    for (const id of ["EU", "UK", "FR", "ES", "ON", "NZ", "JP", "AU_RETAIL", "US_MINORS"] as const) {
      expect(publicHolidayViolations(pack(id), days, christmas)).toEqual([]);
      expect(refusedOverrides(pack(id), { publicHolidayWorkAllowed: true })).toEqual(["publicHolidayWorkAllowed"]);
    }
  });
});
