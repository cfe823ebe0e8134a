/** Why a worker may not claim an open shift, as the 409's code; null when they may. */
export type ClaimRefusal = "OPEN_SHIFT_NOT_PUBLISHED" | "WORKER_NOT_ASSIGNED" | "ALREADY_CLAIMED";

export interface ClaimContext {
  openShift: { locationId: string; isDraft: boolean };
  worker: { active: boolean; locationIds: readonly string[] };
  /** The worker's live (PENDING or APPROVED) claim or preference on the shift, if any. */
  existing: { status: string } | null;
}

/**
 * The refusals a read can settle before the write. Capacity, overlap with the worker's schedule and time off
 * are settled by the write itself (guard columns), since another request may change them meanwhile.
 */
export function claimRefusal(context: ClaimContext): ClaimRefusal | null {
  if (context.openShift.isDraft) return "OPEN_SHIFT_NOT_PUBLISHED";
  if (!context.worker.active || !context.worker.locationIds.includes(context.openShift.locationId)) return "WORKER_NOT_ASSIGNED";
  if (context.existing) return "ALREADY_CLAIMED";
  return null;
}

/** A claim is approved at once unless the open shift requires a manager's approval. */
export const claimStatus = (requireApproval: boolean): "APPROVED" | "PENDING" => (requireApproval ? "PENDING" : "APPROVED");

export const isFullyClaimed = (approvedPlaces: number, staffCountRequired: number): boolean => approvedPlaces >= staffCountRequired;

/**
 * Assigning on a draft open shift makes a draft assignment (approved in place, entry created at publish); on a
 * published one it approves and creates the schedule entry now.
 */
export const assignmentKind = (openShift: { isDraft: boolean }): "draft" | "published" => (openShift.isDraft ? "draft" : "published");

/** Whether `count` new approvals fit next to `approved` places already taken. */
export const placesFit = (approved: number, count: number, staffCountRequired: number): boolean => approved + count <= staffCountRequired;
