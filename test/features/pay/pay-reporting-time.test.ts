import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { closePeriod, createRuleSet, PERIOD, payLines, periodsPath, WEEK } from "../../helpers/pay";
import { createManual } from "../../helpers/timesheets";
import { createBreakType, createWorkplace, type Workplace } from "../../helpers/workplace";

/*
 * Reporting-time pay (California, IWC Wage Orders §5(A): "If an employee is required to report for work and does
 * report, but is not put to work or is furnished less than half said employee's usual or scheduled day's work, the
 * employee shall be paid for half the usual or scheduled day's work, but in no event for less than two (2) hours nor
 * more than four (4) hours, at the employee's regular rate of pay") and call-in pay (New York, 12 NYCRR 142-2.3: "at
 * least four hours, or the number of hours in the regularly scheduled shift, whichever is less, at the basic minimum
 * hourly wage" — $17.00 in the US_NY preset) through the Worker: a shift answers the published entry it is worked
 * against. Figures written out by hand.
 */

type Line = { date: string; kind: string; rule: string | null; minutes: number; rate: number | null; amount: number | null };

const [MON, TUE, , , , , SUN] = WEEK;

/** A published entry of the workplace's staff member on `date`, local `from`–`to`. */
async function publishEntry(w: Workplace, date: string, from: string, to: string, body: Record<string, unknown> = {}) {
  const res = await api("POST", `/api/organizations/${w.org.id}/locations/${w.location.id}/schedules`, {
    token: w.org.adminToken,
    body: { employeeId: w.staff.id, roleId: w.roleId, startTime: `${date}T${from}:00Z`, endTime: `${date}T${to}:00Z`, ...body },
  });
  if (res.status !== 201) throw new Error(`entry: ${res.status} ${res.text}`);
  return res.body as { id: string };
}

const work = (w: Workplace, date: string, from: string, to: string, wage = 20) =>
  createManual(w, { startTime: `${date}T${from}:00Z`, endTime: `${date}T${to}:00Z`, hourlyWage: wage });

async function employeeOf(w: Workplace) {
  const res = await payLines(w, { startDate: MON, endDate: SUN });
  expect(res.status).toBe(200);
  expect(res.body.employees).toHaveLength(1);
  return res.body.employees[0] as { grossPay: number; lines: Line[] };
}

const brief = (lines: Line[]) => lines.map((l) => [l.kind, l.rule, l.minutes, l.rate, l.amount]);

async function california() {
  const w = await createWorkplace();
  await createRuleSet(w.org, { preset: "CALIFORNIA" });
  return w;
}

describe("CALIFORNIA reporting-time pay through pay, labor cost and payroll", () => {
  it("scheduled 8 h, worked 3 h at $20: 3 h $60.00 + reporting time for 1 h (half of 8 = 4, less 3) $20.00 = $80.00", async () => {
    const w = await california();
    await publishEntry(w, TUE, "09:00", "17:00");
    const shift = await work(w, TUE, "09:00", "12:00");
    const employee = await employeeOf(w);
    expect(brief(employee.lines)).toEqual([
      ["REGULAR", null, 180, 20, 60],
      ["REPORTING_TIME", "CALIFORNIA.REPORTING_TIME", 60, 20, 20],
    ]);
    expect(employee.lines[1]).toMatchObject({ date: TUE, shiftId: shift.id });
    expect(employee.grossPay).toBe(80);

    const cost = await api("GET", `/api/timesheets/labor-cost?startDate=${MON}&endDate=${SUN}`, { token: w.org.adminToken });
    expect(cost.status).toBe(200);
    // 60.00 + 20.00 charged where the shift was worked.
    expect(cost.body.rows.reduce((sum: number, r: { laborCost: number }) => sum + r.laborCost, 0)).toBe(80);

    expect((await closePeriod(w, PERIOD, { approveAll: true })).status).toBe(200);
    const payroll = await api("GET", `${periodsPath(w.org)}/${PERIOD}/payroll`, { token: w.org.adminToken });
    expect(payroll.status).toBe(200);
    expect(payroll.body.totals).toMatchObject({ grossPay: 80 });
  });

  it("exactly half of the scheduled day worked (4 of 8 h): no reporting time, 4 × $20 = $80.00", async () => {
    const w = await california();
    await publishEntry(w, TUE, "09:00", "17:00");
    await work(w, TUE, "09:00", "13:00");
    const employee = await employeeOf(w);
    expect(brief(employee.lines)).toEqual([["REGULAR", null, 240, 20, 80]]);
  });

  it("one minute short of half (3 h 59 of 8 h): 1 minute of reporting time", async () => {
    const w = await california();
    await publishEntry(w, TUE, "09:00", "17:00");
    await work(w, TUE, "09:00", "12:59");
    const employee = await employeeOf(w);
    // 239 × 20 / 60 = 79.666… → 79.67; 1 × 20 / 60 = 0.333… → 0.33; 80.00.
    expect(brief(employee.lines)).toEqual([
      ["REGULAR", null, 239, 20, 79.67],
      ["REPORTING_TIME", "CALIFORNIA.REPORTING_TIME", 1, 20, 0.33],
    ]);
    expect(employee.grossPay).toBe(80);
  });

  it("a 3-hour entry worked 1 h: at least 2 hours (§5(A)), so 1 h of reporting time — $40.00", async () => {
    const w = await california();
    await publishEntry(w, TUE, "09:00", "12:00");
    await work(w, TUE, "09:00", "10:00");
    const employee = await employeeOf(w);
    expect(brief(employee.lines)).toEqual([
      ["REGULAR", null, 60, 20, 20],
      ["REPORTING_TIME", "CALIFORNIA.REPORTING_TIME", 60, 20, 20],
    ]);
  });

  it("the entry's unpaid break is not scheduled work: 6 h 30 with a 30-minute unpaid lunch is 6 h, half is 3 h", async () => {
    const w = await california();
    const lunch = await createBreakType(w, { durationMinutes: 30, frequencyMinutes: 240, paid: false });
    await publishEntry(w, TUE, "09:00", "15:30", { breaks: [lunch.id] });
    await work(w, TUE, "09:00", "12:00");
    // 3 h worked of 6 h scheduled: exactly half, no line (6 h 30 would have owed 3 h 15 − 3 h = 15 minutes).
    expect(brief((await employeeOf(w)).lines)).toEqual([["REGULAR", null, 180, 20, 60]]);
  });

  it("a shift with no published entry, a draft entry, or an entry at another hour is not judged", async () => {
    const w = await california();
    await publishEntry(w, MON, "18:00", "22:00");
    await work(w, MON, "09:00", "10:00");
    const draft = await api("POST", `/api/organizations/${w.org.id}/locations/${w.location.id}/schedules/drafts`, {
      token: w.org.adminToken,
      body: { employeeId: w.staff.id, roleId: w.roleId, startTime: `${TUE}T09:00:00Z`, endTime: `${TUE}T17:00:00Z` },
    });
    expect(draft.status).toBe(201);
    await work(w, TUE, "09:00", "10:00");
    const employee = await employeeOf(w);
    expect(employee.lines.map((l) => l.kind)).toEqual(["REGULAR", "REGULAR"]);
    expect(employee.grossPay).toBe(40);
  });

  it("an early arrival answers the entry up to 2 hours before its start, not earlier", async () => {
    const w = await california();
    await publishEntry(w, TUE, "11:00", "19:00");
    await work(w, TUE, "09:00", "11:00");
    // Clocked in exactly 2 h early: the entry's. 2 h worked of 8: half 4 h, 2 h owed at $20 = 40.00.
    expect(brief((await employeeOf(w)).lines)).toContainEqual(["REPORTING_TIME", "CALIFORNIA.REPORTING_TIME", 120, 20, 40]);

    const earlier = await california();
    await publishEntry(earlier, TUE, "11:00", "19:00");
    await work(earlier, TUE, "08:59", "10:59");
    expect((await employeeOf(earlier)).lines.map((l) => l.kind)).toEqual(["REGULAR"]);
  });
});

describe("US_NY call-in pay through pay", () => {
  async function newYork() {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "US_NY" });
    return w;
  }

  it("scheduled 4 h, reports and works 2 h at $20: paid 4 h — 2 h $40.00 + 2 h of call-in at $17.00 $34.00 = $74.00", async () => {
    const w = await newYork();
    await publishEntry(w, TUE, "09:00", "13:00");
    await work(w, TUE, "09:00", "11:00");
    const employee = await employeeOf(w);
    expect(brief(employee.lines)).toEqual([
      ["REGULAR", null, 120, 20, 40],
      ["CALL_IN", "US_NY.CALL_IN", 120, 17, 34],
    ]);
    expect(employee.grossPay).toBe(74);
  });

  it("the 4 hours worked of an 8-hour entry: no call-in pay, 4 × $20 = $80.00", async () => {
    const w = await newYork();
    await publishEntry(w, TUE, "09:00", "17:00");
    await work(w, TUE, "09:00", "13:00");
    expect(brief((await employeeOf(w)).lines)).toEqual([["REGULAR", null, 240, 20, 80]]);
  });

  it("a 3-hour entry worked whole: the scheduled shift is shorter than 4 h, so nothing more", async () => {
    const w = await newYork();
    await publishEntry(w, TUE, "09:00", "12:00");
    await work(w, TUE, "09:00", "12:00");
    expect(brief((await employeeOf(w)).lines)).toEqual([["REGULAR", null, 180, 20, 60]]);
  });
});
