import { describe, expect, it } from "vitest";
import {
  availabilityProblems,
  expandAvailability,
  HORIZON_DAYS,
  minutesBetween,
  normalizeExdates,
  parseRecurrence,
  writtenOut,
} from "@/domain/availability";

const wall = (text: string) => new Date(`${text}Z`);
const weeklyNineToFive = {
  startTime: wall("2026-03-02T09:00:00"),
  endTime: wall("2026-03-02T17:00:00"),
  timezone: "America/New_York",
  recurrence: "FREQ=WEEKLY;BYDAY=MO,WE",
};

describe("availability recurrence", () => {
  it("keeps 09:00 local across the spring-forward change: the instant moves from 14:00Z to 13:00Z", () => {
    const occurrences = expandAvailability(weeklyNineToFive, wall("2026-03-02T00:00:00"), wall("2026-03-17T00:00:00"));
    expect(occurrences.map((o) => o.startTime.toISOString())).toEqual([
      "2026-03-02T09:00:00.000Z",
      "2026-03-04T09:00:00.000Z",
      "2026-03-09T09:00:00.000Z",
      "2026-03-11T09:00:00.000Z",
      "2026-03-16T09:00:00.000Z",
    ]);
    expect(occurrences[1]!.utcStartTime.toISOString()).toBe("2026-03-04T14:00:00.000Z");
    expect(occurrences[2]!.utcStartTime.toISOString()).toBe("2026-03-09T13:00:00.000Z");
    expect(occurrences[2]!.utcEndTime.toISOString()).toBe("2026-03-09T21:00:00.000Z");
  });

  it("answers an occurrence that overlaps the range's start, and none of a one-off outside it", () => {
    const overnight = {
      startTime: wall("2026-03-01T22:00:00"),
      endTime: wall("2026-03-02T06:00:00"),
      timezone: "UTC",
      recurrence: "FREQ=DAILY",
    };
    const [first] = expandAvailability(overnight, wall("2026-03-02T00:00:00"), wall("2026-03-03T00:00:00"));
    expect(first!.startTime.toISOString()).toBe("2026-03-01T22:00:00.000Z");
    const oneOff = { ...overnight, recurrence: null };
    expect(expandAvailability(oneOff, wall("2026-03-03T00:00:00"), wall("2026-03-04T00:00:00"))).toEqual([]);
  });

  it("stops at UNTIL and COUNT, and writes out a month back to two years ahead of now of an endless rule", () => {
    expect(
      expandAvailability(
        { ...weeklyNineToFive, recurrence: "FREQ=WEEKLY;BYDAY=MO;COUNT=3" },
        wall("2026-01-01T00:00:00"),
        wall("2027-01-01T00:00:00"),
      ),
    ).toHaveLength(3);
    const until = { ...weeklyNineToFive, recurrence: "FREQ=DAILY;UNTIL=20260305T000000Z" };
    expect(expandAvailability(until, wall("2026-03-01T00:00:00"), wall("2026-04-01T00:00:00"))).toHaveLength(3);
    const daily = writtenOut({ ...weeklyNineToFive, recurrence: "FREQ=DAILY" }, wall("2026-01-01T00:00:00"));
    expect(daily.occurrences).toHaveLength(HORIZON_DAYS);
    expect(daily.occurrences[0]!.startTime.toISOString()).toBe("2026-03-02T09:00:00.000Z");
    expect(daily.through!.toISOString()).toBe("2028-03-09T09:00:00.000Z");
    // Begun three years before now: written out from a month back, two years ahead.
    const old = writtenOut({ ...weeklyNineToFive, recurrence: "FREQ=DAILY" }, wall("2029-03-02T09:00:00"));
    expect(old.occurrences[0]!.startTime.toISOString()).toBe("2029-01-30T09:00:00.000Z");
    expect(old.occurrences.at(-1)!.startTime.toISOString()).toBe("2031-03-09T09:00:00.000Z");
    // The Cron's top-up goes on from `through`.
    const next = writtenOut({ ...weeklyNineToFive, recurrence: "FREQ=DAILY" }, wall("2026-03-10T00:00:00"), daily.through!);
    expect(next.occurrences.map((o) => o.startTime.toISOString())).toEqual(
      Array.from({ length: 8 }, (_, i) => `2028-03-${String(9 + i).padStart(2, "0")}T09:00:00.000Z`),
    );
    const ended = writtenOut({ ...weeklyNineToFive, recurrence: "FREQ=DAILY;COUNT=3" }, wall("2026-01-01T00:00:00"));
    expect([ended.occurrences.length, ended.through]).toEqual([3, null]);
  });

  it("refuses what is not an RRULE, sub-daily frequencies, DTSTART, and bad spans", () => {
    for (const bad of [
      "FREQ=HOURLY",
      "FREQ=DAILY;BYHOUR=9,17",
      "BYDAY=MO",
      "FREQ=WEEKLY;BYDAY=XX",
      "DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY",
      "FREQ=DAILY;COUNT=0",
    ]) {
      expect(parseRecurrence(bad).ok, bad).toBe(false);
    }
    expect(parseRecurrence("RRULE:FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20270101T000000Z").ok).toBe(true);
    expect(availabilityProblems({ ...weeklyNineToFive, endTime: weeklyNineToFive.startTime }).map((p) => p.path)).toEqual(["endTime"]);
    expect(availabilityProblems({ ...weeklyNineToFive, endTime: wall("2026-03-10T09:00:00") }).map((p) => p.path)).toEqual(["endTime"]);
    expect(availabilityProblems({ ...weeklyNineToFive, recurrence: "FREQ=SECONDLY" }).map((p) => p.path)).toEqual(["recurrence"]);
  });

  it("refuses UNTIL before the first occurrence and a rule that matches no date, quickly", () => {
    const problem = (recurrence: string) => availabilityProblems({ ...weeklyNineToFive, recurrence });
    expect(problem("FREQ=WEEKLY;UNTIL=20260301T000000Z")).toEqual([
      { path: "recurrence", message: expect.stringMatching(/UNTIL is before/) },
    ]);
    const started = performance.now();
    for (const never of ["FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30", "FREQ=MONTHLY;BYSETPOS=40;BYDAY=MO", "FREQ=YEARLY;BYWEEKNO=1;BYMONTH=6"]) {
      expect(problem(never), never).toEqual([{ path: "recurrence", message: expect.stringMatching(/matches no date/) }]);
    }
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(problem("FREQ=WEEKLY;UNTIL=20260302T090000Z")).toEqual([]);
    expect(problem("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29")).toEqual([]);
  });

  it("says why a span is refused, and accepts a rule whose every date is an exdate", () => {
    expect(availabilityProblems({ ...weeklyNineToFive, endTime: weeklyNineToFive.startTime })).toEqual([
      { path: "endTime", message: "must be after startTime" },
    ]);
    expect(availabilityProblems({ ...weeklyNineToFive, recurrence: "FREQ=DAILY;COUNT=1", exdates: ["2026-03-02"] })).toEqual([]);
  });

  it("writes out at most MAX_MATERIALIZED (800) occurrences, and the top-up goes on from the last one", () => {
    // From 2 March 2026, a year before now: the 800th day is 9 May 2028 (2 March 2026 + 365 + 366 + 31 + 30 + 7 days).
    const daily = { ...weeklyNineToFive, recurrence: "FREQ=DAILY" };
    const written = writtenOut(daily, wall("2027-03-02T00:00:00"), wall("2026-03-02T00:00:00"));
    expect(written.occurrences).toHaveLength(800);
    expect(written.through!.toISOString()).toBe("2028-05-09T09:00:00.000Z");
  });

  it("skips occurrences whose local start date is an exdate (every Monday except the 14th)", () => {
    const mondays = { ...weeklyNineToFive, recurrence: "FREQ=WEEKLY;BYDAY=MO", exdates: ["2026-12-14"] };
    const dates = (rule: typeof mondays) =>
      expandAvailability(rule, wall("2026-12-01T00:00:00"), wall("2027-01-01T00:00:00")).map((o) => o.startTime.toISOString().slice(0, 10));
    expect(dates(mondays)).toEqual(["2026-12-07", "2026-12-21", "2026-12-28"]);
    expect(dates({ ...mondays, exdates: [] })).toEqual(["2026-12-07", "2026-12-14", "2026-12-21", "2026-12-28"]);
    const written = writtenOut(mondays, wall("2026-11-01T00:00:00")).occurrences.map((o) => o.startTime.toISOString().slice(0, 10));
    expect(written).toContain("2026-12-07");
    expect(written).not.toContain("2026-12-14");
    const oneOff = { ...weeklyNineToFive, recurrence: null, exdates: ["2026-03-02"] };
    expect(expandAvailability(oneOff, wall("2026-03-01T00:00:00"), wall("2026-03-03T00:00:00"))).toEqual([]);
  });

  it("expands a range far from the first occurrence without walking to year 9999", () => {
    const started = performance.now();
    // A rule stored before the strict reader refused it: no date passes its filters, and rrule would walk on.
    const never = { ...weeklyNineToFive, recurrence: "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30" };
    expect(expandAvailability(never, wall("2027-01-01T00:00:00"), wall("2027-04-01T00:00:00"))).toEqual([]);
    const sparse = { ...weeklyNineToFive, recurrence: "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29" };
    expect(expandAvailability(sparse, wall("2027-01-01T00:00:00"), wall("2027-04-01T00:00:00"))).toEqual([]);
    expect(expandAvailability(sparse, wall("2028-02-01T00:00:00"), wall("2028-03-01T00:00:00"))).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe("availability edges", () => {
  const oneOff = { ...weeklyNineToFive, recurrence: null };
  const ms = (text: string, plus = 0) => new Date(wall(text).getTime() + plus);

  it("a one-off overlaps [from, to) only when it starts before `to` and ends after `from`", () => {
    const starts = (from: Date, to: Date) => expandAvailability(oneOff, from, to).map((o) => o.startTime);
    expect(starts(wall("2026-03-01T00:00:00"), wall("2026-03-02T09:00:00"))).toEqual([]);
    expect(starts(wall("2026-03-01T00:00:00"), ms("2026-03-02T09:00:00", 1))).toEqual([oneOff.startTime]);
    expect(starts(wall("2026-03-02T17:00:00"), wall("2026-03-03T00:00:00"))).toEqual([]);
    expect(starts(ms("2026-03-02T17:00:00", -1), wall("2026-03-03T00:00:00"))).toEqual([oneOff.startTime]);
    expect(expandAvailability({ ...oneOff, exdates: ["2026-03-02"] }, wall("2026-03-01T00:00:00"), wall("2026-03-03T00:00:00"))).toEqual(
      [],
    );
  });

  it("stops at the limit, and gives nothing for a limit of 0", () => {
    const from = wall("2026-03-01T00:00:00");
    const to = wall("2026-04-01T00:00:00");
    expect(expandAvailability(weeklyNineToFive, from, to, 3).map((o) => o.startTime)).toEqual([
      wall("2026-03-02T09:00:00"),
      wall("2026-03-04T09:00:00"),
      wall("2026-03-09T09:00:00"),
    ]);
    expect(expandAvailability(weeklyNineToFive, from, to, 0)).toEqual([]);
  });

  it("a one-off is written out once, with nothing to top up", () => {
    const now = wall("2026-03-01T00:00:00");
    expect(writtenOut(oneOff, now)).toEqual({
      occurrences: [
        {
          startTime: wall("2026-03-02T09:00:00"),
          endTime: wall("2026-03-02T17:00:00"),
          utcStartTime: new Date("2026-03-02T14:00:00Z"),
          utcEndTime: new Date("2026-03-02T22:00:00Z"),
        },
      ],
      through: null,
    });
  });

  it("refuses an occurrence of 7 days and a millisecond, by name", () => {
    const long = { ...oneOff, endTime: new Date(oneOff.startTime.getTime() + 7 * 86_400_000 + 1) };
    expect(availabilityProblems(long)).toEqual([{ path: "endTime", message: "an occurrence lasts at most 7 days" }]);
    expect(availabilityProblems({ ...long, endTime: new Date(oneOff.startTime.getTime() + 7 * 86_400_000) })).toEqual([]);
  });

  it("stores exdates unique and in order", () => {
    expect(normalizeExdates(["2026-03-09", "2026-03-02", "2026-03-09"])).toEqual(["2026-03-02", "2026-03-09"]);
  });

  it("counts whole minutes between two readings", () => {
    expect(minutesBetween(wall("2026-03-02T09:00:00"), wall("2026-03-02T17:30:00"))).toBe(510);
  });
});
