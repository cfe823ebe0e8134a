import { describe, expect, it } from "vitest";
import { organizationWorkweekStartsOn } from "@/domain/pay-workweek";

const set = (id: string, effectiveFrom: string, workweekStartsOn: string, locationId: string | null = null) => ({
  id,
  locationId,
  effectiveFrom,
  workweekStartsOn,
});

describe("organizationWorkweekStartsOn", () => {
  it("is the organization-wide set's in force that day, Monday before any", () => {
    const startsOn = organizationWorkweekStartsOn([
      set("b", "2026-07-01", "Wednesday"),
      set("a", "2026-01-01", "Sunday"),
      set("l", "2025-01-01", "Friday", "loc_1"),
    ]);
    expect(startsOn("2025-12-31")).toBe("Monday");
    expect(startsOn("2026-01-01")).toBe("Sunday");
    expect(startsOn("2026-06-30")).toBe("Sunday");
    expect(startsOn("2026-07-01")).toBe("Wednesday");
  });
  it("of two sets from one date, the greater id, in either order", () => {
    const x = set("prs_x", "2026-01-01", "Tuesday");
    const y = set("prs_y", "2026-01-01", "Thursday");
    expect(organizationWorkweekStartsOn([x, y])("2026-02-01")).toBe("Thursday");
    expect(organizationWorkweekStartsOn([y, x])("2026-02-01")).toBe("Thursday");
  });
});
