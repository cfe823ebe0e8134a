/** A cost code tree is at most this many levels deep: a root is level 1. */
export const MAX_COST_CODE_DEPTH = 5;

/** Where a code (and the subtree under it) would be placed: under a parent at `parentDepth` (0: as a root). */
export interface Placement {
  /** The depth of the new parent, 0 for none (a root). */
  parentDepth: number;
  /** Levels of the subtree being placed, the code itself included (1 for a new code or a leaf). */
  subtreeHeight: number;
  /** The new parent is the code itself or one of its descendants. */
  parentInSubtree: boolean;
}

export type PlacementRefusal = "CYCLE" | "TOO_DEEP";

/** Why a code cannot go there (a cycle, or a deepest level past MAX_COST_CODE_DEPTH), or null when it can. */
export function placementRefusal({ parentDepth, subtreeHeight, parentInSubtree }: Placement): PlacementRefusal | null {
  if (parentInSubtree) return "CYCLE";
  if (parentDepth + subtreeHeight > MAX_COST_CODE_DEPTH) return "TOO_DEEP";
  return null;
}

/** Who may charge time to a code: everyone (`all`), or the staff members it is assigned to. */
export const assignedTo = (assignment: { all: boolean; employeeIds: readonly string[] }, employeeId: string) =>
  assignment.all || assignment.employeeIds.includes(employeeId);
