import { describe, expect, it } from "vitest";
import { parseCsv } from "@/domain/csv";
import { type EmployeeTotals, payrollAdjustments, payrollCsv } from "@/domain/payroll";

const totals = (employeeId: string, overrides: Partial<EmployeeTotals> = {}): EmployeeTotals => ({
  employeeId,
  regularMinutes: 2400,
  overtimeMinutes: 120,
  doubleTimeMinutes: 0,
  penaltyHours: 1,
  timeOffHours: 0,
  grossPay: 880.1,
  ...overrides,
});

describe("payrollAdjustments", () => {
  it("signed differences per employee; unchanged employees left out", () => {
    const previous = [totals("emp_a"), totals("emp_b"), totals("emp_c")];
    const current = [
      totals("emp_a", { regularMinutes: 2340, grossPay: 860.1, penaltyHours: 0.3 }),
      totals("emp_b"),
      totals("emp_d", { grossPay: 0.2 }),
    ];
    expect(payrollAdjustments(previous, current)).toEqual([
      {
        employeeId: "emp_a",
        regularMinutes: -60,
        overtimeMinutes: 0,
        doubleTimeMinutes: 0,
        penaltyHours: -0.7,
        timeOffHours: 0,
        grossPay: -20,
        workweeks: [],
      },
      {
        employeeId: "emp_c",
        regularMinutes: -2400,
        overtimeMinutes: -120,
        doubleTimeMinutes: 0,
        penaltyHours: -1,
        timeOffHours: 0,
        grossPay: -880.1,
        workweeks: [],
      },
      {
        employeeId: "emp_d",
        regularMinutes: 2400,
        overtimeMinutes: 120,
        doubleTimeMinutes: 0,
        penaltyHours: 1,
        timeOffHours: 0,
        grossPay: 0.2,
        workweeks: [],
      },
    ]);
  });

  it("differences carry no float noise: 0.3 − 0.1 gross is 0.2", () => {
    expect(payrollAdjustments([totals("e", { grossPay: 0.1 })], [totals("e", { grossPay: 0.3 })])[0]!.grossPay).toBe(0.2);
  });

  it("carries each workweek's regular-rate, minutes and pay differences, even when the totals are unchanged", () => {
    const week = (regularRate: number, straightTimePay: number) => ({
      startDate: "2026-06-01",
      endDate: "2026-06-07",
      regularRate,
      minutes: 3000,
      straightTimePay,
    });
    const was = totals("e", { workweeks: [week(22, 1100)] });
    // A wage moved between two shifts of the week: the same gross, another regular rate.
    const is = totals("e", { workweeks: [week(22.5, 1125)] });
    expect(payrollAdjustments([was], [is])).toEqual([
      {
        ...totals("e", { regularMinutes: 0, overtimeMinutes: 0, penaltyHours: 0, grossPay: 0 }),
        workweeks: [{ startDate: "2026-06-01", endDate: "2026-06-07", regularRate: 0.5, minutes: 0, straightTimePay: 25 }],
      },
    ]);
    // A payroll closed before workweeks were recorded compares totals only.
    expect(payrollAdjustments([totals("e")], [is])).toEqual([]);
  });

  it("identical versions have no adjustments", () => {
    expect(payrollAdjustments([totals("a")], [totals("a")])).toEqual([]);
  });
});

describe("payrollCsv", () => {
  it("one row per employee with the contract's columns, hours as decimals, names guarded against formulas", () => {
    const csv = payrollCsv([
      {
        ...totals("emp_a", { regularMinutes: 2410, grossPay: 880 }),
        externalId: "=HYPERLINK(1)",
        externalPayrollId: null,
        name: "Ana, B",
        currencyCode: "USD",
      },
    ]);
    expect(parseCsv(csv)).toEqual([
      [
        "employeeId",
        "externalId",
        "externalPayrollId",
        "name",
        "regularHours",
        "overtimeHours",
        "doubleTimeHours",
        "penaltyHours",
        "timeOffHours",
        "grossPay",
        "currencyCode",
      ],
      ["emp_a", "'=HYPERLINK(1)", "", "Ana, B", "40.17", "2", "0", "1", "0", "880.00", "USD"],
    ]);
    expect(csv.endsWith("\r\n")).toBe(true);
  });

  it.each([
    ["BHD", 19.702, "19.702"],
    ["JPY", 15966, "15966"],
    ["USD", 19.7, "19.70"],
  ])("grossPay in %s has the currency's decimals: %s → %s", (currencyCode, grossPay, text) => {
    const csv = payrollCsv([{ ...totals("emp_a", { grossPay }), externalId: null, externalPayrollId: null, name: "A", currencyCode }]);
    expect(parseCsv(csv)[1]?.[9]).toBe(text);
  });
});

describe("payrollAdjustments: each workweek figure alone, in employee order", () => {
  const week = (over: Partial<{ regularRate: number; minutes: number; straightTimePay: number }> = {}) => ({
    startDate: "2026-06-01",
    endDate: "2026-06-07",
    regularRate: 20,
    minutes: 2400,
    straightTimePay: 800,
    ...over,
  });
  it.each([
    ["the regular rate", { regularRate: 20.25 }, { regularRate: 0.25, minutes: 0, straightTimePay: 0 }],
    ["the minutes", { minutes: 2430 }, { regularRate: 0, minutes: 30, straightTimePay: 0 }],
    ["the straight-time pay", { straightTimePay: 800.01 }, { regularRate: 0, minutes: 0, straightTimePay: 0.01 }],
  ])("%s", (_, change, difference) => {
    const [adjustment] = payrollAdjustments([totals("e", { workweeks: [week()] })], [totals("e", { workweeks: [week(change)] })]);
    expect(adjustment?.workweeks).toEqual([{ startDate: "2026-06-01", endDate: "2026-06-07", ...difference }]);
  });
  it("orders employees by id, whatever order they come in", () => {
    const adjusted = payrollAdjustments([], [totals("emp_z"), totals("emp_a"), totals("emp_m")]);
    expect(adjusted.map((a) => a.employeeId)).toEqual(["emp_a", "emp_m", "emp_z"]);
  });
});
