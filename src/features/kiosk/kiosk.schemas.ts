import type { devices } from "@db/schema";
import { z } from "@hono/zod-openapi";
import { PIN_PATTERN } from "@/domain/pin-lockout";
import { idParam, OrganizationParams } from "@/platform/openapi/helpers";
import { ListQuery, queryInteger } from "@/platform/schemas/list-query";
import { iso, isoOrNull } from "@/platform/schemas/time";
import { Name, recordLifecycle, Timestamp, TimestampOrNull } from "@/platform/schemas/validation";
import { ShiftState } from "@/wire/punch.schemas";

const ID_EXAMPLE = "0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d6e";

export const LocationDevicesParams = OrganizationParams.extend({ locationId: idParam("locationId", "Location id") });
export const DeviceParams = LocationDevicesParams.extend({ id: idParam("id", "Device id") });
export const StaffMemberPinParams = OrganizationParams.extend({ id: idParam("id", "Staff member id") });

export const Device = z
  .object({
    id: z.string().openapi({ example: ID_EXAMPLE }),
    organizationId: z.string(),
    locationId: z.string(),
    name: z.string().openapi({ example: "Front door iPad" }),
    status: z.enum(["PENDING", "ACTIVE", "REVOKED"]).openapi({
      description: "PENDING until enrolled with its code, ACTIVE once enrolled, REVOKED after DELETE (its token answers 401).",
    }),
    enrollmentCode: z
      .string()
      .nullable()
      .openapi({
        description:
          "The single-use code to enroll the device with (8 characters, valid 10 minutes): answered once, by the " +
          "creation; null everywhere else (only its hash is stored).",
        example: "K7QX3MPA",
      }),
    enrollmentExpiresAt: TimestampOrNull.openapi({ description: "When the enrollment code stops working; null once enrolled." }),
    lastSeenAt: TimestampOrNull.openapi({ description: "The device's last request, to the minute; null before its first." }),
    ...recordLifecycle,
  })
  .openapi("Device");

export const DeviceCreate = z.object({ name: Name.openapi({ example: "Front door iPad" }) }).openapi("DeviceCreate");

export const DeviceListQuery = ListQuery;

export const EnrollRequest = z
  .object({
    enrollmentCode: z.string().min(1).max(64).openapi({
      description: "The code the device's creation answered (case and spaces or hyphens do not matter).",
      example: "K7QX3MPA",
    }),
  })
  .openapi("DeviceEnrollRequest");

export const DeviceToken = z
  .object({
    deviceId: z.string().openapi({ example: ID_EXAMPLE }),
    deviceToken: z.string().openapi({
      description:
        "The device's Bearer token for the kiosk operations (`Authorization: Bearer sld_…`). Answered once: only " +
        "its hash is stored; keep it in the device's secure storage.",
      example: "sld_0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d6e.3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    }),
  })
  .openapi("DeviceToken");

export const PinPut = z
  .object({
    pin: z.string().regex(PIN_PATTERN, "must be 4 to 8 digits").openapi({ description: "4 to 8 digits.", example: "4821" }),
  })
  .openapi("PinPut");

export const PinCheck = z
  .object({
    employeeId: z.string().min(1).max(64).openapi({ example: ID_EXAMPLE }),
    pin: z.string().regex(PIN_PATTERN, "must be 4 to 8 digits").openapi({ example: "4821" }),
  })
  .openapi("KioskPinCheck");

export const KioskStaffMember = z
  .object({
    id: z.string().openapi({ example: ID_EXAMPLE }),
    name: z.string().openapi({ example: "Ada Lovelace" }),
    shiftState: ShiftState,
  })
  .openapi("KioskStaffMember");

/** At most 50 a page: each member's shift state is a read of its own. */
export const KIOSK_STAFF_MAX_LIMIT = 50;
export const KioskStaffQuery = ListQuery.pick({ cursor: true }).extend({
  limit: queryInteger(1, KIOSK_STAFF_MAX_LIMIT, 25, `Page size, 1–${KIOSK_STAFF_MAX_LIMIT} (decimal digits).`),
});

/** The data of `staff_member.pin_updated`: whether a PIN is set now, never the PIN or its hash. */
export const StaffMemberPinChange = z
  .object({
    employeeId: z.string(),
    hasPin: z.boolean().openapi({ description: "true after PUT …/pin, false after DELETE …/pin." }),
    updatedAt: Timestamp,
  })
  .openapi("StaffMemberPinChange");

/** The data of `staff_member.pin_unlocked`. */
export const StaffMemberPinUnlock = z.object({ employeeId: z.string(), unlockedAt: Timestamp }).openapi("StaffMemberPinUnlock");

export type DeviceRow = typeof devices.$inferSelect;
export type DeviceWire = z.infer<typeof Device>;

type DeviceFields = Pick<
  DeviceRow,
  | "id"
  | "organizationId"
  | "locationId"
  | "name"
  | "status"
  | "enrollmentExpiresAt"
  | "lastSeenAt"
  | "active"
  | "createdAt"
  | "updatedAt"
  | "deletedAt"
>;

export const serializeDevice = (row: DeviceFields, enrollmentCode: string | null = null): DeviceWire => ({
  id: row.id,
  organizationId: row.organizationId,
  locationId: row.locationId,
  name: row.name,
  status: row.status,
  enrollmentCode,
  enrollmentExpiresAt: row.status === "PENDING" ? isoOrNull(row.enrollmentExpiresAt) : null,
  lastSeenAt: isoOrNull(row.lastSeenAt),
  active: row.active,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
  deletedAt: isoOrNull(row.deletedAt),
});
