import { type Coordinates, distanceCentimeters, type GeofenceCheck } from "./geofence";

/** AUTO_CLOCK_OUT: the attendance pass closed a forgotten shift (jobs/attendance-pass); the others judge a punch. */
export const TRUST_FLAGS = [
  "AUTO_CLOCK_OUT",
  "IMPOSSIBLE_TRAVEL",
  "IP_FAR",
  "MOCK_LOCATION",
  "OUTSIDE_GEOFENCE",
  "UNDETERMINED_GEOFENCE",
] as const;

export type TrustFlag = (typeof TRUST_FLAGS)[number];

export const IP_FAR_CENTIMETERS = 500 * 100_000;
export const IMPOSSIBLE_TRAVEL_KMH = 300;
/**
 * Moves are judged over at least a minute, so GPS jitter between two punches in the same second (break end and
 * clock-out replayed from an offline queue) is never "infinitely fast"; a jump of more than 5 km within a
 * minute, or at the same instant, still is.
 */
export const MIN_TRAVEL_WINDOW_MS = 60_000;

export interface TrackedPosition extends Coordinates {
  accuracyMeters?: number | null;
}

export interface PreviousEvent {
  position: TrackedPosition | null;
  at: Date;
}

/** `request.cf` gives latitude/longitude as strings; absent locally and for some clients. */
export interface RequestLocation {
  latitude?: string | number | null;
  longitude?: string | number | null;
}

const toNumber = (value: string | number | null | undefined) => {
  if (value === null || value === undefined || value === "") return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
};

export function isIpFar(position: Coordinates, requestLocation: RequestLocation | null | undefined): boolean {
  const latitude = toNumber(requestLocation?.latitude);
  const longitude = toNumber(requestLocation?.longitude);
  if (latitude === null || longitude === null) return false;
  return distanceCentimeters(position, { latitude, longitude }) > IP_FAR_CENTIMETERS;
}

/** Accuracy radii are subtracted first: only displacement the phones' own uncertainty cannot explain counts. */
export function isImpossibleTravel(position: TrackedPosition, at: Date, previous: PreviousEvent): boolean {
  if (!previous.position) return false;
  const uncertaintyCm = ((position.accuracyMeters ?? 0) + (previous.position.accuracyMeters ?? 0)) * 100;
  const movedCm = distanceCentimeters(previous.position, position) - Math.max(0, uncertaintyCm);
  if (movedCm <= 0) return false;
  const elapsedMs = Math.max(at.getTime() - previous.at.getTime(), MIN_TRAVEL_WINDOW_MS);
  const kmh = movedCm / 100_000 / (elapsedMs / 3_600_000);
  return kmh > IMPOSSIBLE_TRAVEL_KMH;
}

/** The flags one event earns. They are recorded and filtered on, never a reason to refuse. */
export function trustFlags(input: {
  at: Date;
  position?: TrackedPosition | null;
  mock?: boolean | null;
  requestLocation?: RequestLocation | null;
  previous?: PreviousEvent | null;
  verdict?: GeofenceCheck["verdict"];
}): TrustFlag[] {
  const flags = new Set<TrustFlag>();
  if (input.mock === true) flags.add("MOCK_LOCATION");
  if (input.verdict === "outside") flags.add("OUTSIDE_GEOFENCE");
  if (input.verdict === "undetermined") flags.add("UNDETERMINED_GEOFENCE");
  if (input.position) {
    if (isIpFar(input.position, input.requestLocation)) flags.add("IP_FAR");
    if (input.previous && isImpossibleTravel(input.position, input.at, input.previous)) flags.add("IMPOSSIBLE_TRAVEL");
  }
  return [...flags].sort();
}

/** A shift's flags: the union of its events' flags. */
export const unionFlags = (lists: readonly (readonly TrustFlag[])[]): TrustFlag[] => [...new Set(lists.flat())].sort();
