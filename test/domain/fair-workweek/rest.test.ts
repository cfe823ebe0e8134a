import { describe, expect, it } from "vitest";
import { type RulePackId, rulePack } from "@/domain/fair-workweek/packs";
import { restPremium, restViolation } from "@/domain/fair-workweek/rest";

/* Issue 33: rest between shifts, each pack's window and premium as a table citing the ordinance. */

const ON = "2026-11-27";
const pack = (id: RulePackId) => rulePack(id, ON)!;
const at = (iso: string) => new Date(iso);

type Case = {
  name: string;
  previous: [start: string, end: string];
  next: [start: string, end: string];
  zone?: string;
  expected: { gapMinutes: number; minutesInsideWindow: number; hours: number | null; amount: number | null } | null;
};

const table = (id: RulePackId, cases: Case[]) =>
  describe(id, () => {
    it.each(cases)("$name", ({ previous, next, zone, expected }) => {
      const p = pack(id);
      const violation = restViolation(p, at(previous[1]), at(next[0]), at(next[1]), zone ?? "UTC", at(previous[0]));
      if (expected === null) {
        expect(violation).toBeNull();
        return;
      }
      expect(violation).toMatchObject({ gapMinutes: expected.gapMinutes, minutesInsideWindow: expected.minutesInsideWindow });
      expect(violation!.rule).toBe(`${id}.REST_UNDER_${p.rest!.minHours}H`);
      expect(violation!.consentRequired).toBe(p.rest!.consentRequired);
      const premium = restPremium(p, violation!);
      expect(premium).toEqual({ hours: expected.hours, amount: expected.amount, rule: violation!.rule, flagged: false });
    });
  });

table("NYC_FAST_FOOD", [
  {
    name: "§20-1231: clopening, closes 23:00, opens 07:00 next day (8 h between) → consent + $100",
    previous: ["2026-11-02T15:00:00Z", "2026-11-02T23:00:00Z"],
    next: ["2026-11-03T07:00:00Z", "2026-11-03T15:00:00Z"],
    expected: { gapMinutes: 480, minutesInsideWindow: 180, hours: null, amount: 100 },
  },
  {
    name: "§20-1231: exactly 11 hours between the closing and the opening shift → no clopening",
    previous: ["2026-11-02T15:00:00Z", "2026-11-02T23:00:00Z"],
    next: ["2026-11-03T10:00:00Z", "2026-11-03T18:00:00Z"],
    expected: null,
  },
  {
    name: "§20-1231: 10 h 59 min between → $100",
    previous: ["2026-11-02T15:00:00Z", "2026-11-02T23:00:00Z"],
    next: ["2026-11-03T09:59:00Z", "2026-11-03T18:00:00Z"],
    expected: { gapMinutes: 659, minutesInsideWindow: 1, hours: null, amount: 100 },
  },
  {
    name: "§20-1231: a first shift that 'spans two days' (ends 01:00) and opens 09:00 the same morning → $100",
    previous: ["2026-11-02T17:00:00Z", "2026-11-03T01:00:00Z"],
    next: ["2026-11-03T09:00:00Z", "2026-11-03T13:00:00Z"],
    expected: { gapMinutes: 480, minutesInsideWindow: 180, hours: null, amount: 100 },
  },
  {
    name: "§20-1231: two shifts the same day (split shift, 4 h apart) are no clopening",
    previous: ["2026-11-02T06:00:00Z", "2026-11-02T10:00:00Z"],
    next: ["2026-11-02T14:00:00Z", "2026-11-02T18:00:00Z"],
    expected: null,
  },
  {
    name: "§20-1231: calendar days are New York's: 22:00–03:00 UTC is one local day, next shift 12:00 UTC the next",
    previous: ["2026-11-03T00:00:00Z", "2026-11-03T03:00:00Z"],
    next: ["2026-11-03T12:00:00Z", "2026-11-03T20:00:00Z"],
    zone: "America/New_York",
    expected: { gapMinutes: 540, minutesInsideWindow: 120, hours: null, amount: 100 },
  },
]);

table("SEATTLE", [
  {
    name: "SMC 14.22.035: 'less than 10 hours' after the previous day's shift, 8 h gap, 8 h shift → 2 h inside at the extra 0.5 → 1 h",
    previous: ["2026-11-02T14:00:00Z", "2026-11-02T22:00:00Z"],
    next: ["2026-11-03T06:00:00Z", "2026-11-03T14:00:00Z"],
    expected: { gapMinutes: 480, minutesInsideWindow: 120, hours: 1, amount: null },
  },
  {
    name: "SMC 14.22.035: exactly 10 hours of rest → no premium",
    previous: ["2026-11-02T14:00:00Z", "2026-11-02T22:00:00Z"],
    next: ["2026-11-03T08:00:00Z", "2026-11-03T16:00:00Z"],
    expected: null,
  },
  {
    name: "SMC 14.22.035: 9 h gap, 1 h inside the window → 0.5 h",
    previous: ["2026-11-02T14:00:00Z", "2026-11-02T22:00:00Z"],
    next: ["2026-11-03T07:00:00Z", "2026-11-03T15:00:00Z"],
    expected: { gapMinutes: 540, minutesInsideWindow: 60, hours: 0.5, amount: null },
  },
  {
    name: "SMC 14.22.035: a short next shift wholly inside the window (3 h) → 1.5 h",
    previous: ["2026-11-02T14:00:00Z", "2026-11-02T23:00:00Z"],
    next: ["2026-11-03T04:00:00Z", "2026-11-03T07:00:00Z"],
    expected: { gapMinutes: 300, minutesInsideWindow: 180, hours: 1.5, amount: null },
  },
  {
    name: "SMC 14.22.035: 'the previous day's shift' — a same-day split shift is not covered",
    previous: ["2026-11-02T06:00:00Z", "2026-11-02T10:00:00Z"],
    next: ["2026-11-02T15:00:00Z", "2026-11-02T20:00:00Z"],
    expected: null,
  },
]);

table("OREGON", [
  {
    name: "ORS 653.442: 'first 10 hours following the end of the previous calendar day's work shift' (8 h gap) → 2 h × 0.5",
    previous: ["2026-11-02T14:00:00Z", "2026-11-02T22:00:00Z"],
    next: ["2026-11-03T06:00:00Z", "2026-11-03T14:00:00Z"],
    expected: { gapMinutes: 480, minutesInsideWindow: 120, hours: 1, amount: null },
  },
  {
    name: "ORS 653.442: exactly 10 hours → no premium",
    previous: ["2026-11-02T14:00:00Z", "2026-11-02T22:00:00Z"],
    next: ["2026-11-03T08:00:00Z", "2026-11-03T12:00:00Z"],
    expected: null,
  },
  {
    name: "ORS 653.442: 'a work shift that spanned two calendar days' (ends 02:00, next 08:00) → 4 h × 0.5",
    previous: ["2026-11-02T18:00:00Z", "2026-11-03T02:00:00Z"],
    next: ["2026-11-03T08:00:00Z", "2026-11-03T16:00:00Z"],
    expected: { gapMinutes: 360, minutesInsideWindow: 240, hours: 2, amount: null },
  },
  {
    name: "ORS 653.442: 9 h 30 min gap → 30 min × 0.5 = 0.25 h",
    previous: ["2026-11-02T14:00:00Z", "2026-11-02T22:00:00Z"],
    next: ["2026-11-03T07:30:00Z", "2026-11-03T15:00:00Z"],
    expected: { gapMinutes: 570, minutesInsideWindow: 30, hours: 0.25, amount: null },
  },
  {
    name: "ORS 653.442: same-day shifts are not the previous calendar day's → no premium",
    previous: ["2026-11-02T05:00:00Z", "2026-11-02T09:00:00Z"],
    next: ["2026-11-02T12:00:00Z", "2026-11-02T20:00:00Z"],
    expected: null,
  },
]);

table("LOS_ANGELES", [
  {
    name: "LAMC Fair Work Week: less than 10 hours after the previous shift (8 h) → 1.5×, the extra half on 2 h → 1 h",
    previous: ["2026-11-02T14:00:00Z", "2026-11-02T22:00:00Z"],
    next: ["2026-11-03T06:00:00Z", "2026-11-03T14:00:00Z"],
    expected: { gapMinutes: 480, minutesInsideWindow: 120, hours: 1, amount: null },
  },
  {
    name: "LAMC: exactly 10 hours → no premium",
    previous: ["2026-11-02T14:00:00Z", "2026-11-02T22:00:00Z"],
    next: ["2026-11-03T08:00:00Z", "2026-11-03T16:00:00Z"],
    expected: null,
  },
  {
    name: "LAMC: the premium is owed without consent too (consentRequired false), 6 h gap on a 4 h shift → 2 h",
    previous: ["2026-11-02T14:00:00Z", "2026-11-02T22:00:00Z"],
    next: ["2026-11-03T04:00:00Z", "2026-11-03T08:00:00Z"],
    expected: { gapMinutes: 360, minutesInsideWindow: 240, hours: 2, amount: null },
  },
  {
    name: "LAMC: counts any two shifts, same day too (5 h between) → 1.5 h",
    previous: ["2026-11-02T06:00:00Z", "2026-11-02T10:00:00Z"],
    next: ["2026-11-02T15:00:00Z", "2026-11-02T18:00:00Z"],
    expected: { gapMinutes: 300, minutesInsideWindow: 180, hours: 1.5, amount: null },
  },
  {
    name: "LAMC: 9 h 45 min → 15 min × 0.5 = 0.125 h",
    previous: ["2026-11-02T14:00:00Z", "2026-11-02T22:00:00Z"],
    next: ["2026-11-03T07:45:00Z", "2026-11-03T12:00:00Z"],
    expected: { gapMinutes: 585, minutesInsideWindow: 15, hours: 0.125, amount: null },
  },
]);

table("CHICAGO", [
  {
    name: "MCC ch. 6-110: 'less than 10 hours after the end of the previous day's shift' (8 h) → 1.25×: 2 h × 0.25 = 0.5 h",
    previous: ["2026-11-02T14:00:00Z", "2026-11-02T22:00:00Z"],
    next: ["2026-11-03T06:00:00Z", "2026-11-03T14:00:00Z"],
    expected: { gapMinutes: 480, minutesInsideWindow: 120, hours: 0.5, amount: null },
  },
  {
    name: "MCC ch. 6-110: exactly 10 hours → no premium",
    previous: ["2026-11-02T14:00:00Z", "2026-11-02T22:00:00Z"],
    next: ["2026-11-03T08:00:00Z", "2026-11-03T16:00:00Z"],
    expected: null,
  },
  {
    name: "MCC ch. 6-110: 6 h gap, 4 h inside → 1 h",
    previous: ["2026-11-02T14:00:00Z", "2026-11-02T22:00:00Z"],
    next: ["2026-11-03T04:00:00Z", "2026-11-03T12:00:00Z"],
    expected: { gapMinutes: 360, minutesInsideWindow: 240, hours: 1, amount: null },
  },
  {
    name: "MCC ch. 6-110: a same-day split shift is not 'the previous day's shift'",
    previous: ["2026-11-02T06:00:00Z", "2026-11-02T10:00:00Z"],
    next: ["2026-11-02T13:00:00Z", "2026-11-02T18:00:00Z"],
    expected: null,
  },
  {
    name: "MCC ch. 6-110: 9 h gap → 1 h inside × 0.25 = 0.25 h",
    previous: ["2026-11-02T14:00:00Z", "2026-11-02T22:00:00Z"],
    next: ["2026-11-03T07:00:00Z", "2026-11-03T15:00:00Z"],
    expected: { gapMinutes: 540, minutesInsideWindow: 60, hours: 0.25, amount: null },
  },
]);

table("PHILADELPHIA", [
  {
    name: "Phila. Code 9-4600: 'less than nine hours' after the end of a shift (8 h) → consent + $40",
    previous: ["2026-11-02T14:00:00Z", "2026-11-02T22:00:00Z"],
    next: ["2026-11-03T06:00:00Z", "2026-11-03T14:00:00Z"],
    expected: { gapMinutes: 480, minutesInsideWindow: 60, hours: null, amount: 40 },
  },
  {
    name: "9-4600: exactly nine hours → no premium",
    previous: ["2026-11-02T14:00:00Z", "2026-11-02T22:00:00Z"],
    next: ["2026-11-03T07:00:00Z", "2026-11-03T15:00:00Z"],
    expected: null,
  },
  {
    name: "9-4600: 8 h 59 min → $40",
    previous: ["2026-11-02T14:00:00Z", "2026-11-02T22:00:00Z"],
    next: ["2026-11-03T06:59:00Z", "2026-11-03T15:00:00Z"],
    expected: { gapMinutes: 539, minutesInsideWindow: 1, hours: null, amount: 40 },
  },
  {
    name: "9-4600: $40 is flat, whatever the length inside (2 h gap) → $40",
    previous: ["2026-11-02T06:00:00Z", "2026-11-02T10:00:00Z"],
    next: ["2026-11-02T12:00:00Z", "2026-11-02T20:00:00Z"],
    expected: { gapMinutes: 120, minutesInsideWindow: 420, hours: null, amount: 40 },
  },
  {
    name: "9-4600: a next shift starting at the previous end is still < 9 h of rest → $40",
    previous: ["2026-11-02T06:00:00Z", "2026-11-02T10:00:00Z"],
    next: ["2026-11-02T10:00:00Z", "2026-11-02T12:00:00Z"],
    expected: { gapMinutes: 0, minutesInsideWindow: 120, hours: null, amount: 40 },
  },
]);

describe("packs whose rest premium is not published", () => {
  it.each(["EVANSTON", "BERKELEY", "EMERYVILLE"] as const)("%s: a short rest is flagged with no amount", (id) => {
    const p = pack(id);
    const violation = restViolation(p, at("2026-11-02T22:00:00Z"), at("2026-11-03T06:00:00Z"), at("2026-11-03T14:00:00Z"), "UTC");
    expect(violation).not.toBeNull();
    expect(restPremium(p, violation!)).toEqual({ hours: null, amount: null, rule: violation!.rule, flagged: true });
  });

  it("San Francisco and CUSTOM have no rest rule", () => {
    for (const id of ["SAN_FRANCISCO", "CUSTOM"] as const) {
      expect(restViolation(pack(id), at("2026-11-02T22:00:00Z"), at("2026-11-02T23:00:00Z"), at("2026-11-03T01:00:00Z"), "UTC")).toBeNull();
    }
  });

  it("a next shift that starts before the previous one ended is an overlap, not a rest question", () => {
    expect(
      restViolation(pack("SEATTLE"), at("2026-11-02T22:00:00Z"), at("2026-11-02T21:00:00Z"), at("2026-11-03T01:00:00Z"), "UTC"),
    ).toBeNull();
  });
});

describe("restViolation without the previous start", () => {
  // NYC §20-1231: a closing shift ending at midnight falls on the day before; 8 hours later is the next day, under 11.
  it("reads the day of the previous shift's last minute", () => {
    const nyc = pack("NYC_FAST_FOOD");
    expect(restViolation(nyc, at("2026-11-27T00:00:00Z"), at("2026-11-27T08:00:00Z"), at("2026-11-27T16:00:00Z"), "UTC")).toMatchObject({
      gapMinutes: 480,
    });
    // Ending a minute after midnight, the shift's last minute is on the same day as the next one: no clopening.
    expect(restViolation(nyc, at("2026-11-27T00:01:00Z"), at("2026-11-27T08:00:00Z"), at("2026-11-27T16:00:00Z"), "UTC")).toBeNull();
  });
});
