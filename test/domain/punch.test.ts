import { describe, expect, it } from "vitest";
import type { Fence } from "@/domain/geofence";
import { judgePunch, type PunchInput } from "@/domain/punch";

const receivedAt = new Date("2026-06-01T12:00:00.000Z");
// A 100 m fence at (0, 0); 0.01° of latitude north of it is 1,111.95 m away (haversine, R = 6,371,008.8 m).
const block: Fence = { latitude: "0", longitude: "0", radiusCm: 10_000, mode: "block" };
const flag: Fence = { ...block, mode: "flag" };
const unfenced: Fence = { latitude: null, longitude: null, radiusCm: null, mode: "block" };
const inside = { latitude: 0.0001, longitude: 0, accuracyMeters: 5 };
const away = { latitude: 0.01, longitude: 0, accuracyMeters: 5 };
const punch = (over: Partial<PunchInput>): PunchInput => ({ kind: "clock_in", fence: block, position: inside, receivedAt, ...over });

describe("judgePunch", () => {
  it("accepts a punch inside the fence at its receipt time, without flags", () => {
    const judged = judgePunch(punch({}));
    expect(judged).toMatchObject({
      ok: true,
      at: receivedAt,
      flags: [],
      geofence: { verdict: "inside", refuse: false, allowedCm: 10_000 },
    });
  });

  it("refuses a time more than 2 minutes ahead, with its code and message, before looking at the position", () => {
    const occurredAt = new Date("2026-06-01T12:02:01.000Z");
    expect(judgePunch(punch({ occurredAt, position: {} }))).toEqual({
      ok: false,
      reason: "time",
      code: "OCCURRED_AT_IN_FUTURE",
      message: "occurredAt is more than 2 minutes in the future.",
    });
  });

  it("keeps an offline punch's own time", () => {
    const occurredAt = new Date("2026-06-01T11:00:00.000Z");
    expect(judgePunch(punch({ occurredAt }))).toMatchObject({ ok: true, at: occurredAt });
  });

  it("refuses a block fence without a position, naming what is missing", () => {
    expect(judgePunch(punch({ position: {} }))).toEqual({ ok: false, reason: "position_required", missing: ["latitude", "longitude"] });
    expect(judgePunch(punch({ position: { latitude: 0 } }))).toEqual({ ok: false, reason: "position_required", missing: ["longitude"] });
  });

  it("refuses a certain miss of a block fence with the three distances", () => {
    expect(judgePunch(punch({ position: away }))).toEqual({
      ok: false,
      reason: "outside_geofence",
      distanceCm: 111_195,
      allowedCm: 10_000,
      accuracyCm: 500,
    });
  });

  it("accepts a miss of a flag fence, flagged, and a position-less punch there as undetermined", () => {
    expect(judgePunch(punch({ fence: flag, position: away }))).toMatchObject({ ok: true, flags: ["OUTSIDE_GEOFENCE"] });
    expect(judgePunch(punch({ fence: flag, position: {} }))).toMatchObject({
      ok: true,
      flags: ["UNDETERMINED_GEOFENCE"],
      geofence: { verdict: "undetermined" },
    });
  });

  it("flags a mock location", () => {
    expect(judgePunch(punch({ mock: true }))).toMatchObject({ ok: true, flags: ["MOCK_LOCATION"] });
  });

  it("flags a position far from the request's IP location, only when the punch has both coordinates", () => {
    const requestLocation = { latitude: "0", longitude: "90" }; // ~10,000 km away
    expect(judgePunch(punch({ fence: unfenced, position: { latitude: 0, longitude: 0 }, requestLocation }))).toMatchObject({
      ok: true,
      flags: ["IP_FAR"],
    });
    for (const position of [{ latitude: 0, longitude: null }, { latitude: null, longitude: 0 }, { latitude: 0 }])
      expect(judgePunch(punch({ fence: unfenced, position, requestLocation }))).toMatchObject({ ok: true, flags: [] });
  });

  it("flags impossible travel from the staff member's previous event, its accuracy counted", () => {
    // 1,111.95 km in one hour: past 300 km/h.
    const previous = { position: { latitude: 10, longitude: 0, accuracyMeters: 0 }, at: new Date("2026-06-01T11:00:00.000Z") };
    const position = { latitude: 0, longitude: 0, accuracyMeters: 0 };
    expect(judgePunch(punch({ fence: unfenced, position, previousEvent: previous }))).toMatchObject({ flags: ["IMPOSSIBLE_TRAVEL"] });
    // The phone's own uncertainty covers all but 1 km of it: no flag.
    const vague = { ...position, accuracyMeters: 1_110_950 };
    expect(judgePunch(punch({ fence: unfenced, position: vague, previousEvent: previous }))).toMatchObject({ flags: [] });
  });
});
