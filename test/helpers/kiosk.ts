import { api } from "./api";
import type { OrganizationFixture } from "./fixtures";

/** A device of the location, created by the organization's admin and enrolled: its id and device token. */
export async function enrollDevice(org: OrganizationFixture, locationId: string, name = "Front door") {
  const created = await api("POST", `/api/organizations/${org.id}/locations/${locationId}/devices`, {
    token: org.adminToken,
    body: { name },
  });
  if (created.status !== 201) throw new Error(`device: ${created.status} ${created.text}`);
  const enrolled = await api("POST", "/api/devices/enroll", { body: { enrollmentCode: created.body.enrollmentCode } });
  if (enrolled.status !== 200) throw new Error(`enroll: ${enrolled.status} ${enrolled.text}`);
  return { deviceId: enrolled.body.deviceId as string, token: enrolled.body.deviceToken as string };
}

/** Sets the staff member's kiosk PIN with the organization admin's token. */
export async function setStaffPin(org: OrganizationFixture, staffId: string, pin: string) {
  const res = await api("PUT", `/api/organizations/${org.id}/staffmembers/${staffId}/pin`, { token: org.adminToken, body: { pin } });
  if (res.status !== 204) throw new Error(`pin: ${res.status} ${res.text}`);
}

/** The kiosk's PIN check with a device token. */
export const pinCheck = (deviceToken: string, employeeId: string, pin: string) =>
  api("POST", "/api/kiosk/pin-check", { token: deviceToken, body: { employeeId, pin } });
