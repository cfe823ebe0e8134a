import { describe, expect, it } from "vitest";
import { publishSelection, startsIn } from "@/domain/schedule-publish";

const range = { start: new Date("2026-06-01T04:00:00Z"), end: new Date("2026-06-08T04:00:00Z") };
const item = (id: string, start: string) => ({ id, start: new Date(start) });

describe("startsIn", () => {
  it("takes a start in [start, end): the first instant in, the end out", () => {
    expect(startsIn(item("a", "2026-06-01T03:59:59Z"), range)).toBe(false);
    expect(startsIn(item("b", "2026-06-01T04:00:00Z"), range)).toBe(true);
    expect(startsIn(item("c", "2026-06-08T04:00:00Z"), range)).toBe(false);
  });
});

describe("publishSelection", () => {
  it("takes the open shifts starting in the range and the draft assignments of those only", () => {
    const selection = publishSelection(
      {
        openShifts: [item("in", "2026-06-03T13:00:00Z"), item("out", "2026-06-09T13:00:00Z")],
        assignments: [
          { id: "p1", openShiftId: "in" },
          { id: "p2", openShiftId: "out" },
        ],
      },
      range,
    );
    expect(selection).toEqual({ openShiftIds: ["in"], assignmentIds: ["p1"], withheld: [] });
  });

  it("selects nothing from nothing", () => {
    expect(publishSelection({ openShifts: [], assignments: [] }, range)).toEqual({ openShiftIds: [], assignmentIds: [], withheld: [] });
  });

  it("withholds an open shift whole when one of its assignments conflicts", () => {
    const start = new Date(range.start.getTime() + 3_600_000);
    const selection = publishSelection(
      {
        openShifts: [
          { id: "a", start },
          { id: "b", start },
        ],
        assignments: [
          { id: "p1", openShiftId: "a" },
          { id: "p2", openShiftId: "a" },
          { id: "p3", openShiftId: "b" },
        ],
        conflicting: new Set(["p2"]),
      },
      range,
    );
    expect(selection).toEqual({ openShiftIds: ["b"], assignmentIds: ["p3"], withheld: [{ id: "p2", openShiftId: "a" }] });
  });
});
