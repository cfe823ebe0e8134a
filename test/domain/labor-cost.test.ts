import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type LaborCostKey, laborCostAccumulator, parseGroupBy, type ShiftCharge } from "@/domain/labor-cost";
import { type ChargedLine, computeChargedPay, computePay, type PayShift } from "@/domain/pay-classification";
import { payShift, ruleSet, WEEK } from "../helpers/pay-fixtures";

const CA = ruleSet("prs_ca", "CALIFORNIA");
const FEDERAL = ruleSet("prs_fed", "FLSA");

const chargesOf = (shifts: readonly PayShift[], costCode: (s: PayShift) => string | null) =>
  new Map<string, ShiftCharge>(shifts.map((s) => [s.id, { locationId: s.locationId, roleId: "rol_1", costCodeId: costCode(s) }]));

function laborCost(shifts: PayShift[], groupBy: LaborCostKey[], charges = chargesOf(shifts, () => null), timeOff = [] as never[]) {
  const acc = laborCostAccumulator(groupBy);
  for (const e of computeChargedPay({ startDate: WEEK[0], endDate: WEEK[6], shifts, timeOff, ruleSets: [CA] })) {
    acc.add(e.pay.employeeId, e.lines, charges);
  }
  return acc.result();
}

describe("computeChargedPay (Cal. Labor Code 510(a): daily overtime is the day's minutes past 8 hours)", () => {
  it("a day switched between two shifts: the overtime is a line of the later shift, whose minutes passed 8 hours", () => {
    const first = payShift(WEEK[0], "08:00", 300, { id: "shf_a" });
    const second = payShift(WEEK[0], "13:00", 300, { id: "shf_b" });
    const [employee] = computeChargedPay({ startDate: WEEK[0], endDate: WEEK[6], shifts: [first, second], timeOff: [], ruleSets: [CA] });
    const rows = employee!.lines.map((l) => [l.chargedShiftId, l.line.kind, l.line.minutes]);
    expect(rows).toEqual([
      ["shf_a", "REGULAR", 300],
      ["shf_b", "REGULAR", 180],
      ["shf_b", "OVERTIME", 120],
      // 10 h without a meal: the day passed 5 hours during the second shift (Cal. Labor Code 512(a), 226.7(c)).
      ["shf_b", "MEAL_PENALTY", 60],
    ]);
  });

  it("weekly overtime (29 CFR 778.105) is charged to the shifts of the week's last minutes, split at the shift boundary", () => {
    const shifts = WEEK.slice(0, 5).map((date, i) => payShift(date, "08:00", 480, { id: `shf_${i}` }));
    shifts.push(payShift(WEEK[5], "08:00", 120, { id: "shf_sat_a" }), payShift(WEEK[5], "10:00", 120, { id: "shf_sat_b" }));
    const [employee] = computeChargedPay({ startDate: WEEK[0], endDate: WEEK[6], shifts, timeOff: [], ruleSets: [FEDERAL] });
    const saturday = employee!.lines.filter((l) => l.line.date === WEEK[5]).map((l) => [l.chargedShiftId, l.line.kind, l.line.rule]);
    expect(saturday).toEqual([
      ["shf_sat_a", "OVERTIME", "WEEKLY_OVERTIME"],
      ["shf_sat_b", "OVERTIME", "WEEKLY_OVERTIME"],
    ]);
  });

  it("time off is charged to no shift; without charges computePay is unchanged", () => {
    const shifts = [payShift(WEEK[0], "08:00", 600)];
    const timeOff = [{ employeeId: "emp_a", date: WEEK[1], hours: 8, hourlyWage: 20 }];
    const input = { startDate: WEEK[0], endDate: WEEK[6], shifts, timeOff, ruleSets: [CA] };
    const [employee] = computeChargedPay(input);
    expect(employee!.lines.find((l) => l.line.kind === "TIME_OFF")!.chargedShiftId).toBeNull();
    expect(computePay(input).employees).toEqual([employee!.pay]);
  });
});

describe("parseGroupBy", () => {
  it.each([
    [undefined, { keys: [] }],
    ["", { keys: [] }],
    ["date", { keys: ["date"] }],
    ["costCode, employee,costCode", { keys: ["costCode", "employee"] }],
    ["location,role,costCode,employee,date", { keys: ["location", "role", "costCode", "employee", "date"] }],
    ["date,shift", { invalid: "shift" }],
    ["Date", { invalid: "Date" }],
  ])("%j → %j", (text, expected) => {
    expect(parseGroupBy(text)).toEqual(expected);
  });
});

describe("laborCostAccumulator", () => {
  const first = payShift(WEEK[0], "08:00", 300, { id: "shf_a", locationId: "loc_1" });
  const second = payShift(WEEK[0], "13:00", 300, { id: "shf_b", locationId: "loc_2" });
  const codes = chargesOf([first, second], (s) => (s.id === "shf_a" ? "cc_a" : "cc_b"));

  it("groups by cost code: the overtime and the meal penalty go to the code of the minutes that passed the thresholds", () => {
    const { rows, totals } = laborCost([first, second], ["costCode"], codes);
    expect(rows).toEqual([
      {
        costCodeId: "cc_a",
        regularMinutes: 300,
        overtimeMinutes: 0,
        doubleTimeMinutes: 0,
        penaltyHours: 0,
        timeOffHours: 0,
        premiumAmount: 0,
        laborCost: 100,
      },
      // 180 min × 20 = 60, 120 min × 30 = 60, 1 h penalty at the regular rate 20.
      {
        costCodeId: "cc_b",
        regularMinutes: 180,
        overtimeMinutes: 120,
        doubleTimeMinutes: 0,
        penaltyHours: 1,
        timeOffHours: 0,
        premiumAmount: 20,
        laborCost: 140,
      },
    ]);
    expect(totals).toMatchObject({ regularMinutes: 480, overtimeMinutes: 120, premiumAmount: 20, laborCost: 240 });
  });

  it("groups by location, role, date and employee; no key is one row, even without lines", () => {
    expect(laborCost([first, second], ["location"], codes).rows.map((r) => [r.locationId, r.laborCost])).toEqual([
      ["loc_1", 100],
      ["loc_2", 140],
    ]);
    expect(laborCost([first, second], ["role", "date", "employee"], codes).rows).toEqual([
      expect.objectContaining({ roleId: "rol_1", date: WEEK[0], employeeId: "emp_a", laborCost: 240 }),
    ]);
    expect(laborCost([first, second], [], codes).rows).toEqual([expect.objectContaining({ laborCost: 240, regularMinutes: 480 })]);
    expect(laborCost([], []).rows).toEqual([
      { regularMinutes: 0, overtimeMinutes: 0, doubleTimeMinutes: 0, penaltyHours: 0, timeOffHours: 0, premiumAmount: 0, laborCost: 0 },
    ]);
  });

  it("a line of a kind it does not know (a scheduling premium) is a premium; time off has null keys, sorted last", () => {
    const acc = laborCostAccumulator(["costCode"]);
    const line = (kind: string, cents: number, chargedShiftId: string | null): ChargedLine => ({
      line: {
        date: WEEK[0],
        shiftId: null,
        kind: kind as never,
        minutes: 60,
        hours: 1,
        rate: 10,
        amount: cents / 100,
        rule: null,
        ruleSetId: null,
      },
      cents,
      chargedShiftId,
    });
    acc.add("emp_a", [line("TIME_OFF", 1000, null), line("PREDICTABILITY", 1234, "shf_a"), line("REGULAR", 1000, "shf_a")], codes);
    const { rows, totals } = acc.result();
    expect(rows).toEqual([
      expect.objectContaining({ costCodeId: "cc_a", premiumAmount: 12.34, penaltyHours: 1, laborCost: 22.34 }),
      expect.objectContaining({ costCodeId: null, premiumAmount: 0, timeOffHours: 1, laborCost: 10 }),
    ]);
    expect(totals.laborCost).toBe(32.34);
  });

  it("Σ rows' laborCost = totals = computePay's grossPay to the cent, whatever the keys (random shifts and wages)", () => {
    const shiftArb = fc.record({
      employeeId: fc.constantFrom("emp_a", "emp_b", "emp_c"),
      day: fc.integer({ min: 0, max: 6 }),
      start: fc.integer({ min: 0, max: 1200 }),
      minutes: fc.integer({ min: 1, max: 840 }),
      wage: fc.integer({ min: 725, max: 6000 }).map((c) => c / 100),
      code: fc.constantFrom("cc_a", "cc_b", null),
    });
    const keysArb = fc.subarray([...(["date", "location", "role", "costCode", "employee"] as const)]);
    fc.assert(
      fc.property(fc.array(shiftArb, { maxLength: 25 }), keysArb, (specs, keys) => {
        const shifts = specs.map((s, i) => {
          const hh = String(Math.floor(s.start / 60)).padStart(2, "0");
          const mm = String(s.start % 60).padStart(2, "0");
          return payShift(WEEK[s.day]!, `${hh}:${mm}`, s.minutes, { id: `shf_${i}`, employeeId: s.employeeId, hourlyWage: s.wage });
        });
        const charges = chargesOf(shifts, (s) => specs[Number(s.id.slice(4))]!.code);
        const { rows, totals } = laborCost(shifts, keys, charges);
        const pay = computePay({ startDate: WEEK[0], endDate: WEEK[6], shifts, timeOff: [], ruleSets: [CA] });
        const cents = rows.reduce((sum, r) => sum + Math.round(r.laborCost * 100), 0);
        expect(cents).toBe(Math.round(pay.totals.grossPay * 100));
        expect(totals.laborCost).toBe(pay.totals.grossPay);
        expect(totals.overtimeMinutes).toBe(pay.totals.overtimeMinutes);
        expect(totals.penaltyHours).toBe(pay.totals.penaltyHours);
      }),
      { numRuns: 200 },
    );
  });
});
