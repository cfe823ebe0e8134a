import { describe, expect, it } from "vitest";
import { lockedDatesWithin, lockedDayLookup } from "@/domain/locked-days";

const days = [
  { locationId: "b", date: "2026-03-02" },
  { locationId: "a", date: "2026-03-02" },
  { locationId: "a", date: "2026-02-28" },
  { locationId: "a", date: "2026-03-05" },
];

describe("lockedDayLookup", () => {
  it("locks a shift only on its own location's locked business date", () => {
    const locked = lockedDayLookup(days);
    expect(locked({ locationId: "a", businessDate: "2026-03-02" })).toBe(true);
    expect(locked({ locationId: "b", businessDate: "2026-03-02" })).toBe(true);
    expect(locked({ locationId: "b", businessDate: "2026-03-05" })).toBe(false);
    expect(locked({ locationId: "c", businessDate: "2026-03-02" })).toBe(false);
    expect(locked({ locationId: "a", businessDate: "2026-03-03" })).toBe(false);
  });

  it("a date that only matches as text across location and date does not collide", () => {
    const locked = lockedDayLookup([{ locationId: "a|2026", date: "03-02" }]);
    expect(locked({ locationId: "a", businessDate: "2026|03-02" })).toBe(false);
  });

  it("locks nothing without locked days", () => {
    expect(lockedDayLookup([])({ locationId: "a", businessDate: "2026-03-02" })).toBe(false);
  });
});

describe("lockedDatesWithin", () => {
  it("answers each date once, in order, inside the bounds only", () => {
    expect(lockedDatesWithin(days, { first: "2026-03-01", last: "2026-03-31" })).toEqual(["2026-03-02", "2026-03-05"]);
    expect(lockedDatesWithin(days, { first: "2026-02-28", last: "2026-03-02" })).toEqual(["2026-02-28", "2026-03-02"]);
    expect(lockedDatesWithin(days, { first: "2026-04-01", last: "2026-04-30" })).toEqual([]);
  });
});
