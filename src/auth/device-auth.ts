import { devices, locations, organizations } from "@db/schema";
import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { Principal } from "@/domain/permissions";
import type { AppContext } from "@/platform/http/env";
import { routeToOrganization } from "@/platform/middleware/database";
import { unauthorized } from "@/problems/problem";
import { organizationOfDeviceToken, sha256Hex } from "./device-token";

/** lastSeenAt moves at most once a minute: a kiosk's every request does not become a write. */
const LAST_SEEN_EVERY_MS = 60_000;

const invalid = () => unauthorized("INVALID_ACCESS_TOKEN", "The access token is invalid or has expired.");

export const deviceRevoked = () =>
  unauthorized("DEVICE_REVOKED", "This device was revoked (or its location deleted). Enroll it again with a new code.");

/**
 * A device token -> the device's principal, routed to its organization's shard: one indexed read by the token's
 * SHA-256. A revoked device (or one of a deleted location or organization) is 401 DEVICE_REVOKED; a token that was
 * rotated away, or was never issued, is 401 INVALID_ACCESS_TOKEN.
 */
export async function devicePrincipal(c: AppContext, token: string, now = new Date()): Promise<Principal> {
  const organizationId = organizationOfDeviceToken(token);
  if (!organizationId) throw invalid();
  const db = await routeToOrganization(c, organizationId);
  if (!db) throw invalid();
  const [device] = await db
    .select({
      id: devices.id,
      locationId: devices.locationId,
      status: devices.status,
      lastSeenAt: devices.lastSeenAt,
      partnerId: organizations.partnerId,
      organizationDeleted: organizations.deletedAt,
      locationDeleted: locations.deletedAt,
    })
    .from(devices)
    .innerJoin(organizations, eq(organizations.id, devices.organizationId))
    .innerJoin(locations, eq(locations.id, devices.locationId))
    .where(and(eq(devices.tokenHash, await sha256Hex(token)), eq(devices.organizationId, organizationId)));
  if (!device) throw invalid();
  if (device.status !== "ACTIVE" || device.organizationDeleted !== null || device.locationDeleted !== null) throw deviceRevoked();
  if (device.lastSeenAt === null || now.getTime() - device.lastSeenAt.getTime() >= LAST_SEEN_EVERY_MS) {
    const stale = new Date(now.getTime() - LAST_SEEN_EVERY_MS);
    await db
      .update(devices)
      .set({ lastSeenAt: now })
      .where(and(eq(devices.id, device.id), or(isNull(devices.lastSeenAt), lt(devices.lastSeenAt, stale))));
  }
  return {
    partnerId: device.partnerId,
    organizationId,
    staffMemberId: null,
    permissions: [],
    device: { deviceId: device.id, locationId: device.locationId },
  };
}
