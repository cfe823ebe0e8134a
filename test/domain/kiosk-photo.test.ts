import { describe, expect, it } from "vitest";
import { kioskPhotoVerdict } from "@/domain/kiosk-photo";

const here = "loc-1";
const fresh = { locationId: here, shiftId: null };

describe("kioskPhotoVerdict", () => {
  it.each([
    ["no photo where none is required", false, undefined, null, "ok"],
    ["no photo where one is required", true, undefined, null, "required"],
    ["an empty photoId where one is required", true, "", null, "required"],
    ["a fresh photo of this location", true, "p1", fresh, "ok"],
    ["a fresh photo where none is required", false, "p1", fresh, "ok"],
    ["an unknown photo", false, "p1", null, "not_found"],
    ["another location's photo", true, "p1", { locationId: "loc-2", shiftId: null }, "not_found"],
    ["a photo another punch took", true, "p1", { locationId: here, shiftId: "s1" }, "attached"],
  ] as const)("%s: %s", (_, required, photoId, photo, verdict) => {
    expect(kioskPhotoVerdict({ required, photoId, photo, locationId: here })).toBe(verdict);
  });
});
