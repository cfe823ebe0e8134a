import { describe, expect, it } from "vitest";
import {
  ageOn,
  breakViolation,
  dailyViolations,
  laborDay,
  minorViolations,
  restViolations,
  scheduleViolations,
  type Worker,
  type WorkSpan,
  weeklyViolations,
} from "@/domain/working-time/checks";
import {
  applyWorkingTimeOverrides,
  refusedOverrides,
  retainedUntil,
  WORKING_TIME_PACK_IDS,
  workingTimePack,
} from "@/domain/working-time/packs";

const pack = (id: Parameters<typeof workingTimePack>[0]) => workingTimePack(id, "2026-06-01")!;
const adult: Worker = { birthDate: new Date("1990-01-01T00:00:00Z"), optOut: null };
const span = (id: string, start: string, end: string, breakBlocks: number[] = [], utcOffset = 0): WorkSpan => ({
  id,
  kind: "ENTRY",
  start: new Date(start),
  end: new Date(end),
  breakBlocks,
  utcOffset,
});

describe("working-time packs", () => {
  it("has every contracted pack, each with a cited description", () => {
    for (const id of WORKING_TIME_PACK_IDS) {
      const found = workingTimePack(id, "2026-06-01");
      expect(found?.id).toBe(id);
      expect(found!.description.length).toBeGreaterThan(100);
    }
  });
  it("has no version before its law's first one", () => {
    expect(workingTimePack("ES", "2019-05-11")).toBeNull(); // RDL 8/2019 registro from 12 May 2019
    expect(workingTimePack("ES", "2019-05-12")?.version).toBe(1);
  });
  it("lets a location change only what an agreement may change", () => {
    expect(refusedOverrides(pack("DE"), { restBetweenShiftsHours: 10 })).toEqual([]); // ArbZG §7 allows
    expect(refusedOverrides(pack("UK"), { restBetweenShiftsHours: 10 })).toEqual(["restBetweenShiftsHours"]);
    expect(refusedOverrides(pack("FR"), { weeklyMaximumHours: 60 })).toEqual(["weeklyMaximumHours"]);
    expect(applyWorkingTimeOverrides(pack("DE"), { restBetweenShiftsHours: 10 }).restBetweenShifts?.value).toBe(10);
  });
});

describe("rest between shifts", () => {
  // Germany ArbZG §5(1): 11 hours. Shift ends 22:00; next starts at 09:00 (exactly 11 h), 08:59 (one minute under).
  const cases: [string, Parameters<typeof workingTimePack>[0], string, number | null][] = [
    ["DE exactly 11 h", "DE", "2026-06-02T09:00:00Z", null],
    ["DE one minute under", "DE", "2026-06-02T08:59:00Z", 10.98],
    ["DE 9 h", "DE", "2026-06-02T07:00:00Z", 9],
    ["ES exactly 12 h", "ES", "2026-06-02T10:00:00Z", null],
    ["ES one minute under", "ES", "2026-06-02T09:59:00Z", 11.98],
    // ON's 8 hours (s. 18(3)) do not hold for shifts totalling 13 h or less: its edges are in pack-edges.test.ts.
    ["ON 8 h 4 h shifts, 7 h 59 apart: waived", "ON", "2026-06-02T05:59:00Z", null],
    ["AU exactly 12 h", "AU_RETAIL", "2026-06-02T10:00:00Z", null],
    ["NZ has none", "NZ", "2026-06-02T00:00:00Z", null],
  ];
  for (const [name, id, nextStart, actual] of cases)
    it(name, () => {
      const found = restViolations(
        pack(id),
        [
          span("a", "2026-06-01T14:00:00Z", "2026-06-01T22:00:00Z"),
          span("b", nextStart, new Date(Date.parse(nextStart) + 4 * 3_600_000).toISOString()),
        ],
        adult,
      );
      expect(found.map((v) => v.actual)).toEqual(actual === null ? [] : [actual]);
    });
  it("holds a UK young worker to 12 hours (reg. 10(2))", () => {
    const young: Worker = { birthDate: new Date("2009-01-01T00:00:00Z"), optOut: null }; // 17 on 2026-06-02
    const found = restViolations(
      pack("UK"),
      [span("a", "2026-06-01T10:00:00Z", "2026-06-01T18:00:00Z"), span("b", "2026-06-02T05:59:00Z", "2026-06-02T09:00:00Z")],
      young,
    );
    expect(found).toMatchObject([{ rule: "MINOR_REST", limit: 12, actual: 11.98 }]);
  });
});

describe("daily and weekly maximums", () => {
  it("DE: exactly 10 h passes, 10 h 01 fails (ArbZG §3)", () => {
    expect(dailyViolations(pack("DE"), [span("a", "2026-06-01T08:00:00Z", "2026-06-01T18:00:00Z")])).toEqual([]);
    expect(dailyViolations(pack("DE"), [span("a", "2026-06-01T08:00:00Z", "2026-06-01T18:01:00Z")])).toMatchObject([
      { rule: "DAILY_MAXIMUM", limit: 10, actual: 10.02, source: "ArbZG §3" },
    ]);
  });
  it("ES: 9 ordinary hours; FR: 10", () => {
    expect(dailyViolations(pack("ES"), [span("a", "2026-06-01T08:00:00Z", "2026-06-01T17:00:00Z")])).toEqual([]);
    expect(dailyViolations(pack("ES"), [span("a", "2026-06-01T08:00:00Z", "2026-06-01T17:01:00Z")])).toHaveLength(1);
    expect(dailyViolations(pack("FR"), [span("a", "2026-06-01T08:00:00Z", "2026-06-01T18:01:00Z")])).toMatchObject([{ limit: 10 }]);
  });
  it("FR: 48 h a week exactly passes, one minute more fails (L3121-20)", () => {
    // Mon-Sat 2026-06-01..06, 8 h each = 48 h.
    const week = [1, 2, 3, 4, 5, 6].map((d) => span(`d${d}`, `2026-06-0${d}T08:00:00Z`, `2026-06-0${d}T16:00:00Z`));
    expect(weeklyViolations(pack("FR"), week)).toEqual([]);
    week.push(span("x", "2026-06-07T08:00:00Z", "2026-06-07T08:01:00Z"));
    expect(weeklyViolations(pack("FR"), week)).toMatchObject([{ rule: "WEEKLY_MAXIMUM", limit: 48, actual: 48.02, date: "2026-06-01" }]);
  });
});

describe("breaks", () => {
  const at = (worked: number, blocks: number[]) =>
    span(
      "s",
      "2026-06-01T08:00:00Z",
      new Date(Date.parse("2026-06-01T08:00:00Z") + (worked + blocks.reduce((a, b) => a + b, 0)) * 60_000).toISOString(),
      blocks,
    );
  const cases: [string, Parameters<typeof workingTimePack>[0], number, number[], [number, number] | null][] = [
    ["DE exactly 6 h, no break", "DE", 360, [], null],
    ["DE 6 h 01, no break", "DE", 361, [], [30, 0]],
    ["DE 7 h with 15 min", "DE", 420, [15], [30, 15]],
    ["DE 7 h with 30 min", "DE", 420, [30], null],
    ["DE 7 h with 2 x 15 min", "DE", 420, [15, 15], null],
    ["DE 7 h with 3 x 10 min (blocks under 15 do not count)", "DE", 420, [10, 10, 10], [30, 0]],
    ["DE 9 h 01 with 30 min", "DE", 541, [30], [45, 30]],
    ["FR 6 h 01 with 19 min", "FR", 361, [19], [20, 0]],
    ["ES 6 h 01 with 15 min", "ES", 361, [15], null],
    ["ON 5 h 01 no break", "ON", 301, [], [30, 0]],
    ["JP 8 h 01 with 45", "JP", 481, [45], [60, 45]],
    ["JP exactly 8 h with 45", "JP", 480, [45], null],
    ["UK 6 h 01 with 20", "UK", 361, [20], null],
  ];
  for (const [name, id, worked, blocks, expected] of cases)
    it(name, () => {
      const found = breakViolation(pack(id), at(worked, blocks), adult);
      expect(found === null ? null : [found.limit, found.actual]).toEqual(expected);
    });
});

describe("minors (US 29 CFR 570.35)", () => {
  const fifteen: Worker = { birthDate: new Date("2011-03-10T00:00:00Z"), optOut: null };
  const terms = [{ startDate: "2026-09-01", endDate: "2026-12-18" }];
  it("age is judged on the date worked", () => {
    expect(ageOn(new Date("2010-09-15T00:00:00Z"), "2026-09-14")).toBe(15);
    expect(ageOn(new Date("2010-09-15T00:00:00Z"), "2026-09-15")).toBe(16);
  });
  it("Labor Day 2026 is September 7", () => expect(laborDay(2026)).toBe("2026-09-07"));
  it("3 h on a school day passes, 3 h 01 fails, 4 h fails", () => {
    // Tuesday 2026-09-15 is a school day; 15:00-18:00 local.
    expect(minorViolations(pack("US_MINORS"), [span("e", "2026-09-15T15:00:00Z", "2026-09-15T18:00:00Z")], fifteen, terms)).toEqual([]);
    expect(minorViolations(pack("US_MINORS"), [span("e", "2026-09-15T15:00:00Z", "2026-09-15T18:01:00Z")], fifteen, terms)).toMatchObject([
      { rule: "MINOR_DAILY_HOURS", limit: 3, actual: 3.02 },
    ]);
    expect(minorViolations(pack("US_MINORS"), [span("e", "2026-09-15T14:00:00Z", "2026-09-15T18:00:00Z")], fifteen, terms)).toMatchObject([
      { rule: "MINOR_DAILY_HOURS", limit: 3, actual: 4 },
    ]);
  });
  it("8 h on a Saturday passes; 19:00 end passes, 19:01 fails; 21:00 in July passes", () => {
    expect(minorViolations(pack("US_MINORS"), [span("e", "2026-09-19T10:00:00Z", "2026-09-19T18:00:00Z")], fifteen, terms)).toEqual([]);
    expect(minorViolations(pack("US_MINORS"), [span("e", "2026-09-19T16:00:00Z", "2026-09-19T19:00:00Z")], fifteen, terms)).toEqual([]);
    expect(minorViolations(pack("US_MINORS"), [span("e", "2026-09-19T16:00:00Z", "2026-09-19T19:01:00Z")], fifteen, terms)).toMatchObject([
      { rule: "MINOR_TIME_OF_DAY", limit: 19, actual: 19.02 },
    ]);
    expect(minorViolations(pack("US_MINORS"), [span("e", "2026-07-11T16:00:00Z", "2026-07-11T21:00:00Z")], fifteen, terms)).toEqual([]);
  });
  it("a 16-year-old is not a minor under the pack", () => {
    const sixteen: Worker = { birthDate: new Date("2010-01-01T00:00:00Z"), optOut: null };
    expect(minorViolations(pack("US_MINORS"), [span("e", "2026-09-15T10:00:00Z", "2026-09-15T18:00:00Z")], sixteen, terms)).toEqual([]);
  });
});

describe("scheduleViolations", () => {
  it("names only violations that involve the candidate", () => {
    const spans = [
      span("old1", "2026-06-01T14:00:00Z", "2026-06-01T22:00:00Z"),
      span("old2", "2026-06-02T07:00:00Z", "2026-06-02T10:00:00Z"),
      span("new", "2026-06-05T08:00:00Z", "2026-06-05T12:00:00Z"),
    ];
    expect(scheduleViolations(pack("DE"), spans, new Set(["new"]), adult, [])).toEqual([]);
    expect(scheduleViolations(pack("DE"), spans, new Set(["old2"]), adult, [])).toMatchObject([
      { rule: "REST_BETWEEN_SHIFTS", limit: 11, actual: 9 },
    ]);
  });
});

describe("record retention", () => {
  it("Spain keeps the daily record 4 years (ET art. 34.9), Germany 2 (ArbZG §16(2)), the UK pack sets none", () => {
    expect(retainedUntil(pack("ES"), "2026-06-01")).toBe("2030-06-01");
    expect(retainedUntil(pack("DE"), "2026-06-01")).toBe("2028-06-01");
    expect(retainedUntil(pack("DE"), "2028-02-29")).toBe("2030-03-01");
    expect(retainedUntil(pack("UK"), "2026-06-01")).toBeNull();
  });
});

describe("minors: the week, the time of day, a young worker's break", () => {
  const fourteen: Worker = { birthDate: new Date("2012-01-01T00:00:00Z"), optOut: null };
  const us = pack("US_MINORS");
  it("a school week: 18 h passes, 18 h 01 fails (29 CFR 570.35(a)(2))", () => {
    const terms = [{ startDate: "2026-09-01", endDate: "2026-12-18" }];
    // Monday 14 to Friday 18 September, 3 h a school day, and a Saturday: 15 h + 3 h = 18 h.
    const week = [14, 15, 16, 17, 18].map((d) => span(`d${d}`, `2026-09-${d}T15:00:00Z`, `2026-09-${d}T18:00:00Z`));
    week.push(span("sat", "2026-09-19T10:00:00Z", "2026-09-19T13:00:00Z"));
    expect(minorViolations(us, week, fourteen, terms)).toEqual([]);
    week.push(span("sun", "2026-09-20T10:00:00Z", "2026-09-20T10:01:00Z"));
    expect(minorViolations(us, week, fourteen, terms)).toEqual([
      {
        rule: "MINOR_WEEKLY_HOURS",
        limit: 18,
        actual: 18.02,
        unit: "HOURS",
        date: "2026-09-14",
        spanIds: ["d14", "d15", "d16", "d17", "d18", "sat", "sun"],
        source: "29 CFR 570.35(a)",
      },
    ]);
  });
  it("before 07:00, or past midnight, is outside the hours", () => {
    expect(minorViolations(us, [span("e", "2026-05-09T06:30:00Z", "2026-05-09T09:00:00Z")], fourteen, [])).toEqual([
      {
        rule: "MINOR_TIME_OF_DAY",
        limit: 7,
        actual: 6.5,
        unit: "TIME_OF_DAY",
        date: "2026-05-09",
        spanIds: ["e"],
        source: "29 CFR 570.35(a)",
      },
    ]);
    expect(minorViolations(us, [span("e", "2026-05-09T07:00:00Z", "2026-05-09T09:00:00Z")], fourteen, [])).toEqual([]);
    expect(minorViolations(us, [span("n", "2026-05-09T22:00:00Z", "2026-05-10T01:00:00Z")], fourteen, [])).toEqual([
      {
        rule: "MINOR_TIME_OF_DAY",
        limit: 19,
        actual: 24,
        unit: "TIME_OF_DAY",
        date: "2026-05-09",
        spanIds: ["n"],
        source: "29 CFR 570.35(a)",
      },
    ]);
  });
  it("UK: a young worker's 30 minutes over 4.5 h (reg. 12(4)), an adult's 20 over 6 h", () => {
    const seventeen: Worker = { birthDate: new Date("2009-01-01T00:00:00Z"), optOut: null };
    // 08:00 to 13:20 with a 20-minute break: 300 minutes worked.
    const shift = span("s", "2026-06-01T08:00:00Z", "2026-06-01T13:20:00Z", [20]);
    expect(breakViolation(pack("UK"), shift, seventeen)).toEqual({
      rule: "BREAK",
      limit: 30,
      actual: 20,
      unit: "MINUTES",
      date: "2026-06-01",
      spanIds: ["s"],
      source: "WTR 1998 reg. 5A, 10(2), 12(4)",
    });
    expect(breakViolation(pack("UK"), shift, adult)).toBeNull();
    // 4 h 30 worked exactly: no break due.
    expect(breakViolation(pack("UK"), span("s", "2026-06-01T08:00:00Z", "2026-06-01T12:30:00Z"), seventeen)).toBeNull();
    // US_MINORS has no break rule for anyone.
    expect(breakViolation(us, span("s", "2026-05-09T07:00:00Z", "2026-05-09T15:00:00Z"), fourteen)).toBeNull();
  });
});
