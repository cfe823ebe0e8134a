import { z } from "@hono/zod-openapi";
import { authorizeDevice } from "@/auth/authorize";
import { jsonBody, jsonContent, problems } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import { Shift } from "@/wire/shift.schemas";
import { KioskPhoto, KioskPunchBody } from "./kiosk-punches.schemas";

const tags = ["Kiosks"];
const image = { schema: z.string().openapi({ format: "binary" }) };

export const punch = defineRoute({
  method: "post",
  path: "/api/kiosk/punches",
  operationId: "kioskPunch",
  flags: { scope: "device", idempotency: "in-batches", punch: true },
  tags,
  summary: "Punch at a kiosk",
  description:
    "Device token only (an access token is 403). Clock in (`roleId` required), start a break (`typeId` required), end " +
    "it, or clock out, for `employeeId` at the device's location, proven by their `pin`: answers the shift exactly as " +
    "the phone's punches do (POST …/staffmembers/{id}/locations/{location_id}/clock-in and the others), by the same " +
    "rules — one open shift, breaks, locked days, approved timesheets and closed pay periods, attendance exceptions, " +
    "`occurredAt` for punches queued offline — with no position and no geofence (the device is at its location). " +
    "Every event records `source` KIOSK and the device's `deviceId`, the shift its clockInSource/clockOutSource. " +
    "The device and the PIN are read in the punch's own read (one D1 round trip for all of it; only a device's first " +
    "request to a Worker instance looks the device up on its own first) and checked first, on every request, the " +
    "device before the PIN: a revoked device (or one of a deleted location) is 401 `DEVICE_REVOKED`, whatever else the " +
    "request gets wrong, and writes nothing; a device revoked after that read does not punch either (its write is " +
    "refused, 401 `TOKEN_REVOKED`). The PIN is checked before any other refusal: a wrong one is 401 `PIN_INCORRECT` and writes nothing but the " +
    "failure it counts, claimed before the PIN is compared; five within 15 minutes lock the member's PIN on this location's devices (423 " +
    "`PIN_LOCKED`, `Retry-After`: the PIN was not tried, as for guesses that find the five tries taken). Send an " +
    "`Idempotency-Key` (the device's own): a retry with the same key and body is answered the first answer without " +
    "punching again — after its PIN is checked again, so a retry while the PIN is locked is 423 and is answered once " +
    "the lock ends. A location with `kioskPhotoRequired` needs `photoId` (422 `PHOTO_REQUIRED`); a photo named must " +
    "be one taken at this location (else 404 `PHOTO_NOT_FOUND`) for this punch only: it is attached to the shift in " +
    "the punch's own write (the event's `photoId`), and a photo another punch took is 409 `PHOTO_ALREADY_ATTACHED`.",
  middleware: [authorizeDevice] as const,
  request: { body: jsonBody(KioskPunchBody) },
  responses: {
    200: jsonContent(Shift, "The shift, as the phone's punch answers it"),
    ...problems(
      "DEVICE_REVOKED",
      "PIN_INCORRECT",
      "PIN_LOCKED",
      "BREAK_TYPE_UNAVAILABLE",
      "STAFF_MEMBER_INACTIVE",
      "NOT_ASSIGNED_TO_LOCATION",
      "OCCURRED_AT_IN_FUTURE",
      "OCCURRED_AT_TOO_OLD",
      "OCCURRED_AT_BEFORE_PREVIOUS_EVENT",
      "STAFF_MEMBER_NOT_FOUND",
      "LOCATION_NOT_FOUND",
      "ROLE_NOT_FOUND",
      "COST_CODE_NOT_FOUND",
      "PHOTO_NOT_FOUND",
      "SHIFT_ALREADY_OPEN",
      "NO_OPEN_SHIFT",
      "BREAK_ALREADY_OPEN",
      "NO_OPEN_BREAK",
      "DAY_LOCKED",
      "TIMESHEET_APPROVED",
      "PAY_PERIOD_CLOSED",
      "SHIFT_OVERLAP",
      "SHIFT_CHANGED",
      "PHOTO_ALREADY_ATTACHED",
      "PHOTO_REQUIRED",
      "COST_CODE_NOT_ASSIGNED",
    ),
  },
});

export const uploadPhoto = defineRoute({
  method: "post",
  path: "/api/kiosk/photos",
  operationId: "uploadKioskPhoto",
  flags: { scope: "device", idempotency: "middleware" },
  tags,
  summary: "Upload a kiosk photo",
  description:
    "Device token only. The body is the image itself (at most 2 MiB; larger is 413 `PAYLOAD_TOO_LARGE`) with its " +
    "Content-Type: image/jpeg, image/png or image/webp (anything else is 415 `PHOTO_TYPE_UNSUPPORTED`). Its content " +
    "is checked by its magic bytes, not by what the header claims, and by its whole structure, start to end: a JPEG's " +
    "segments from start to end of image, a PNG's chunks from IHDR to IEND with every CRC, a WebP's RIFF chunks " +
    "(pixels are not decoded). Bytes that are no such image, another of them than the Content-Type says, an image " +
    "cut short or anything after its end (a JPEG header followed by HTML) are 400 `PHOTO_CONTENT_INVALID` (naming " +
    "`body`) and store nothing. A photo link serves it with that image type and `X-Content-Type-Options: nosniff`. The photo is " +
    "stored in R2 and answered with its `photoId`, which the punch it was taken for names (POST /api/kiosk/punches); " +
    "it belongs to the device's location. Managers see it with GET /api/timesheets/{id}/photos. Records `photo.created`.",
  middleware: [authorizeDevice] as const,
  request: {
    body: { required: true, content: { "image/jpeg": image, "image/png": image, "image/webp": image } },
  },
  responses: {
    201: jsonContent(KioskPhoto, "The stored photo"),
    ...problems("DEVICE_REVOKED", "PHOTO_CONTENT_INVALID", "PHOTO_TYPE_UNSUPPORTED"),
  },
});

export type PunchRoute = typeof punch;
export type UploadPhotoRoute = typeof uploadPhoto;
