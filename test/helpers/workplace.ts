import { api } from "./api";
import { createOrganization, type OrganizationFixture } from "./fixtures";
import { createLocation, type LocationFixture } from "./locations";
import { createStaffMember, staffToken } from "./staff";

export const HERE = { latitude: 40.748817, longitude: -73.985428 };

export interface Workplace {
  org: OrganizationFixture;
  location: LocationFixture;
  staff: { id: string };
  token: string;
  roleId: string;
  /** Path prefix of the staff member's punches at the location. */
  punchPath: string;
}

/** An organization with a fenced New York location and an Employee assigned to it, holding their own token. */
export async function createWorkplace(location: Record<string, unknown> = {}): Promise<Workplace> {
  const org = await createOrganization();
  const created = await createLocation(org, { timezone: "America/New_York", ...location });
  const staff = await createStaffMember(org, { locationIds: [created.id], accessRoleName: "Employee" });
  return {
    org,
    location: created,
    staff,
    token: await staffToken(org, staff.id),
    roleId: org.defaultRoleId,
    punchPath: `/api/organizations/${org.id}/staffmembers/${staff.id}/locations/${created.id}`,
  };
}

export const punch = (w: Workplace, action: string, body: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  api("POST", `${w.punchPath}/${action}`, { token: w.token, body: { ...HERE, ...body }, headers });

export const clockIn = (w: Workplace, body: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  punch(w, "clock-in", { roleId: w.roleId, ...body }, headers);

export async function createBreakType(w: Workplace, body: Record<string, unknown> = {}) {
  const res = await api("POST", `/api/organizations/${w.org.id}/locations/${w.location.id}/breaks`, {
    token: w.org.adminToken,
    body: { name: "Lunch", durationMinutes: 30, frequencyMinutes: 360, paid: false, mandatory: false, ...body },
  });
  if (res.status !== 201) throw new Error(`break type: ${res.status} ${res.text}`);
  return res.body as { id: string; name: string };
}

export const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

export interface RaisedException {
  type: string;
  minutes: number | null;
  shiftId: string | null;
}

/** The organization's attendance exceptions dated three days back to two ahead, without the `ignored` types. */
export async function exceptionsAroundToday(w: Workplace, ignored: readonly string[] = ["UNSCHEDULED_SHIFT"]): Promise<RaisedException[]> {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const res = await api("GET", `/api/organizations/${w.org.id}/attendance-exceptions?startDate=${day(-3)}&endDate=${day(2)}`, {
    token: w.org.adminToken,
  });
  if (res.status !== 200) throw new Error(`attendance exceptions: ${res.status} ${res.text}`);
  return (res.body as RaisedException[]).filter((e) => !ignored.includes(e.type));
}
