import { describe, expect, it } from "vitest";
import { parseCsv } from "@/domain/csv";
import { buildFile, type FileEmployee, missingMappings, PROVIDER_FILES } from "@/domain/payroll-files";
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

describe("files of several staff members", () => {
  const at = (date: string, shiftId: string | null, kind: string, minutes: number, rate: number | null, amount: number, extra = {}) => ({
    date,
    shiftId,
    kind,
    rule: null,
    minutes,
    rate,
    amount,
    ...extra,
  });
  const weeks = [
    { startDate: "2026-06-01", endDate: "2026-06-07" },
    { startDate: "2026-06-08", endDate: "2026-06-14" },
  ];
  const ada: FileEmployee = {
    employeeId: "emp_a",
    name: "Ada",
    grossPay: 0,
    workweeks: weeks,
    lines: [
      at("2026-06-01", "shf_1", "REGULAR", 480, 20, 160),
      at("2026-06-02", "shf_2", "REGULAR", 240, 20, 80),
      at("2026-06-02", "shf_2", "OVERTIME", 60, 30, 30),
      at("2026-06-08", "shf_3", "REGULAR", 480, 20, 160),
      at("2026-06-03", null, "TIME_OFF", 480, 20, 160, { policyType: "Vacation" }),
      at("2026-06-01", null, "REST", 0, null, 10),
      // A premium paid at a rate for no minutes is flat: an amount, no hours.
      at("2026-06-01", "shf_1", "MEAL_PENALTY", 0, 20, 20),
    ],
  };
  const bob: FileEmployee = {
    employeeId: "emp_b",
    name: "Bob",
    grossPay: 0,
    workweeks: weeks,
    lines: [
      at("2026-06-01", "shf_9", "REGULAR", 60, 15, 15),
      at("2026-06-01", null, "REST", 0, null, 10),
      at("2026-06-02", null, "REST", 0, null, 12.5),
      // A date outside the snapshot's workweeks names none.
      at("2026-06-15", "shf_10", "REGULAR", 60, 15, 15),
    ],
  };
  const payroll = { periodId: "2026-06-01", startDate: "2026-06-01", endDate: "2026-06-14", employees: [ada, bob] };
  const earningCodes = { REGULAR: "REG", OVERTIME: "OT", TIME_OFF: "PTO", REST: "RP", MEAL_PENALTY: "MP" };
  const settings = { companyCode: null, batchId: null, earningCodes };
  const ids = new Map([
    ["emp_a", { GUSTO: "g-a", CHECK: "chk_a", PAYCHEX: "W1" }],
    ["emp_b", { GUSTO: "g-b", CHECK: "chk_b", PAYCHEX: "W2" }],
  ]);

  it("gusto: a time sheet per shift, hours by classification; other earnings per date at the end", () => {
    expect(JSON.parse(buildFile("GUSTO", payroll, ids, settings))).toEqual({
      pay_period: { start_date: "2026-06-01", end_date: "2026-06-14" },
      time_sheets: [
        {
          entity_type: "Employee",
          entity_uuid: "g-a",
          external_id: "shf_1",
          shift_date: "2026-06-01",
          // The meal penalty charged to the shift is no hour worked: an other earning.
          entries: [{ pay_classification: "REG", hours_worked: 8, amount: "160.00" }],
        },
        {
          entity_type: "Employee",
          entity_uuid: "g-a",
          external_id: "shf_2",
          shift_date: "2026-06-02",
          entries: [
            { pay_classification: "REG", hours_worked: 4, amount: "80.00" },
            { pay_classification: "OT", hours_worked: 1, amount: "30.00" },
          ],
        },
        {
          entity_type: "Employee",
          entity_uuid: "g-a",
          external_id: "shf_3",
          shift_date: "2026-06-08",
          entries: [{ pay_classification: "REG", hours_worked: 8, amount: "160.00" }],
        },
        {
          entity_type: "Employee",
          entity_uuid: "g-b",
          external_id: "shf_9",
          shift_date: "2026-06-01",
          entries: [{ pay_classification: "REG", hours_worked: 1, amount: "15.00" }],
        },
        {
          entity_type: "Employee",
          entity_uuid: "g-b",
          external_id: "shf_10",
          shift_date: "2026-06-15",
          entries: [{ pay_classification: "REG", hours_worked: 1, amount: "15.00" }],
        },
      ],
      other_earnings: [
        { employee_uuid: "g-a", date: "2026-06-03", earning_type: "PTO", hours: 8, amount: "160.00" },
        { employee_uuid: "g-a", date: "2026-06-01", earning_type: "RP", hours: 0, amount: "10.00" },
        { employee_uuid: "g-a", date: "2026-06-01", earning_type: "MP", hours: 0, amount: "20.00" },
        { employee_uuid: "g-b", date: "2026-06-01", earning_type: "RP", hours: 0, amount: "10.00" },
        { employee_uuid: "g-b", date: "2026-06-02", earning_type: "RP", hours: 0, amount: "12.50" },
      ],
    });
  });

  it("gusto: without other earnings, an empty list", () => {
    const only = { ...payroll, employees: [{ ...bob, lines: [bob.lines[0]!] }] };
    expect(buildFile("GUSTO", only, ids, settings)).toBe(
      '{"pay_period":{"start_date":"2026-06-01","end_date":"2026-06-14"},"time_sheets":[' +
        '{"entity_type":"Employee","entity_uuid":"g-b","external_id":"shf_9","shift_date":"2026-06-01",' +
        '"entries":[{"pay_classification":"REG","hours_worked":1,"amount":"15.00"}]}],"other_earnings":[]}',
    );
  });

  it("check: an item per staff member, earnings per workweek, code and rate; flat ones without hours", () => {
    expect(JSON.parse(buildFile("CHECK", payroll, ids, settings))).toEqual({
      period_start: "2026-06-01",
      period_end: "2026-06-14",
      payroll_items: [
        {
          employee: "chk_a",
          earnings: [
            { type: "REG", amount: "240.00", hours: 12, description: "REGULAR at 20", metadata: { workweek: "2026-06-01" } },
            { type: "OT", amount: "30.00", hours: 1, description: "OVERTIME at 30", metadata: { workweek: "2026-06-01" } },
            { type: "REG", amount: "160.00", hours: 8, description: "REGULAR at 20", metadata: { workweek: "2026-06-08" } },
            { type: "PTO", amount: "160.00", hours: 8, description: "TIME_OFF at 20", metadata: { workweek: "2026-06-01" } },
            { type: "RP", amount: "10.00", description: "REST", metadata: { workweek: "2026-06-01" } },
            { type: "MP", amount: "20.00", description: "MEAL_PENALTY", metadata: { workweek: "2026-06-01" } },
          ],
        },
        {
          employee: "chk_b",
          earnings: [
            { type: "REG", amount: "15.00", hours: 1, description: "REGULAR at 15", metadata: { workweek: "2026-06-01" } },
            { type: "RP", amount: "22.50", description: "REST", metadata: { workweek: "2026-06-01" } },
            { type: "REG", amount: "15.00", hours: 1, description: "REGULAR at 15", metadata: { workweek: "" } },
          ],
        },
      ],
    });
  });

  it("check and paychex: one staff member's text has no separator, the next is joined by a comma", () => {
    const one = { ...payroll, employees: [bob] };
    expect(buildFile("CHECK", one, ids, settings)).toMatch(
      /^\{"period_start":"2026-06-01","period_end":"2026-06-14","payroll_items":\[\{"employee":"chk_b".*\}\]\}$/,
    );
    const checks = JSON.parse(buildFile("PAYCHEX", payroll, ids, settings)).checks;
    expect(checks.map((c: { workerId: string }) => c.workerId)).toEqual(["W1", "W2"]);
  });
});

describe("ADP Workforce Now paydata", () => {
  it("has the contract's header, REGULAR in Reg Hours and OVERTIME in O/T Hours, and each provider's content type", () => {
    const lines = [line("REGULAR", 480, 20, 160), line("OVERTIME", 90, 30, 45)];
    const settings = { companyCode: "XYZ", batchId: "B1", earningCodes: { REGULAR: "R", OVERTIME: "O" } };
    const [header, ...rows] = parseCsv(buildFile("ADP_WFN", payroll(lines), new Map([["emp_a", { ADP_WFN: "000123" }]]), settings));
    expect(header).toEqual([
      "Co Code",
      "Batch ID",
      "File #",
      "Reg Hours",
      "O/T Hours",
      "Hours 3 Code",
      "Hours 3 Amount",
      "Earnings 3 Code",
      "Earnings 3 Amount",
      "Temp Rate",
      "FLSA Workweek",
    ]);
    expect(rows).toEqual([
      ["XYZ", "B1", "000123", "8", "", "", "", "", "", "20", "2026-06-01"],
      ["XYZ", "B1", "000123", "", "1.5", "", "", "", "", "30", "2026-06-01"],
    ]);
    expect(Object.fromEntries(Object.entries(PROVIDER_FILES).map(([p, f]) => [p, [f.contentType, f.extension]]))).toEqual({
      ADP_WFN: ["text/csv; charset=utf-8; header=present", "csv"],
      GUSTO: ["application/json; charset=utf-8", "json"],
      CHECK: ["application/json; charset=utf-8", "json"],
      PAYCHEX: ["application/json; charset=utf-8", "json"],
    });
  });
});
