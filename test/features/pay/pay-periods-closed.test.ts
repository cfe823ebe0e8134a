import { describe, expect, it } from "vitest";
import { addDays } from "@/domain/local-time";
import { api } from "../../helpers/api";
import { createOrganization } from "../../helpers/fixtures";
import { approve, closePeriod, createRuleSet, feed, payLines, periodsPath, reopenPeriod, rulesPath, workDay } from "../../helpers/pay";
import { createStaffMember, staffToken } from "../../helpers/staff";
import { createPolicy, orgPath } from "../../helpers/time-off";
import { manualShift } from "../../helpers/timesheets";
import { clockIn, createWorkplace, type Workplace } from "../../helpers/workplace";

/** 2026-09-14 is a Monday: the weekly period Monday 14 … Sunday 20. Under Sunday workweeks, Sunday 13 … Saturday 26 count. */
const PERIOD = "2026-09-14";
const SUNDAY_BEFORE = "2026-09-13";
const SATURDAY_AFTER = "2026-09-26";
const SUNDAY_AFTER = "2026-09-27";

/** A manual shift 12:00–18:00 (the workDay shifts start at 08:00). */
const shiftOn = (w: Workplace, date: string) =>
  manualShift(w, { startTime: `${date}T12:00:00Z`, endTime: `${date}T18:00:00Z`, hourlyWage: 20 });

/** A workplace on Sunday workweeks (FLSA: weekly overtime after 40 h) whose staff member worked Monday to Friday of PERIOD, 10 h a day. */
async function sundayWorkweeks() {
  const w = await createWorkplace();
  await createRuleSet(w.org, { preset: "FLSA", workweekStartsOn: "Sunday" });
  for (let day = 0; day < 5; day++) await workDay(w, addDays(PERIOD, day), 10);
  return w;
}

const weekdayOf = (date: string) =>
  ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][new Date(`${date}T00:00:00Z`).getUTCDay()]!;

const overtimeOf = async (w: Workplace) =>
  (await payLines(w, { startDate: PERIOD, endDate: addDays(PERIOD, 6) })).body.totals.overtimeMinutes as number;

describe("closed means closed: every date of every workweek overlapping the period", () => {
  it("refuses shifts on the Sunday before the period and the days after it in its last workweek, in other periods too", async () => {
    const w = await sundayWorkweeks();
    const before = await workDay(w, SUNDAY_BEFORE, 1);
    const overtime = await overtimeOf(w);
    const closed = await closePeriod(w, PERIOD, { approveAll: true });
    expect(closed.status).toBe(200);

    const admin = { token: w.org.adminToken };
    const refused = {
      // The case: a manual shift on Sunday 13th (an open period) would raise the closed period's overtime.
      createBefore: () => shiftOn(w, SUNDAY_BEFORE),
      createAfter: () => shiftOn(w, SATURDAY_AFTER),
      editBefore: () => api("PATCH", `/api/timesheets/${before.id}`, { ...admin, body: { endTime: `${SUNDAY_BEFORE}T10:00:00Z` } }),
      deleteBefore: () => api("DELETE", `/api/timesheets/${before.id}`, admin),
      deleteDay: () => api("DELETE", `/api/timesheets?date=${SUNDAY_BEFORE}&locationId=${w.location.id}`, admin),
    };
    for (const [name, attempt] of Object.entries(refused)) {
      const res = await attempt();
      expect(res.status, name).toBe(409);
      expect(res.body, name).toMatchObject({ code: "PAY_PERIOD_CLOSED", periodId: PERIOD });
    }
    expect(await overtimeOf(w)).toBe(overtime);
    expect((await api("GET", `/api/timesheets/${before.id}`, admin)).body.endTime).toBe(before.endTime);
    expect((await feed(w.org)).filter((e) => e.type === "shift.created")).toHaveLength(6);

    // The first day after the last overlapping workweek is free; a reopen frees them all.
    expect((await shiftOn(w, SUNDAY_AFTER)).status).toBe(201);
    expect((await reopenPeriod(w, PERIOD)).status).toBe(200);
    expect((await shiftOn(w, SATURDAY_AFTER)).status).toBe(201);
  });

  it("refuses a rule set taking effect on a frozen date after the period's end; one after the last workweek is fine", async () => {
    const w = await sundayWorkweeks();
    expect((await closePeriod(w, PERIOD, { approveAll: true })).status).toBe(200);
    const inside = await api("POST", rulesPath(w.org), {
      token: w.org.adminToken,
      body: { name: "Late", effectiveFrom: "2026-09-24", preset: "CALIFORNIA" },
    });
    expect(inside.status).toBe(409);
    expect(inside.body.code).toBe("PAY_RULES_IN_USE");
    const after = await api("POST", rulesPath(w.org), {
      token: w.org.adminToken,
      body: { name: "Later", effectiveFrom: SUNDAY_AFTER, preset: "CALIFORNIA" },
    });
    expect(after.status).toBe(201);
  });

  it("refuses time off requested, approved or cancelled on frozen dates (paid time off counts in the period's pay)", async () => {
    const w = await createWorkplace();
    await createRuleSet(w.org, { preset: "FLSA", workweekStartsOn: "Sunday" });
    await api("PATCH", orgPath(w.org, "/time-off-settings"), { token: w.org.adminToken, body: { allowPastRequests: true } });
    const policy = await createPolicy(w.org, { allowNegativeBalance: true, requiresApproval: true });
    const request = (date: string) =>
      api("POST", orgPath(w.org, "/time-off-requests"), {
        token: w.org.adminToken,
        body: { workerId: w.staff.id, policyId: policy.id, startTime: `${date}T09:00:00Z`, endTime: `${date}T17:00:00Z` },
      });
    const requestPath = (id: string, action = "") => orgPath(w.org, `/time-off-requests/${id}${action}`);
    const pending = await request("2026-09-16");
    const approved = await request("2026-09-17");
    expect([pending.status, approved.status]).toEqual([201, 201]);
    expect((await api("POST", requestPath(approved.body.id, "/approve"), { token: w.org.adminToken })).status).toBe(200);
    expect((await closePeriod(w, PERIOD, { approveAll: true })).status).toBe(200);
    const eventsBefore = (await feed(w.org)).length;

    const attempts = {
      approve: () => api("POST", requestPath(pending.body.id, "/approve"), { token: w.org.adminToken }),
      cancel: () => api("DELETE", requestPath(approved.body.id), { token: w.org.adminToken }),
      requestInside: () => request("2026-09-18"),
      requestSundayBefore: () => request(SUNDAY_BEFORE),
      requestAfterInLastWorkweek: () => request("2026-09-22"),
    };
    for (const [name, attempt] of Object.entries(attempts)) {
      const res = await attempt();
      expect(res.status, name).toBe(409);
      expect(res.body, name).toMatchObject({ code: "PAY_PERIOD_CLOSED", periodId: PERIOD });
    }
    const read = async (id: string) => (await api("GET", orgPath(w.org, `/time-off-requests/${id}`), { token: w.org.adminToken })).body;
    expect((await read(pending.body.id)).status).toBe("pending");
    expect((await read(approved.body.id)).status).toBe("approved");
    expect((await feed(w.org)).length).toBe(eventsBefore);
    // Outside the frozen dates time off goes on as before.
    expect((await request(SUNDAY_AFTER)).status).toBe(201);
  });
});

describe("closed means closed: punches and races", () => {
  it("a clock-in dated on a frozen date (occurredAt within 72 hours) is 409 PAY_PERIOD_CLOSED naming the period", async () => {
    const w = await createWorkplace();
    const today = new Date().toISOString().slice(0, 10);
    const periodId = addDays(today, -8);
    await api("PATCH", `/api/organizations/${w.org.id}/pay-period-settings`, {
      token: w.org.adminToken,
      body: { frequency: "WEEKLY", anchorDate: periodId },
    });
    // Workweeks aligned with the periods: the period's last workweek ended two days ago.
    await createRuleSet(w.org, { preset: "FLSA", workweekStartsOn: weekdayOf(periodId) });
    expect((await closePeriod(w, periodId, { approveAll: true })).status).toBe(200);
    // 23:00 UTC two days ago: 18:00 or 19:00 of that date in New York, the location's zone.
    const refused = await clockIn(w, { occurredAt: `${addDays(today, -2)}T23:00:00Z` });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "PAY_PERIOD_CLOSED", periodId });
    expect((await feed(w.org)).some((e) => e.type === "shift.clocked_in")).toBe(false);
  });

  it("a time-off approval racing a close: either it is refused, or the close fails or pays it — never a paid period without it", async () => {
    // The approval starts later each round, so that both orders (and the overlap between them) are exercised.
    for (const delay of [0, 40, 120, 400]) {
      const w = await createWorkplace();
      await api("PATCH", orgPath(w.org, "/time-off-settings"), { token: w.org.adminToken, body: { allowPastRequests: true } });
      const policy = await createPolicy(w.org, { allowNegativeBalance: true, requiresApproval: true });
      const pending = await api("POST", orgPath(w.org, "/time-off-requests"), {
        token: w.org.adminToken,
        body: { workerId: w.staff.id, policyId: policy.id, startTime: "2026-09-16T09:00:00Z", endTime: "2026-09-16T17:00:00Z" },
      });
      const [approval, close] = await Promise.all([
        new Promise((resolve) => setTimeout(resolve, delay)).then(() =>
          api("POST", orgPath(w.org, `/time-off-requests/${pending.body.id}/approve`), { token: w.org.adminToken }),
        ),
        closePeriod(w, PERIOD, { approveAll: true }),
      ]);
      const outcome = [approval.status, approval.body.code ?? null, close.status, close.body.code ?? null];
      expect([
        [409, "PAY_PERIOD_CLOSED", 200, null],
        [200, null, 200, null],
        [200, null, 409, "PAY_PERIOD_CHANGED"],
      ]).toContainEqual(outcome);
      if (close.status === 200) {
        const payroll = (await api("GET", `${periodsPath(w.org)}/${PERIOD}/payroll`, { token: w.org.adminToken })).body;
        expect(payroll.totals.timeOffHours).toBe(approval.status === 200 ? 8 : 0);
      }
    }
  });
});

describe("a period that has not ended cannot be closed", () => {
  const todayUtc = () => new Date().toISOString().slice(0, 10);

  /** An organization in UTC with weekly periods ending yesterday, and rule sets whose workweeks start on `startsOn`. */
  async function periodEndingYesterday(startsOn: (today: string) => string) {
    const org = await createOrganization({ timezone: "UTC" });
    const today = todayUtc();
    const settings = await api("PATCH", `/api/organizations/${org.id}/pay-period-settings`, {
      token: org.adminToken,
      body: { frequency: "WEEKLY", anchorDate: addDays(today, -7) },
    });
    expect(settings.status).toBe(200);
    await createRuleSet(org, { preset: "FLSA", workweekStartsOn: startsOn(today) });
    const w = { org } as Workplace;
    return { w, today, close: (id: string) => closePeriod(w, id, { approveAll: true }) };
  }

  it("refuses the current period and one in 2199 (409 PAY_PERIOD_NOT_ENDED) and writes nothing", async () => {
    const { w, today, close } = await periodEndingYesterday(weekdayOf);
    for (const id of [today, addDays(today, 7 * 9000)]) {
      const refused = await close(id);
      expect(refused.status, id).toBe(409);
      expect(refused.body, id).toMatchObject({ code: "PAY_PERIOD_NOT_ENDED", periodId: id });
      expect((await api("GET", `${periodsPath(w.org)}/${id}`, { token: w.org.adminToken })).body.status).toBe("OPEN");
    }
    expect((await feed(w.org)).some((e) => e.type === "pay_period.closed")).toBe(false);
    // The period that ended yesterday, its workweeks aligned with it, closes.
    expect((await close(addDays(today, -7))).status).toBe(200);
  });

  it("the issue's 2199-12-30 (a Monday: a weekly period under the default settings) is 409 PAY_PERIOD_NOT_ENDED", async () => {
    const w = await createWorkplace();
    const refused = await closePeriod(w, "2199-12-30", { approveAll: true });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "PAY_PERIOD_NOT_ENDED", periodId: "2199-12-30" });
  });

  it("refuses a period that ended while a workweek overlapping it runs on to today", async () => {
    // Workweeks from yesterday's weekday: the one holding the period's last day runs until 5 days from now.
    const { today, close } = await periodEndingYesterday((t) => weekdayOf(addDays(t, -1)));
    const refused = await close(addDays(today, -7));
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "PAY_PERIOD_NOT_ENDED", periodId: addDays(today, -7) });
  });
});

describe("nobody approves their own work", () => {
  it("a manager approving their own timesheet is 403, alone or among others, and approves nothing", async () => {
    const w = await createWorkplace();
    const manager = await createStaffMember(w.org, { locationIds: [w.location.id], accessRoleName: "Manager" });
    const token = await staffToken(w.org, manager.id);
    await workDay({ ...w, staff: manager }, "2026-06-01", 8);
    await workDay(w, "2026-06-02", 8);
    for (const ids of [[manager.id], [w.staff.id, manager.id]]) {
      const res = await approve(w, "2026-06-01", ids, token);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe("FORBIDDEN");
    }
    expect((await api("GET", `${periodsPath(w.org)}/2026-06-01`, { token: w.org.adminToken })).body.approvedCount).toBe(0);
    expect((await approve(w, "2026-06-01", [w.staff.id], token)).status).toBe(200);
    // The organization's own token acts for no staff member: it approves anyone.
    expect((await approve(w, "2026-06-01", [manager.id])).status).toBe(200);
  });

  it("an admin closing with approveAll would approve their own timesheet: 403", async () => {
    const w = await createWorkplace();
    const admin = await createStaffMember(w.org, { locationIds: [w.location.id], accessRoleName: "Admin" });
    const token = await staffToken(w.org, admin.id);
    await workDay({ ...w, staff: admin }, "2026-06-01", 8);
    await workDay(w, "2026-06-02", 8);
    const refused = await closePeriod(w, "2026-06-01", { approveAll: true }, token);
    expect(refused.status).toBe(403);
    expect((await api("GET", `${periodsPath(w.org)}/2026-06-01`, { token: w.org.adminToken })).body).toMatchObject({
      status: "OPEN",
      approvedCount: 0,
    });
    expect((await approve(w, "2026-06-01", [admin.id])).status).toBe(200);
    expect((await closePeriod(w, "2026-06-01", { approveAll: true }, token)).status).toBe(200);
  });
});
