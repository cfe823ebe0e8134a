import type { Permission } from "./permissions";

export const DEFAULT_ACCESS_ROLES: { name: string; permissions: Permission[] }[] = [
  { name: "Admin", permissions: ["ORGANIZATION_ADMIN"] },
  { name: "Manager", permissions: ["LOCATION_ADMIN"] },
  { name: "Employee", permissions: [] },
];

export const EMPLOYEE_ACCESS_ROLE = "Employee";

export const DEFAULT_ROLE_NAME = "Default";

export const POLICY_TYPE_KINDS = ["Vacation", "Sick", "Personal", "Bereavement", "Unpaid", "Other"] as const;

export const DEFAULT_POLICY_TYPES = POLICY_TYPE_KINDS.filter((kind) => kind !== "Other").map((kind) => ({
  name: kind,
  type: kind,
}));

/** What a new organization's time-off settings start as (the settings resource documents each field). */
export const DEFAULT_TIME_OFF_SETTINGS = {
  allowPastRequests: false,
  minimumNoticeDays: 0,
  requireNote: false,
  fullDayHours: 8,
  weekStartsOn: "Monday",
};
