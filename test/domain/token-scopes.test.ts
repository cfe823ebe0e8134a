import { describe, expect, it } from "vitest";
import { isTokenScope, requiredScope, scopesGrant, TOKEN_SCOPES } from "@/domain/token-scopes";

describe("TOKEN_SCOPES", () => {
  it("is the two wildcards and a read and a write per area", () => {
    const areas = [
      "organizations",
      "locations",
      "staff",
      "time_tracking",
      "timesheets",
      "pay",
      "time_off",
      "availability",
      "attendance",
      "schedules",
      "events",
      "exports",
      "audit_log",
      "working_time",
      "jobs",
    ];
    expect(TOKEN_SCOPES).toEqual(["*:read", "*:write", ...areas.flatMap((a) => [`${a}:read`, `${a}:write`])]);
  });
  it.each([
    ["*:read", true],
    ["*:write", true],
    ["pay:read", true],
    ["jobs:write", true],
    ["pay", false],
    ["pay:delete", false],
    ["Pay:read", false],
    ["", false],
  ])("isTokenScope(%j) is %s", (scope, expected) => expect(isTokenScope(scope)).toBe(expected));
});

describe("requiredScope", () => {
  it.each([
    ["Pay", "GET", "pay:read"],
    ["Pay", "head", "pay:read"],
    ["Pay", "get", "pay:read"],
    ["Pay", "POST", "pay:write"],
    ["Pay", "DELETE", "pay:write"],
    ["Wage rates", "PATCH", "pay:write"],
    ["Staff members", "GET", "staff:read"],
    ["Fair Workweek", "PUT", "schedules:write"],
    ["Audit log", "GET", "audit_log:read"],
    ["Meta", "GET", null],
    ["Authentication", "POST", null],
    ["toString", "GET", null],
    [undefined, "GET", null],
  ] as const)("%s %s needs %s", (tag, method, expected) => expect(requiredScope(tag, method)).toBe(expected));
});

describe("scopesGrant", () => {
  it.each([
    [undefined, "pay:write", true],
    [[], "pay:read", false],
    [["pay:read"], "pay:read", true],
    [["pay:write"], "pay:read", true],
    [["*:read"], "pay:read", true],
    [["*:write"], "pay:read", true],
    [["staff:write"], "pay:read", false],
    [["pay:write"], "pay:write", true],
    [["*:write"], "pay:write", true],
    [["pay:read"], "pay:write", false],
    [["*:read"], "pay:write", false],
    [["staff:write", "pay:read"], "pay:read", true],
  ] as const)("%j grants %s: %s", (scopes, needed, expected) => expect(scopesGrant(scopes, needed)).toBe(expected));
});
