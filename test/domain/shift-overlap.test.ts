import { describe, expect, it } from "vitest";
import { overlappingIndexes, overlaps, within } from "@/domain/shift-overlap";

const at = (hh: number) => new Date(Date.UTC(2026, 2, 14, hh));
const span = (start: number, end: number | null) => ({ start: at(start), end: end === null ? null : at(end) });

describe("overlaps", () => {
  it("is true when each starts before the other ends, either way round", () => {
    expect(overlaps(span(9, 17), span(16, 20))).toBe(true);
    expect(overlaps(span(16, 20), span(9, 17))).toBe(true);
    expect(overlaps(span(9, 17), span(10, 11))).toBe(true);
  });

  it("is false for back-to-back or separate spans", () => {
    expect(overlaps(span(9, 17), span(17, 20))).toBe(false);
    expect(overlaps(span(9, 12), span(13, 20))).toBe(false);
  });

  it("treats an open span as running on for ever", () => {
    expect(overlaps(span(9, null), span(20, 22))).toBe(true);
    expect(overlaps(span(9, null), span(5, 9))).toBe(false);
  });
});

describe("overlappingIndexes and within", () => {
  it("names each span that overlaps an earlier one", () => {
    expect(overlappingIndexes([span(9, 10), span(11, 12), span(11, 13), span(9, 10)])).toEqual([2, 3]);
    expect(overlappingIndexes([])).toEqual([]);
  });

  it("contains a span inside another, edges included, and anything after an open start", () => {
    expect(within(span(9, 10), span(9, 17))).toBe(true);
    expect(within(span(16, 18), span(9, 17))).toBe(false);
    expect(within(span(8, 10), span(9, 17))).toBe(false);
    expect(within(span(12, 13), span(9, null))).toBe(true);
    expect(within(span(12, null), span(9, 17))).toBe(false);
  });
});
