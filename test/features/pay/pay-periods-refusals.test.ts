import { describe, expect, it } from "vitest";
import { canonicalJson, sha256Hex } from "@/domain/canonical-json";
import { parseCsv } from "@/domain/csv";
import { addDays } from "@/domain/local-time";
import { api } from "../../helpers/api";
import { approve, closePeriod, feed, PERIOD, periodsPath, reopenPeriod, WEEK, workDay } from "../../helpers/pay";
import { expectInvalid } from "../../helpers/problems";
import { tenantDb } from "../../helpers/shards";
import { createStaffMember, staffToken } from "../../helpers/staff";
import { manualShift } from "../../helpers/timesheets";
import { createBreakType, createWorkplace, type Workplace } from "../../helpers/workplace";

// Every period here (WEEK, 2026-06-01 … 07, and its neighbours) lies wholly in the past.
const settingsPath = (w: Workplace) => `/api/organizations/${w.org.id}/pay-period-settings`;
const periodUrl = (w: Workplace, id: string = PERIOD) => `${periodsPath(w.org)}/${id}`;
const read = (w: Workplace, id: string = PERIOD) => api("GET", periodUrl(w, id), { token: w.org.adminToken });
const payroll = (w: Workplace, query = "") => api("GET", `${periodUrl(w)}/payroll${query}`, { token: w.org.adminToken });
const payTypes = async (w: Workplace) =>
  (await feed(w.org)).map((e) => e.type).filter((t) => t.startsWith("timesheet.") || t.startsWith("pay_period"));

/** A workplace whose staff member worked Monday (8 h) and Tuesday (9 h) of WEEK, and a colleague Wednesday (6 h). */
async function workedWeek() {
  const w = await createWorkplace();
  const colleague = await createStaffMember(w.org, { locationIds: [w.location.id], name: '=Ada "Quote", Comma' });
  const monday = await workDay(w, WEEK[0], 8);
  const tuesday = await workDay(w, WEEK[1], 9);
  const wednesday = await workDay({ ...w, staff: colleague }, WEEK[2], 6);
  return { w, colleague, monday, tuesday, wednesday };
}

describe("pay period settings: refusals and side effects", () => {
  it("bad values are 400 naming the field, change nothing and record nothing", async () => {
    const w = await createWorkplace();
    const before = await api("GET", settingsPath(w), { token: w.org.adminToken });
    const cases: [Record<string, unknown>, string][] = [
      [{ frequency: "DAILY" }, "frequency"],
      [{ anchorDate: "2026-02-30" }, "anchorDate"],
      [{ frequency: "SEMIMONTHLY", anchorDate: "2026-01-31" }, "anchorDate"],
    ];
    for (const [body, path] of cases) expectInvalid(await api("PATCH", settingsPath(w), { token: w.org.adminToken, body }), [path]);
    expect((await api("GET", settingsPath(w), { token: w.org.adminToken })).body).toEqual(before.body);
    expect((await feed(w.org)).filter((e) => e.type === "pay_period_settings.updated")).toEqual([]);
  });

  it("needs ORGANIZATION_ADMIN to change (a Manager is 403); another organization is 404", async () => {
    const w = await createWorkplace();
    const manager = await createStaffMember(w.org, { accessRoleName: "Manager" });
    const body = { frequency: "BIWEEKLY" };
    expect((await api("PATCH", settingsPath(w), { token: await staffToken(w.org, manager.id), body })).status).toBe(403);
    const other = await createWorkplace();
    expect((await api("PATCH", settingsPath(w), { token: other.org.adminToken, body })).status).toBe(404);
    expect((await api("GET", settingsPath(w), { token: w.org.adminToken })).body.frequency).toBe("WEEKLY");
  });

  it("a change records pay_period_settings.updated with the settings as answered", async () => {
    const w = await createWorkplace();
    const patched = await api("PATCH", settingsPath(w), {
      token: w.org.adminToken,
      body: { frequency: "MONTHLY", anchorDate: "2026-01-31" },
    });
    expect(patched.status).toBe(200);
    const events = (await feed(w.org)).filter((e) => e.type === "pay_period_settings.updated");
    expect(events.map((e) => e.data)).toEqual([patched.body]);
  });

  it("a change that would move a period holding approved timesheets is 409 TIMESHEET_APPROVED naming it", async () => {
    const { w } = await workedWeek();
    expect((await approve(w, PERIOD, [w.staff.id])).status).toBe(200);
    const moved = await api("PATCH", settingsPath(w), { token: w.org.adminToken, body: { frequency: "BIWEEKLY", anchorDate: WEEK[2] } });
    expect(moved.status).toBe(409);
    expect(moved.body).toMatchObject({ code: "TIMESHEET_APPROVED", periodIds: [PERIOD] });
    expect((await api("GET", settingsPath(w), { token: w.org.adminToken })).body.frequency).toBe("WEEKLY");
    // Withdrawn, the same change goes through.
    await api("DELETE", `${periodUrl(w)}/approvals/${w.staff.id}`, { token: w.org.adminToken });
    expect(
      (await api("PATCH", settingsPath(w), { token: w.org.adminToken, body: { frequency: "BIWEEKLY", anchorDate: WEEK[2] } })).status,
    ).toBe(200);
  });

  it("a change that would move a closed period is 409 PAY_PERIODS_CLOSED naming it, even after a reopen", async () => {
    const { w } = await workedWeek();
    await closePeriod(w, PERIOD, { approveAll: true });
    await reopenPeriod(w, PERIOD);
    await api("DELETE", `${periodUrl(w)}/approvals/${w.staff.id}`, { token: w.org.adminToken });
    const moved = await api("PATCH", settingsPath(w), {
      token: w.org.adminToken,
      body: { frequency: "MONTHLY", anchorDate: "2026-01-01" },
    });
    expect(moved.status).toBe(409);
    expect(moved.body).toMatchObject({ code: "PAY_PERIODS_CLOSED", periodIds: [PERIOD] });
    expect((await feed(w.org)).filter((e) => e.type === "pay_period_settings.updated")).toEqual([]);
  });
});

describe("listing and reading periods: refusals", () => {
  it("a range over 366 days or reversed is 400 naming it; an impossible period id is 400; a date that starts none is 404", async () => {
    const w = await createWorkplace();
    const list = (query: string) => api("GET", `${periodsPath(w.org)}?${query}`, { token: w.org.adminToken });
    expectInvalid(await list("startDate=2026-01-01&endDate=2027-06-01"), ["endDate"]);
    expectInvalid(await list("startDate=2026-06-07&endDate=2026-06-01"), ["endDate"]);
    expectInvalid(await list("startDate=2026-06-01"), ["endDate"]);
    expectInvalid(await read(w, "2026-02-30"), ["periodId"]);
    const none = await read(w, WEEK[3]);
    expect(none.status).toBe(404);
    expect(none.body.code).toBe("PAY_PERIOD_NOT_FOUND");
  });
});

describe("approvals: refusals and side effects", () => {
  it("unknown, foreign or no staff are 400 naming the entry, and approve no one", async () => {
    const { w } = await workedWeek();
    expectInvalid(await approve(w, PERIOD, [w.staff.id, "nope"]), ["employeeIds"]);
    expectInvalid(await approve(w, PERIOD, []), ["employeeIds"]);
    const other = await createWorkplace();
    expectInvalid(await approve(w, PERIOD, [other.staff.id]), ["employeeIds"]);
    expect((await read(w)).body).toMatchObject({ approvedCount: 0 });
    expect(await payTypes(w)).toEqual([]);
  });

  it("approving again keeps the first approval and records no second event", async () => {
    const { w } = await workedWeek();
    const manager = await createStaffMember(w.org, { accessRoleName: "Manager" });
    const first = await approve(w, PERIOD, [w.staff.id]);
    const again = await approve(w, PERIOD, [w.staff.id], await staffToken(w.org, manager.id));
    expect(again.status).toBe(200);
    const mine = (body: { employees: { employeeId: string; approvedAt: string }[] }) =>
      body.employees.find((e) => e.employeeId === w.staff.id);
    expect(mine(again.body)).toEqual(mine(first.body));
    expect(mine(again.body)).toMatchObject({ approved: true, approvedBy: "partner:dev-partner" });
    const events = (await feed(w.org)).filter((e) => e.type === "timesheet.approved");
    expect(events.map((e) => e.data)).toEqual([
      {
        periodId: PERIOD,
        startDate: PERIOD,
        endDate: WEEK[6],
        employeeId: w.staff.id,
        approved: true,
        approvedAt: mine(first.body)!.approvedAt,
        approvedBy: "partner:dev-partner",
      },
    ]);
  });

  it("an approved timesheet refuses a break added by an edit and a new manual shift, and keeps the shift as it was", async () => {
    const { w, monday } = await workedWeek();
    await approve(w, PERIOD, [w.staff.id]);
    const lunch = await createBreakType(w);
    const refusals = {
      breaks: await api("PATCH", `/api/timesheets/${monday.id}`, {
        token: w.org.adminToken,
        body: { breaks: [{ startTime: `${WEEK[0]}T12:00:00Z`, endTime: `${WEEK[0]}T12:30:00Z`, typeId: lunch.id }] },
      }),
      create: await manualShift(w, { startTime: `${WEEK[6]}T08:00:00Z`, endTime: `${WEEK[6]}T09:00:00Z` }),
    };
    for (const [name, res] of Object.entries(refusals)) {
      expect(res.status, name).toBe(409);
      expect(res.body.code, name).toBe("TIMESHEET_APPROVED");
    }
    expect((await api("GET", `/api/timesheets/${monday.id}`, { token: w.org.adminToken })).body.breaks).toEqual([]);
  });

  it("withdrawing an approval that does not exist changes nothing and records no event; unknown staff is 404", async () => {
    const { w, colleague } = await workedWeek();
    const withdrawn = await api("DELETE", `${periodUrl(w)}/approvals/${colleague.id}`, { token: w.org.adminToken });
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body).toMatchObject({ approvedCount: 0, status: "OPEN" });
    expect(await payTypes(w)).toEqual([]);
    const unknown = await api("DELETE", `${periodUrl(w)}/approvals/nope`, { token: w.org.adminToken });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("STAFF_MEMBER_NOT_FOUND");
    const noPeriod = await api("DELETE", `${periodUrl(w, WEEK[3])}/approvals/${colleague.id}`, { token: w.org.adminToken });
    expect(noPeriod.body.code).toBe("PAY_PERIOD_NOT_FOUND");
    expect((await api("DELETE", `${periodUrl(w)}/approvals/${colleague.id}`, { token: w.token })).status).toBe(403);
  });

  it("withdrawing records timesheet.unapproved with the cleared approval", async () => {
    const { w } = await workedWeek();
    await approve(w, PERIOD, [w.staff.id]);
    await api("DELETE", `${periodUrl(w)}/approvals/${w.staff.id}`, { token: w.org.adminToken });
    const events = (await feed(w.org)).filter((e) => e.type === "timesheet.unapproved");
    expect(events.map((e) => e.data)).toEqual([
      {
        periodId: PERIOD,
        startDate: PERIOD,
        endDate: WEEK[6],
        employeeId: w.staff.id,
        approved: false,
        approvedAt: null,
        approvedBy: null,
      },
    ]);
  });
});

describe("closing: refusals and side effects", () => {
  it("TIMESHEETS_NOT_APPROVED names every unapproved staff member and writes nothing", async () => {
    const { w, colleague } = await workedWeek();
    const refused = await closePeriod(w, PERIOD);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("TIMESHEETS_NOT_APPROVED");
    expect([...refused.body.employeeIds].sort()).toEqual([w.staff.id, colleague.id].sort());
    expect((await read(w)).body).toMatchObject({ status: "OPEN", version: 0, approvedCount: 0, closedAt: null, snapshotHash: null });
    expect((await payroll(w)).body.code).toBe("PAY_PERIOD_OPEN");
    expect(await payTypes(w)).toEqual([]);
  });

  it("a shift still open in the period refuses the close (OPEN_SHIFT_IN_PERIOD, naming its staff member)", async () => {
    const { w, monday } = await workedWeek();
    await tenantDb().prepare("UPDATE shifts SET end_at = NULL WHERE id = ?").bind(monday.id).run();
    const refused = await closePeriod(w, PERIOD, { approveAll: true });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "OPEN_SHIFT_IN_PERIOD", employeeIds: [w.staff.id] });
    expect((await read(w)).body).toMatchObject({ status: "OPEN", version: 0, approvedCount: 0 });
    expect(await payTypes(w)).toEqual([]);
  });

  it("approveAll approves everyone in the close's batch; pay_period.closed carries the period as answered", async () => {
    const { w, colleague } = await workedWeek();
    const closed = await closePeriod(w, PERIOD, { approveAll: true });
    expect(closed.status).toBe(200);
    expect(closed.body.employees.map((e: { employeeId: string; approved: boolean }) => [e.employeeId, e.approved]).sort()).toEqual(
      [
        [w.staff.id, true],
        [colleague.id, true],
      ].sort(),
    );
    const events = (await feed(w.org)).filter((e) => e.type.startsWith("timesheet.") || e.type.startsWith("pay_period."));
    expect(events.map((e) => e.type)).toEqual(["timesheet.approved", "timesheet.approved", "pay_period.closed"]);
    const { employees: _employees, ...summary } = closed.body;
    expect(events.at(-1)!.data).toMatchObject({ ...summary, status: "CLOSED", version: 1 });
  });

  it("a close replayed with its Idempotency-Key answers the same and closes once", async () => {
    const { w } = await workedWeek();
    const headers = { "Idempotency-Key": "close-once" };
    const first = await api("POST", `${periodUrl(w)}/close`, { token: w.org.adminToken, body: { approveAll: true }, headers });
    const replay = await api("POST", `${periodUrl(w)}/close`, { token: w.org.adminToken, body: { approveAll: true }, headers });
    expect(first.status).toBe(200);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect((await feed(w.org)).filter((e) => e.type === "pay_period.closed")).toHaveLength(1);
  });

  it("the payroll: JSON hash verifies, CSV rows parse back to the JSON's employees, a bad format is 400", async () => {
    const { w, colleague } = await workedWeek();
    const closed = await closePeriod(w, PERIOD, { approveAll: true });
    const json = await payroll(w);
    expect(json.status).toBe(200);
    const { snapshotHash, ...document } = json.body;
    expect(snapshotHash).toBe(closed.body.snapshotHash);
    expect(await sha256Hex(canonicalJson(document))).toBe(snapshotHash);
    expect(document).toMatchObject({ periodId: PERIOD, version: 1, closedAt: closed.body.closedAt, adjustments: [] });
    const csv = await payroll(w, "?format=csv");
    const [header, ...rows] = parseCsv(csv.text);
    expect(header).toEqual([
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
    ]);
    type Employee = Record<string, any>;
    const expected = document.employees.map((e: Employee) => [
      e.employeeId,
      e.externalId ?? "",
      e.externalPayrollId ?? "",
      // A name a spreadsheet would run as a formula is written with a leading apostrophe.
      /^[=+\-@]/.test(e.name) ? `'${e.name}` : e.name,
      String(e.regularMinutes / 60),
      String(e.overtimeMinutes / 60),
      String(e.doubleTimeMinutes / 60),
      String(e.penaltyHours),
      String(e.timeOffHours),
      e.grossPay.toFixed(2),
      e.currencyCode,
    ]);
    expect(rows).toEqual(expected);
    expect(rows.find((r) => r[0] === colleague.id)![3]).toBe(`'=Ada "Quote", Comma`);
    expectInvalid(await payroll(w, "?format=xml"), ["format"]);
  });

  it("a reopen keeps the stored payroll until the next close; reopened records pay_period.reopened; a Manager is 403", async () => {
    const { w } = await workedWeek();
    const closed = await closePeriod(w, PERIOD, { approveAll: true });
    const manager = await createStaffMember(w.org, { accessRoleName: "Manager" });
    const token = await staffToken(w.org, manager.id);
    expect((await api("POST", `${periodUrl(w)}/reopen`, { token, body: { reason: "Late" } })).status).toBe(403);
    expectInvalid(await api("POST", `${periodUrl(w)}/reopen`, { token: w.org.adminToken, body: { reason: " " } }), ["reason"]);
    expect((await read(w)).body.status).toBe("CLOSED");
    const reopened = await reopenPeriod(w, PERIOD, "A late correction");
    expect(reopened.status).toBe(200);
    expect(reopened.body).toMatchObject({ status: "OPEN", version: 1, snapshotHash: closed.body.snapshotHash, approvedCount: 2 });
    const stored = await payroll(w);
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({ version: 1, snapshotHash: closed.body.snapshotHash });
    const events = (await feed(w.org)).filter((e) => e.type === "pay_period.reopened");
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ id: PERIOD, status: "OPEN", version: 1, reopenReason: "A late correction" });
  });

  it("a second close after a reopen with nothing changed has no adjustments and the same figures", async () => {
    const { w } = await workedWeek();
    await closePeriod(w, PERIOD, { approveAll: true });
    const first = (await payroll(w)).body;
    await reopenPeriod(w, PERIOD);
    const second = await closePeriod(w, PERIOD);
    expect(second.status).toBe(200);
    expect(second.body.version).toBe(2);
    const again = (await payroll(w)).body;
    expect(again).toMatchObject({ version: 2, adjustments: [], employees: first.employees, totals: first.totals });
  });

  it("a staff member first paid in the second version appears in adjustments with their whole figures", async () => {
    const { w } = await workedWeek();
    await closePeriod(w, PERIOD, { approveAll: true });
    await reopenPeriod(w, PERIOD);
    const newcomer = await createStaffMember(w.org, { locationIds: [w.location.id] });
    expect((await workDay({ ...w, staff: newcomer }, WEEK[4], 2)).id).toBeTruthy();
    const refused = await closePeriod(w, PERIOD);
    expect(refused.body).toMatchObject({ code: "TIMESHEETS_NOT_APPROVED", employeeIds: [newcomer.id] });
    const second = await closePeriod(w, PERIOD, { approveAll: true });
    expect(second.body).toMatchObject({ status: "CLOSED", version: 2, approvedCount: 3 });
    expect((await payroll(w)).body.adjustments).toEqual([
      {
        employeeId: newcomer.id,
        regularMinutes: 120,
        overtimeMinutes: 0,
        doubleTimeMinutes: 0,
        penaltyHours: 0,
        timeOffHours: 0,
        grossPay: 40,
        // Their one workweek, whole: it is all difference from a version that did not have them.
        workweeks: [{ startDate: PERIOD, endDate: addDays(PERIOD, 6), minutes: 120, regularRate: 20, straightTimePay: 40 }],
      },
    ]);
  });

  it("closing a period with nobody in it stores an empty payroll", async () => {
    const { w } = await workedWeek();
    const empty = addDays(PERIOD, -7);
    const closed = await closePeriod(w, empty);
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ status: "CLOSED", version: 1, employeeCount: 0, employees: [] });
    const stored = await api("GET", `${periodUrl(w, empty)}/payroll`, { token: w.org.adminToken });
    expect(stored.body).toMatchObject({ periodId: empty, employees: [], adjustments: [] });
  });
});
