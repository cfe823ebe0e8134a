import { describe, expect, it } from "vitest";
import { isPartnerLevel, isPermission, lackingToGrant, mayAct, mayManage, type Principal } from "@/domain/permissions";

const ADMIN = ["ORGANIZATION_ADMIN"];
const MANAGER = ["LOCATION_ADMIN"];
const EMPLOYEE: string[] = [];

describe("mayManage", () => {
  it("lets ORGANIZATION_ADMIN manage every access role", () => {
    for (const role of [ADMIN, MANAGER, EMPLOYEE, ["SHIFT_WRITE", "TIMEOFF_APPROVE"]])
      expect(mayManage(["ORGANIZATION_ADMIN"], role)).toBe(true);
  });

  it("lets LOCATION_ADMIN manage its peers and everything below, but not an Admin", () => {
    expect(mayManage(["LOCATION_ADMIN"], MANAGER)).toBe(true);
    expect(mayManage(["LOCATION_ADMIN"], EMPLOYEE)).toBe(true);
    expect(mayManage(["LOCATION_ADMIN"], ["EMPLOYEE_WRITE", "SCHEDULE_WRITE", "TIMEOFF_APPROVE"])).toBe(true);
    expect(mayManage(["LOCATION_ADMIN"], ADMIN)).toBe(false);
    expect(mayManage(["LOCATION_ADMIN"], ["SHIFT_READ", "ORGANIZATION_ADMIN"])).toBe(false);
  });

  it("needs every permission of the target's role, not just one", () => {
    expect(mayManage(["EMPLOYEE_WRITE"], ["EMPLOYEE_WRITE"])).toBe(true);
    expect(mayManage(["EMPLOYEE_WRITE"], ["EMPLOYEE_WRITE", "SHIFT_WRITE"])).toBe(false);
    expect(mayManage(["EMPLOYEE_WRITE"], MANAGER)).toBe(false);
    expect(mayManage(["EMPLOYEE_WRITE", "EMPLOYEE_READ"], ["EMPLOYEE_READ"])).toBe(true);
  });

  it("lets anyone manage a role without permissions, and nobody one with an unknown permission", () => {
    expect(mayManage([], EMPLOYEE)).toBe(true);
    expect(mayManage(["ORGANIZATION_ADMIN"], ["SUPERUSER"])).toBe(false);
  });
});

describe("lackingToGrant", () => {
  it("names each permission the caller lacks once, in the role's order", () => {
    expect(lackingToGrant(["EMPLOYEE_WRITE"], ["SHIFT_WRITE", "EMPLOYEE_WRITE", "LOCATION_ADMIN", "SHIFT_WRITE"])).toEqual([
      "SHIFT_WRITE",
      "LOCATION_ADMIN",
    ]);
    expect(lackingToGrant(["LOCATION_ADMIN"], ADMIN)).toEqual(["ORGANIZATION_ADMIN"]);
    expect(lackingToGrant(["ORGANIZATION_ADMIN"], ["LOCATION_ADMIN", "SHIFT_WRITE"])).toEqual([]);
  });
});

describe("mayAct", () => {
  const staff = (permissions: Principal["permissions"]): Principal => ({
    partnerId: "ptn_1",
    organizationId: "org_1",
    staffMemberId: "stf_1",
    permissions,
  });
  it.each([
    ["the permission itself", staff(["SCHEDULE_READ"]), "SCHEDULE_READ", undefined, true],
    ["a permission LOCATION_ADMIN implies", staff(["LOCATION_ADMIN"]), "TIMESHEET_APPROVE", "stf_2", true],
    ["another permission", staff(["SCHEDULE_READ"]), "SCHEDULE_WRITE", undefined, false],
    ["about themself, without the permission", staff([]), "TIMEOFF_WRITE", "stf_1", true],
    ["about someone else, without it", staff([]), "TIMEOFF_WRITE", "stf_2", false],
    ["about nobody, without it", staff([]), "TIMEOFF_WRITE", undefined, false],
  ] as const)("%s: %s", (_, principal, permission, subject, expected) => {
    expect(mayAct(principal, permission, subject)).toBe(expected);
  });
});

describe("isPartnerLevel", () => {
  it("is a token without an organization", () => {
    expect(isPartnerLevel({ partnerId: "ptn_1", organizationId: null, staffMemberId: null, permissions: [] })).toBe(true);
    expect(isPartnerLevel({ partnerId: "ptn_1", organizationId: "org_1", staffMemberId: null, permissions: [] })).toBe(false);
  });
});

describe("isPermission", () => {
  it("names the listed permissions only", () => {
    expect(isPermission("SCHEDULE_READ")).toBe(true);
    expect(isPermission("WORKING_TIME_OVERRIDE")).toBe(true);
    expect(isPermission("ROOT")).toBe(false);
    expect(isPermission("schedule_read")).toBe(false);
  });
});
