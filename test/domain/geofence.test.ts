import { describe, expect, it } from "vitest";
import {
  checkGeofence,
  distanceCentimeters,
  EARTH_RADIUS_METERS,
  type Fence,
  fenceFor,
  geofenceVerdict,
  radiusFor,
} from "@/domain/geofence";

const TIMES_SQUARE = { latitude: 40.758, longitude: -73.9855 };
const EMPIRE_STATE = { latitude: 40.748817, longitude: -73.985428 };

describe("distanceCentimeters", () => {
  it("measures Times Square to the Empire State Building at about 1.02 km", () => {
    const d = distanceCentimeters(TIMES_SQUARE, EMPIRE_STATE);
    expect(Number.isInteger(d)).toBe(true);
    expect(d).toBeGreaterThan(101_000);
    expect(d).toBeLessThan(103_000);
  });

  it("measures Big Ben to the Eiffel Tower at about 340 km", () => {
    const d = distanceCentimeters({ latitude: 51.5007, longitude: -0.1246 }, { latitude: 48.8584, longitude: 2.2945 });
    expect(Math.abs(d - 34_054_000)).toBeLessThan(100_000);
  });

  it("measures antipodes at half the Earth's circumference", () => {
    const half = Math.PI * EARTH_RADIUS_METERS * 100;
    expect(Math.abs(distanceCentimeters({ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 180 }) - half)).toBeLessThan(100);
    expect(Math.abs(distanceCentimeters({ latitude: 40, longitude: -74 }, { latitude: -40, longitude: 106 }) - half)).toBeLessThan(100);
  });

  it("is 0 for the same point and symmetric", () => {
    expect(distanceCentimeters(TIMES_SQUARE, TIMES_SQUARE)).toBe(0);
    expect(distanceCentimeters(TIMES_SQUARE, EMPIRE_STATE)).toBe(distanceCentimeters(EMPIRE_STATE, TIMES_SQUARE));
  });
});

describe("geofenceVerdict", () => {
  it("is inside exactly when distance + accuracy reaches the radius", () => {
    expect(geofenceVerdict({ distanceCm: 7_000, radiusCm: 10_000, accuracyCm: 3_000 })).toBe("inside");
    expect(geofenceVerdict({ distanceCm: 7_001, radiusCm: 10_000, accuracyCm: 3_000 })).toBe("undetermined");
  });

  it("is outside only when distance - accuracy exceeds the radius", () => {
    expect(geofenceVerdict({ distanceCm: 13_000, radiusCm: 10_000, accuracyCm: 3_000 })).toBe("undetermined");
    expect(geofenceVerdict({ distanceCm: 13_001, radiusCm: 10_000, accuracyCm: 3_000 })).toBe("outside");
  });

  it("with perfect accuracy has no undetermined band", () => {
    expect(geofenceVerdict({ distanceCm: 10_000, radiusCm: 10_000, accuracyCm: 0 })).toBe("inside");
    expect(geofenceVerdict({ distanceCm: 10_001, radiusCm: 10_000, accuracyCm: 0 })).toBe("outside");
  });
});

describe("radiusFor", () => {
  const location = {
    latitude: "40.758",
    longitude: "-73.9855",
    clockInDistanceCentimeters: 1,
    clockOutDistanceCentimeters: 2,
    breakStartDistanceCentimeters: 3,
    breakEndDistanceCentimeters: null,
    geofenceMode: "flag" as const,
  };

  it("picks the column of each event kind", () => {
    expect(radiusFor(location, "clock_in")).toBe(1);
    expect(radiusFor(location, "clock_out")).toBe(2);
    expect(radiusFor(location, "break_start")).toBe(3);
    expect(radiusFor(location, "break_end")).toBeNull();
  });

  it("builds the fence of a location row for one kind", () => {
    expect(fenceFor(location, "clock_out")).toEqual({ latitude: "40.758", longitude: "-73.9855", radiusCm: 2, mode: "flag" });
  });
});

describe("checkGeofence", () => {
  const fence = (overrides: Partial<Fence> = {}): Fence => ({
    latitude: String(TIMES_SQUARE.latitude),
    longitude: String(TIMES_SQUARE.longitude),
    radiusCm: 20_000,
    mode: "block",
    ...overrides,
  });

  it("accepts a position inside the fence", () => {
    const check = checkGeofence({ location: fence(), position: { ...TIMES_SQUARE, accuracyMeters: 5 } });
    expect(check).toMatchObject({ verdict: "inside", fenced: true, refuse: false, distanceCm: 0, allowedCm: 20_000, accuracyCm: 500 });
  });

  it("refuses a position certainly outside in block mode, with the three distances", () => {
    const check = checkGeofence({ location: fence(), position: { ...EMPIRE_STATE, accuracyMeters: 10 } });
    expect(check.verdict).toBe("outside");
    expect(check.refuse).toBe(true);
    expect(check.distanceCm).toBe(distanceCentimeters(TIMES_SQUARE, EMPIRE_STATE));
    expect(check.allowedCm).toBe(20_000);
    expect(check.accuracyCm).toBe(1_000);
  });

  it("accepts an undetermined position (accuracy straddles the edge)", () => {
    const check = checkGeofence({ location: fence(), position: { ...EMPIRE_STATE, accuracyMeters: 1_000 } });
    expect(check).toMatchObject({ verdict: "undetermined", refuse: false });
  });

  it("treats a missing accuracy as 0", () => {
    const check = checkGeofence({ location: fence(), position: TIMES_SQUARE });
    expect(check.accuracyCm).toBe(0);
  });

  it("in flag mode accepts an outside position", () => {
    const check = checkGeofence({ location: fence({ mode: "flag" }), position: EMPIRE_STATE });
    expect(check).toMatchObject({ verdict: "outside", fenced: true, refuse: false });
  });

  it("is unfenced for radius 0 or null, still measuring the distance", () => {
    for (const radiusCm of [0, null]) {
      const check = checkGeofence({ location: fence({ radiusCm }), position: EMPIRE_STATE });
      expect(check).toMatchObject({ verdict: "unfenced", fenced: false, refuse: false, allowedCm: null });
      expect(check.distanceCm).toBeGreaterThan(100_000);
    }
  });

  it("is unfenced for a location without coordinates, even without a position", () => {
    for (const location of [fence({ latitude: null }), fence({ longitude: "" }), fence({ latitude: "north" })]) {
      expect(checkGeofence({ location, position: EMPIRE_STATE })).toMatchObject({ verdict: "unfenced", distanceCm: null });
    }
    expect(checkGeofence({ location: fence({ latitude: null, longitude: null }) })).toMatchObject({
      verdict: "unfenced",
      refuse: false,
      accuracyCm: null,
    });
  });

  it("requires a position when a fence applies, naming the missing fields", () => {
    expect(checkGeofence({ location: fence() })).toMatchObject({
      verdict: "position_required",
      refuse: true,
      missing: ["latitude", "longitude"],
    });
    expect(checkGeofence({ location: fence(), position: { latitude: 40.7 } })).toMatchObject({
      verdict: "position_required",
      missing: ["longitude"],
    });
  });

  it("in flag mode accepts a fenced event without position as undetermined", () => {
    expect(checkGeofence({ location: fence({ mode: "flag" }) })).toMatchObject({
      verdict: "undetermined",
      fenced: true,
      refuse: false,
      distanceCm: null,
    });
  });
});
