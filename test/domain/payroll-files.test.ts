import { describe, expect, it } from "vitest";
import { parseCsv } from "@/domain/csv";
import { buildFile, type FileEmployee, missingMappings } from "@/domain/payroll-files";
import { DEFAULT_EARNING_CODES, EARNING_KEY, earningCodeOf, earningKeysOf } from "@/domain/payroll-providers";

/* Issue 46: earning codes and the provider files' rows, from hand-written snapshot lines. */

const line = (kind: string, minutes: number, rate: number | null, amount: number, extra: Record<string, unknown> = {}) => ({
  date: "2026-06-01",
  shiftId: kind === "TIME_OFF" || kind === "REST" ? null : "shf_1",
  kind,
  rule: null,
  minutes,
  rate,
  amount,
  ...extra,
});

const employee = (lines: FileEmployee["lines"]): FileEmployee => ({
  employeeId: "emp_a",
  name: "Ada",
  grossPay: 0,
  lines,
  workweeks: [{ startDate: "2026-06-01", endDate: "2026-06-07" }],
});

const payroll = (lines: FileEmployee["lines"]) => ({
  periodId: "2026-06-01",
  startDate: "2026-06-01",
  endDate: "2026-06-07",
  employees: [employee(lines)],
});

describe("earning codes", () => {
  it("looks a line up by kind and rule, time off by policy type, then by kind", () => {
    expect(earningKeysOf({ kind: "OVERTIME", rule: "DAILY_OVERTIME" })).toEqual(["OVERTIME:DAILY_OVERTIME", "OVERTIME"]);
    expect(earningKeysOf({ kind: "TIME_OFF", rule: null, policyType: "Sick" })).toEqual(["TIME_OFF:Sick", "TIME_OFF"]);
    const codes = { OVERTIME: "OT", "OVERTIME:DAILY_OVERTIME": "DOT", TIME_OFF: "PTO" };
    expect(earningCodeOf(codes, { kind: "OVERTIME", rule: "DAILY_OVERTIME" })).toBe("DOT");
    expect(earningCodeOf(codes, { kind: "OVERTIME", rule: "WEEKLY_OVERTIME" })).toBe("OT");
    expect(earningCodeOf(codes, { kind: "TIME_OFF", rule: null, policyType: "Sick" })).toBe("PTO");
    expect(earningCodeOf(codes, { kind: "MEAL_PENALTY", rule: "MEAL_BREAK" })).toBeNull();
  });

  it("maps the kinds of pay beyond hours worked (issue 48): SPLIT_SHIFT, REPORTING_TIME, CALL_IN, SPREAD_OF_HOURS", () => {
    for (const key of ["SPLIT_SHIFT", "SPLIT_SHIFT:CALIFORNIA.SPLIT_SHIFT", "REPORTING_TIME", "CALL_IN:US_NY.CALL_IN", "SPREAD_OF_HOURS"]) {
      expect(EARNING_KEY.test(key)).toBe(true);
    }
    expect(EARNING_KEY.test("SPLIT_SHIFTS")).toBe(false);
    expect(earningCodeOf({ SPLIT_SHIFT: "SPLIT" }, { kind: "SPLIT_SHIFT", rule: "CALIFORNIA.SPLIT_SHIFT" })).toBe("SPLIT");
  });

  it("names what is missing: the kind (time off by its policy type), never a guess", () => {
    const lines = [line("REGULAR", 60, 20, 20), line("MEAL_PENALTY", 60, 20, 20), line("TIME_OFF", 480, 20, 160, { policyType: "Sick" })];
    const missing = missingMappings(payroll(lines), "GUSTO", new Map(), {
      companyCode: null,
      batchId: null,
      earningCodes: DEFAULT_EARNING_CODES.GUSTO,
    });
    expect(missing).toEqual({ payrollIds: ["emp_a"], earningCodes: ["MEAL_PENALTY", "TIME_OFF:Sick"] });
  });
});

describe("files", () => {
  const ids = new Map([["emp_a", { ADP_WFN: "000123", PAYCHEX: "W1" }]]);

  it("adp-wfn: other hours in Hours 3, a flat premium in Earnings 3 with no Temp Rate", () => {
    const lines = [line("DOUBLE_TIME", 90, 42, 63), line("REST", 0, null, 75.5)];
    const settings = { companyCode: "XYZ", batchId: "B1", earningCodes: { DOUBLE_TIME: "D", REST: "RP" } };
    const [, ...rows] = parseCsv(buildFile("ADP_WFN", payroll(lines), ids, settings));
    expect(rows).toEqual([
      // 90 minutes = 1.5 h of double time at 42.
      ["XYZ", "B1", "000123", "", "", "D", "1.5", "", "", "42", "2026-06-01"],
      ["XYZ", "B1", "000123", "", "", "", "", "RP", "75.50", "", "2026-06-01"],
    ]);
  });

  it("paychex: lines of one date, component and rate are one pay component, summed in cents", () => {
    // 20 min at 20 = 6.67 twice: 13.34 (the lines' cents), though 40 min × 20 would round to 13.33.
    const lines = [line("REGULAR", 20, 20, 6.67), line("REGULAR", 20, 20, 6.67)];
    const checks = JSON.parse(
      buildFile("PAYCHEX", payroll(lines), ids, { companyCode: null, batchId: null, earningCodes: { REGULAR: "Hourly" } }),
    ).checks;
    expect(checks).toEqual([
      {
        workerId: "W1",
        earnings: [{ componentId: "Hourly", hours: 0.6667, payRate: 20, amount: "13.34", lineDate: "2026-06-01", jobId: null }],
      },
    ]);
  });
});
