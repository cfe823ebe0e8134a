import { describe, expect, it } from "vitest";
import { chunk, D1_MAX_BOUND_PARAMETERS, rowsPerStatement } from "@/data/chunk";

describe("chunk", () => {
  it("slices in order, the last slice holding the remainder", () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunk([1, 2, 3, 4], 2)).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(chunk([1], 10)).toEqual([[1]]);
  });

  it("gives no slices for an empty list", () => {
    expect(chunk([], 3)).toEqual([]);
  });

  it("keeps every item exactly once", () => {
    const items = Array.from({ length: 1000 }, (_, i) => i);
    const slices = chunk(items, 4);
    expect(slices).toHaveLength(250);
    expect(slices.flat()).toEqual(items);
  });

  it("refuses a size that is not a positive integer", () => {
    expect(() => chunk([1], 0)).toThrow(RangeError);
    expect(() => chunk([1], 1.5)).toThrow(RangeError);
  });
});

describe("rowsPerStatement", () => {
  it("fits as many rows as D1's parameter limit allows", () => {
    expect(D1_MAX_BOUND_PARAMETERS).toBe(100);
    expect(rowsPerStatement(23)).toBe(4);
    expect(rowsPerStatement(10)).toBe(10);
    expect(rowsPerStatement(1)).toBe(100);
    expect(rowsPerStatement(100)).toBe(1);
  });

  it("leaves room for parameters bound outside the rows", () => {
    expect(rowsPerStatement(10, 1)).toBe(9);
    expect(rowsPerStatement(23, 8)).toBe(4);
    expect(rowsPerStatement(23, 9)).toBe(3);
  });

  it("refuses a row that cannot fit at all", () => {
    expect(() => rowsPerStatement(101)).toThrow(RangeError);
    expect(() => rowsPerStatement(50, 51)).toThrow(RangeError);
    expect(() => rowsPerStatement(0)).toThrow(RangeError);
  });
});
