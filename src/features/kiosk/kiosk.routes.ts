import { z } from "@hono/zod-openapi";
import { authorize, authorizeDevice } from "@/auth/authorize";
import { PIN_ITERATIONS } from "@/auth/pins/pin-hash";
import { enrollRateLimit } from "@/platform/middleware/rate-limit";
import { jsonBody, jsonContent, problems, publicProblems } from "@/platform/openapi/helpers";
import { defineRoute } from "@/platform/routes/define-route";
import {
  Device,
  DeviceCreate,
  DeviceListQuery,
  DeviceParams,
  DeviceToken,
  EnrollRequest,
  KioskStaffMember,
  KioskStaffQuery,
  LocationDevicesParams,
  PinCheck,
  PinPut,
  StaffMemberPinParams,
} from "./kiosk.schemas";

const tags = ["Kiosks"];
const devicesPath = "/api/organizations/{organization_id}/locations/{locationId}/devices";
const pinPath = "/api/organizations/{organization_id}/staffmembers/{id}";
const locationAdmin = authorize("LOCATION_ADMIN");

const DEVICE_TOKENS =
  "A device token is a Bearer token (`sld_…`) good only for the kiosk operations (`/api/kiosk/…`) of the device's " +
  "location; any other operation answers it 403 `FORBIDDEN`, and once the device is revoked every request with it " +
  "answers 401 `DEVICE_REVOKED`. Only its SHA-256 is stored: it is answered once and cannot be read again.";

const LOCK =
  "Five wrong PINs for one staff member at one location within 15 minutes lock that member's PIN on that location's " +
  "devices: 423 `PIN_LOCKED` with `Retry-After` (seconds until the oldest of those failures is 15 minutes old), even " +
  "for the right PIN, until then or until a manager calls DELETE …/staffmembers/{id}/pin-lock (which forgets the " +
  "member's wrong PINs at every location). The member's devices at their other locations still take their PIN, so a " +
  "kiosk cannot lock anyone out where it is not; the price is that a member assigned to N locations with kiosks faces " +
  "at most 5·N guesses per 15 minutes. A try is counted before it is judged: a PIN is compared only after one " +
  "conditional write claims one of the five tries at the device's location (while fewer than five failures are in " +
  "the window there), so concurrent guesses never get more than five tries per location and a 423 means the PIN was " +
  "not tried, the right one included; a right PIN gives its try back, a wrong one keeps it as its failure. A wrong " +
  "PIN, a member without a PIN, and a member who is unknown, inactive or not assigned to the device's location all " +
  "answer the same 401 `PIN_INCORRECT`; a member not assigned to the device's location counts no failure there (and " +
  "their PIN is never compared there).";

export const createDevice = defineRoute({
  method: "post",
  path: devicesPath,
  operationId: "createDevice",
  flags: { scope: "organization", idempotency: "middleware" },
  tags,
  summary: "Create a kiosk device",
  description:
    "Needs LOCATION_ADMIN. Answers the device PENDING with its `enrollmentCode`: 8 characters of " +
    "`ABCDEFGHJKMNPQRSTUVWXYZ23456789` (no 0/O or 1/I/L), crypto-random, single use, valid 10 minutes, answered only " +
    "here; the device keeps only its hash. A retry with the same Idempotency-Key replays this answer, code included " +
    "(the code itself stops working after 10 minutes or its first use). Type it on the device, which calls POST " +
    "/api/devices/enroll. Event `device.created`.",
  middleware: [locationAdmin] as const,
  request: { params: LocationDevicesParams, body: jsonBody(DeviceCreate) },
  responses: { 201: jsonContent(Device, "The device, with its enrollment code"), ...problems("LOCATION_NOT_FOUND") },
});

export const listDevices = defineRoute({
  method: "get",
  path: devicesPath,
  operationId: "listDevices",
  flags: { scope: "organization", list: true },
  tags,
  summary: "Retrieve a location's kiosk devices",
  description: "Needs LOCATION_ADMIN. Oldest first, paged; revoked devices only with `includeDeleted=true`. Never a code or token.",
  middleware: [locationAdmin] as const,
  request: { params: LocationDevicesParams, query: DeviceListQuery },
  responses: { 200: jsonContent(z.array(Device), "Devices, oldest first"), ...problems("LOCATION_NOT_FOUND") },
});

export const revokeDevice = defineRoute({
  method: "delete",
  path: `${devicesPath}/{id}`,
  operationId: "revokeDevice",
  flags: { scope: "organization" },
  tags,
  summary: "Revoke a kiosk device",
  description:
    "Needs LOCATION_ADMIN. The device becomes REVOKED (soft-deleted): its token's next request, on any operation, " +
    "answers 401 `DEVICE_REVOKED`, and a write it had under way fails. Event `device.revoked`.",
  middleware: [locationAdmin] as const,
  request: { params: DeviceParams },
  responses: { 200: jsonContent(Device, "The revoked device"), ...problems("DEVICE_NOT_FOUND") },
});

export const rotateDevice = defineRoute({
  method: "post",
  path: `${devicesPath}/{id}/rotate`,
  operationId: "rotateDevice",
  flags: { scope: "organization" },
  tags,
  summary: "Rotate a kiosk device's token",
  description:
    `Needs LOCATION_ADMIN. A new device token, answered once; the old one stops at once (401 \`INVALID_ACCESS_TOKEN\`). ` +
    "A PENDING device becomes ACTIVE with it and its enrollment code is spent. A revoked device is 404. Event " +
    "`device.rotated`. No Idempotency-Key: the token would be stored to be replayed; a retry is safe without one, " +
    `as each call replaces the token and only the last answer's works. ${DEVICE_TOKENS}`,
  middleware: [locationAdmin] as const,
  request: { params: DeviceParams },
  responses: { 200: jsonContent(DeviceToken, "The device's new token"), ...problems("DEVICE_NOT_FOUND") },
});

export const enroll = defineRoute({
  method: "post",
  path: "/api/devices/enroll",
  operationId: "enrollDevice",
  flags: { scope: "public" },
  tags,
  summary: "Enroll a kiosk device",
  description:
    "No token: the device trades its enrollment code for its device token, once. A used, expired or unknown code " +
    "is 400 `ENROLLMENT_CODE_INVALID`, the same answer for each. The code is spent by one conditional write: of two " +
    `enrolls with the same code at once, exactly one gets a token. Event \`device.enrolled\`. Enrolls are limited ` +
    "per client address, refused ones included (the `RateLimit-Policy` header says how many, 30 a minute by " +
    `default): beyond it 429 \`RATE_LIMITED\` with Retry-After. ${DEVICE_TOKENS}`,
  security: [],
  middleware: enrollRateLimit,
  request: { body: jsonBody(EnrollRequest) },
  responses: {
    200: jsonContent(DeviceToken, "The device's token"),
    ...publicProblems("ENROLLMENT_CODE_INVALID", 413, 415, 429),
  },
});

export const putPin = defineRoute({
  method: "put",
  path: `${pinPath}/pin`,
  operationId: "setStaffMemberPin",
  flags: { scope: "organization" },
  tags,
  summary: "Set a staff member's kiosk PIN",
  description:
    "Needs EMPLOYEE_WRITE, or the token of that staff member; a member whose access role the caller could not grant " +
    "is 403 (a Manager cannot set an Admin's PIN and punch as them), checked by the write itself. `pin` is 4 to 8 digits. It is never answered or " +
    "logged: only a salted PBKDF2-SHA-256 hash is stored (WebCrypto, a 16-byte random salt, " +
    `${PIN_ITERATIONS.toLocaleString("en-US")} iterations: the most Workers allows, measured at about 20-25 ms of ` +
    "CPU per derivation; the iterations are stored with the hash so they can be raised). Replaces any earlier PIN. " +
    "Event `staff_member.pin_updated` (`hasPin: true`, never the PIN).",
  middleware: [authorize("EMPLOYEE_WRITE", { self: "id" })] as const,
  request: { params: StaffMemberPinParams, body: jsonBody(PinPut) },
  responses: { 204: { description: "The PIN is set" }, ...problems("STAFF_MEMBER_NOT_FOUND") },
});

export const deletePin = defineRoute({
  method: "delete",
  path: `${pinPath}/pin`,
  operationId: "deleteStaffMemberPin",
  flags: { scope: "organization" },
  tags,
  summary: "Remove a staff member's kiosk PIN",
  description:
    "Needs EMPLOYEE_WRITE, or the token of that staff member; a member above the caller (an access role the caller " +
    "could not grant) is 403. The member can no longer punch at a kiosk until a " +
    "new PIN is set. Event `staff_member.pin_updated` (`hasPin: false`); a member without a PIN is a 204 that " +
    "changes nothing.",
  middleware: [authorize("EMPLOYEE_WRITE", { self: "id" })] as const,
  request: { params: StaffMemberPinParams },
  responses: { 204: { description: "The PIN is removed" }, ...problems("STAFF_MEMBER_NOT_FOUND") },
});

export const liftPinLock = defineRoute({
  method: "delete",
  path: `${pinPath}/pin-lock`,
  operationId: "liftStaffMemberPinLock",
  flags: { scope: "organization" },
  tags,
  summary: "Lift a staff member's PIN lock",
  description:
    "Needs LOCATION_ADMIN (a manager); a member whose access role the caller could not grant is 403, as setting " +
    "their PIN is (a Manager cannot lift an Admin's lock), checked by the write itself. " +
    `Forgets the member's wrong PINs at every location, which lifts a lock at once. ${LOCK} Event ` +
    "`staff_member.pin_unlocked`; a member with no wrong PIN is a 204 that changes nothing.",
  middleware: [locationAdmin] as const,
  request: { params: StaffMemberPinParams },
  responses: { 204: { description: "The lock is lifted" }, ...problems("STAFF_MEMBER_NOT_FOUND") },
});

export const kioskStaff = defineRoute({
  method: "get",
  path: "/api/kiosk/staff",
  operationId: "listKioskStaff",
  flags: { scope: "device", list: true },
  tags,
  summary: "Retrieve the staff a kiosk can punch",
  description:
    "Device token only (an access token is 403). The device's location's live, active staff members who have a " +
    "PIN, oldest first, each with their shift state (as GET …/shift-state answers it, at this location). Paged, at " +
    `most 50 a page (each member's state is its own read). ${DEVICE_TOKENS}`,
  middleware: [authorizeDevice] as const,
  request: { query: KioskStaffQuery },
  responses: {
    200: jsonContent(z.array(KioskStaffMember), "Staff members with a PIN, oldest first"),
    ...problems(),
  },
});

export const pinCheck = defineRoute({
  method: "post",
  path: "/api/kiosk/pin-check",
  operationId: "checkKioskPin",
  flags: { scope: "device", idempotency: "middleware" },
  tags,
  summary: "Check a staff member's PIN at a kiosk",
  description:
    'Device token only (an access token is 403). The kiosk\'s "who am I" step before a punch: 204 when `pin` is ' +
    `the PIN of \`employeeId\`, a live, active member assigned to the device's location; writes nothing then. ${LOCK}`,
  middleware: [authorizeDevice] as const,
  request: { body: jsonBody(PinCheck) },
  responses: {
    204: { description: "The PIN is right" },
    ...problems("PIN_INCORRECT", "PIN_LOCKED"),
  },
});

export type CreateDeviceRoute = typeof createDevice;
export type ListDevicesRoute = typeof listDevices;
export type RevokeDeviceRoute = typeof revokeDevice;
export type RotateDeviceRoute = typeof rotateDevice;
export type EnrollRoute = typeof enroll;
export type PutPinRoute = typeof putPin;
export type DeletePinRoute = typeof deletePin;
export type LiftPinLockRoute = typeof liftPinLock;
export type KioskStaffRoute = typeof kioskStaff;
export type PinCheckRoute = typeof pinCheck;
