import { describe, expect, it } from "vitest";
import {
  DEFAULT_ACCESS_ROLES,
  DEFAULT_POLICY_TYPES,
  DEFAULT_ROLE_NAME,
  DEFAULT_TIME_OFF_SETTINGS,
  EMPLOYEE_ACCESS_ROLE,
  POLICY_TYPE_KINDS,
} from "@/domain/organization-defaults";

// API.md, "Create Organization With Defaults".
describe("a new organization's defaults", () => {
  it("has the access roles Admin, Manager and Employee with their permissions", () => {
    expect(DEFAULT_ACCESS_ROLES).toEqual([
      { name: "Admin", permissions: ["ORGANIZATION_ADMIN"] },
      { name: "Manager", permissions: ["LOCATION_ADMIN"] },
      { name: "Employee", permissions: [] },
    ]);
    expect(EMPLOYEE_ACCESS_ROLE).toBe("Employee");
    expect(DEFAULT_ROLE_NAME).toBe("Default");
  });
  it("has the standard policy types, every kind but Other", () => {
    expect(POLICY_TYPE_KINDS).toEqual(["Vacation", "Sick", "Personal", "Bereavement", "Unpaid", "Other"]);
    expect(DEFAULT_POLICY_TYPES).toEqual([
      { name: "Vacation", type: "Vacation" },
      { name: "Sick", type: "Sick" },
      { name: "Personal", type: "Personal" },
      { name: "Bereavement", type: "Bereavement" },
      { name: "Unpaid", type: "Unpaid" },
    ]);
  });
  it("has the time-off settings the settings resource documents", () => {
    expect(DEFAULT_TIME_OFF_SETTINGS).toEqual({
      allowPastRequests: false,
      minimumNoticeDays: 0,
      requireNote: false,
      fullDayHours: 8,
      weekStartsOn: "Monday",
    });
  });
});
