export const PERMISSIONS = [
  "ORGANIZATION_ADMIN",
  "LOCATION_ADMIN",
  "LOCATION_READ",
  "EMPLOYEE_READ",
  "EMPLOYEE_WRITE",
  "SHIFT_READ",
  "SHIFT_WRITE",
  "SCHEDULE_READ",
  "SCHEDULE_WRITE",
  "TIMEOFF_READ",
  "TIMEOFF_WRITE",
  "TIMEOFF_APPROVE",
  "TIMESHEET_APPROVE",
  "WORKING_TIME_OVERRIDE",
] as const;

export type Permission = (typeof PERMISSIONS)[number];

/** The access role a staff member's token was issued against: `version` is its permissionsVersion (null: deleted). */
export interface AccessRoleGrant {
  accessRoleId: string;
  version: number | null;
}

/** Who is calling, as the access token says: authorising a request never reads the database. */
export interface Principal {
  partnerId: string;
  organizationId: string | null;
  staffMemberId: string | null;
  permissions: Permission[];
  /** Staff member tokens: what writes check is still so (data/write/guarded-batch). Absent from older tokens. */
  grant?: AccessRoleGrant;
  /** The token's organization is a sandbox (its clock may run ahead: src/data/clock.ts). Absent: a live one. */
  sandbox?: true;
  /** A kiosk's device token: good only for the kiosk operations (flag scope `device`) of its location. */
  device?: DeviceGrant;
  /** Token scopes narrower than the permissions (domain/token-scopes); absent: the permissions alone. */
  scopes?: string[];
  /** The partner's pinned API version (domain/api-versions), kept by the token; absent from older tokens: the latest. */
  apiVersion?: string;
}

/** The enrolled device a device token belongs to. */
export interface DeviceGrant {
  deviceId: string;
  locationId: string;
}

const LOCATION_ADMIN_GRANTS = PERMISSIONS.filter((p) => p !== "ORGANIZATION_ADMIN" && p !== "LOCATION_ADMIN");

/** ORGANIZATION_ADMIN ⊃ LOCATION_ADMIN ⊃ every other permission. */
export function expandPermissions(granted: readonly Permission[]): Set<Permission> {
  const all = new Set<Permission>(granted);
  if (all.has("ORGANIZATION_ADMIN")) all.add("LOCATION_ADMIN");
  if (all.has("LOCATION_ADMIN")) for (const p of LOCATION_ADMIN_GRANTS) all.add(p);
  return all;
}

/**
 * The permissions of an access role (`rolePermissions`, as stored) that the caller does not hold, counting what
 * their own permissions imply: what keeps them from granting that role. An unknown permission is never held.
 */
export function lackingToGrant(callerPermissions: readonly Permission[], rolePermissions: readonly string[]): string[] {
  const held: ReadonlySet<string> = expandPermissions(callerPermissions);
  return [...new Set(rolePermissions.filter((p) => !held.has(p)))];
}

/**
 * Nobody hands out, or acts on someone holding, more than they hold: a caller may assign an access role, and
 * create, change, delete or deactivate a staff member holding it, only with every permission of that role.
 */
export const mayManage = (callerPermissions: readonly Permission[], targetRolePermissions: readonly string[]): boolean =>
  lackingToGrant(callerPermissions, targetRolePermissions).length === 0;

export const isPermission = (value: string): value is Permission => (PERMISSIONS as readonly string[]).includes(value);

/**
 * The one authorisation rule: the permission, or — for operations a staff member may do on themself —
 * being the staff member the request is about.
 */
export function mayAct(principal: Principal, permission: Permission, subjectStaffMemberId?: string): boolean {
  if (expandPermissions(principal.permissions).has(permission)) return true;
  return subjectStaffMemberId !== undefined && principal.staffMemberId === subjectStaffMemberId;
}

/** Partner-level tokens (no organization) act on the partner's organization directory only. */
export const isPartnerLevel = (principal: Principal) => principal.organizationId === null;
