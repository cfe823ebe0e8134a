import { describe, expect, it } from "vitest";
import {
  addDays,
  businessDate,
  instantFromWallClock,
  isCalendarDate,
  isDateOrInstant,
  localDayBounds,
  localWallClock,
  offsetMinutesAt,
  parseDateParam,
  parseTimestamp,
} from "@/domain/local-time";

const HOUR_MS = 3_600_000;
const hoursBetween = (b: { start: Date; end: Date }) => (b.end.getTime() - b.start.getTime()) / HOUR_MS;

describe("offsetMinutesAt", () => {
  it("gives Asia/Kathmandu +345", () => {
    expect(offsetMinutesAt("Asia/Kathmandu", new Date("2026-01-15T12:00:00Z"))).toBe(345);
  });

  it("gives New York -240 in summer and -300 in winter", () => {
    expect(offsetMinutesAt("America/New_York", new Date("2026-07-01T12:00:00Z"))).toBe(-240);
    expect(offsetMinutesAt("America/New_York", new Date("2026-01-15T12:00:00Z"))).toBe(-300);
  });

  it("switches at the exact instant of the change", () => {
    // 2026-11-01 02:00 EDT = 06:00Z becomes 01:00 EST.
    expect(offsetMinutesAt("America/New_York", new Date("2026-11-01T05:59:59.999Z"))).toBe(-240);
    expect(offsetMinutesAt("America/New_York", new Date("2026-11-01T06:00:00Z"))).toBe(-300);
  });

  it("gives 0 for UTC and throws for an unknown zone", () => {
    expect(offsetMinutesAt("UTC", new Date())).toBe(0);
    expect(() => offsetMinutesAt("Mars/Olympus_Mons", new Date())).toThrow(RangeError);
  });
});

describe("localWallClock and businessDate", () => {
  it("writes the local wall-clock time with Z, so utc = local - utcOffset", () => {
    const utc = new Date("2026-07-01T02:30:00.000Z");
    expect(localWallClock(utc, -240)).toBe("2026-06-30T22:30:00.000Z");
    expect(localWallClock(utc, 345)).toBe("2026-07-01T08:15:00.000Z");
    expect(instantFromWallClock(new Date("2026-06-30T22:30:00.000Z"), -240)).toEqual(utc);
  });

  it("puts an overnight 22:00-06:00 shift on the date it started", () => {
    const start = new Date("2026-07-01T02:00:00Z"); // 22:00 EDT on June 30
    const end = new Date("2026-07-01T10:00:00Z"); // 06:00 EDT on July 1
    expect(businessDate(start, -240)).toBe("2026-06-30");
    expect(businessDate(end, -240)).toBe("2026-07-01");
  });

  it("uses the local date east of UTC too", () => {
    expect(businessDate(new Date("2026-01-15T20:00:00Z"), 345)).toBe("2026-01-16");
  });
});

describe("localDayBounds", () => {
  it("gives 24 h for an ordinary day", () => {
    const bounds = localDayBounds("2026-07-01", "America/New_York");
    expect(bounds.start.toISOString()).toBe("2026-07-01T04:00:00.000Z");
    expect(bounds.end.toISOString()).toBe("2026-07-02T04:00:00.000Z");
  });

  it("gives 25 h on the fall-back day", () => {
    const bounds = localDayBounds("2026-11-01", "America/New_York");
    expect(bounds.start.toISOString()).toBe("2026-11-01T04:00:00.000Z");
    expect(bounds.end.toISOString()).toBe("2026-11-02T05:00:00.000Z");
    expect(hoursBetween(bounds)).toBe(25);
  });

  it("gives 23 h on the spring-forward day", () => {
    const bounds = localDayBounds("2026-03-08", "America/New_York");
    expect(bounds.start.toISOString()).toBe("2026-03-08T05:00:00.000Z");
    expect(bounds.end.toISOString()).toBe("2026-03-09T04:00:00.000Z");
    expect(hoursBetween(bounds)).toBe(23);
  });

  it("starts a day whose midnight is skipped at the transition", () => {
    // Chile springs forward at 00:00 (to 01:00) on 2026-09-06.
    const bounds = localDayBounds("2026-09-06", "America/Santiago");
    expect(bounds.start.toISOString()).toBe("2026-09-06T04:00:00.000Z");
    expect(hoursBetween(bounds)).toBe(23);
  });

  it("handles Kathmandu and UTC", () => {
    expect(localDayBounds("2026-01-16", "Asia/Kathmandu").start.toISOString()).toBe("2026-01-15T18:15:00.000Z");
    expect(localDayBounds("2026-01-16", "UTC").end.toISOString()).toBe("2026-01-17T00:00:00.000Z");
  });

  it("rejects a date that is not on the calendar", () => {
    expect(() => localDayBounds("2026-02-30", "UTC")).toThrow(RangeError);
  });

  it("answers new instants each time: a caller changing them changes no later answer (the bounds are kept per zone and date)", () => {
    const first = localDayBounds("2026-11-01", "America/New_York");
    first.start.setTime(0);
    first.end.setTime(0);
    const again = localDayBounds("2026-11-01", "America/New_York");
    expect(again.start.toISOString()).toBe("2026-11-01T04:00:00.000Z");
    expect(again.end.toISOString()).toBe("2026-11-02T05:00:00.000Z");
    expect(() => localDayBounds("2026-02-30", "America/New_York")).toThrow(RangeError);
    expect(() => localDayBounds("2026-11-01", "Not/AZone")).toThrow(RangeError);
  });
});

describe("isDateOrInstant", () => {
  it.each([
    ["2026-03-01", true],
    ["2026-03-01T09:00:00Z", true],
    ["2026-03-01T09:00:00+05:30", true],
    ["2026-02-30", false],
    ["2026-03-01T24:00:00Z", false],
    ["1969-12-31", false],
    ["yesterday", false],
    ["", false],
  ])("%s: %s, as parseDateParam takes it", (value, taken) => {
    expect(isDateOrInstant(value)).toBe(taken);
    expect(parseDateParam(value, "UTC", "start") !== null).toBe(taken);
  });
});

describe("addDays", () => {
  it("crosses months and leap days", () => {
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
  });
});

describe("parseDateParam", () => {
  it("reads YYYY-MM-DD as a whole local business day", () => {
    expect(parseDateParam("2026-11-01", "America/New_York", "start")).toEqual({
      kind: "date",
      date: "2026-11-01",
      at: new Date("2026-11-01T04:00:00.000Z"),
    });
    expect(parseDateParam("2026-11-01", "America/New_York", "end")).toEqual({
      kind: "date",
      date: "2026-11-01",
      at: new Date("2026-11-02T05:00:00.000Z"),
    });
  });

  it("reads a full ISO timestamp as that instant, inclusive at the end", () => {
    expect(parseDateParam("2026-07-01T10:00:00+02:00", "UTC", "start")).toEqual({
      kind: "instant",
      at: new Date("2026-07-01T08:00:00.000Z"),
    });
    expect(parseDateParam("2026-07-01T08:00:00Z", "UTC", "end")).toEqual({
      kind: "instant",
      at: new Date("2026-07-01T08:00:00.001Z"),
    });
  });

  it("makes a start after the end detectable", () => {
    const start = parseDateParam("2026-07-02", "UTC", "start")!;
    const end = parseDateParam("2026-07-01", "UTC", "end")!;
    expect(start.at >= end.at).toBe(true);
    const sameDay = [parseDateParam("2026-07-01", "UTC", "start")!, parseDateParam("2026-07-01", "UTC", "end")!];
    expect(sameDay[0]!.at < sameDay[1]!.at).toBe(true);
  });

  it("is null for anything else", () => {
    for (const value of ["2026-02-30", "yesterday", "2026-07-01T10:00:00", "2026-7-1", ""]) {
      expect(parseDateParam(value, "UTC", "start")).toBeNull();
    }
  });
});

describe("the dates and timestamps the API accepts", () => {
  it("isCalendarDate: a real date from 1970 to 2200", () => {
    for (const date of ["1970-01-01", "2200-12-31", "2028-02-29"]) expect(isCalendarDate(date), date).toBe(true);
    for (const date of ["1969-12-31", "2201-01-01", "9999-12-31", "0000-01-01", "2026-02-29", "2025-02-30", "10000-01-01"]) {
      expect(isCalendarDate(date), date).toBe(false);
    }
  });

  it("parseTimestamp: RFC 3339 with a real date and time, an offset of at most 14 h", () => {
    expect(parseTimestamp("2026-07-01T10:00:00+02:00")).toEqual(new Date("2026-07-01T08:00:00.000Z"));
    expect(parseTimestamp("2026-07-01T10:00Z")).toEqual(new Date("2026-07-01T10:00:00.000Z"));
    expect(parseTimestamp("2026-07-01T10:00:00.123456789Z")).toEqual(new Date("2026-07-01T10:00:00.123Z"));
    expect(parseTimestamp("2026-07-01T10:00:00+14:00")).not.toBeNull();
    for (const value of [
      "2025-02-30T10:00:00Z",
      "9999-12-31T10:00:00Z",
      "0000-01-01T00:00:00Z",
      "+010000-01-01T00:00:00Z",
      "10000-01-01T00:00:00Z",
      "2026-07-01T24:00:00Z",
      "2026-07-01T23:59:60Z",
      "2026-07-01T10:00:00+14:30",
      "2026-07-01T10:00:00+02:60",
      "2026-07-01T10:00:00",
      "2026-07-01",
    ]) {
      expect(parseTimestamp(value), value).toBeNull();
    }
  });

  it("parseTimestamp without offsets takes only Z: the wire's wall-clock times", () => {
    expect(parseTimestamp("2026-07-01T10:00:00Z", false)).not.toBeNull();
    expect(parseTimestamp("2026-07-01T10:00:00+02:00", false)).toBeNull();
  });

  it("parseDateParam refuses what parseTimestamp and isCalendarDate refuse", () => {
    for (const value of ["9999-12-31", "1969-12-31", "2025-02-30T10:00:00Z", "10000-01-01T00:00:00Z"]) {
      expect(parseDateParam(value, "UTC", "start"), value).toBeNull();
    }
  });
});
