import { api } from "./api";
import { accessToken, type Partner } from "./tokens";

let sequence = 0;
/** Unique per call, so tests never depend on one another's data. */
export const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(sequence++).toString(36)}`;

export interface OrganizationFixture {
  id: string;
  adminToken: string;
  accessRoles: Record<string, string>;
  defaultRoleId: string;
  /** Its partner, when not the development partner. */
  partner?: Partner;
}

/** A fresh organization with its defaults, and an admin token for it; the development partner's unless named. */
export async function createOrganization(body: Record<string, unknown> = {}, partner?: Partner): Promise<OrganizationFixture> {
  const res = await api("POST", "/api/organizations/with-defaults", {
    token: await accessToken({}, partner),
    body: { name: unique("Org"), ...body },
  });
  if (res.status !== 201) throw new Error(`organization: ${res.status} ${res.text}`);
  const accessRoles = Object.fromEntries((res.body.defaults.accessRoles as { id: string; name: string }[]).map((r) => [r.name, r.id]));
  return {
    id: res.body.id,
    adminToken: await accessToken({ organizationId: res.body.id }, partner),
    accessRoles,
    defaultRoleId: res.body.defaults.roles[0].id,
    ...(partner ? { partner } : {}),
  };
}
