import { describe, expect, it } from "vitest";
import { assignedTo, MAX_COST_CODE_DEPTH, placementRefusal } from "@/domain/cost-codes";

describe("placementRefusal", () => {
  it.each([
    // [parentDepth, subtreeHeight, parentInSubtree, refusal]
    [0, 1, false, null], // a new root
    [4, 1, false, null], // a new code on level 5
    [5, 1, false, "TOO_DEEP"], // a new code on level 6
    [0, 5, false, null], // a five-level tree made a root
    [1, 5, false, "TOO_DEEP"], // a five-level tree moved one level down
    [2, 3, false, null], // levels 3 to 5
    [3, 3, false, "TOO_DEEP"], // levels 4 to 6
    [2, 1, true, "CYCLE"], // under itself or a descendant
    [5, 5, true, "CYCLE"], // a cycle is named before the depth
  ] as const)("parent depth %i, subtree height %i, parent in subtree %s → %s", (parentDepth, subtreeHeight, parentInSubtree, refusal) => {
    expect(placementRefusal({ parentDepth, subtreeHeight, parentInSubtree })).toBe(refusal);
  });

  it("allows five levels and no more", () => {
    expect(MAX_COST_CODE_DEPTH).toBe(5);
  });
});

describe("assignedTo", () => {
  it.each([
    [{ all: true, employeeIds: [] }, "a", true],
    [{ all: false, employeeIds: ["a", "b"] }, "b", true],
    [{ all: false, employeeIds: ["a"] }, "c", false],
    [{ all: false, employeeIds: [] }, "a", false],
  ])("%j, %s → %s", (assignment, employeeId, expected) => {
    expect(assignedTo(assignment, employeeId)).toBe(expected);
  });
});
