import { describe, expect, it } from "vitest";
import { publishSelection } from "../../src/domain/schedule-publish";

const range = { start: new Date("2026-06-01T04:00:00Z"), end: new Date("2026-06-08T04:00:00Z") };
const item = (id: string, start: string) => ({ id, start: new Date(start) });

describe("publishSelection", () => {
  it("takes drafts starting in [start, end) and the assignments of the open shifts it publishes", () => {
    const selection = publishSelection(
      {
        entries: [item("before", "2026-06-01T03:59:59Z"), item("first", "2026-06-01T04:00:00Z"), item("end", "2026-06-08T04:00:00Z")],
        openShifts: [item("in", "2026-06-03T13:00:00Z"), item("out", "2026-06-09T13:00:00Z")],
        assignments: [
          { id: "p1", openShiftId: "in" },
          { id: "p2", openShiftId: "out" },
        ],
      },
      range,
    );
    expect(selection).toEqual({ entryIds: ["first"], openShiftIds: ["in"], assignmentIds: ["p1"] });
  });

  it("selects nothing from nothing", () => {
    expect(publishSelection({ entries: [], openShifts: [], assignments: [] }, range)).toEqual({ entryIds: [], openShiftIds: [], assignmentIds: [] });
  });
});
