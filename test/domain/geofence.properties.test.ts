import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkGeofence, distanceCentimeters, EARTH_RADIUS_METERS, geofenceVerdict } from "@/domain/geofence";

const point = fc.record({
  latitude: fc.double({ min: -90, max: 90, noNaN: true }),
  longitude: fc.double({ min: -180, max: 180, noNaN: true }),
});
/** A point near another (within about 1 km), where fences live. */
const near = (centre: { latitude: number; longitude: number }) =>
  fc
    .record({ dLat: fc.double({ min: -0.01, max: 0.01, noNaN: true }), dLon: fc.double({ min: -0.01, max: 0.01, noNaN: true }) })
    .map(({ dLat, dLon }) => ({ latitude: Math.max(-90, Math.min(90, centre.latitude + dLat)), longitude: centre.longitude + dLon }));

/** An independent great-circle distance: the chord between the two unit vectors, turned into an arc. */
function chordDistanceCm(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const unit = ({ latitude, longitude }: { latitude: number; longitude: number }) => {
    const [phi, lambda] = [(latitude * Math.PI) / 180, (longitude * Math.PI) / 180];
    return [Math.cos(phi) * Math.cos(lambda), Math.cos(phi) * Math.sin(lambda), Math.sin(phi)] as const;
  };
  const [u, v] = [unit(a), unit(b)];
  const chord = Math.hypot(u[0] - v[0], u[1] - v[1], u[2] - v[2]);
  return EARTH_RADIUS_METERS * 2 * Math.asin(Math.min(1, chord / 2)) * 100;
}

describe("geofence (properties)", () => {
  it("distance is symmetric, zero to itself, and the great-circle arc an independent formula gives", () => {
    fc.assert(
      fc.property(point, point, (a, b) => {
        const d = distanceCentimeters(a, b);
        expect(d).toBe(distanceCentimeters(b, a));
        expect(distanceCentimeters(a, a)).toBe(0);
        expect(d).toBeGreaterThanOrEqual(0);
        // Rounding to whole centimetres, and float error of the two formulas (≈ 1e-9 of the Earth's half-circumference).
        // Near antipodes both arcsines are ill-conditioned (tens of centimetres apart at 20,000 km): compared up to
        // 19,000 km, far beyond any fence.
        if (d < 1.9e9) expect(Math.abs(d - chordDistanceCm(a, b))).toBeLessThanOrEqual(1 + d * 1e-9 + 3);
      }),
      { numRuns: 200 },
    );
  });

  it("the triangle inequality holds (to the centimetre of rounding, and the haversine's float error near antipodes)", () => {
    fc.assert(
      fc.property(point, point, point, (a, b, c) => {
        const [ab, bc] = [distanceCentimeters(a, b), distanceCentimeters(b, c)];
        // Near an antipode the haversine's arcsine is off by up to tens of centimetres (1e-7 of 20,000 km is 2 m).
        expect(distanceCentimeters(a, c)).toBeLessThanOrEqual(ab + bc + 2 + (ab + bc) * 1e-7);
      }),
      { numRuns: 200 },
    );
  });

  it("verdict: inside ⇔ d + accuracy ≤ radius; outside ⇔ d − accuracy > radius; undetermined otherwise", () => {
    const cm = fc.integer({ min: 0, max: 1_000_000 });
    // Radii anywhere, and (as often) within 2 cm of either edge, where < and ≤ part.
    const case_ = fc.tuple(cm, cm).chain(([distanceCm, accuracyCm]) =>
      fc
        .oneof(
          cm,
          fc.integer({ min: -2, max: 2 }).map((e) => distanceCm + accuracyCm + e),
          fc.integer({ min: -2, max: 2 }).map((e) => distanceCm - accuracyCm + e),
        )
        .map((radiusCm) => [distanceCm, Math.max(0, radiusCm), accuracyCm] as const),
    );
    fc.assert(
      fc.property(case_, ([distanceCm, radiusCm, accuracyCm]) => {
        const verdict = geofenceVerdict({ distanceCm, radiusCm, accuracyCm });
        expect(verdict === "inside").toBe(distanceCm + accuracyCm <= radiusCm);
        expect(verdict === "outside").toBe(distanceCm - accuracyCm > radiusCm);
      }),
      { numRuns: 200 },
    );
  });

  it("checkGeofence judges a position by its distance from the location, accuracy in metres, and refuses only outside in block mode", () => {
    const scenario = point.chain((centre) =>
      fc.record({
        centre: fc.constant(centre),
        here: near(centre),
        radiusCm: fc.integer({ min: 1, max: 200_000 }),
        accuracyMeters: fc.option(fc.integer({ min: 0, max: 2000 }), { nil: undefined }),
        mode: fc.constantFrom("block" as const, "flag" as const),
      }),
    );
    fc.assert(
      fc.property(scenario, ({ centre, here, radiusCm, accuracyMeters, mode }) => {
        const check = checkGeofence({
          location: { latitude: String(centre.latitude), longitude: String(centre.longitude), radiusCm, mode },
          position: { ...here, accuracyMeters },
        });
        const d = distanceCentimeters({ latitude: Number(String(centre.latitude)), longitude: Number(String(centre.longitude)) }, here);
        const accuracyCm = (accuracyMeters ?? 0) * 100;
        const expected = d + accuracyCm <= radiusCm ? "inside" : d - accuracyCm > radiusCm ? "outside" : "undetermined";
        expect(check).toMatchObject({ verdict: expected, fenced: true, distanceCm: d, allowedCm: radiusCm, accuracyCm });
        expect(check.refuse).toBe(expected === "outside" && mode === "block");
      }),
      { numRuns: 200 },
    );
  });
});
