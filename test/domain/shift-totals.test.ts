import { describe, expect, it } from "vitest";
import {
  type BreakRule,
  breakSettingsOf,
  closeBreaks,
  closeShift,
  mandatoryBreaksNotTaken,
  minutesWorkedOnBusinessDay,
  type ShiftBreak,
  shiftTotals,
} from "@/domain/shift-totals";

const MINUTE = 60_000;
const start = new Date("2026-06-01T09:00:00.000Z");
const minutesIn = (minutes: number) => new Date(start.getTime() + minutes * MINUTE);

const aBreak = (from: number, to: number | null, overrides: Partial<ShiftBreak> = {}): ShiftBreak => ({
  startTime: minutesIn(from),
  endTime: to === null ? null : minutesIn(to),
  paid: false,
  typeId: "brk_lunch",
  name: "Lunch",
  mandatory: false,
  frequencyMinutes: 0,
  durationInSettingsMinutes: 30,
  ...overrides,
});

const meal: BreakRule = { id: "brk_meal", name: "Meal", mandatory: true, frequencyMinutes: 360, durationMinutes: 30 };

describe("shiftTotals", () => {
  it("counts whole minutes, paid and unpaid breaks apart", () => {
    const breaks = [aBreak(120, 135, { paid: true }), aBreak(240, 270)];
    expect(shiftTotals({ start, end: minutesIn(480), breaks })).toEqual({
      duration: 480,
      totalPaidBreaks: 15,
      totalUnpaidBreaks: 30,
      payableDuration: 450,
    });
  });

  it("floors elapsed time to whole minutes", () => {
    const end = new Date(minutesIn(480).getTime() + 59_999);
    expect(shiftTotals({ start, end, breaks: [] }).duration).toBe(480);
  });

  it("counts real elapsed time across the New York fall-back night: 22:00-06:00 is 540 minutes", () => {
    const nightStart = new Date("2026-11-01T02:00:00Z"); // 22:00 EDT, Oct 31
    const nightEnd = new Date("2026-11-01T11:00:00Z"); // 06:00 EST, Nov 1
    expect(shiftTotals({ start: nightStart, end: nightEnd, breaks: [] }).duration).toBe(540);
  });

  it("reads an open shift as 0 long, or up to now when asked, with its open break", () => {
    const breaks = [aBreak(60, null)];
    expect(shiftTotals({ start, end: null, breaks })).toEqual({
      duration: 0,
      totalPaidBreaks: 0,
      totalUnpaidBreaks: 0,
      payableDuration: 0,
    });
    expect(shiftTotals({ start, end: null, breaks, now: minutesIn(100) })).toMatchObject({
      duration: 100,
      totalUnpaidBreaks: 40,
      payableDuration: 60,
    });
  });

  it("counts only the part of a break inside the shift", () => {
    expect(shiftTotals({ start, end: minutesIn(60), breaks: [aBreak(-10, 70)] }).totalUnpaidBreaks).toBe(60);
  });

  it("never lets payableDuration go negative", () => {
    const automatic = aBreak(0, 30, { automatic: true, durationInSettingsMinutes: 30 });
    expect(shiftTotals({ start, end: minutesIn(20), breaks: [automatic] })).toEqual({
      duration: 20,
      totalPaidBreaks: 0,
      totalUnpaidBreaks: 30,
      payableDuration: 0,
    });
  });
});

describe("closeBreaks", () => {
  it("ends an open break at the clock-out instant and leaves closed ones", () => {
    const closed = aBreak(10, 20);
    expect(closeBreaks([closed, aBreak(60, null)], minutesIn(90))).toEqual([closed, aBreak(60, 90)]);
  });
});

describe("mandatoryBreaksNotTaken", () => {
  it("names a mandatory type not taken in a shift longer than its frequency, and adds no break for it", () => {
    expect(mandatoryBreaksNotTaken({ start, end: minutesIn(480), breaks: [], breakTypes: [meal] })).toEqual([meal]);
  });

  it("at the edge: a shift of exactly frequencyMinutes owes nothing, one minute more owes the type", () => {
    expect(mandatoryBreaksNotTaken({ start, end: minutesIn(360), breaks: [], breakTypes: [meal] })).toEqual([]);
    expect(mandatoryBreaksNotTaken({ start, end: minutesIn(361), breaks: [], breakTypes: [meal] })).toEqual([meal]);
  });

  it("names nothing when the type was taken, or is optional or disabled; an automatic row is no break taken", () => {
    const taken = [aBreak(200, 210, { typeId: "brk_meal" })];
    expect(mandatoryBreaksNotTaken({ start, end: minutesIn(480), breaks: taken, breakTypes: [meal] })).toEqual([]);
    const others = [
      { ...meal, mandatory: false },
      { ...meal, enabled: false },
    ];
    expect(mandatoryBreaksNotTaken({ start, end: minutesIn(480), breaks: [], breakTypes: others })).toEqual([]);
    const legacy = [aBreak(360, 390, { typeId: "brk_meal", automatic: true })];
    expect(mandatoryBreaksNotTaken({ start, end: minutesIn(480), breaks: legacy, breakTypes: [meal] })).toEqual([meal]);
  });

  it("earliest due first", () => {
    const rest: BreakRule = { ...meal, id: "brk_rest", frequencyMinutes: 120 };
    expect(mandatoryBreaksNotTaken({ start, end: minutesIn(480), breaks: [], breakTypes: [meal, rest] }).map((t) => t.id)).toEqual([
      "brk_rest",
      "brk_meal",
    ]);
  });
});

describe("closeShift", () => {
  it("closes the open break and totals; a break not taken is never deducted (issue 44)", () => {
    const result = closeShift({ start, end: minutesIn(480), breaks: [aBreak(450, null, { paid: true })] });
    expect(result.breaks.map((b) => [b.typeId, b.automatic ?? false])).toEqual([["brk_lunch", false]]);
    // 480 minutes, the paid break counts as work: all 480 payable.
    expect(result.totals).toEqual({ duration: 480, totalPaidBreaks: 30, totalUnpaidBreaks: 0, payableDuration: 480 });
  });

  it("drops an automatic deduction recorded before, so re-closing an edited shift pays every minute", () => {
    const legacy = aBreak(360, 390, { typeId: "brk_meal", automatic: true });
    const closed = closeShift({ start, end: minutesIn(480), breaks: [legacy] });
    expect(closed.breaks).toEqual([]);
    expect(closed.totals.payableDuration).toBe(480);
    expect(closeShift({ start, end: minutesIn(480), breaks: closed.breaks })).toEqual(closed);
  });
});

describe("minutesWorkedOnBusinessDay", () => {
  const offset = -240;
  const now = new Date("2026-06-01T20:00:00Z"); // 16:00 EDT

  it("sums payable minutes of the shifts that started that local day, the open one up to now", () => {
    const shifts = [
      { start: new Date("2026-06-01T12:00:00Z"), end: new Date("2026-06-01T14:00:00Z"), utcOffset: offset, breaks: [] },
      {
        start: new Date("2026-06-01T18:00:00Z"),
        end: null,
        utcOffset: offset,
        breaks: [{ ...aBreak(0, 10), startTime: new Date("2026-06-01T19:00:00Z"), endTime: new Date("2026-06-01T19:10:00Z") }],
      },
    ];
    expect(minutesWorkedOnBusinessDay({ date: "2026-06-01", shifts, now })).toBe(120 + 110);
  });

  it("leaves out a shift that started the local day before", () => {
    // 02:00Z on June 1 is 22:00 EDT on May 31.
    const overnight = { start: new Date("2026-06-01T02:00:00Z"), end: new Date("2026-06-01T10:00:00Z"), utcOffset: offset, breaks: [] };
    expect(minutesWorkedOnBusinessDay({ date: "2026-06-01", shifts: [overnight], now })).toBe(0);
    expect(minutesWorkedOnBusinessDay({ date: "2026-05-31", shifts: [overnight], now })).toBe(480);
  });
});

describe("breakSettingsOf", () => {
  it("copies a break type's settings under the break's field names", () => {
    const type = { id: "t1", name: "Lunch", paid: true, mandatory: true, enabled: true, frequencyMinutes: 360, durationMinutes: 30 };
    expect(breakSettingsOf(type)).toEqual({
      typeId: "t1",
      name: "Lunch",
      paid: true,
      mandatory: true,
      frequencyMinutes: 360,
      durationInSettingsMinutes: 30,
    });
  });
});
