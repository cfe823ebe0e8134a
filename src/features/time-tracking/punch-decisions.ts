import { newId } from "@/data/ids";
import { dayLocked } from "@/data/shifts/shifts.guards";
import type { PunchKind } from "@/domain/geofence";
import { fenceFor } from "@/domain/geofence";
import { judgePunch } from "@/domain/punch";
import type { PunchOrigin } from "@/domain/punch-source";
import type { RequestLocation } from "@/domain/trust";
import { badRequest, ProblemError } from "@/problems/problem";
import { noOpenShift, shiftAlreadyOpen, shiftOpenElsewhere } from "@/problems/shifts";
import type { PunchFields } from "@/wire/punch.schemas";
import type { ShiftEventRow, ShiftRow } from "@/wire/shift.schemas";
import type { PunchContext } from "./punch-context.data";

export interface PunchRequest {
  kind: PunchKind;
  body: PunchFields;
  receivedAt: Date;
  requestLocation?: RequestLocation | null;
  idempotencyKey?: string | null;
  /** Where the punch came from (MOBILE, API, KIOSK with its device), and a kiosk's photo of it. */
  origin: PunchOrigin & { photoId?: string | null };
}

const previousEventOf = (context: PunchContext) =>
  context.lastEvent && {
    at: context.lastEvent.occurredAt,
    position:
      context.lastEvent.latitude !== null && context.lastEvent.longitude !== null
        ? {
            latitude: context.lastEvent.latitude,
            longitude: context.lastEvent.longitude,
            accuracyMeters: (context.lastEvent.accuracyCentimeters ?? 0) / 100,
          }
        : null,
  };

/** Judges a punch against the location's fence and the shift's history; a refusal leaves as its problem. */
export function judge(context: PunchContext, request: PunchRequest) {
  const { body, kind } = request;
  const lastShiftEvent = context.openShift && context.lastEvent?.shiftId === context.openShift.id ? context.lastEvent : null;
  const verdict = judgePunch({
    kind,
    // A kiosk is at its location: no position, no fence.
    fence: request.origin.source === "KIOSK" ? { ...fenceFor(context.location, kind), radiusCm: null } : fenceFor(context.location, kind),
    position: { latitude: body.latitude, longitude: body.longitude, accuracyMeters: body.accuracy },
    mock: body.mock,
    occurredAt: body.occurredAt ? new Date(body.occurredAt) : undefined,
    receivedAt: request.receivedAt,
    previousShiftEventAt: lastShiftEvent?.occurredAt ?? null,
    previousEvent: previousEventOf(context),
    requestLocation: request.requestLocation,
  });
  if (verdict.ok) return verdict;
  switch (verdict.reason) {
    case "time":
      throw new ProblemError(400, verdict.code, verdict.message, { errors: [{ path: "occurredAt", message: verdict.message }] });
    case "position_required":
      throw new ProblemError(400, "POSITION_REQUIRED", `This location has a geofence: send ${verdict.missing.join(" and ")}.`, {
        errors: verdict.missing.map((path) => ({ path, message: "required inside a geofenced location" })),
      });
    case "outside_geofence":
      throw new ProblemError(422, "OUTSIDE_GEOFENCE", "The position is outside the location's geofence.", {
        distanceCentimeters: verdict.distanceCm,
        allowedCentimeters: verdict.allowedCm,
        accuracyCentimeters: verdict.accuracyCm,
      });
  }
}

export type Judgement = ReturnType<typeof judge>;

/** The early lock check on what the read found (fast, clear); the write batch checks it again (punch-writes). */
export function refuseLockedDay(context: PunchContext, businessDate: string) {
  if (context.lockedDates.has(businessDate)) throw dayLocked(businessDate);
}

/** A costCodeId that is no live cost code of the organization: 404, as an unknown role is. */
export function refuseUnknownCostCode(context: PunchContext) {
  if (!context.costCodeFound) {
    throw new ProblemError(404, "COST_CODE_NOT_FOUND", "No cost code with that id in this organization.", {
      errors: [{ path: "costCodeId", message: "unknown cost code" }],
    });
  }
}

/** Who may clock in with which role: an active staff member of the location, a role of the organization. */
export function clockInRole(context: PunchContext) {
  const { staff, location, role } = context;
  if (!role) {
    throw new ProblemError(404, "ROLE_NOT_FOUND", "No role with that id in this organization.", {
      errors: [{ path: "roleId", message: "unknown role" }],
    });
  }
  refuseUnknownCostCode(context);
  if (!staff.active) throw badRequest("STAFF_MEMBER_INACTIVE", "The staff member is not active.");
  if (!staff.locationIds.includes(location.id)) {
    throw badRequest("NOT_ASSIGNED_TO_LOCATION", "The staff member is not assigned to this location.");
  }
  if (context.openShift) throw shiftAlreadyOpen();
  return role;
}

/** The next shift's role at a switch: the one named (or the ending shift's), of an active staff member of the location. */
export function switchRole(context: PunchContext, role: PunchContext["role"]) {
  return clockInRole({ ...context, role, openShift: null });
}

/** The open shift a break or clock-out is about: it must be at the location in the path, on a day not locked. */
export function openShiftHere(context: PunchContext): ShiftRow {
  const shift = context.openShift;
  if (!shift) throw noOpenShift();
  if (shift.locationId !== context.location.id) throw shiftOpenElsewhere();
  refuseLockedDay(context, shift.businessDate);
  return shift;
}

/** The stored record of one event: position, accuracy, distance, verdict and flags. */
export function eventRow(context: PunchContext, request: PunchRequest, judgement: Judgement, shiftId: string, breakId = ""): ShiftEventRow {
  return {
    id: newId(),
    organizationId: context.location.organizationId,
    shiftId,
    employeeId: context.staff.id,
    kind: request.kind,
    breakId,
    occurredAt: judgement.at,
    receivedAt: request.receivedAt,
    latitude: request.body.latitude ?? null,
    longitude: request.body.longitude ?? null,
    accuracyCentimeters: request.body.accuracy === undefined ? null : Math.round(request.body.accuracy * 100),
    distanceCentimeters: judgement.geofence.distanceCm,
    verdict: judgement.geofence.verdict,
    flags: judgement.flags,
    idempotencyKey: request.idempotencyKey ?? null,
    source: request.origin.source,
    deviceId: request.origin.deviceId,
    photoId: request.origin.photoId ?? null,
  };
}
