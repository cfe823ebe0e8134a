import { api } from "./api";
import { createOrganization, type OrganizationFixture } from "./fixtures";
import { createLocation, type LocationFixture } from "./locations";
import { tenantDb } from "./shards";
import { createStaffMember, staffToken } from "./staff";

export interface SchedulePlace {
  org: OrganizationFixture;
  location: LocationFixture;
  staff: { id: string };
  /** The staff member's own token (the Employee access role: no permissions). */
  token: string;
  roleId: string;
  /** …/organizations/{organizationId}/locations/{locationId} */
  base: string;
}

/** An organization with a location in `timezone` and an Employee assigned to it. */
export async function createSchedulePlace(timezone = "America/New_York"): Promise<SchedulePlace> {
  const org = await createOrganization();
  const location = await createLocation(org, { timezone });
  const staff = await createStaffMember(org, { locationIds: [location.id], accessRoleName: "Employee" });
  return {
    org,
    location,
    staff,
    token: await staffToken(org, staff.id),
    roleId: org.defaultRoleId,
    base: `/api/organizations/${org.id}/locations/${location.id}`,
  };
}

/** Another Employee assigned to the place's location. */
export const addWorker = (p: SchedulePlace) => createStaffMember(p.org, { locationIds: [p.location.id], accessRoleName: "Employee" });

export const entryBody = (p: SchedulePlace, body: Record<string, unknown> = {}) => ({
  employeeId: p.staff.id,
  roleId: p.roleId,
  startTime: "2026-06-01T09:00:00Z",
  endTime: "2026-06-01T17:00:00Z",
  ...body,
});

export async function createEntry(p: SchedulePlace, body: Record<string, unknown> = {}, draft = false) {
  const res = await api("POST", `${p.base}/schedules${draft ? "/drafts" : ""}`, { token: p.org.adminToken, body: entryBody(p, body) });
  if (res.status !== 201) throw new Error(`entry: ${res.status} ${res.text}`);
  return res.body as Record<string, any>;
}

export const openShiftBody = (body: Record<string, unknown> = {}) => ({
  roleName: "Barista",
  startDate: "2026-06-02T09:00:00Z",
  endDate: "2026-06-02T17:00:00Z",
  staffCountRequired: 2,
  requireApproval: false,
  ...body,
});

export async function createOpenShift(p: SchedulePlace, body: Record<string, unknown> = {}) {
  const res = await api("POST", `${p.base}/open-shifts`, { token: p.org.adminToken, body: openShiftBody({ publish: true, ...body }) });
  if (res.status !== 201) throw new Error(`open shift: ${res.status} ${res.text}`);
  return res.body as Record<string, any>;
}

/**
 * Sets the location's Fair Workweek pack (PUT …/fair-workweek), then dates the version the PUT wrote back to `since`:
 * a setting made back then (a PUT takes effect on the location's today; past dates keep the pack they had).
 */
export async function setPackSince(org: OrganizationFixture, locationId: string, rulePack: string, since: string) {
  const res = await api("PUT", `/api/organizations/${org.id}/locations/${locationId}/fair-workweek`, {
    token: org.adminToken,
    body: { rulePack },
  });
  if (res.status !== 200) throw new Error(`fair workweek: ${res.status} ${res.text}`);
  await tenantDb()
    .prepare("UPDATE location_fair_workweek_versions SET effective_from = ? WHERE location_id = ? AND rule_pack = ?")
    .bind(since, locationId, rulePack)
    .run();
}

/** A place (in `timezone`) whose location works under the working-time pack `rulePack` (PUT …/working-time). */
export async function createWorkingTimePlace(rulePack: string, timezone = "UTC"): Promise<SchedulePlace> {
  const p = await createSchedulePlace(timezone);
  const res = await api("PUT", `/api/organizations/${p.org.id}/locations/${p.location.id}/working-time`, {
    token: p.org.adminToken,
    body: { rulePack },
  });
  if (res.status !== 200) throw new Error(`working time: ${res.status} ${res.text}`);
  return p;
}
