import { checkGeofence, type Fence, type GeofenceCheck, type PunchKind } from "./geofence";
import { type PunchTimeError, validateOccurredAt } from "./punch-time";
import { type PreviousEvent, type RequestLocation, type TrustFlag, trustFlags } from "./trust";

export interface PunchPosition {
  latitude?: number | null;
  longitude?: number | null;
  accuracyMeters?: number | null;
}

export interface PunchInput {
  kind: PunchKind;
  fence: Fence;
  position: PunchPosition;
  mock?: boolean;
  occurredAt?: Date;
  receivedAt: Date;
  /** The shift's latest event: an offline punch may not land before it. */
  previousShiftEventAt?: Date | null;
  /** The staff member's latest event anywhere, for impossible travel. */
  previousEvent?: PreviousEvent | null;
  requestLocation?: RequestLocation | null;
}

export type PunchRefusal =
  | { reason: "time"; code: PunchTimeError; message: string }
  | { reason: "position_required"; missing: ("latitude" | "longitude")[] }
  | { reason: "outside_geofence"; distanceCm: number; allowedCm: number; accuracyCm: number };

export type PunchJudgement = { ok: true; at: Date; geofence: GeofenceCheck; flags: TrustFlag[] } | ({ ok: false } & PunchRefusal);

/** Everything decided about one clock or break event before it is written: when, whether, and its flags. */
export function judgePunch(input: PunchInput): PunchJudgement {
  const time = validateOccurredAt({
    occurredAt: input.occurredAt,
    receivedAt: input.receivedAt,
    previousEventAt: input.previousShiftEventAt,
  });
  if (!time.ok) return { ok: false, reason: "time", code: time.code, message: time.message };
  const geofence = checkGeofence({ location: input.fence, position: input.position });
  if (geofence.verdict === "position_required") return { ok: false, reason: "position_required", missing: geofence.missing };
  if (geofence.refuse) {
    return {
      ok: false,
      reason: "outside_geofence",
      distanceCm: geofence.distanceCm ?? 0,
      allowedCm: geofence.allowedCm ?? 0,
      accuracyCm: geofence.accuracyCm ?? 0,
    };
  }
  const { latitude, longitude, accuracyMeters } = input.position;
  const position = typeof latitude === "number" && typeof longitude === "number" ? { latitude, longitude, accuracyMeters } : null;
  const flags = trustFlags({
    at: time.at,
    position,
    mock: input.mock,
    requestLocation: input.requestLocation,
    previous: input.previousEvent,
    verdict: geofence.verdict,
  });
  return { ok: true, at: time.at, geofence, flags };
}
