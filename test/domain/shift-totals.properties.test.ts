import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type BreakRule, closeShift, mandatoryBreaksNotTaken, type ShiftBreak, shiftTotals } from "@/domain/shift-totals";

const MINUTE_MS = 60_000;
const START = Date.UTC(2026, 2, 14, 8, 0, 0);

/** A shift of up to 16 h (to the millisecond) with up to 4 breaks that may start before it, end after it or stay open. */
const shiftArb = fc
  .record({
    lengthMs: fc.integer({ min: 0, max: 16 * 60 * MINUTE_MS }),
    open: fc.boolean(),
    breaks: fc.array(
      fc.record({
        fromMs: fc.integer({ min: -30 * MINUTE_MS, max: 17 * 60 * MINUTE_MS }),
        lengthMs: fc.integer({ min: 0, max: 90 * MINUTE_MS }),
        open: fc.boolean(),
        paid: fc.boolean(),
      }),
      { maxLength: 4 },
    ),
  })
  .map((spec) => ({
    start: new Date(START),
    end: spec.open ? null : new Date(START + spec.lengthMs),
    now: new Date(START + spec.lengthMs),
    breaks: spec.breaks.map(
      (b, i): ShiftBreak => ({
        id: `brk_${i}`,
        startTime: new Date(START + b.fromMs),
        endTime: b.open ? null : new Date(START + b.fromMs + b.lengthMs),
        paid: b.paid,
        typeId: null,
        name: "Break",
        mandatory: false,
        frequencyMinutes: 0,
        durationInSettingsMinutes: 0,
      }),
    ),
  }));

/** The minutes of a break inside the shift, computed straight from the rule: floor of the overlap, in whole minutes. */
const insideMinutes = (b: ShiftBreak, startMs: number, endMs: number) =>
  Math.max(0, Math.floor((Math.min(b.endTime?.getTime() ?? endMs, endMs) - Math.max(b.startTime.getTime(), startMs)) / MINUTE_MS));

describe("shift totals (properties)", () => {
  it("duration is whole elapsed minutes; breaks count their minutes inside the shift; payable = duration − unpaid (never < 0)", () => {
    fc.assert(
      fc.property(shiftArb, (shift) => {
        const totals = shiftTotals(shift);
        const endMs = (shift.end ?? shift.now).getTime();
        const duration = Math.floor((endMs - START) / MINUTE_MS);
        const paid = shift.breaks.filter((b) => b.paid).reduce((sum, b) => sum + insideMinutes(b, START, endMs), 0);
        const unpaid = shift.breaks.filter((b) => !b.paid).reduce((sum, b) => sum + insideMinutes(b, START, endMs), 0);
        expect(totals).toEqual({
          duration,
          totalPaidBreaks: paid,
          totalUnpaidBreaks: unpaid,
          payableDuration: Math.max(0, duration - unpaid),
        });
      }),
      { numRuns: 200 },
    );
  });

  it("an open shift without `now` is 0 minutes long, and paid breaks never change payable time", () => {
    fc.assert(
      fc.property(shiftArb, (shift) => {
        if (shift.end === null) expect(shiftTotals({ ...shift, now: undefined }).duration).toBe(0);
        const unpaidOnly = shiftTotals({ ...shift, breaks: shift.breaks.filter((b) => !b.paid) });
        expect(shiftTotals(shift).payableDuration).toBe(unpaidOnly.payableDuration);
      }),
      { numRuns: 200 },
    );
  });

  it("closeShift: a break not taken is never deducted, the types due are named, and closing again changes nothing", () => {
    const rules = fc.array(
      fc.record({
        mandatory: fc.boolean(),
        frequencyMinutes: fc.integer({ min: 0, max: 600 }),
        durationMinutes: fc.integer({ min: 1, max: 60 }),
      }),
      { maxLength: 3 },
    );
    fc.assert(
      fc.property(shiftArb, rules, (shift, specs) => {
        const end = shift.end ?? shift.now;
        const breakTypes: BreakRule[] = specs.map((s, i) => ({ id: `bt_${i}`, name: `Type ${i}`, enabled: true, ...s }));
        const taken = shift.breaks.map((b, i) => ({ ...b, typeId: i % 2 === 0 ? "bt_0" : null }));
        const closed = closeShift({ start: shift.start, end, breaks: taken });
        const minutes = Math.floor((end.getTime() - START) / MINUTE_MS);
        const due = breakTypes.filter((t) => t.mandatory && minutes > t.frequencyMinutes && !taken.some((b) => b.typeId === t.id));
        const notTaken = mandatoryBreaksNotTaken({ start: shift.start, end, breaks: taken, breakTypes });
        expect(notTaken.map((t) => t.id).sort()).toEqual(due.map((t) => t.id).sort());
        expect(closed.breaks.some((b) => b.automatic)).toBe(false);
        const realUnpaid = taken.filter((b) => !b.paid).reduce((sum, b) => sum + insideMinutes(b, START, end.getTime()), 0);
        expect(closed.totals.totalUnpaidBreaks).toBe(realUnpaid);
        expect(closed.totals.payableDuration).toBe(Math.max(0, minutes - realUnpaid));
        expect(closed.breaks.every((b) => b.endTime !== null)).toBe(true);
        expect(closeShift({ start: shift.start, end, breaks: closed.breaks })).toEqual(closed);
      }),
      { numRuns: 200 },
    );
  });
});
