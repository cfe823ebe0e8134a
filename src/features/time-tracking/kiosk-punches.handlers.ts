import { deviceStanding } from "@/auth/device-auth";
import { judgeKioskPin, type PinRows, pinReads } from "@/auth/pins/verify-pin";
import { filesOf } from "@/data/shards";
import { kioskPhotoVerdict } from "@/domain/kiosk-photo";
import { judgePhoto } from "@/domain/photo-content";
import { kioskOrigin } from "@/domain/punch-source";
import type { AppRouteHandler } from "@/platform/http/env";
import { photoAlreadyAttached, photoRequired } from "@/problems/photos";
import { badRequest, notFound, ProblemError } from "@/problems/problem";
import { breakTypeUnavailable } from "@/problems/shifts";
import { storePhoto } from "./kiosk-punches.data";
import type * as routes from "./kiosk-punches.routes";
import type { KioskPunchInput } from "./kiosk-punches.schemas";
import type { PunchContext, PunchGate } from "./punch-context.data";
import { breakEnd, breakStart, clockIn, clockOut, type PunchCheck, type PunchChecks } from "./punch-pipeline";
import { markReplay, punchOrder } from "./time-tracking.handlers";

/**
 * What a kiosk punch checks on the phone punch's read: a break type it names is one of the location's (whatever the
 * action: a record named is never ignored unread), and its photo, as the location requires it and as the read found
 * it (domain/kiosk-photo).
 */
const kioskCheck =
  ({ photoId, typeId }: Pick<KioskPunchInput, "photoId" | "typeId">): PunchCheck =>
  (context: PunchContext) => {
    if (typeId !== undefined && !context.breakTypes.some((t) => t.id === typeId && t.enabled)) throw breakTypeUnavailable();
    const verdict = kioskPhotoVerdict({
      required: context.location.kioskPhotoRequired,
      photoId,
      photo: context.photo,
      locationId: context.location.id,
    });
    if (verdict === "required") throw photoRequired();
    if (verdict === "not_found") {
      const problem = notFound("Photo");
      throw new ProblemError(404, problem.code, problem.detail, { errors: [{ path: "photoId", message: "no photo of this location" }] });
    }
    if (verdict === "attached") throw photoAlreadyAttached();
  };

/**
 * The device (auth/device-auth: still enrolled) and the PIN, read in the punch's own read batch (one D1 round trip
 * for all of it) and judged before anything else, a replay too, the device first: a wrong PIN writes nothing but the
 * failure it counts (verify-pin), and its refusal is the answer.
 */
function pinGate(c: Parameters<AppRouteHandler<routes.PunchRoute>>[0], body: KioskPunchInput): PunchGate {
  const { db, principal } = c.var;
  const now = new Date();
  const device = deviceStanding(db, principal);
  return {
    reads: [...device.reads, ...pinReads(db, principal.organizationId!, body.employeeId, principal.device!.locationId, now)],
    async pass(rows) {
      const pinRows = await device.pass(rows, now);
      const verdict = await judgeKioskPin(db, principal, body.employeeId, body.pin, pinRows as unknown as PinRows, now);
      if (!verdict.ok) throw verdict.problem;
    },
  };
}

/** The punch a kiosk asks for, through the phone's punch (features/time-tracking) with the device as its origin. */
function kioskPunch(c: Parameters<AppRouteHandler<routes.PunchRoute>>[0], body: KioskPunchInput) {
  const { principal } = c.var;
  const device = principal.device!;
  const params = { organization_id: principal.organizationId!, id: body.employeeId, location_id: device.locationId };
  const origin = { ...kioskOrigin(device.deviceId), photoId: body.photoId ?? null };
  const fields = { occurredAt: body.occurredAt };
  const check: PunchChecks = { gate: pinGate(c, body), check: kioskCheck(body) };
  const order = punchOrder(c, params, origin, check);
  switch (body.action) {
    case "CLOCK_IN":
      return clockIn(order, { ...fields, roleId: body.roleId!, costCodeId: body.costCodeId, customFields: body.customFields });
    case "BREAK_START":
      return breakStart(order, { ...fields, typeId: body.typeId! });
    case "BREAK_END":
      return breakEnd(order, fields);
    case "CLOCK_OUT":
      return clockOut(order, { ...fields, customFields: body.customFields });
  }
}

/** The PIN first, on every request (a replay too), in the punch's read batch: see pinGate. */
export const punch: AppRouteHandler<routes.PunchRoute> = async (c) => {
  const punched = await kioskPunch(c, c.req.valid("json"));
  markReplay(c, punched);
  return c.json(punched.answer, 200);
};

export const uploadPhoto: AppRouteHandler<routes.UploadPhotoRoute> = async (c) => {
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  const verdict = judgePhoto(bytes, c.req.header("content-type"));
  if (!verdict.ok) {
    if (verdict.reason === "unsupported_type") throw new ProblemError(415, "PHOTO_TYPE_UNSUPPORTED", `${verdict.message}.`);
    if (verdict.reason === "too_large") throw new ProblemError(413, "PAYLOAD_TOO_LARGE", `The photo is ${verdict.message}.`);
    throw badRequest("PHOTO_CONTENT_INVALID", `The photo is refused: ${verdict.message}.`, [{ path: "body", message: verdict.message }]);
  }
  const answer = await storePhoto(
    { db: c.var.db, principal: c.var.principal, files: filesOf(c.env, c.var.shard) },
    { bytes, contentType: verdict.contentType },
  );
  return c.json(answer, 201);
};
