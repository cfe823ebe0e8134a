import { describe, expect, it } from "vitest";
import { kioskOrigin, originOf, parseSources } from "@/domain/punch-source";

describe("originOf", () => {
  it.each([
    ["a staff member's punch", "s1", "punch", "MOBILE"],
    ["a staff member's timesheet write (a manager)", "s1", "edit", "MANUAL"],
    ["an organization-level token's punch", null, "punch", "API"],
    ["an organization-level token's timesheet write", null, "edit", "API"],
  ] as const)("%s is %s", (_, staffMemberId, write, source) => {
    expect(originOf({ staffMemberId }, write)).toEqual({ source, deviceId: null });
  });

  it("a kiosk's punch names its device", () => {
    expect(kioskOrigin("d1")).toEqual({ source: "KIOSK", deviceId: "d1" });
  });
});

describe("parseSources", () => {
  it.each([
    ["KIOSK", ["KIOSK"]],
    ["kiosk, Mobile", ["KIOSK", "MOBILE"]],
    ["API,API,AUTO", ["API", "AUTO"]],
    ["MANUAL,", ["MANUAL"]],
  ])("%s → %j", (text, sources) => {
    expect(parseSources(text)).toEqual({ ok: true, sources });
  });

  it.each([
    ["PHONE", ["PHONE"]],
    ["KIOSK,nope", ["NOPE"]],
    ["", []],
    [" , ", []],
  ])("refuses %j", (text, unknown) => {
    expect(parseSources(text)).toEqual({ ok: false, unknown });
  });
});
