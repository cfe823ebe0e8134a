import { describe, expect, it } from "vitest";
import { parseCsv } from "@/domain/csv";
import { api } from "../../helpers/api";
import { closePeriod, createRuleSet, PERIOD, periodsPath, WEEK } from "../../helpers/pay";
import { createManual } from "../../helpers/timesheets";
import { createWorkplace, type Workplace } from "../../helpers/workplace";

/*
 * Issue 46: payroll settings, payroll ids and the provider files. One known staff member, figures by hand: FLSA,
 * Monday 10 h at $30, Tuesday to Friday 10 h at $20 → regular rate (300 + 800) ÷ 50 = 22; Friday's 10 h are
 * overtime at 20 + 11 = 31: 300.00 + 3 × 200.00 + 310.00 = 1,210.00 gross, 40 h regular, 10 h overtime.
 */

const [MON, TUE, WED, THU, FRI] = WEEK;
const GROSS = 1210;

const settingsPath = (w: Workplace) => `/api/organizations/${w.org.id}/payroll-settings`;
const file = (w: Workplace, format: string) =>
  api("GET", `${periodsPath(w.org)}/${PERIOD}/payroll?format=${format}`, { token: w.org.adminToken });
const putSettings = (w: Workplace, body: Record<string, unknown>) => api("PUT", settingsPath(w), { token: w.org.adminToken, body });
const setPayrollIds = (w: Workplace, payrollIds: Record<string, string>) =>
  api("PATCH", `/api/organizations/${w.org.id}/staffmembers/${w.staff.id}`, { token: w.org.adminToken, body: { payrollIds } });

async function closedWeek() {
  const w = await createWorkplace();
  await createRuleSet(w.org, { preset: "FLSA" });
  const day = (date: string, wage: number) =>
    createManual(w, { startTime: `${date}T08:00:00Z`, endTime: `${date}T18:00:00Z`, hourlyWage: wage });
  await day(MON, 30);
  for (const date of [TUE, WED, THU, FRI]) await day(date, 20);
  expect((await closePeriod(w, PERIOD, { approveAll: true })).status).toBe(200);
  const payroll = (await api("GET", `${periodsPath(w.org)}/${PERIOD}/payroll`, { token: w.org.adminToken })).body;
  expect(payroll.totals).toMatchObject({ grossPay: GROSS, regularMinutes: 2400, overtimeMinutes: 600 });
  return w;
}

const cents = (values: (string | number)[]) => values.reduce<number>((sum, v) => sum + Math.round(Number(v) * 100), 0) / 100;

describe("payroll settings and payroll ids", () => {
  it("answers no provider until set; a provider without codes stores its defaults; writes record an event", async () => {
    const w = await createWorkplace();
    const empty = await api("GET", settingsPath(w), { token: w.org.adminToken });
    expect(empty.body).toEqual({
      provider: null,
      companyCode: null,
      batchId: null,
      earningCodes: {},
      defaultEarningCodes: {},
      updatedAt: null,
    });
    const put = await putSettings(w, { provider: "CHECK" });
    expect(put.status).toBe(200);
    // Check's own earning types (docs.checkhq.com, "Types of earnings").
    expect(put.body.earningCodes).toMatchObject({
      REGULAR: "hourly",
      OVERTIME: "overtime",
      DOUBLE_TIME: "double_overtime",
      "TIME_OFF:Sick": "sick",
    });
    expect(put.body.earningCodes).not.toHaveProperty("MEAL_PENALTY");
    expect((await api("GET", settingsPath(w), { token: w.org.adminToken })).body).toEqual(put.body);
    const events = (await api("GET", `/api/organizations/${w.org.id}/events?limit=500`, { token: w.org.adminToken })).body;
    const written = events.filter((e: { type: string }) => e.type === "payroll_settings.updated");
    expect(written.map((e: { data: unknown }) => e.data)).toEqual([put.body]);
    expect((await putSettings(w, { provider: "NOPE" })).status).toBe(400);
    expect((await putSettings(w, { provider: null, earningCodes: { BOGUS: "x" } })).status).toBe(400);
    expect((await api("PUT", settingsPath(w), { token: w.token, body: { provider: null } })).status).toBe(403);
  });

  it("staff members carry payrollIds per provider", async () => {
    const w = await createWorkplace();
    const patched = await setPayrollIds(w, { ADP_WFN: "000123", GUSTO: "7757500b-3e2a-4e5c-9b5a-1c4b3b2b1a00" });
    expect(patched.status).toBe(200);
    expect(patched.body.payrollIds).toEqual({ ADP_WFN: "000123", GUSTO: "7757500b-3e2a-4e5c-9b5a-1c4b3b2b1a00" });
    expect((await setPayrollIds(w, { SAGE: "1" })).status).toBe(400);
  });
});

describe("provider files of a closed payroll", () => {
  it("409 PAYROLL_MAPPING_INCOMPLETE names the staff members without an id and the kinds without a code", async () => {
    const w = await closedWeek();
    const noId = await file(w, "check");
    expect(noId.status).toBe(409);
    expect(noId.body).toMatchObject({ code: "PAYROLL_MAPPING_INCOMPLETE", missing: { payrollIds: [w.staff.id], earningCodes: [] } });
    await setPayrollIds(w, { CHECK: "emp_1" });
    await putSettings(w, { provider: "CHECK", earningCodes: { REGULAR: "hourly" } });
    const noCode = await file(w, "check");
    expect(noCode.status).toBe(409);
    expect(noCode.body.missing).toEqual({ payrollIds: [], earningCodes: ["OVERTIME"] });
  });

  it("adp-wfn: the Paydata CSV, Co Code, Batch ID and File # first; hours add up to the payroll's; same bytes twice", async () => {
    const w = await closedWeek();
    await putSettings(w, { provider: "ADP_WFN", companyCode: "XYZ", batchId: "SL1" });
    await setPayrollIds(w, { ADP_WFN: "000123" });
    const res = await file(w, "adp-wfn");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    expect(res.headers.get("content-disposition")).toContain(`payroll-${PERIOD}-v1-adp-wfn.csv`);
    const [header, ...rows] = parseCsv(res.text);
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
      ["XYZ", "SL1", "000123", "10", "", "", "", "", "", "30", MON],
      ["XYZ", "SL1", "000123", "30", "", "", "", "", "", "20", MON],
      ["XYZ", "SL1", "000123", "", "10", "", "", "", "", "31", MON],
    ]);
    // Σ Reg Hours 40 = 2,400 regular minutes; Σ O/T Hours 10 = 600 overtime minutes; Σ hours × Temp Rate = 1,210.00.
    expect(rows.reduce((h, r) => h + Number(r[3] || 0), 0)).toBe(40);
    expect(rows.reduce((h, r) => h + Number(r[4] || 0), 0)).toBe(10);
    expect(rows.reduce((sum, r) => sum + (Number(r[3] || 0) + Number(r[4] || 0)) * Number(r[9]), 0)).toBe(GROSS);
    expect((await file(w, "adp-wfn")).text).toBe(res.text);
  });

  it("gusto: time sheets per shift with hours classified Regular / Overtime; amounts add up to grossPay", async () => {
    const w = await closedWeek();
    await setPayrollIds(w, { GUSTO: "7757500b-3e2a-4e5c-9b5a-1c4b3b2b1a00" });
    const res = await file(w, "gusto");
    expect(res.status).toBe(200);
    expect(res.body.pay_period).toEqual({ start_date: PERIOD, end_date: WEEK[6] });
    expect(res.body.time_sheets).toHaveLength(5);
    expect(res.body.time_sheets[0]).toMatchObject({
      entity_type: "Employee",
      entity_uuid: "7757500b-3e2a-4e5c-9b5a-1c4b3b2b1a00",
      shift_date: MON,
      entries: [{ pay_classification: "Regular", hours_worked: 10, amount: "300.00" }],
    });
    expect(res.body.time_sheets[4].entries).toEqual([{ pay_classification: "Overtime", hours_worked: 10, amount: "310.00" }]);
    const entries = res.body.time_sheets.flatMap((s: { entries: { amount: string }[] }) => s.entries);
    expect(cents(entries.map((e: { amount: string }) => e.amount))).toBe(GROSS);
    expect(res.body.other_earnings).toEqual([]);
    expect((await file(w, "gusto")).text).toBe(res.text);
  });

  it("check: a payroll item per employee with earnings of Check's types; amounts add up to grossPay", async () => {
    const w = await closedWeek();
    await setPayrollIds(w, { CHECK: "emp_FMssH75VFfjomWcNCEvL" });
    const res = await file(w, "check");
    expect(res.status).toBe(200);
    expect(res.body.payroll_items).toEqual([
      {
        employee: "emp_FMssH75VFfjomWcNCEvL",
        earnings: [
          { type: "hourly", amount: "300.00", hours: 10, description: "REGULAR at 30", metadata: { workweek: MON } },
          { type: "hourly", amount: "600.00", hours: 30, description: "REGULAR at 20", metadata: { workweek: MON } },
          { type: "overtime", amount: "310.00", hours: 10, description: "OVERTIME at 31", metadata: { workweek: MON } },
        ],
      },
    ]);
    expect(cents(res.body.payroll_items[0].earnings.map((e: { amount: string }) => e.amount))).toBe(GROSS);
  });

  it("paychex: a check per worker with pay components by line date; amounts add up to grossPay", async () => {
    const w = await closedWeek();
    await setPayrollIds(w, { PAYCHEX: "00H2A1IUJ3HJ4X5W6Y7Z" });
    const res = await file(w, "paychex");
    expect(res.status).toBe(200);
    const [check] = res.body.checks;
    expect(check.workerId).toBe("00H2A1IUJ3HJ4X5W6Y7Z");
    expect(check.earnings).toEqual([
      { componentId: "Hourly", hours: 10, payRate: 30, amount: "300.00", lineDate: MON, jobId: null },
      { componentId: "Hourly", hours: 10, payRate: 20, amount: "200.00", lineDate: TUE, jobId: null },
      { componentId: "Hourly", hours: 10, payRate: 20, amount: "200.00", lineDate: WED, jobId: null },
      { componentId: "Hourly", hours: 10, payRate: 20, amount: "200.00", lineDate: THU, jobId: null },
      { componentId: "Overtime", hours: 10, payRate: 31, amount: "310.00", lineDate: FRI, jobId: null },
    ]);
    expect(cents(check.earnings.map((e: { amount: string }) => e.amount))).toBe(GROSS);
  });
});

describe("provider files of pay beyond hours worked (issue 48): New York's spread of hours and call-in pay", () => {
  /**
   * US_NY, $20 an hour. Monday 07:00–12:00 and 14:00–19:00: a 12-hour spread, 10 h worked: 10 × 20 = 200.00 +
   * SPREAD_OF_HOURS 1 h at the $17.00 minimum wage = 17.00. Tuesday, a published 09:00–13:00 entry worked 09:00–11:00:
   * 2 × 20 = 40.00 + CALL_IN for the 2 hours short of 4 at $17.00 = 34.00. Gross 200 + 17 + 40 + 34 = 291.00.
   */
  async function newYorkWeek() {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "US_NY" });
    const work = (date: string, from: string, to: string) =>
      createManual(w, { startTime: `${date}T${from}:00Z`, endTime: `${date}T${to}:00Z`, hourlyWage: 20 });
    await work(MON, "07:00", "12:00");
    await work(MON, "14:00", "19:00");
    const entry = await api("POST", `/api/organizations/${w.org.id}/locations/${w.location.id}/schedules`, {
      token: w.org.adminToken,
      body: { employeeId: w.staff.id, roleId: w.roleId, startTime: `${TUE}T09:00:00Z`, endTime: `${TUE}T13:00:00Z` },
    });
    expect(entry.status, entry.text).toBe(201);
    await work(TUE, "09:00", "11:00");
    expect((await closePeriod(w, PERIOD, { approveAll: true })).status).toBe(200);
    const payroll = (await api("GET", `${periodsPath(w.org)}/${PERIOD}/payroll`, { token: w.org.adminToken })).body;
    expect(payroll.totals).toMatchObject({ grossPay: 291, regularMinutes: 720, penaltyHours: 0 });
    const lines = payroll.employees[0].lines as { date: string; kind: string; minutes: number; rate: number; amount: number }[];
    expect(lines.map((l) => [l.date, l.kind, l.minutes, l.rate, l.amount])).toEqual([
      [MON, "REGULAR", 300, 20, 100],
      [MON, "REGULAR", 300, 20, 100],
      [MON, "SPREAD_OF_HOURS", 60, 17, 17],
      [TUE, "REGULAR", 120, 20, 40],
      [TUE, "CALL_IN", 120, 17, 34],
    ]);
    const csv = await api("GET", `${periodsPath(w.org)}/${PERIOD}/payroll?format=csv`, { token: w.org.adminToken });
    expect(parseCsv(csv.text)[1]).toEqual(expect.arrayContaining(["12", "0", "291.00", "USD"]));
    return w;
  }

  it("every provider's file carries the new kinds by their codes, and adds up to $291.00", async () => {
    const w = await newYorkWeek();
    const codes = { REGULAR: "Regular", SPREAD_OF_HOURS: "Spread of hours", CALL_IN: "Call-in pay" };
    await setPayrollIds(w, { ADP_WFN: "000123", GUSTO: "7757500b-3e2a-4e5c-9b5a-1c4b3b2b1a00", CHECK: "emp_1", PAYCHEX: "00H2A1" });

    // Without codes for them, the file names the kinds missing.
    await putSettings(w, { provider: "GUSTO", earningCodes: { REGULAR: "Regular" } });
    const missing = await file(w, "gusto");
    expect(missing.status).toBe(409);
    expect(missing.body.missing).toEqual({ payrollIds: [], earningCodes: ["CALL_IN", "SPREAD_OF_HOURS"] });

    // Gusto: hours worked in time sheets; the spread hour and the call-in hours are paid, not worked: other earnings.
    await putSettings(w, { provider: "GUSTO", earningCodes: codes });
    const gusto = await file(w, "gusto");
    expect(gusto.status, gusto.text).toBe(200);
    const sheets = gusto.body.time_sheets as { shift_date: string; entries: { pay_classification: string; hours_worked: number }[] }[];
    expect(sheets.map((s) => [s.shift_date, s.entries.map((e) => [e.pay_classification, e.hours_worked])])).toEqual([
      [MON, [["Regular", 5]]],
      [MON, [["Regular", 5]]],
      [TUE, [["Regular", 2]]],
    ]);
    expect(gusto.body.other_earnings).toEqual([
      { employee_uuid: "7757500b-3e2a-4e5c-9b5a-1c4b3b2b1a00", date: MON, earning_type: "Spread of hours", hours: 1, amount: "17.00" },
      { employee_uuid: "7757500b-3e2a-4e5c-9b5a-1c4b3b2b1a00", date: TUE, earning_type: "Call-in pay", hours: 2, amount: "34.00" },
    ]);

    // ADP: 12 regular hours at 20.00; the spread hour and the call-in hours as Hours 3 at 17.00: 240 + 17 + 34 = 291.00.
    await putSettings(w, {
      provider: "ADP_WFN",
      companyCode: "XYZ",
      batchId: "SL1",
      earningCodes: { ...codes, SPREAD_OF_HOURS: "SOH", CALL_IN: "CI" },
    });
    const adp = await file(w, "adp-wfn");
    expect(adp.status, adp.text).toBe(200);
    expect(parseCsv(adp.text).slice(1)).toEqual([
      ["XYZ", "SL1", "000123", "12", "", "", "", "", "", "20", MON],
      ["XYZ", "SL1", "000123", "", "", "SOH", "1", "", "", "17", MON],
      ["XYZ", "SL1", "000123", "", "", "CI", "2", "", "", "17", MON],
    ]);

    // Check: one earning per type and rate.
    await putSettings(w, { provider: "CHECK", earningCodes: { REGULAR: "hourly", SPREAD_OF_HOURS: "other", CALL_IN: "hourly" } });
    const check = await file(w, "check");
    expect(check.status, check.text).toBe(200);
    expect(check.body.payroll_items[0].earnings).toEqual([
      { type: "hourly", amount: "240.00", hours: 12, description: "REGULAR at 20", metadata: { workweek: MON } },
      { type: "other", amount: "17.00", hours: 1, description: "SPREAD_OF_HOURS at 17", metadata: { workweek: MON } },
      { type: "hourly", amount: "34.00", hours: 2, description: "CALL_IN at 17", metadata: { workweek: MON } },
    ]);

    // Paychex: one component per date and rate.
    await putSettings(w, { provider: "PAYCHEX", earningCodes: { REGULAR: "Hourly", SPREAD_OF_HOURS: "Spread", CALL_IN: "Call-In" } });
    const paychex = await file(w, "paychex");
    expect(paychex.status, paychex.text).toBe(200);
    expect(paychex.body.checks[0].earnings).toEqual([
      { componentId: "Hourly", hours: 10, payRate: 20, amount: "200.00", lineDate: MON, jobId: null },
      { componentId: "Spread", hours: 1, payRate: 17, amount: "17.00", lineDate: MON, jobId: null },
      { componentId: "Hourly", hours: 2, payRate: 20, amount: "40.00", lineDate: TUE, jobId: null },
      { componentId: "Call-In", hours: 2, payRate: 17, amount: "34.00", lineDate: TUE, jobId: null },
    ]);
  });
});
