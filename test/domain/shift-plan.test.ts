import { describe, expect, it } from "vitest";
import { planShift } from "@/domain/shift-plan";
import type { ShiftBreak } from "@/domain/shift-totals";

const t = (iso: string) => new Date(iso);
const lunch = (start: string, end: string | null, extra: Partial<ShiftBreak> = {}): ShiftBreak => ({
  startTime: t(start),
  endTime: end ? t(end) : null,
  paid: false,
  typeId: null,
  name: "Lunch",
  mandatory: false,
  frequencyMinutes: 0,
  durationInSettingsMinutes: 0,
  ...extra,
});

describe("planShift", () => {
  it("totals a closed shift with closeShift and dates it by the local start", () => {
    const plan = planShift({
      start: t("2026-11-01T02:00:00Z"),
      end: t("2026-11-01T11:00:00Z"),
      utcOffset: -240,
      breaks: [lunch("2026-11-01T06:00:00Z", "2026-11-01T06:30:00Z")],
    });
    expect(plan).toMatchObject({
      ok: true,
      businessDate: "2026-10-31",
      totals: { duration: 540, totalUnpaidBreaks: 30, totalPaidBreaks: 0, payableDuration: 510 },
    });
  });

  it("adds no break that was not taken, and drops an automatic deduction recorded before (issue 44)", () => {
    const legacy = { ...lunch("2026-03-14T18:00:00Z", "2026-03-14T18:30:00Z"), automatic: true };
    const plan = planShift({ start: t("2026-03-14T13:00:00Z"), end: t("2026-03-14T21:00:00Z"), utcOffset: 0, breaks: [legacy] });
    expect(plan.ok && plan.breaks).toEqual([]);
    // 13:00–21:00 with no break taken: all 480 minutes are payable.
    expect(plan.ok && plan.totals.payableDuration).toBe(480);
  });

  it("refuses an end not after the start and a shift over 24 hours, naming endTime", () => {
    const base = { utcOffset: 0, breaks: [] };
    expect(planShift({ ...base, start: t("2026-03-14T13:00:00Z"), end: t("2026-03-14T12:00:00Z") })).toEqual({
      ok: false,
      errors: [{ path: "endTime", message: "must be after startTime" }],
    });
    const long = planShift({ ...base, start: t("2026-03-14T13:00:00Z"), end: t("2026-03-15T13:01:00Z") });
    expect(!long.ok && long.errors[0]!.path).toBe("endTime");
  });

  it("refuses breaks outside the shift, ending before they start, or overlapping each other", () => {
    const base = { start: t("2026-03-14T13:00:00Z"), end: t("2026-03-14T21:00:00Z"), utcOffset: 0 };
    const outside = planShift({ ...base, breaks: [lunch("2026-03-14T20:45:00Z", "2026-03-14T21:15:00Z")] });
    expect(!outside.ok && outside.errors).toEqual([{ path: "breaks.0.startTime", message: "the break must lie within the shift" }]);
    const backwards = planShift({ ...base, breaks: [lunch("2026-03-14T16:00:00Z", "2026-03-14T15:00:00Z")] });
    expect(!backwards.ok && backwards.errors[0]!.path).toBe("breaks.0.endTime");
    const overlapping = planShift({
      ...base,
      breaks: [lunch("2026-03-14T15:00:00Z", "2026-03-14T15:30:00Z"), lunch("2026-03-14T15:15:00Z", "2026-03-14T15:45:00Z")],
    });
    expect(!overlapping.ok && overlapping.errors).toEqual([{ path: "breaks.1.startTime", message: "overlaps another break" }]);
  });

  it("keeps an open shift open with its breaks and zero totals; closing it ends the open break", () => {
    const open = planShift({
      start: t("2026-03-14T13:00:00Z"),
      end: null,
      utcOffset: 0,
      breaks: [lunch("2026-03-14T15:00:00Z", null)],
    });
    expect(open).toMatchObject({ ok: true, totals: { duration: 0, payableDuration: 0 } });
    const closed = planShift({
      start: t("2026-03-14T13:00:00Z"),
      end: t("2026-03-14T15:30:00Z"),
      utcOffset: 0,
      breaks: [lunch("2026-03-14T15:00:00Z", null)],
    });
    expect(closed.ok && closed.breaks[0]!.endTime?.toISOString()).toBe("2026-03-14T15:30:00.000Z");
    expect(closed.ok && closed.totals.totalUnpaidBreaks).toBe(30);
  });
});
