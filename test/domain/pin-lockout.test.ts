import { describe, expect, it } from "vitest";
import { PIN_PATTERN, pinLock, windowStart } from "@/domain/pin-lockout";

const now = new Date("2026-11-27T12:00:00Z");
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

describe("pinLock: five wrong PINs within 15 minutes", () => {
  it.each([
    { failures: [], expected: { locked: false } },
    { failures: [10, 20, 30, 40], expected: { locked: false } },
    // Five in the window: locked until the oldest (60 s ago) is 900 s old.
    { failures: [60, 50, 40, 30, 20], expected: { locked: true, retryAfterSeconds: 840 } },
    // The oldest just inside the window: one second left.
    { failures: [899.5, 10, 10, 10, 10], expected: { locked: true, retryAfterSeconds: 1 } },
    // Exactly 15 minutes old no longer counts.
    { failures: [900, 10, 10, 10, 10], expected: { locked: false } },
    { failures: [1000, 2000, 10, 10, 10, 10], expected: { locked: false } },
    // More than five (never recorded so, but the rule holds): until the count drops under five.
    { failures: [800, 700, 600, 500, 400, 300], expected: { locked: true, retryAfterSeconds: 200 } },
  ])("$failures seconds ago → $expected", ({ failures, expected }) => {
    expect(pinLock(failures.map(ago), now)).toEqual(expected);
  });
});

describe("PIN_PATTERN: 4 to 8 digits", () => {
  it.each(["0000", "1234", "12345678", "00000000"])("accepts %s", (pin) => expect(PIN_PATTERN.test(pin)).toBe(true));
  it.each(["123", "123456789", "12a4", " 1234", "1234\n", "١٢٣٤", ""])("refuses %j", (pin) => expect(PIN_PATTERN.test(pin)).toBe(false));
});

describe("windowStart", () => {
  it("is 15 minutes before now", () => {
    expect(windowStart(new Date("2026-06-01T12:00:00Z"))).toEqual(new Date("2026-06-01T11:45:00Z"));
  });
});
