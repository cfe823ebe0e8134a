import { describe, expect, it } from "vitest";
import { firstRepeatedStart, INTERVAL_MS, onIntervalBoundary, spanOf } from "@/domain/demand";

const at = (iso: string) => new Date(iso);

describe("onIntervalBoundary", () => {
  it.each([
    ["2026-03-14T09:00:00Z", true],
    ["2026-03-14T09:15:00Z", true],
    ["2026-03-14T09:45:00.000Z", true],
    ["2026-03-14T09:30:00+05:30", true],
    ["2026-03-14T09:00:00+05:45", true],
    ["2026-03-14T09:10:00Z", false],
    ["2026-03-14T09:15:01Z", false],
    ["2026-03-14T09:15:00.001Z", false],
  ])("%s → %s", (iso, expected) => expect(onIntervalBoundary(at(iso))).toBe(expected));
});

describe("firstRepeatedStart", () => {
  it.each([
    [[], -1],
    [["2026-03-14T09:00:00Z"], -1],
    [["2026-03-14T09:00:00Z", "2026-03-14T09:15:00Z"], -1],
    [["2026-03-14T09:00:00Z", "2026-03-14T09:15:00Z", "2026-03-14T09:00:00Z"], 2],
    // The same instant written with an offset is the same interval.
    [["2026-03-14T09:00:00Z", "2026-03-14T10:00:00+01:00"], 1],
  ])("%j → %i", (starts, expected) => expect(firstRepeatedStart(starts.map(at))).toBe(expected));
});

describe("spanOf", () => {
  it("runs from the earliest start to the end of the latest interval, in any order", () => {
    const span = spanOf([at("2026-03-14T10:00:00Z"), at("2026-03-14T09:00:00Z")]);
    expect(span.start.toISOString()).toBe("2026-03-14T09:00:00.000Z");
    expect(span.end.getTime()).toBe(at("2026-03-14T10:00:00Z").getTime() + INTERVAL_MS);
  });
});
