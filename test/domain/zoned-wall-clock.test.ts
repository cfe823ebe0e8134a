import { describe, expect, it } from "vitest";
import { instantInZone, offsetUnder, readWallClock } from "@/domain/zoned-wall-clock";

const wall = (s: string) => new Date(s);

describe("instantInZone", () => {
  it("reads an ordinary New York time with the season's offset", () => {
    expect(instantInZone(wall("2026-07-01T09:00:00Z"), "America/New_York").toISOString()).toBe("2026-07-01T13:00:00.000Z");
    expect(instantInZone(wall("2026-01-15T09:00:00Z"), "America/New_York").toISOString()).toBe("2026-01-15T14:00:00.000Z");
  });

  it("takes the first 01:30 of the fall-back night (EDT), and 06:00 after it in EST", () => {
    expect(instantInZone(wall("2026-11-01T01:30:00Z"), "America/New_York").toISOString()).toBe("2026-11-01T05:30:00.000Z");
    expect(instantInZone(wall("2026-11-01T06:00:00Z"), "America/New_York").toISOString()).toBe("2026-11-01T11:00:00.000Z");
  });

  it("moves a time in the spring-forward gap forward by the gap: 02:30 is 03:30 EDT", () => {
    expect(instantInZone(wall("2026-03-08T02:30:00Z"), "America/New_York").toISOString()).toBe("2026-03-08T07:30:00.000Z");
  });

  it("handles zones east of UTC and with odd offsets", () => {
    expect(instantInZone(wall("2026-01-15T09:00:00Z"), "Asia/Kathmandu").toISOString()).toBe("2026-01-15T03:15:00.000Z");
    expect(instantInZone(wall("2026-01-15T09:00:00Z"), "UTC").toISOString()).toBe("2026-01-15T09:00:00.000Z");
  });
});

describe("readWallClock and offsetUnder", () => {
  it("reads with a fixed utcOffset as the wire's formula says (utc = local − offset)", () => {
    expect(readWallClock(wall("2026-11-01T06:00:00Z"), { utcOffset: -240 }).toISOString()).toBe("2026-11-01T10:00:00.000Z");
  });

  it("keeps the given offset, or the zone's at the start", () => {
    expect(offsetUnder(wall("2026-11-01T02:00:00Z"), { utcOffset: 60 })).toBe(60);
    expect(offsetUnder(wall("2026-11-01T02:00:00Z"), { timeZone: "America/New_York" })).toBe(-240);
    expect(offsetUnder(wall("2026-11-01T11:00:00Z"), { timeZone: "America/New_York" })).toBe(-300);
  });
});
