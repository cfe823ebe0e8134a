import { describe, expect, it } from "vitest";
import { eventsInVersion, LATEST_API_VERSION, resolveApiVersion, storedTypesOf } from "@/domain/api-versions";

const published = {
  id: "0193a5a0-7c1e-7b2a-9d4e-000000000001",
  type: "schedule.published",
  sequence: 7,
  data: {
    locationId: "L",
    startDate: "2026-12-07",
    endDate: "2026-12-13",
    publishedAt: "2026-12-06T10:00:00.000Z",
    changes: 2,
    premiumHours: 1,
    premiumAmount: 0,
  },
};

describe("API versions", () => {
  it("resolves a date to the latest version on or before it", () => {
    expect(resolveApiVersion("2026-01-01")).toBe("2026-01-01");
    expect(resolveApiVersion("2026-12-05")).toBe("2026-01-01");
    expect(resolveApiVersion("2026-12-06")).toBe("2026-12-06");
    expect(resolveApiVersion("2030-01-01")).toBe("2026-12-06");
    expect(LATEST_API_VERSION).toBe("2026-12-06");
  });

  it("refuses what is no date, or a date before the first version", () => {
    for (const bad of ["2025-12-31", "2026-13-01", "2026-02-30x", "20261206", "", "latest"]) expect(resolveApiVersion(bad)).toBeNull();
  });

  it("serves the publish's summary in schedule.published from 2026-12-06, and before it the separate event", () => {
    expect(eventsInVersion(published, "2026-12-06")).toEqual([published]);
    const old = eventsInVersion(published, "2026-01-01");
    const { changes: _c, premiumHours: _h, premiumAmount: _a, ...range } = published.data;
    expect(old).toEqual([
      { ...published, data: range },
      { ...published, id: `${published.id}.changes`, type: "schedule_changes.recorded", data: published.data },
    ]);
  });

  it("sends no schedule_changes.recorded before 2026-12-06 for a publish that recorded no change", () => {
    const none = { ...published, data: { ...published.data, changes: 0, premiumHours: 0, premiumAmount: 0 } };
    expect(eventsInVersion(none, "2026-01-01")).toHaveLength(1);
    expect(eventsInVersion({ ...published, type: "shift.updated" }, "2026-01-01")).toEqual([{ ...published, type: "shift.updated" }]);
  });

  it("sends no schedule_changes.recorded for a publish event stored before its summary existed (no changes field)", () => {
    const { changes: _c, premiumHours: _h, premiumAmount: _a, ...range } = published.data;
    const older = { ...published, data: range };
    expect(eventsInVersion(older, "2026-01-01")).toEqual([older]);
  });

  it("reads schedule_changes.recorded from schedule.published before 2026-12-06 only", () => {
    expect(storedTypesOf(["schedule_changes.recorded"], "2026-01-01")).toEqual(["schedule_changes.recorded", "schedule.published"]);
    expect(storedTypesOf(["schedule_changes.recorded"], "2026-12-06")).toEqual(["schedule_changes.recorded"]);
    expect(storedTypesOf(["shift.updated"], "2026-01-01")).toEqual(["shift.updated"]);
  });
});
