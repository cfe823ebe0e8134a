/**
 * Token scopes: what a token may do, narrower than its role. A scope is `<area>:read` or `<area>:write`, or
 * `*:read` / `*:write` for every area; `<area>:write` includes `<area>:read`. A token without scopes is limited by
 * its role alone. Every operation needs one scope, derived from its first tag (the area) and its method (GET and
 * HEAD read, everything else writes): one table here, never a list of operations.
 */
export const SCOPE_AREAS = {
  Organizations: "organizations",
  Locations: "locations",
  "Break types": "locations",
  "Staff members": "staff",
  Roles: "staff",
  "Access roles": "staff",
  "Time tracking": "time_tracking",
  "Shift notes": "time_tracking",
  Kiosks: "time_tracking",
  Photos: "time_tracking",
  Timesheets: "timesheets",
  Pay: "pay",
  "Wage rates": "pay",
  "Cost codes": "pay",
  "Time off": "time_off",
  Availability: "availability",
  Attendance: "attendance",
  Schedules: "schedules",
  "Shift requests": "schedules",
  "Open shifts": "schedules",
  Demand: "schedules",
  "Fair Workweek": "schedules",
  Events: "events",
  Webhooks: "events",
  Exports: "exports",
  "Custom fields": "organizations",
  "Audit log": "audit_log",
  "Working time": "working_time",
  Jobs: "jobs",
} as const satisfies Record<string, string>;

export type ScopeArea = (typeof SCOPE_AREAS)[keyof typeof SCOPE_AREAS];

/** Every scope a token may carry. */
export const TOKEN_SCOPES: readonly string[] = [
  "*:read",
  "*:write",
  ...[...new Set(Object.values(SCOPE_AREAS))].flatMap((area) => [`${area}:read`, `${area}:write`]),
];

export const isTokenScope = (value: string): boolean => TOKEN_SCOPES.includes(value);

const READ_METHODS = new Set(["GET", "HEAD"]);

/** The scope an operation needs (null: a tag no token scope covers, e.g. Meta and Authentication, which are public). */
export function requiredScope(tag: string | undefined, method: string): string | null {
  const area = tag !== undefined && Object.hasOwn(SCOPE_AREAS, tag) ? SCOPE_AREAS[tag as keyof typeof SCOPE_AREAS] : null;
  if (area === null) return null;
  return `${area}:${READ_METHODS.has(method.toUpperCase()) ? "read" : "write"}`;
}

/** Whether scopes (undefined: unrestricted) grant `needed`: the scope itself, its area's write, or the wildcard's. */
export function scopesGrant(scopes: readonly string[] | undefined, needed: string): boolean {
  if (scopes === undefined) return true;
  const [area, access] = needed.split(":");
  const granting = access === "read" ? [needed, `${area}:write`, "*:read", "*:write"] : [needed, "*:write"];
  return granting.some((scope) => scopes.includes(scope));
}
