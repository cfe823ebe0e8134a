import { describe, expect, it } from "vitest";
import { assignmentKind, claimRefusal, claimStatus, isFullyClaimed, placesFit } from "@/domain/open-shift-claim";

const context = (overrides: Partial<Parameters<typeof claimRefusal>[0]> = {}) => ({
  openShift: { locationId: "L1", isDraft: false },
  worker: { active: true, locationIds: ["L1"] },
  existing: null,
  ...overrides,
});

describe("claimRefusal", () => {
  it("lets an active worker of the location claim a published shift once", () => {
    expect(claimRefusal(context())).toBeNull();
  });

  it("names the reason: a draft, a worker not assigned or inactive, a second claim", () => {
    expect(claimRefusal(context({ openShift: { locationId: "L1", isDraft: true } }))).toBe("OPEN_SHIFT_NOT_PUBLISHED");
    expect(claimRefusal(context({ worker: { active: true, locationIds: ["L2"] } }))).toBe("WORKER_NOT_ASSIGNED");
    expect(claimRefusal(context({ worker: { active: false, locationIds: ["L1"] } }))).toBe("WORKER_NOT_ASSIGNED");
    expect(claimRefusal(context({ existing: { status: "PENDING" } }))).toBe("ALREADY_CLAIMED");
  });
});

describe("claim outcomes and places", () => {
  it("approves at once only without requireApproval", () => {
    expect(claimStatus(false)).toBe("APPROVED");
    expect(claimStatus(true)).toBe("PENDING");
  });

  it("is fully claimed when approved places reach the count, and fits only within it", () => {
    expect(isFullyClaimed(1, 2)).toBe(false);
    expect(isFullyClaimed(2, 2)).toBe(true);
    expect(placesFit(1, 1, 2)).toBe(true);
    expect(placesFit(1, 2, 2)).toBe(false);
  });

  it("assigns as a draft on a draft open shift", () => {
    expect(assignmentKind({ isDraft: true })).toBe("draft");
    expect(assignmentKind({ isDraft: false })).toBe("published");
  });
});
