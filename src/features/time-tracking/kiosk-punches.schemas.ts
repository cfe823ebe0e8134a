import type { photos } from "@db/schema";
import { z } from "@hono/zod-openapi";
import { PHOTO_TYPES } from "@/domain/photo-content";
import { PIN_PATTERN } from "@/domain/pin-lockout";
import { iso } from "@/platform/schemas/time";
import { Instant, Timestamp } from "@/platform/schemas/validation";
import { CustomFieldValuesInput } from "@/wire/shift.schemas";

const Id = z.string().min(1).max(64).openapi({ example: "0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d6e" });

export const KIOSK_ACTIONS = ["CLOCK_IN", "CLOCK_OUT", "BREAK_START", "BREAK_END"] as const;

export const KioskPunchBody = z
  .object({
    employeeId: Id.openapi({ description: "The staff member punching: active, assigned to the device's location, with a PIN." }),
    pin: z.string().regex(PIN_PATTERN, "must be 4 to 8 digits").openapi({ description: "Their PIN (4 to 8 digits).", example: "4821" }),
    action: z.enum(KIOSK_ACTIONS),
    roleId: Id.optional().openapi({ description: "CLOCK_IN: the shift's role (required then; other actions ignore it)." }),
    typeId: Id.optional().openapi({
      description:
        "BREAK_START: the break to start (required then). Whenever given, an enabled break type of the location, else 400 BREAK_TYPE_UNAVAILABLE.",
    }),
    costCodeId: Id.optional().openapi({
      description: "CLOCK_IN: the cost code the shift is charged to, as for a phone's clock-in (other actions ignore it).",
    }),
    occurredAt: Instant.optional().openapi({
      example: "2026-03-14T13:02:00Z",
      description:
        "When the punch happened, for punches queued while the kiosk was offline: at most 2 minutes ahead, at most 72 h " +
        "old, never before the shift's previous event. Omitted: the time the service receives it.",
    }),
    photoId: Id.optional().openapi({ description: "A photo this kiosk's location took for this punch (POST /api/kiosk/photos)." }),
    customFields: CustomFieldValuesInput.optional().openapi({
      description:
        "CLOCK_IN and CLOCK_OUT: the organization's custom field values, as on a phone's punch (a required field " +
        "missing at CLOCK_OUT is a 400 naming it; other actions ignore them).",
    }),
  })
  .superRefine((body, ctx) => {
    if (body.action === "CLOCK_IN" && !body.roleId) ctx.addIssue({ code: "custom", path: ["roleId"], message: "required to CLOCK_IN" });
    if (body.action === "BREAK_START" && !body.typeId)
      ctx.addIssue({ code: "custom", path: ["typeId"], message: "required to BREAK_START" });
  })
  .openapi("KioskPunchRequest");

export type KioskPunchInput = z.infer<typeof KioskPunchBody>;

export type PhotoRow = typeof photos.$inferSelect;

export const KioskPhoto = z
  .object({
    photoId: z.string(),
    locationId: z.string(),
    deviceId: z.string(),
    contentType: z.enum(PHOTO_TYPES),
    size: z.number().int().openapi({ description: "Bytes." }),
    sha256: z.string().openapi({ description: "SHA-256 of the image's bytes, hex." }),
    createdAt: Timestamp,
  })
  .openapi("KioskPhoto");

export const serializeKioskPhoto = (row: PhotoRow): z.infer<typeof KioskPhoto> => ({
  photoId: row.id,
  locationId: row.locationId,
  deviceId: row.deviceId,
  contentType: row.contentType,
  size: row.size,
  sha256: row.sha256,
  createdAt: iso(row.createdAt),
});
