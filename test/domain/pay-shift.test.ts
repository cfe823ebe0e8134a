import { describe, expect, it } from "vitest";
import { computePay } from "@/domain/pay-classification";
import { payShiftFromStored } from "@/domain/pay-shift";
import { ruleSet } from "../helpers/pay-fixtures";

describe("payShiftFromStored", () => {
  it("moves the shift and its breaks to the local wall clock of its start", () => {
    const shift = payShiftFromStored({
      id: "shf_1",
      employeeId: "emp_a",
      locationId: "loc_1",
      businessDate: "2026-06-01",
      startAt: new Date("2026-06-01T13:07:00Z"),
      endAt: new Date("2026-06-01T21:08:00Z"),
      utcOffset: -240,
      hourlyWage: 20,
      breaks: [
        {
          startAt: Date.parse("2026-06-01T16:00:00Z"),
          endAt: Date.parse("2026-06-01T16:30:00Z"),
          paid: false,
          automatic: false,
          durationInSettingsMinutes: 30,
        },
      ],
    });
    expect(shift.startTime.toISOString()).toBe("2026-06-01T09:07:00.000Z");
    expect(shift.endTime?.toISOString()).toBe("2026-06-01T17:08:00.000Z");
    expect(shift.breaks[0]!.startTime.toISOString()).toBe("2026-06-01T12:00:00.000Z");
    // Rounded to the quarter hour on the local clock: 09:00 → 17:15 less 30 minutes.
    const rules = ruleSet("prs", "NONE", { rounding: { incrementMinutes: 15, mode: "NEAREST" } });
    expect(
      computePay({ startDate: "2026-06-01", endDate: "2026-06-01", shifts: [shift], timeOff: [], ruleSets: [rules] }).totals.regularMinutes,
    ).toBe(465);
  });

  it("a shift across the autumn DST change keeps its real length (the end read with the start's offset)", () => {
    const shift = payShiftFromStored({
      id: "shf_2",
      employeeId: "emp_a",
      locationId: "loc_1",
      businessDate: "2026-10-31",
      startAt: new Date("2026-11-01T03:00:00Z"), // 23:00 EDT
      endAt: new Date("2026-11-01T12:00:00Z"), // 07:00 EST: 9 real hours
      utcOffset: -240,
      hourlyWage: 20,
      breaks: [],
    });
    const pay = computePay({ startDate: "2026-10-31", endDate: "2026-11-01", shifts: [shift], timeOff: [], ruleSets: [] });
    expect(pay.totals.regularMinutes).toBe(540);
    expect(pay.employees[0]!.lines[0]!.date).toBe("2026-10-31");
  });
});
