import { describe, expect, it } from "vitest";
import { canonicalJson, sha256Hex } from "@/domain/canonical-json";
import { addDays, businessDate, offsetMinutesAt } from "@/domain/local-time";
import { api } from "../../helpers/api";
import { approve, closePeriod, createRuleSet, feed, PERIOD, periodsPath, reopenPeriod, rulesPath, WEEK, workDay } from "../../helpers/pay";
import { createStaffMember, staffToken } from "../../helpers/staff";
import { manualShift } from "../../helpers/timesheets";
import { clockIn, createWorkplace, punch, type Workplace } from "../../helpers/workplace";

const settingsPath = (w: Workplace) => `/api/organizations/${w.org.id}/pay-period-settings`;
const periodUrl = (w: Workplace, id: string = PERIOD) => `${periodsPath(w.org)}/${id}`;

/** A workplace whose staff member worked Monday and Tuesday of WEEK, and a colleague who worked Wednesday. */
async function workedWeek() {
  const w = await createWorkplace();
  const colleague = await createStaffMember(w.org, { locationIds: [w.location.id] });
  const monday = await workDay(w, WEEK[0], 8);
  const tuesday = await workDay(w, WEEK[1], 9);
  const wednesday = await workDay({ ...w, staff: colleague }, WEEK[2], 6);
  return { w, colleague, monday, tuesday, wednesday };
}

/** The Monday starting the weekly period that holds today at the workplace (New York). */
function currentPeriod() {
  const now = new Date();
  const today = businessDate(now, offsetMinutesAt("America/New_York", now));
  const weekday = new Date(`${today}T00:00:00Z`).getUTCDay();
  return addDays(today, -((weekday + 6) % 7));
}

describe("pay period settings and listing", () => {
  it("default weekly from the Monday of the organization's creation week; PATCH changes them; bad values are 400", async () => {
    const w = await createWorkplace();
    const read = await api("GET", settingsPath(w), { token: w.org.adminToken });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ frequency: "WEEKLY" });
    expect(new Date(`${read.body.anchorDate}T00:00:00Z`).getUTCDay()).toBe(1);
    const bad = [{ frequency: "DAILY" }, { anchorDate: "2026-02-30" }, { frequency: "SEMIMONTHLY", anchorDate: "2026-01-31" }];
    for (const body of bad) expect((await api("PATCH", settingsPath(w), { token: w.org.adminToken, body })).status).toBe(400);
    const patched = await api("PATCH", settingsPath(w), {
      token: w.org.adminToken,
      body: { frequency: "SEMIMONTHLY", anchorDate: "2026-01-01" },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ frequency: "SEMIMONTHLY", anchorDate: "2026-01-01" });
    const listed = await api("GET", `${periodsPath(w.org)}?startDate=2026-06-10&endDate=2026-07-02`, { token: w.org.adminToken });
    expect(listed.body.map((p: { id: string; endDate: string }) => [p.id, p.endDate])).toEqual([
      ["2026-06-01", "2026-06-15"],
      ["2026-06-16", "2026-06-30"],
      ["2026-07-01", "2026-07-15"],
    ]);
    expect((await feed(w.org)).some((e) => e.type === "pay_period_settings.updated")).toBe(true);
  });

  it("lists periods with their counts; a date that starts no period is 404, an impossible one 400", async () => {
    const { w } = await workedWeek();
    const listed = await api("GET", `${periodsPath(w.org)}?startDate=${WEEK[2]}&endDate=${addDays(WEEK[6], 1)}`, {
      token: w.org.adminToken,
    });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      expect.objectContaining({
        id: PERIOD,
        startDate: PERIOD,
        endDate: WEEK[6],
        status: "OPEN",
        version: 0,
        employeeCount: 2,
        approvedCount: 0,
      }),
      expect.objectContaining({ id: addDays(WEEK[6], 1), employeeCount: 0 }),
    ]);
    expect((await api("GET", periodUrl(w, WEEK[1]), { token: w.org.adminToken })).body.code).toBe("PAY_PERIOD_NOT_FOUND");
    expect((await api("GET", periodUrl(w, "2026-02-30"), { token: w.org.adminToken })).status).toBe(400);
    expect((await api("GET", `${periodsPath(w.org)}?startDate=2026-01-01&endDate=2027-06-01`, { token: w.org.adminToken })).status).toBe(
      400,
    );
  });
});

describe("timesheet approval", () => {
  it("approves (TIMESHEET_APPROVE, a Manager has it), freezes that staff member's shifts in the period, and withdraws", async () => {
    const { w, colleague, monday } = await workedWeek();
    const manager = await createStaffMember(w.org, { accessRoleName: "Manager" });
    const managerToken = await staffToken(w.org, manager.id);
    expect((await approve(w, PERIOD, [w.staff.id], w.token)).status).toBe(403);
    const nextWeek = addDays(WEEK[6], 1);
    const later = await workDay(w, nextWeek, 1);
    const res = await approve(w, PERIOD, [w.staff.id], managerToken);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: PERIOD, status: "OPEN", approvedCount: 1, employeeCount: 2 });
    expect(res.body.employees).toEqual(
      expect.arrayContaining([
        { employeeId: w.staff.id, approved: true, approvedAt: expect.any(String), approvedBy: manager.id },
        { employeeId: colleague.id, approved: false, approvedAt: null, approvedBy: null },
      ]),
    );
    const admin = { token: w.org.adminToken };
    const frozen = {
      create: () => manualShift(w, { startTime: `${WEEK[3]}T08:00:00Z`, endTime: `${WEEK[3]}T09:00:00Z` }),
      edit: () => api("PATCH", `/api/timesheets/${monday.id}`, { ...admin, body: { hourlyWage: 30 } }),
      moveInto: () =>
        api("PATCH", `/api/timesheets/${later.id}`, {
          ...admin,
          body: { startTime: `${WEEK[6]}T08:00:00Z`, endTime: `${WEEK[6]}T09:00:00Z` },
        }),
      delete: () => api("DELETE", `/api/timesheets/${monday.id}`, admin),
      deleteDay: () => api("DELETE", `/api/timesheets?date=${WEEK[0]}&locationId=${w.location.id}`, admin),
    };
    for (const [name, attempt] of Object.entries(frozen)) {
      const refused = await attempt();
      expect(refused.status, name).toBe(409);
      expect(refused.body.code, name).toBe("TIMESHEET_APPROVED");
    }
    expect((await api("GET", `/api/timesheets/${monday.id}`, admin)).body.hourlyWage).toBe(20);
    // The colleague is not approved: their shifts still change.
    expect(
      (await manualShift(w, { employeeId: colleague.id, startTime: `${WEEK[4]}T08:00:00Z`, endTime: `${WEEK[4]}T09:00:00Z` })).status,
    ).toBe(201);
    // Another period is not frozen.
    expect((await manualShift(w, { startTime: `${nextWeek}T10:00:00Z`, endTime: `${nextWeek}T11:00:00Z` })).status).toBe(201);

    const withdrawn = await api("DELETE", `${periodUrl(w)}/approvals/${w.staff.id}`, admin);
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.approvedCount).toBe(0);
    expect((await frozen.edit()).status).toBe(200);
    const types = (await feed(w.org)).map((e) => e.type).filter((t) => t.startsWith("timesheet."));
    expect(types).toEqual(["timesheet.approved", "timesheet.unapproved"]);
  });

  it("freezes punches: clocking in on an approved day is 409, and a shift still open refuses the approval", async () => {
    const w = await createWorkplace();
    const period = currentPeriod();
    expect((await clockIn(w)).status).toBe(200);
    const open = await approve(w, period, [w.staff.id]);
    expect(open.status).toBe(409);
    expect(open.body).toMatchObject({ code: "OPEN_SHIFT_IN_PERIOD", employeeIds: [w.staff.id] });
    expect((await punch(w, "clock-out")).status).toBe(200);
    expect((await approve(w, period, [w.staff.id])).status).toBe(200);
    const refused = await clockIn(w);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("TIMESHEET_APPROVED");
    expect((await api("GET", `${w.punchPath}/shift-state`, { token: w.token })).body.state ?? "").not.toBe("CLOCKED_IN");
  });

  it("an approval racing a clock-in: one of them lands, never both", async () => {
    for (let round = 0; round < 3; round++) {
      const w = await createWorkplace();
      const [approval, clocked] = await Promise.all([approve(w, currentPeriod(), [w.staff.id]), clockIn(w)]);
      const outcome = [approval.status, approval.body.code ?? null, clocked.status, clocked.body.code ?? null];
      expect([
        [200, null, 409, "TIMESHEET_APPROVED"],
        [409, "OPEN_SHIFT_IN_PERIOD", 200, null],
      ]).toContainEqual(outcome);
    }
  });

  it("refuses unknown staff (400), unknown periods (404), and writes nothing", async () => {
    const { w } = await workedWeek();
    const unknown = await approve(w, PERIOD, [w.staff.id, "nope"]);
    expect(unknown.status).toBe(400);
    expect((await approve(w, WEEK[1], [w.staff.id])).status).toBe(404);
    expect((await approve(w, PERIOD, [])).status).toBe(400);
    expect((await api("GET", periodUrl(w), { token: w.org.adminToken })).body.approvedCount).toBe(0);
    const other = await createWorkplace();
    expect((await approve(other, PERIOD, [w.staff.id])).status).toBe(400);
    expect(
      (await api("POST", `${periodUrl(w)}/approvals`, { token: other.org.adminToken, body: { employeeIds: [w.staff.id] } })).status,
    ).toBe(404);
  });
});

describe("closing a pay period", () => {
  it("refuses unapproved timesheets by name, closes with approveAll, stores a payroll whose hash verifies", async () => {
    const { w, colleague } = await workedWeek();
    const rules = await createRuleSet(w.org, { preset: "CALIFORNIA" });
    await approve(w, PERIOD, [w.staff.id]);
    const refused = await closePeriod(w, PERIOD);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "TIMESHEETS_NOT_APPROVED", employeeIds: [colleague.id] });
    expect((await api("GET", `${periodUrl(w)}/payroll`, { token: w.org.adminToken })).body.code).toBe("PAY_PERIOD_OPEN");

    const closed = await closePeriod(w, PERIOD, { approveAll: true });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ status: "CLOSED", version: 1, approvedCount: 2, closedBy: "partner:dev-partner" });
    expect(closed.body.snapshotHash).toMatch(/^[0-9a-f]{64}$/);

    const payroll = await api("GET", `${periodUrl(w)}/payroll`, { token: w.org.adminToken });
    expect(payroll.status).toBe(200);
    const { snapshotHash, ...document } = payroll.body;
    expect(snapshotHash).toBe(closed.body.snapshotHash);
    expect(await sha256Hex(canonicalJson(document))).toBe(snapshotHash);
    expect(document).toMatchObject({
      periodId: PERIOD,
      version: 1,
      adjustments: [],
      totals: { regularMinutes: 8 * 60 + 8 * 60 + 6 * 60, overtimeMinutes: 60 },
    });
    const mine = document.employees.find((e: { employeeId: string }) => e.employeeId === w.staff.id);
    expect(mine.lines.find((l: { rule: string }) => l.rule === "DAILY_OVERTIME")).toMatchObject({
      date: WEEK[1],
      minutes: 60,
      ruleSetId: rules.id,
    });

    const csv = await api("GET", `${periodUrl(w)}/payroll?format=csv`, { token: w.org.adminToken });
    expect(csv.headers.get("Content-Type")).toContain("text/csv");
    expect(csv.headers.get("Content-Disposition")).toBe(`attachment; filename="payroll-${PERIOD}-v1.csv"`);
    const [header, ...rows] = csv.text.trim().split("\r\n");
    expect(header).toBe(
      "employeeId,externalId,externalPayrollId,name,regularHours,overtimeHours,doubleTimeHours,penaltyHours,timeOffHours,grossPay,currencyCode",
    );
    expect(rows).toHaveLength(2);
    expect(rows.find((r) => r.startsWith(w.staff.id))).toMatch(/,16,1,0,\d+(\.\d+)?,0,\d+\.\d\d,USD$/);

    const types = (await feed(w.org)).map((e) => e.type);
    expect(types.filter((t) => t === "timesheet.approved")).toHaveLength(2);
    expect(types.at(-1)).toBe("pay_period.closed");
  });

  it("a closed period freezes every shift in it, its approvals, its rule sets and the settings that would move it", async () => {
    const { w, colleague } = await workedWeek();
    const rules = await createRuleSet(w.org, { preset: "FLSA" });
    expect((await closePeriod(w, PERIOD, { approveAll: true })).status).toBe(200);
    const newcomer = await createStaffMember(w.org, { locationIds: [w.location.id] });
    const create = await manualShift(w, { employeeId: newcomer.id, startTime: `${WEEK[5]}T08:00:00Z`, endTime: `${WEEK[5]}T09:00:00Z` });
    expect(create.status).toBe(409);
    expect(create.body).toMatchObject({ code: "PAY_PERIOD_CLOSED", periodId: PERIOD });
    expect((await approve(w, PERIOD, [newcomer.id])).body.code).toBe("PAY_PERIOD_CLOSED");
    expect((await api("DELETE", `${periodUrl(w)}/approvals/${colleague.id}`, { token: w.org.adminToken })).body.code).toBe(
      "PAY_PERIOD_CLOSED",
    );
    expect((await closePeriod(w, PERIOD, { approveAll: true })).body.code).toBe("PAY_PERIOD_CLOSED");
    const patchRules = await api("PATCH", `${rulesPath(w.org)}/${rules.id}`, {
      token: w.org.adminToken,
      body: { weeklyOvertimeAfterMinutes: 60 },
    });
    expect(patchRules.status).toBe(409);
    expect(patchRules.body.code).toBe("PAY_RULES_IN_USE");
    expect((await api("DELETE", `${rulesPath(w.org)}/${rules.id}`, { token: w.org.adminToken })).body.code).toBe("PAY_RULES_IN_USE");
    // No set may take effect inside (or before the end of) a closed period; a newer one is fine.
    const inside = await api("POST", rulesPath(w.org), {
      token: w.org.adminToken,
      body: { name: "Late", effectiveFrom: WEEK[3], preset: "NONE" },
    });
    expect(inside.status).toBe(409);
    expect(inside.body.code).toBe("PAY_RULES_IN_USE");
    await createRuleSet(w.org, { preset: "CALIFORNIA", effectiveFrom: "2026-07-01" });
    const moved = await api("PATCH", settingsPath(w), { token: w.org.adminToken, body: { frequency: "BIWEEKLY", anchorDate: WEEK[1] } });
    expect(moved.status).toBe(409);
    expect(moved.body).toMatchObject({ code: "PAY_PERIODS_CLOSED", periodIds: [PERIOD] });
    // Biweekly from the closed period's own start keeps it where it is only if its end stays: it does not.
    expect(
      (await api("PATCH", settingsPath(w), { token: w.org.adminToken, body: { frequency: "BIWEEKLY", anchorDate: PERIOD } })).status,
    ).toBe(409);
    expect((await api("GET", settingsPath(w), { token: w.org.adminToken })).body.frequency).toBe("WEEKLY");
  });

  it("reopens with a reason; the next close is version 2 and its payroll carries signed adjustments", async () => {
    const { w, colleague, wednesday } = await workedWeek();
    await closePeriod(w, PERIOD, { approveAll: true });
    const first = (await api("GET", `${periodUrl(w)}/payroll`, { token: w.org.adminToken })).body;
    expect((await api("POST", `${periodUrl(w)}/reopen`, { token: w.org.adminToken, body: { reason: " " } })).status).toBe(400);
    const reopened = await reopenPeriod(w, PERIOD, "Wednesday ran an hour short");
    expect(reopened.status).toBe(200);
    expect(reopened.body).toMatchObject({ status: "OPEN", version: 1, reopenReason: "Wednesday ran an hour short", approvedCount: 2 });
    expect((await reopenPeriod(w, PERIOD)).body.code).toBe("PAY_PERIOD_OPEN");
    // Approvals are kept: the colleague's shift stays frozen until theirs is withdrawn.
    const edit = () =>
      api("PATCH", `/api/timesheets/${wednesday.id}`, { token: w.org.adminToken, body: { endTime: `${WEEK[2]}T13:00:00Z` } });
    expect((await edit()).body.code).toBe("TIMESHEET_APPROVED");
    await api("DELETE", `${periodUrl(w)}/approvals/${colleague.id}`, { token: w.org.adminToken });
    expect((await edit()).status).toBe(200);
    expect((await closePeriod(w, PERIOD)).body.code).toBe("TIMESHEETS_NOT_APPROVED");
    await approve(w, PERIOD, [colleague.id]);
    const second = await closePeriod(w, PERIOD);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ status: "CLOSED", version: 2 });
    const payroll = (await api("GET", `${periodUrl(w)}/payroll`, { token: w.org.adminToken })).body;
    expect(payroll.version).toBe(2);
    expect(payroll.snapshotHash).not.toBe(first.snapshotHash);
    expect(payroll.adjustments).toEqual([
      {
        employeeId: colleague.id,
        regularMinutes: -60,
        overtimeMinutes: 0,
        doubleTimeMinutes: 0,
        penaltyHours: 0,
        timeOffHours: 0,
        grossPay: -20,
        workweeks: [{ startDate: WEEK[0], endDate: WEEK[6], regularRate: 0, minutes: -60, straightTimePay: -20 }],
      },
    ]);
    const types = (await feed(w.org)).map((e) => e.type).filter((t) => t.startsWith("pay_period."));
    expect(types).toEqual(["pay_period.closed", "pay_period.reopened", "pay_period.closed"]);
  });

  it("of two concurrent closes one wins and the other is 409, with one snapshot and one event", async () => {
    const { w } = await workedWeek();
    const results = await Promise.all([closePeriod(w, PERIOD, { approveAll: true }), closePeriod(w, PERIOD, { approveAll: true })]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const loser = results.find((r) => r.status === 409)!;
    expect(["PAY_PERIOD_CLOSED", "PAY_PERIOD_CHANGED"]).toContain(loser.body.code);
    expect((await feed(w.org)).filter((e) => e.type === "pay_period.closed")).toHaveLength(1);
    expect((await api("GET", periodUrl(w), { token: w.org.adminToken })).body).toMatchObject({ status: "CLOSED", version: 1 });
  });

  it("needs ORGANIZATION_ADMIN to close and reopen; another organization's admin gets 404", async () => {
    const { w } = await workedWeek();
    const manager = await createStaffMember(w.org, { accessRoleName: "Manager" });
    const token = await staffToken(w.org, manager.id);
    expect((await closePeriod(w, PERIOD, { approveAll: true }, token)).status).toBe(403);
    const other = await createWorkplace();
    expect((await closePeriod(w, PERIOD, { approveAll: true }, other.org.adminToken)).status).toBe(404);
    expect((await api("GET", periodUrl(w), { token: w.org.adminToken })).body.status).toBe("OPEN");
  });
});
