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
