import { devices, locations, organizations } from "@db/schema";
import { and, eq, gt, isNull } from "drizzle-orm";
import { ENROLLMENT_TTL_MS, newDeviceToken, newEnrollmentCode, normalizeEnrollmentCode, sha256Hex } from "@/auth/device-token";
import type { Database, Statement } from "@/data/client";
import { newId } from "@/data/ids";
import { shardConfig } from "@/data/shards";
import { inOrganization } from "@/data/tenancy";
import { guardedBatch, type Writer } from "@/data/write/guarded-batch";
import type { AppContext } from "@/platform/http/env";
import { databaseOf } from "@/platform/middleware/database";
import { badRequest, notFound } from "@/problems/problem";
import { deviceEvent } from "./kiosk.events";
import type { DeviceRow } from "./kiosk.schemas";

export const enrollmentCodeInvalid = () =>
  badRequest("ENROLLMENT_CODE_INVALID", "The enrollment code is unknown, used or expired. Create the device again for a new code.");

/** The live location of the organization, or its 404. */
export async function assertLocation(db: Database, organizationId: string, locationId: string) {
  const [location] = await db
    .select({ id: locations.id })
    .from(locations)
    .where(and(inOrganization(locations, organizationId), eq(locations.id, locationId)));
  if (!location) throw notFound("Location");
}

/** A PENDING device with a fresh enrollment code (answered once; only its hash is kept). */
export async function createDevice(writer: Writer, organizationId: string, locationId: string, name: string, now = new Date()) {
  const code = newEnrollmentCode();
  const id = newId(now.getTime());
  const insert = writer.db
    .insert(devices)
    .values({
      id,
      organizationId,
      locationId,
      name,
      status: "PENDING",
      enrollmentCodeHash: await sha256Hex(code),
      enrollmentExpiresAt: new Date(now.getTime() + ENROLLMENT_TTL_MS),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  const [rows] = await guardedBatch(writer, [insert], [], { events: [deviceEvent("device.created", organizationId, id, now)] });
  return { row: rows[0] as DeviceRow, code };
}

const deviceAt = (organizationId: string, locationId: string, id: string) =>
  and(eq(devices.organizationId, organizationId), eq(devices.locationId, locationId), eq(devices.id, id), isNull(devices.deletedAt));

/** Revokes a live device: soft-deleted, its token hash kept so that the token's next request is told DEVICE_REVOKED. */
export async function revokeDevice(writer: Writer, organizationId: string, locationId: string, id: string, now = new Date()) {
  const update = writer.db
    .update(devices)
    .set({ status: "REVOKED", active: false, deletedAt: now, updatedAt: now, enrollmentCodeHash: null, enrollmentExpiresAt: null })
    .where(deviceAt(organizationId, locationId, id))
    .returning();
  const [rows] = await guardedBatch(writer, [update], [], { events: [deviceEvent("device.revoked", organizationId, id, now)] });
  if (!rows[0]) throw notFound("Device");
  return rows[0] as DeviceRow;
}

/**
 * A new token for a live device, in one conditional UPDATE: the old token's hash is replaced, so it stops at once.
 * A PENDING device becomes ACTIVE with it (its enrollment code is spent).
 */
export async function rotateDevice(writer: Writer, organizationId: string, locationId: string, id: string, now = new Date()) {
  const token = newDeviceToken(organizationId);
  const update = writer.db
    .update(devices)
    .set({ status: "ACTIVE", tokenHash: await sha256Hex(token), enrollmentCodeHash: null, enrollmentExpiresAt: null, updatedAt: now })
    .where(deviceAt(organizationId, locationId, id))
    .returning({ id: devices.id });
  const [rows] = await guardedBatch(writer, [update], [], { events: [deviceEvent("device.rotated", organizationId, id, now)] });
  if (!rows[0]) throw notFound("Device");
  return { deviceId: id, deviceToken: token };
}

const pendingWithCode = (codeHash: string, now: Date) =>
  and(
    eq(devices.enrollmentCodeHash, codeHash),
    eq(devices.status, "PENDING"),
    gt(devices.enrollmentExpiresAt, now),
    isNull(devices.deletedAt),
  );

/**
 * POST /api/devices/enroll: the code names no organization, so each shard is asked (one indexed read each, by the
 * code's hash). The code is spent by ONE conditional UPDATE (still PENDING, same code, not expired): of two enrolls
 * at once, one changes the row and the other changes nothing and is told the code is invalid.
 */
export async function enroll(c: AppContext, enrollmentCode: string, now = new Date()) {
  const codeHash = await sha256Hex(normalizeEnrollmentCode(enrollmentCode));
  for (const shard of shardConfig(c.env).shards) {
    const db = databaseOf(c, shard);
    const [found] = await db
      .select({ id: devices.id, organizationId: devices.organizationId, partnerId: organizations.partnerId })
      .from(devices)
      .innerJoin(organizations, and(eq(organizations.id, devices.organizationId), isNull(organizations.deletedAt)))
      .where(pendingWithCode(codeHash, now));
    if (!found) continue;
    const token = newDeviceToken(found.organizationId);
    const update = db
      .update(devices)
      .set({ status: "ACTIVE", tokenHash: await sha256Hex(token), enrollmentCodeHash: null, enrollmentExpiresAt: null, updatedAt: now })
      .where(and(eq(devices.id, found.id), pendingWithCode(codeHash, now)))
      .returning({ id: devices.id }) as unknown as Statement;
    const principal = { partnerId: found.partnerId, organizationId: found.organizationId, staffMemberId: null, permissions: [] };
    const [rows] = await guardedBatch({ db, principal }, [update], [], {
      events: [deviceEvent("device.enrolled", found.organizationId, found.id, now)],
    });
    if (!(rows as unknown[])[0]) throw enrollmentCodeInvalid();
    return { deviceId: found.id, deviceToken: token };
  }
  throw enrollmentCodeInvalid();
}

/** The location's enrolled devices (a list's filter; the crud helpers read them: `deviceRecords`). */
export const devicesAt = (locationId: string) => eq(devices.locationId, locationId);

/** The organization's kiosk devices, as the crud helpers (platform/crud) list them. */
export const deviceRecords = devices;
