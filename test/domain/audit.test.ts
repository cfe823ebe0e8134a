import { describe, expect, it } from "vitest";
import { actorOf } from "@/domain/audit";
import type { Principal } from "@/domain/permissions";

const partner: Principal = { partnerId: "ptn_1", organizationId: "org_1", staffMemberId: null, permissions: ["ORGANIZATION_ADMIN"] };

describe("actorOf", () => {
  it("a kiosk device, even when a staff member punches through it", () => {
    const device = { deviceId: "dev_1", locationId: "loc_1" };
    expect(actorOf({ ...partner, device })).toEqual({ type: "DEVICE", id: "dev_1", deviceId: "dev_1" });
    expect(actorOf({ ...partner, staffMemberId: "stf_1", device })).toEqual({ type: "DEVICE", id: "dev_1", deviceId: "dev_1" });
  });
  it("a staff member's own token", () => {
    expect(actorOf({ ...partner, staffMemberId: "stf_1" })).toEqual({ type: "STAFF_MEMBER", id: "stf_1", deviceId: null });
  });
  it("else the partner's backend", () => {
    expect(actorOf(partner)).toEqual({ type: "PARTNER", id: "ptn_1", deviceId: null });
  });
});
