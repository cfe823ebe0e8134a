import { devices } from "@db/schema";
import { eq } from "drizzle-orm";
import type { EventSpec, EventType, Snapshot } from "@/data/outbox/outbox";

/** A device as the API answers it: its public columns only, so no hash of a code or token ever reaches an event. */
export const deviceFields = {
  id: devices.id,
  organizationId: devices.organizationId,
  locationId: devices.locationId,
  name: devices.name,
  status: devices.status,
  enrollmentExpiresAt: devices.enrollmentExpiresAt,
  lastSeenAt: devices.lastSeenAt,
  active: devices.active,
  createdAt: devices.createdAt,
  updatedAt: devices.updatedAt,
  deletedAt: devices.deletedAt,
};

const deviceSnapshot: Snapshot = { form: "device", fields: deviceFields };

/** The device's event, recorded only if the statement before it (the write) changed the device. */
export const deviceEvent = (type: EventType, organizationId: string, deviceId: string, occurredAt: Date): EventSpec => ({
  type,
  organizationId,
  occurredAt,
  row: { table: devices, where: eq(devices.id, deviceId), snapshot: deviceSnapshot },
});

export const pinUpdatedEvent = (organizationId: string, employeeId: string, hasPin: boolean, now: Date): EventSpec => ({
  type: "staff_member.pin_updated",
  organizationId,
  occurredAt: now,
  data: { employeeId, hasPin, updatedAt: now.toISOString() },
  whenChanged: true,
});

export const pinUnlockedEvent = (organizationId: string, employeeId: string, now: Date): EventSpec => ({
  type: "staff_member.pin_unlocked",
  organizationId,
  occurredAt: now,
  data: { employeeId, unlockedAt: now.toISOString() },
  whenChanged: true,
});
