import { describe, expect, it } from "vitest";
import { businessDateBounds, lockedDateBounds, parseTimesheetRange, type TimesheetRange } from "@/domain/timesheet-range";

const range = (start: string, end: string): TimesheetRange => {
  const parsed = parseTimesheetRange(start, end);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.range;
};

describe("parseTimesheetRange", () => {
  it("takes business dates and instants", () => {
    expect(range("2026-03-01", "2026-03-31")).toEqual({
      start: { kind: "date", date: "2026-03-01" },
      end: { kind: "date", date: "2026-03-31" },
    });
    expect(range("2026-03-01T00:00:00-05:00", "2026-03-02T00:00:00Z").start).toMatchObject({
      kind: "instant",
      date: "2026-03-01",
      at: new Date("2026-03-01T05:00:00Z"),
    });
  });

  it("accepts one day and exactly 366 days, refuses a start after the end and 367 days (naming endDate)", () => {
    expect(parseTimesheetRange("2026-03-01", "2026-03-01").ok).toBe(true);
    expect(parseTimesheetRange("2026-01-01", "2027-01-01").ok).toBe(true);
    expect(parseTimesheetRange("2026-01-01", "2027-01-02")).toEqual({
      ok: false,
      path: "endDate",
      message: "a range covers at most 366 days",
    });
    expect(parseTimesheetRange("2026-03-02", "2026-03-01")).toEqual({
      ok: false,
      path: "endDate",
      message: "must not be before startDate",
    });
    expect(parseTimesheetRange("2026-03-01T10:00:00Z", "2026-03-01T09:00:00Z").ok).toBe(false);
  });

  it("names the malformed parameter", () => {
    expect(parseTimesheetRange("2026-02-30", "2026-03-01")).toMatchObject({ ok: false, path: "startDate" });
    expect(parseTimesheetRange("2026-03-01", "tomorrow")).toMatchObject({ ok: false, path: "endDate" });
  });
});

describe("businessDateBounds", () => {
  it("is the dates themselves for date edges, widened by slack for report days", () => {
    expect(businessDateBounds(range("2026-03-01", "2026-03-31"))).toEqual({ first: "2026-03-01", last: "2026-03-31" });
    expect(businessDateBounds(range("2026-03-01", "2026-03-31"), 2)).toEqual({ first: "2026-02-27", last: "2026-04-02" });
  });

  it("covers every business date an instant range can hold (offsets −12 h to +14 h)", () => {
    expect(businessDateBounds(range("2026-03-01T00:00:00Z", "2026-03-01T23:59:59Z"))).toEqual({ first: "2026-02-28", last: "2026-03-02" });
  });

  it("reports locked days on the dates as written", () => {
    expect(lockedDateBounds(range("2026-03-01T00:00:00-05:00", "2026-03-05"))).toEqual({ first: "2026-03-01", last: "2026-03-05" });
  });
});
