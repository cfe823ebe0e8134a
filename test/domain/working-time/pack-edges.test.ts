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
import { shiftSpan } from "../../helpers/work-spans";

/*
 * Issue 47: every pack at every edge — exactly the figure, one minute either side — each figure written out by hand
 * from the article cited in the pack (never computed by the code under test). Times are UTC (offset 0).
 */

const pack = (id: WorkingTimePackId) => workingTimePack(id, "2026-06-01")!;
const adult: Worker = { birthDate: new Date("1990-01-01T00:00:00Z"), optOut: null };
const MINUTE = 60_000;
const span = shiftSpan;
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

describe("Japan's special clause (Labour Standards Act art. 36(5)) and art. 36(6)'s limits, in the report", () => {
  const AGREEMENT = "figure set by the location's agreement";
  const jp = pack("JP");
  const clause = applyWorkingTimeOverrides(jp, { overtimeSpecialClause: true });
  /** Monday to Friday of each week from `mondays`, 06:00 for `perDay` minutes; `last` more minutes on the last Friday. */
  const weekdays = (mondays: string[], perDay: number, last = 0) =>
    mondays.flatMap((monday, w) =>
      [0, 1, 2, 3, 4].map((d): WorkSpan => {
        const start = Date.parse(`${monday}T06:00:00Z`) + d * 86_400_000;
        const minutes = perDay + (w === mondays.length - 1 && d === 4 ? last : 0);
        return {
          id: `${monday}-${d}`,
          kind: "SHIFT",
          start: new Date(start),
          end: new Date(start + minutes * MINUTE),
          breakBlocks: [],
          utcOffset: 0,
        };
      }),
    );
  const judged = (p: typeof jp, spans: WorkSpan[], range: { start: string; end: string }, rule: string) =>
    referencePeriods(p, range.start, range.end).flatMap((period) =>
      summarizePeriod(p, spans, period, range, adult).violations.filter((v) => v.rule === rule),
    );

  it("is off by default and only an agreement's figure: JP accepts the override, every other pack refuses it", () => {
    expect(jp.overtimeCap?.specialClause).toEqual({
      applies: false,
      yearHours: 720,
      monthsOverMonthHours: 6,
      source: "Labour Standards Act art. 36(5)",
      agreementMayChange: true,
    });
    expect(refusedOverrides(jp, { overtimeSpecialClause: true })).toEqual([]);
    for (const id of ["EU", "UK", "DE", "FR", "ES", "ON", "NZ", "AU_RETAIL", "US_MINORS"] as const)
      expect(refusedOverrides(pack(id), { overtimeSpecialClause: true })).toEqual(["overtimeSpecialClause"]);
  });

  // February 2026 (weeks from Mondays 2, 9, 16, 23): five 13-hour days a week are 5 hours over 8 each, 25 a week, 100.
  const february = { start: "2026-02-02", end: "2026-03-01" };
  const feb = ["2026-02-02", "2026-02-09", "2026-02-16", "2026-02-23"];
  it("exactly 100 hours of overtime in a month breaks art. 36(6)(ii) ('under 100'), special clause or not", () => {
    const hundred = {
      rule: "MONTHLY_OVERTIME_AND_HOLIDAY_WORK",
      limit: 100,
      actual: 100,
      unit: "HOURS",
      date: "2026-02-01",
      spanIds: [],
      source: "Labour Standards Act art. 36(6)(ii)",
    };
    expect(judged(clause, weekdays(feb, 780), february, "MONTHLY_OVERTIME_AND_HOLIDAY_WORK")).toEqual([hundred]);
    expect(judged(jp, weekdays(feb, 780), february, "MONTHLY_OVERTIME_AND_HOLIDAY_WORK")).toEqual([hundred]);
    // Under the clause a single month over 45 is allowed: the 100 hours is the only violation (the breaks aside).
    const all = referencePeriods(clause, february.start, february.end).flatMap((p) =>
      summarizePeriod(clause, weekdays(feb, 780), p, february, adult).violations.filter((v) => v.rule !== "BREAK"),
    );
    expect(all).toEqual([hundred]);
    // Without it, the month is also over art. 36(4)'s 45.
    expect(judged(jp, weekdays(feb, 780), february, "MONTHLY_OVERTIME")).toMatchObject([
      { limit: 45, actual: 100, source: "Labour Standards Act art. 32, art. 36(4)" },
    ]);
  });
  it("99 h 59 passes", () => {
    expect(judged(clause, weekdays(feb, 780, -1), february, "MONTHLY_OVERTIME_AND_HOLIDAY_WORK")).toEqual([]);
  });

  // 40 weeks from Monday 2026-01-05, five days of 11 h 36 (3 h 36 over 8 a day: 18 h a week): 720 hours.
  const forty = Array.from({ length: 40 }, (_, w) =>
    new Date(Date.parse("2026-01-05T00:00:00Z") + w * 7 * 86_400_000).toISOString().slice(0, 10),
  );
  const year = { start: "2026-01-05", end: "2026-10-11" };
  it("the year: exactly 720 hours passes under the clause, one minute more is reported in the 40th week (from 2026-10-05)", () => {
    expect(judged(clause, weekdays(forty, 696), year, "YEARLY_OVERTIME")).toEqual([]);
    expect(judged(clause, weekdays(forty, 696, 1), year, "YEARLY_OVERTIME")).toEqual([
      {
        rule: "YEARLY_OVERTIME",
        limit: 720,
        actual: 720.02,
        unit: "HOURS",
        date: "2026-10-05",
        spanIds: [],
        source: `Labour Standards Act art. 36(5) (${AGREEMENT})`,
      },
    ]);
  });
  it("without the clause the same year crosses 360 in its 21st week (from 2026-05-25)", () => {
    expect(judged(jp, weekdays(forty, 696), year, "YEARLY_OVERTIME")).toMatchObject([{ limit: 360, actual: 720, date: "2026-05-25" }]);
  });

  // January and February 2026, four weeks each (Mondays 5–26 and 2–23): five 12-hour days a week, 20 h over, 80 a month.
  const twoMonths = { start: "2026-01-05", end: "2026-03-01" };
  const janFeb = ["2026-01-05", "2026-01-12", "2026-01-19", "2026-01-26", ...feb];
  it("an average of exactly 80 hours over two months passes art. 36(6)(iii)", () => {
    expect(judged(clause, weekdays(janFeb, 720), twoMonths, "OVERTIME_AND_HOLIDAY_WORK_AVERAGE")).toEqual([]);
  });
  it("one minute more in February is 80 h 00.5 a month over January–February: reported, dated the window's first month", () => {
    expect(judged(clause, weekdays(janFeb, 720, 1), twoMonths, "OVERTIME_AND_HOLIDAY_WORK_AVERAGE")).toEqual([
      {
        rule: "OVERTIME_AND_HOLIDAY_WORK_AVERAGE",
        limit: 80,
        actual: 80.01,
        unit: "HOURS",
        date: "2026-01-01",
        spanIds: [],
        source: "Labour Standards Act art. 36(6)(iii)",
      },
    ]);
  });

  // January to July 2026, the first two weeks of each month: five 12 h 36 days a week, 4 h 36 over 8 each, 46 h a month.
  const firstTwoWeeks = [
    ["2026-01-05", "2026-01-12"],
    ["2026-02-02", "2026-02-09"],
    ["2026-03-02", "2026-03-09"],
    ["2026-04-06", "2026-04-13"],
    ["2026-05-04", "2026-05-11"],
    ["2026-06-01", "2026-06-08"],
    ["2026-07-06", "2026-07-13"],
  ].flat();
  it("six months over 45 hours pass under the clause; the seventh is reported, citing art. 36(5)", () => {
    const sixMonths = { start: "2026-01-05", end: "2026-06-28" };
    expect(judged(clause, weekdays(firstTwoWeeks.slice(0, 12), 756), sixMonths, "MONTHLY_OVERTIME")).toEqual([]);
    const sevenMonths = { start: "2026-01-05", end: "2026-07-26" };
    expect(judged(clause, weekdays(firstTwoWeeks, 756), sevenMonths, "MONTHLY_OVERTIME")).toEqual([
      {
        rule: "MONTHLY_OVERTIME",
        limit: 45,
        actual: 46,
        unit: "HOURS",
        date: "2026-07-01",
        spanIds: [],
        source: `Labour Standards Act art. 36(5) (${AGREEMENT})`,
      },
    ]);
    // Without the clause every one of the seven months is over art. 36(4)'s 45.
    expect(judged(jp, weekdays(firstTwoWeeks, 756), sevenMonths, "MONTHLY_OVERTIME").map((v) => v.date)).toEqual([
      "2026-01-01",
      "2026-02-01",
      "2026-03-01",
      "2026-04-01",
      "2026-05-01",
      "2026-06-01",
      "2026-07-01",
    ]);
  });
});

describe("UK young workers: 48 hours' weekly rest in each 7 days (WTR 1998 reg. 11(3), reducible to 36 by reg. 11(8)(b))", () => {
  const seventeen: Worker = { birthDate: new Date("2009-01-01T00:00:00Z"), optOut: null };
  /** Monday 2026-06-01 to Friday 09:00–16:00 (35 h), nothing Saturday, Sunday from `sundayStart` to 20:00. */
  const week = (sundayStart: string) => [
    ...[1, 2, 3, 4, 5].map((d) => span(`d${d}`, `2026-06-0${d}T09:00:00Z`, `2026-06-0${d}T16:00:00Z`)),
    span("sun", sundayStart, "2026-06-07T20:00:00Z"),
  ];
  const june = { start: "2026-06-01", end: "2026-06-07" };
  const restOf = (p: ReturnType<typeof pack>, worker: Worker, sundayStart: string) =>
    weeklyRestViolations(p, week(sundayStart), june, worker).map((v) => [v.rule, v.limit, v.actual, v.source]);
  it("Friday 16:00 to Sunday 16:00 is exactly 48 hours: enough", () =>
    expect(restOf(pack("UK"), seventeen, "2026-06-07T16:00:00Z")).toEqual([]));
  it("a Sunday start at 15:59 leaves 47 h 59", () =>
    expect(restOf(pack("UK"), seventeen, "2026-06-07T15:59:00Z")).toEqual([
      ["MINOR_WEEKLY_REST", 48, 47.98, "WTR 1998 reg. 11(3), 11(8)(b)"],
    ]));
  it("an adult, or a worker 18 on the week's first day, is held to reg. 11(1)'s 24 hours only", () => {
    expect(restOf(pack("UK"), adult, "2026-06-07T15:59:00Z")).toEqual([]);
    const eighteen: Worker = { birthDate: new Date("2008-06-01T00:00:00Z"), optOut: null };
    expect(restOf(pack("UK"), eighteen, "2026-06-07T15:59:00Z")).toEqual([]);
  });
  it("counts in the report's weeksWithoutWeeklyRest", () => {
    expect(summarizePeriod(pack("UK"), week("2026-06-07T15:59:00Z"), june, june, seventeen).weeksWithoutWeeklyRest).toBe(1);
    expect(summarizePeriod(pack("UK"), week("2026-06-07T16:00:00Z"), june, june, seventeen).weeksWithoutWeeklyRest).toBe(0);
  });
  it("a location may reduce it to 36 hours (reg. 11(8)(b)), not below; no other pack has it", () => {
    const reduced = applyWorkingTimeOverrides(pack("UK"), { minorWeeklyRestHours: 36 });
    expect(restOf(reduced, seventeen, "2026-06-07T15:59:00Z")).toEqual([]);
    // Friday 16:00 to Sunday 03:59 is 35 h 59.
    expect(restOf(reduced, seventeen, "2026-06-07T03:59:00Z")).toEqual([
      ["MINOR_WEEKLY_REST", 36, 35.98, "WTR 1998 reg. 11(3), 11(8)(b) (figure set by the location's agreement)"],
    ]);
    expect(refusedOverrides(pack("UK"), { minorWeeklyRestHours: 36 })).toEqual([]);
    expect(refusedOverrides(pack("UK"), { minorWeeklyRestHours: 35.5 })).toEqual(["minorWeeklyRestHours"]);
    for (const id of ["EU", "DE", "FR", "ES", "ON", "NZ", "JP", "AU_RETAIL", "US_MINORS"] as const)
      expect(refusedOverrides(pack(id), { minorWeeklyRestHours: 40 })).toEqual(["minorWeeklyRestHours"]);
  });
});
