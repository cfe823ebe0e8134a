import { devices, locations, organizations } from "@db/schema";
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Database, Statement } from "@/data/client";
import { type Placeholders, prepared } from "@/data/prepared";
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
 * What a device token names for as long as it is good: its device, the device's location, the organization's partner
 * and whether the organization is a sandbox (a sandbox never stops being one), whose clock its requests then read.
 */
interface DeviceIdentity {
  deviceId: string;
  locationId: string;
  partnerId: string;
  sandbox: boolean;
}

/**
 * Identities of tokens this isolate has seen good, by the token's SHA-256: settled values only (see appFor in
 * src/app.ts), bounded. Never whether the device is still enrolled: that is read on every request.
 */
const known = new Map<string, DeviceIdentity>();
const MAX_KNOWN = 5000;

/** Forgets every device this isolate has seen: its next request looks its device up on its own (the bench's "before"). */
export const forgetKnownDevices = () => known.clear();

function remember(tokenHash: string, identity: DeviceIdentity) {
  known.delete(tokenHash);
  if (known.size >= MAX_KNOWN) known.delete(known.keys().next().value ?? "");
  known.set(tokenHash, identity);
}

/**
 * Principals whose device has not been read yet: their request reads its standing in its own read batch
 * (`deviceStanding`), or `checkDeviceAfter` reads it once the request is answered otherwise.
 */
const unread = new WeakMap<Principal, { tokenHash: string; read: boolean }>();

const principalOf = (organizationId: string, identity: DeviceIdentity): Principal => ({
  partnerId: identity.partnerId,
  organizationId,
  staffMemberId: null,
  permissions: [],
  device: { deviceId: identity.deviceId, locationId: identity.locationId },
  ...(identity.sandbox && { sandbox: true as const }),
});

// The device a token hash names, with what revokes it (its status, its organization's and location's deletion),
// built once per isolate (data/prepared). One computed `placeLive`: two `deleted_at` columns would collide in a
// batch's rows, which D1 keys by column name.
const deviceOfToken = prepared((db, p: Placeholders<{ tokenHash: string; organizationId: string }>) =>
  db
    .select({
      id: devices.id,
      locationId: devices.locationId,
      status: devices.status,
      lastSeenAt: devices.lastSeenAt,
      partnerId: organizations.partnerId,
      sandbox: organizations.sandbox,
      clockOffsetMs: organizations.clockOffsetMs,
      placeLive: sql<number>`(${organizations.deletedAt} IS NULL AND ${locations.deletedAt} IS NULL)`.as("device_place_live"),
    })
    .from(devices)
    .innerJoin(organizations, eq(organizations.id, devices.organizationId))
    .innerJoin(locations, eq(locations.id, devices.locationId))
    .where(and(eq(devices.tokenHash, p.tokenHash), eq(devices.organizationId, p.organizationId))),
);

type DeviceRow = Awaited<ReturnType<typeof deviceOfToken>>[number];

/**
 * The verdict on the device's row: none is 401 INVALID_ACCESS_TOKEN (rotated away or never issued), a revoked device
 * or one of a deleted location or organization 401 DEVICE_REVOKED. A stale lastSeenAt moves, by one conditional UPDATE.
 */
async function judgeDevice(db: Database, device: DeviceRow | undefined, now: Date): Promise<DeviceIdentity> {
  if (!device) throw invalid();
  if (device.status !== "ACTIVE" || !device.placeLive) throw deviceRevoked();
  if (device.lastSeenAt === null || now.getTime() - device.lastSeenAt.getTime() >= LAST_SEEN_EVERY_MS) {
    const stale = new Date(now.getTime() - LAST_SEEN_EVERY_MS);
    await db
      .update(devices)
      .set({ lastSeenAt: now })
      .where(and(eq(devices.id, device.id), or(isNull(devices.lastSeenAt), lt(devices.lastSeenAt, stale))));
  }
  return { deviceId: device.id, locationId: device.locationId, partnerId: device.partnerId, sandbox: device.sandbox };
}

/**
 * A device token -> the device's principal, routed to its organization's shard: one indexed read by the token's
 * SHA-256. A revoked device (or one of a deleted location or organization) is 401 DEVICE_REVOKED; a token that was
 * rotated away, or was never issued, is 401 INVALID_ACCESS_TOKEN.
 */
export async function devicePrincipal(c: AppContext, token: string, now = new Date(), tokenHash?: string): Promise<Principal> {
  const organizationId = organizationOfDeviceToken(token);
  if (!organizationId) throw invalid();
  const db = await routeToOrganization(c, organizationId);
  if (!db) throw invalid();
  const hash = tokenHash ?? (await sha256Hex(token));
  const [device] = await deviceOfToken(db, { tokenHash: hash, organizationId });
  const identity = await judgeDevice(db, device, now);
  remember(hash, identity);
  // The row read names the sandbox's clock: its requests read the organization's time with no read of their own.
  if (identity.sandbox && device) c.set("clockOffset", device.clockOffsetMs);
  return principalOf(organizationId, identity);
}

/**
 * For an operation that reads the device in its own read batch (a kiosk punch: `deviceStanding`): the principal of a
 * token this isolate has seen good, from what the token names, with no D1 call of its own; the request's read batch
 * then refuses it as `devicePrincipal` would, before anything else. A token not seen yet is looked up as always.
 */
export async function deviceToRead(c: AppContext, token: string): Promise<Principal> {
  const organizationId = organizationOfDeviceToken(token);
  if (!organizationId) throw invalid();
  const tokenHash = await sha256Hex(token);
  const identity = known.get(tokenHash);
  if (!identity) return devicePrincipal(c, token, new Date(), tokenHash);
  if (!(await routeToOrganization(c, organizationId))) throw invalid();
  const principal = principalOf(organizationId, identity);
  unread.set(principal, { tokenHash, read: false });
  return principal;
}

/**
 * The device's own read for a request's read batch (none when `devicePrincipal` read it already), and the verdict on
 * its rows, to be passed before anything else is judged. The write batch's principal guard (data/write/guarded-batch)
 * still refuses a device revoked between the two.
 */
export function deviceStanding(db: Database, principal: Principal) {
  const pending = unread.get(principal);
  const organizationId = principal.organizationId;
  const reads: Statement[] = pending && organizationId ? [deviceOfToken(db, { tokenHash: pending.tokenHash, organizationId })] : [];
  return {
    reads,
    /** Checks the device on the first of `rows` (when it was read) and answers the rows after it. */
    async pass(rows: readonly unknown[], now = new Date()): Promise<unknown[]> {
      if (!pending) return [...rows];
      pending.read = true;
      const [device] = rows[0] as DeviceRow[];
      const identity = await judgeDevice(db, device, now);
      const named = principal.device;
      if (
        identity.deviceId !== named?.deviceId ||
        identity.locationId !== named.locationId ||
        identity.partnerId !== principal.partnerId ||
        identity.sandbox !== (principal.sandbox === true)
      ) {
        // A token hash names one device for good: this cannot be, unless the cache is wrong. Forget it, refuse.
        known.delete(pending.tokenHash);
        throw invalid();
      }
      return rows.slice(1);
    },
  };
}

/**
 * After a request whose device was to be read in its read batch: a request answered before that read (a body that is
 * no punch, a rate limit) reads it now, so a revoked device is still answered 401 DEVICE_REVOKED, as on any request.
 */
export async function checkDeviceAfter(c: AppContext, token: string, principal: Principal | undefined) {
  const pending = principal && unread.get(principal);
  if (!pending || pending.read) return;
  pending.read = true;
  await devicePrincipal(c, token, new Date(), pending.tokenHash);
}
