export interface Coordinates {
  latitude: number;
  longitude: number;
}

/** Mean Earth radius (IUGG), the usual radius for haversine distances. */
export const EARTH_RADIUS_METERS = 6_371_008.8;

const toRadians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle (haversine) distance, rounded to whole centimeters. */
export function distanceCentimeters(a: Coordinates, b: Coordinates): number {
  const dLat = toRadians(b.latitude - a.latitude);
  const dLon = toRadians(b.longitude - a.longitude);
  const cosLatitudes = Math.cos(toRadians(a.latitude)) * Math.cos(toRadians(b.latitude));
  const h = Math.sin(dLat / 2) ** 2 + cosLatitudes * Math.sin(dLon / 2) ** 2;
  // min() guards against h creeping past 1 by rounding near the antipode.
  const angle = 2 * Math.asin(Math.min(1, Math.sqrt(h)));
  return Math.round(EARTH_RADIUS_METERS * angle * 100);
}

export type GeofenceVerdict = "inside" | "outside" | "undetermined";

/** The accuracy-aware verdict: only a certain miss (even at the far edge of the accuracy circle) is outside. */
export function geofenceVerdict(input: { distanceCm: number; radiusCm: number; accuracyCm: number }): GeofenceVerdict {
  const { distanceCm, radiusCm, accuracyCm } = input;
  if (distanceCm + accuracyCm <= radiusCm) return "inside";
  if (distanceCm - accuracyCm > radiusCm) return "outside";
  return "undetermined";
}

export type PunchKind = "clock_in" | "clock_out" | "break_start" | "break_end";

/** The location's four radii, as the drizzle row names its snake_case columns. */
export interface GeofenceRadii {
  clockInDistanceCentimeters: number | null;
  clockOutDistanceCentimeters: number | null;
  breakStartDistanceCentimeters: number | null;
  breakEndDistanceCentimeters: number | null;
}

export const RADIUS_COLUMN = {
  clock_in: "clockInDistanceCentimeters",
  clock_out: "clockOutDistanceCentimeters",
  break_start: "breakStartDistanceCentimeters",
  break_end: "breakEndDistanceCentimeters",
} as const satisfies Record<PunchKind, keyof GeofenceRadii>;

export const radiusFor = (location: GeofenceRadii, kind: PunchKind): number | null => location[RADIUS_COLUMN[kind]];

export type GeofenceMode = "block" | "flag";

export interface Fence {
  latitude: string | null;
  longitude: string | null;
  radiusCm: number | null;
  mode: GeofenceMode;
}

/** The fence that applies to one kind of event at a location row. */
export const fenceFor = (
  location: GeofenceRadii & { latitude: string | null; longitude: string | null; geofenceMode: GeofenceMode },
  kind: PunchKind,
): Fence => ({
  latitude: location.latitude,
  longitude: location.longitude,
  radiusCm: radiusFor(location, kind),
  mode: location.geofenceMode,
});

export interface Position {
  latitude?: number | null;
  longitude?: number | null;
  /** Metres, as phones report it. */
  accuracyMeters?: number | null;
}

export type GeofenceCheck =
  | {
      verdict: "unfenced";
      fenced: false;
      refuse: false;
      /** Still measured when both the location and the event have coordinates, for the event record. */
      distanceCm: number | null;
      allowedCm: null;
      accuracyCm: number | null;
    }
  | {
      /** A fence applies in block mode and the event has no position: a 400 naming `missing`. */
      verdict: "position_required";
      fenced: true;
      refuse: true;
      missing: ("latitude" | "longitude")[];
      distanceCm: null;
      allowedCm: number;
      accuracyCm: null;
    }
  | {
      verdict: GeofenceVerdict;
      fenced: true;
      /** True only for "outside" in block mode: answer 422 OUTSIDE_GEOFENCE with the three distances. */
      refuse: boolean;
      /** Null only in flag mode when the event came without a position (judged undetermined). */
      distanceCm: number | null;
      allowedCm: number;
      accuracyCm: number | null;
    };

const parseCoordinate = (value: string | null) => {
  if (value === null || value.trim() === "") return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
};

const hasValue = (n: number | null | undefined): n is number => typeof n === "number" && Number.isFinite(n);

/**
 * Judges one event against one fence. Radius 0/null or a location without coordinates is no fence.
 * In flag mode nothing is refused: an event without a position is accepted as "undetermined".
 */
export function checkGeofence(input: { location: Fence; position?: Position | null }): GeofenceCheck {
  const { location, position } = input;
  const centreLatitude = parseCoordinate(location.latitude);
  const centreLongitude = parseCoordinate(location.longitude);
  const centre = centreLatitude !== null && centreLongitude !== null ? { latitude: centreLatitude, longitude: centreLongitude } : null;
  const latitude = position?.latitude;
  const longitude = position?.longitude;
  const accuracyCm = hasValue(position?.accuracyMeters) ? Math.max(0, Math.round(position.accuracyMeters * 100)) : 0;
  const here = hasValue(latitude) && hasValue(longitude) ? { latitude, longitude } : null;
  const distanceCm = here && centre ? distanceCentimeters(centre, here) : null;

  const radiusCm = location.radiusCm;
  if (!centre || radiusCm === null || radiusCm <= 0) {
    const measured = here ? accuracyCm : null;
    return { verdict: "unfenced", fenced: false, refuse: false, distanceCm, allowedCm: null, accuracyCm: measured };
  }
  if (distanceCm === null) {
    if (location.mode === "flag") {
      return {
        verdict: "undetermined",
        fenced: true,
        refuse: false,
        distanceCm: null,
        allowedCm: radiusCm,
        accuracyCm: null,
      };
    }
    const missing = [...(hasValue(latitude) ? [] : (["latitude"] as const)), ...(hasValue(longitude) ? [] : (["longitude"] as const))];
    return {
      verdict: "position_required",
      fenced: true,
      refuse: true,
      missing,
      distanceCm: null,
      allowedCm: radiusCm,
      accuracyCm: null,
    };
  }
  const verdict = geofenceVerdict({ distanceCm, radiusCm, accuracyCm });
  return {
    verdict,
    fenced: true,
    refuse: verdict === "outside" && location.mode === "block",
    distanceCm,
    allowedCm: radiusCm,
    accuracyCm,
  };
}
