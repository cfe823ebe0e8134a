import { describe, expect, it } from "vitest";
import { trustFlags, unionFlags } from "@/domain/trust";

const NEW_YORK = { latitude: 40.7128, longitude: -74.006 };
const NEWARK = { latitude: 40.7357, longitude: -74.1724 }; // about 14 km from New York
const CHICAGO = { latitude: 41.8781, longitude: -87.6298 }; // about 1,145 km from New York
const at = new Date("2026-06-01T12:00:00Z");
const minutesBefore = (minutes: number) => new Date(at.getTime() - minutes * 60_000);

describe("trustFlags", () => {
  it("is empty for an ordinary punch", () => {
    expect(trustFlags({ at, position: NEW_YORK, mock: false, verdict: "inside" })).toEqual([]);
  });

  it("flags MOCK_LOCATION only when the client says so", () => {
    expect(trustFlags({ at, mock: true })).toEqual(["MOCK_LOCATION"]);
    expect(trustFlags({ at, mock: false })).toEqual([]);
    expect(trustFlags({ at })).toEqual([]);
  });

  it("flags the geofence verdicts that were accepted but doubtful", () => {
    expect(trustFlags({ at, verdict: "outside" })).toEqual(["OUTSIDE_GEOFENCE"]);
    expect(trustFlags({ at, verdict: "undetermined" })).toEqual(["UNDETERMINED_GEOFENCE"]);
    expect(trustFlags({ at, verdict: "unfenced" })).toEqual([]);
  });

  it("flags IP_FAR beyond 500 km from request.cf, which gives strings", () => {
    const cf = { latitude: String(CHICAGO.latitude), longitude: String(CHICAGO.longitude) };
    expect(trustFlags({ at, position: NEW_YORK, requestLocation: cf })).toEqual(["IP_FAR"]);
    expect(trustFlags({ at, position: NEW_YORK, requestLocation: { latitude: "40.73", longitude: "-74.17" } })).toEqual([]);
  });

  it("does not flag IP_FAR without both cf coordinates or without a position", () => {
    expect(trustFlags({ at, position: NEW_YORK, requestLocation: { latitude: "41.87" } })).toEqual([]);
    expect(trustFlags({ at, position: NEW_YORK, requestLocation: null })).toEqual([]);
    expect(trustFlags({ at, requestLocation: { latitude: 41.87, longitude: -87.62 } })).toEqual([]);
  });

  it("flags IMPOSSIBLE_TRAVEL above 300 km/h since the previous event", () => {
    // 1,145 km in 3 h is about 380 km/h; in 4 h about 286 km/h.
    expect(trustFlags({ at, position: CHICAGO, previous: { position: NEW_YORK, at: minutesBefore(180) } })).toEqual(["IMPOSSIBLE_TRAVEL"]);
    expect(trustFlags({ at, position: CHICAGO, previous: { position: NEW_YORK, at: minutesBefore(240) } })).toEqual([]);
  });

  it("does not flag travel when either position is missing", () => {
    expect(trustFlags({ at, position: CHICAGO, previous: { position: null, at: minutesBefore(1) } })).toEqual([]);
    expect(trustFlags({ at, previous: { position: NEW_YORK, at: minutesBefore(1) } })).toEqual([]);
  });

  it("judges moves over at least a minute, so jitter at the same instant is not travel but a jump is", () => {
    const jitter = { latitude: NEW_YORK.latitude + 0.0005, longitude: NEW_YORK.longitude };
    expect(trustFlags({ at, position: jitter, previous: { position: NEW_YORK, at } })).toEqual([]);
    expect(trustFlags({ at, position: NEWARK, previous: { position: NEW_YORK, at } })).toEqual(["IMPOSSIBLE_TRAVEL"]);
  });

  it("lets reported accuracy explain part of a move", () => {
    const previous = { position: { ...NEW_YORK, accuracyMeters: 8_000 }, at };
    expect(trustFlags({ at, position: { ...NEWARK, accuracyMeters: 8_000 }, previous })).toEqual([]);
  });

  it("returns several flags sorted and unique", () => {
    const flags = trustFlags({
      at,
      position: CHICAGO,
      mock: true,
      verdict: "outside",
      requestLocation: { latitude: NEW_YORK.latitude, longitude: NEW_YORK.longitude },
      previous: { position: NEW_YORK, at: minutesBefore(10) },
    });
    expect(flags).toEqual(["IMPOSSIBLE_TRAVEL", "IP_FAR", "MOCK_LOCATION", "OUTSIDE_GEOFENCE"]);
  });
});

describe("unionFlags", () => {
  it("merges the flags of a shift's events", () => {
    expect(unionFlags([["MOCK_LOCATION"], [], ["IP_FAR", "MOCK_LOCATION"]])).toEqual(["IP_FAR", "MOCK_LOCATION"]);
  });
});
