import { api } from "./api";
import { type OrganizationFixture, unique } from "./fixtures";
import { accessToken } from "./tokens";

export const staffPath = (org: OrganizationFixture, suffix = "") => `/api/organizations/${org.id}/staffmembers${suffix}`;

/** A staff member created by the organization's admin; answers the record. */
export async function createStaffMember(org: OrganizationFixture, body: Record<string, unknown> = {}) {
  const res = await api("POST", staffPath(org), {
    token: org.adminToken,
    body: { name: unique("Staff"), ...body },
  });
  if (res.status !== 201) throw new Error(`staff member: ${res.status} ${res.text}`);
  return res.body as { id: string; externalId: string | null; accessRoleId: string; locationIds: string[]; roleIds: string[] } & Record<
    string,
    unknown
  >;
}

/** That staff member's access token, with the permissions of their access role. */
export const staffToken = (org: OrganizationFixture, staffId: string) =>
  accessToken({ organizationId: org.id, employeeId: staffId }, org.partner);
