import { describe, expect, it } from "vitest";
import { applyWorkingTimeOverrides, refusedOverrides, retainedUntil, workingTimePack } from "@/domain/working-time/packs";

const pack = (id: Parameters<typeof workingTimePack>[0]) => workingTimePack(id, "2026-06-01")!;
const AGREEMENT = "figure set by the location's agreement";

describe("refusedOverrides", () => {
  it("refuses every figure a pack does not have", () => {
    // US_MINORS sets no rest, average, breaks or overtime cap.
    const overrides = {
      restBetweenShiftsHours: 10,
      dailyMaximumHours: 9,
      weeklyMaximumHours: 45,
      weeklyAverageHours: 40,
      breakTiers: [{ overHours: 6, minutes: 30 }],
      overtimeMonthHours: 40,
      overtimeYearHours: 300,
    };
    expect(refusedOverrides(pack("US_MINORS"), overrides)).toEqual([
      "restBetweenShiftsHours",
      "dailyMaximumHours",
      "weeklyMaximumHours",
      "weeklyAverageHours",
      "breakTiers",
      "overtimeMonthHours",
      "overtimeYearHours",
    ]);
  });
  it("accepts what an agreement may change: DE's average and breaks (ArbZG §7), JP's overtime caps (art. 36)", () => {
    expect(refusedOverrides(pack("DE"), { weeklyAverageHours: 50, breakTiers: [{ overHours: 6, minutes: 15 }] })).toEqual([]);
    expect(refusedOverrides(pack("JP"), { overtimeMonthHours: 40, overtimeYearHours: 300 })).toEqual([]);
  });
});

describe("applyWorkingTimeOverrides", () => {
  it("lays the location's figures over the pack, each source naming the agreement", () => {
    const de = applyWorkingTimeOverrides(pack("DE"), { weeklyAverageHours: 50, breakTiers: [{ overHours: 6, minutes: 15 }] });
    expect(de.weeklyAverage).toEqual({
      hours: 50,
      referenceWeeks: 24,
      source: `ArbZG §3 sentence 2 (${AGREEMENT})`,
      optOutAllowed: false,
      agreementMayChange: true,
    });
    expect(de.breaks).toEqual({
      tiers: [{ overHours: 6, minutes: 15 }],
      minBlockMinutes: 15,
      measure: "WORKED",
      source: `ArbZG §4 (${AGREEMENT})`,
      agreementMayChange: true,
    });
  });
  it("a rest figure names the agreement; a figure the pack lacks stays absent", () => {
    expect(applyWorkingTimeOverrides(pack("DE"), { restBetweenShiftsHours: 10 }).restBetweenShifts).toEqual({
      value: 10,
      source: `ArbZG §5(1) (${AGREEMENT})`,
      agreementMayChange: true,
    });
    expect(applyWorkingTimeOverrides(pack("US_MINORS"), { restBetweenShiftsHours: 10 }).restBetweenShifts).toBeNull();
  });
  it("keeps what is not overridden", () => {
    const de = applyWorkingTimeOverrides(pack("DE"), { restBetweenShiftsHours: 10 });
    expect(de.weeklyAverage).toEqual(pack("DE").weeklyAverage);
    expect(de.breaks).toEqual(pack("DE").breaks);
    expect(applyWorkingTimeOverrides(pack("DE"), null)).toBe(pack("DE"));
  });
  it("JP: a month's cap alone keeps the year's, and the other way round (art. 36(4): 45 h a month, 360 a year)", () => {
    expect(applyWorkingTimeOverrides(pack("JP"), { overtimeMonthHours: 40 }).overtimeCap).toMatchObject({ monthHours: 40, yearHours: 360 });
    expect(applyWorkingTimeOverrides(pack("JP"), { overtimeYearHours: 300 }).overtimeCap).toMatchObject({ monthHours: 45, yearHours: 300 });
    expect(applyWorkingTimeOverrides(pack("DE"), { overtimeYearHours: 300 }).overtimeCap).toBeNull();
  });
});

describe("retainedUntil", () => {
  it.each([
    ["ES", "2026-06-01", "2030-06-01"],
    ["DE", "2026-06-01", "2028-06-01"],
    ["ES", "2024-02-29", "2028-02-29"], // 2028 is a leap year
    ["DE", "2024-02-29", "2026-03-01"], // 2026 is not
    ["ES", "2096-02-29", "2100-03-01"], // a century is not, unless
    ["ES", "1996-02-29", "2000-02-29"], // it divides by 400
    ["UK", "2026-06-01", null],
  ] as const)("%s keeps a shift of %s until %s", (id, date, until) => {
    expect(retainedUntil(pack(id), date)).toBe(until);
  });
});
