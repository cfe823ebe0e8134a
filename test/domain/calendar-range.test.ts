import { describe, expect, it } from "vitest";
import { calendarRangeProblem } from "@/domain/calendar-range";

describe("calendarRangeProblem", () => {
  it("accepts one day and exactly maxDays, refuses a reversed range and one day more", () => {
    expect(calendarRangeProblem("2026-03-01", "2026-03-01", 7)).toBeNull();
    expect(calendarRangeProblem("2026-03-01", "2026-03-07", 7)).toBeNull();
    expect(calendarRangeProblem("2026-03-01", "2026-03-08", 7)).toEqual({ path: "endDate", message: "the range is at most 7 days" });
    expect(calendarRangeProblem("2026-03-02", "2026-03-01", 7)).toEqual({ path: "endDate", message: "must not be before startDate" });
  });
});
