import { describe, expect, it } from "vitest";
import { addDays } from "@/domain/local-time";
import { api } from "../../helpers/api";
import { enrollDevice, setStaffPin } from "../../helpers/kiosk";
import { closePeriod, createRuleSet, feed, payLines, periodsPath, workDay } from "../../helpers/pay";
import { createManual, manualShift, seedShifts } from "../../helpers/timesheets";
import { createBreakType, createWorkplace, punch, type Workplace } from "../../helpers/workplace";

// Frozen means every minute (API.md "Pay at the edges"): a write is refused when any minute it adds, removes or moves
// falls on a frozen date — both ends of a shift crossing midnight, the old and the new times of an edit.

/** October 2025, a monthly period; under Sunday workweeks its close freezes Sunday Sep 28 … Saturday Nov 1. */
const OCTOBER = "2025-10-01";

const admin = (w: Workplace) => ({ token: w.org.adminToken });
const octoberPay = async (w: Workplace) =>
  (await payLines(w, { startDate: OCTOBER, endDate: "2025-10-31" })).body.totals.grossPay as number;

/**
 * The organization: monthly periods from October 1st, FLSA on Sunday workweeks, 40 h worked in October at
 * $20 (Monday Oct 6 … Friday Oct 10, 8 h a day: 5 × 8 × $20 = $800); the shifts `before` adds are entered first.
 */
async function closedOctober(before: (w: Workplace) => Promise<void> = async () => {}) {
  const w = await createWorkplace();
  const settings = await api("PATCH", `/api/organizations/${w.org.id}/pay-period-settings`, {
    ...admin(w),
    body: { frequency: "MONTHLY", anchorDate: OCTOBER },
  });
  expect(settings.status).toBe(200);
  await createRuleSet(w.org, { preset: "FLSA", workweekStartsOn: "Sunday", effectiveFrom: "2025-01-01" });
  const october: { id: string; startTime: string }[] = [];
  for (let day = 0; day < 5; day++) october.push(await workDay(w, addDays("2025-10-06", day), 8));
  await before(w);
  const closed = await closePeriod(w, OCTOBER, { approveAll: true });
  expect(closed.status).toBe(200);
  const frozen = await api("GET", `${periodsPath(w.org)}/${OCTOBER}/payroll`, admin(w));
  // 5 days × 8 h × $20 = $800.
  expect(frozen.body.totals.grossPay).toBe(800);
  return Object.assign(w, { october });
}

const expectClosed = (res: { status: number; body: Record<string, unknown> }, name: string) => {
  expect(res.status, name).toBe(409);
  expect(res.body, name).toMatchObject({ code: "PAY_PERIOD_CLOSED", periodId: OCTOBER });
};

describe("frozen means every minute: shifts crossing into or out of the frozen dates", () => {
  it("a manual shift Sep 27 22:00 → Sep 28 08:00 is 409 (its last 8 h fall on a frozen date); October stays $800", async () => {
    const w = await closedOctober();
    const created = await manualShift(w, { startTime: "2025-09-27T22:00:00Z", endTime: "2025-09-28T08:00:00Z", hourlyWage: 20 });
    expectClosed(created, "create");
    // Still 5 × 8 h × $20 = $800, and no shift recorded.
    expect(await octoberPay(w)).toBe(800);
    expect((await feed(w.org)).filter((e) => e.type === "shift.created")).toHaveLength(5);
    // Ending at midnight, no minute falls on Sep 28: the shift is in the open September.
    const untilMidnight = await manualShift(w, { startTime: "2025-09-27T16:00:00Z", endTime: "2025-09-28T00:00:00Z", hourlyWage: 20 });
    expect(untilMidnight.status).toBe(201);
  });

  it("an edit stretching a Sep 27 shift to end Sep 28 09:00 is 409 and keeps it; a Friday-night shift is free", async () => {
    let saturday = { id: "", endTime: "" };
    let crossing = { id: "" };
    const w = await closedOctober(async (w) => {
      saturday = await createManual(w, { startTime: "2025-09-27T14:00:00Z", endTime: "2025-09-27T20:00:00Z", hourlyWage: 20 });
      crossing = await createManual(w, { startTime: "2025-09-26T22:00:00Z", endTime: "2025-09-27T06:00:00Z", hourlyWage: 20 });
    });
    // A shift Friday night into Saturday touches no frozen date: free to change.
    expect((await api("PATCH", `/api/timesheets/${crossing.id}`, { ...admin(w), body: { endTime: "2025-09-27T05:00:00Z" } })).status).toBe(
      200,
    );
    const attempts = {
      stretch: () => api("PATCH", `/api/timesheets/${saturday.id}`, { ...admin(w), body: { endTime: "2025-09-28T09:00:00Z" } }),
    };
    for (const [name, attempt] of Object.entries(attempts)) expectClosed(await attempt(), name);
    expect((await api("GET", `/api/timesheets/${saturday.id}`, admin(w))).body.endTime).toBe(saturday.endTime);
    expect(await octoberPay(w)).toBe(800);
  });

  it("deleting a shift Sep 27 22:00 → Sep 28 06:00 (alone, or with its day) is 409 and keeps it", async () => {
    let overnight = { id: "" };
    const w = await closedOctober(async (w) => {
      overnight = await createManual(w, { startTime: "2025-09-27T22:00:00Z", endTime: "2025-09-28T06:00:00Z", hourlyWage: 20 });
    });
    const attempts = {
      delete: () => api("DELETE", `/api/timesheets/${overnight.id}`, admin(w)),
      deleteDay: () => api("DELETE", `/api/timesheets?date=2025-09-27&locationId=${w.location.id}`, admin(w)),
    };
    for (const [name, attempt] of Object.entries(attempts)) expectClosed(await attempt(), name);
    expect((await api("GET", `/api/timesheets/${overnight.id}`, admin(w))).status).toBe(200);
  });

  it("moving a frozen shift out to an open date is 409 (its old minutes are frozen); moving an open one is fine", async () => {
    const w = await closedOctober();
    const monday = w.october[0]!;
    const moved = await api("PATCH", `/api/timesheets/${monday.id}`, {
      ...admin(w),
      body: { startTime: "2025-11-05T08:00:00Z", endTime: "2025-11-05T16:00:00Z" },
    });
    expectClosed(moved, "moveOut");
    expect((await api("GET", `/api/timesheets/${monday.id}`, admin(w))).body.startTime).toBe(monday.startTime);
    // 5 × 8 h × $20.
    expect(await octoberPay(w)).toBe(800);
    const november = await createManual(w, { startTime: "2025-11-03T08:00:00Z", endTime: "2025-11-03T16:00:00Z", hourlyWage: 20 });
    const later = await api("PATCH", `/api/timesheets/${november.id}`, {
      ...admin(w),
      body: { startTime: "2025-11-04T08:00:00Z", endTime: "2025-11-04T16:00:00Z" },
    });
    expect(later.status).toBe(200);
  });
});

describe("frozen means every minute: a wage rate's old effectiveFrom", () => {
  it("moving a rate out of the frozen dates (Oct 15 → Nov 10) is 409; moving one between open dates is fine", async () => {
    let frozenRate = { id: "" };
    let openRate = { id: "" };
    const w = await closedOctober(async (w) => {
      const rate = (effectiveFrom: string) =>
        api("POST", `/api/organizations/${w.org.id}/wage-rates`, {
          ...admin(w),
          body: { employeeId: w.staff.id, hourlyRate: 30, effectiveFrom },
        });
      frozenRate = (await rate("2025-10-15")).body;
      openRate = (await rate("2025-11-20")).body;
    });
    const move = (id: string, effectiveFrom: string) =>
      api("PATCH", `/api/organizations/${w.org.id}/wage-rates/${id}`, { ...admin(w), body: { effectiveFrom } });
    expectClosed(await move(frozenRate.id, "2025-11-10"), "moveOut");
    const read = await api("GET", `/api/organizations/${w.org.id}/wage-rates/${frozenRate.id}`, admin(w));
    expect(read.body.effectiveFrom).toBe("2025-10-15");
    expect((await move(openRate.id, "2025-11-25")).status).toBe(200);
    // 5 × 8 h × $20: the shifts kept their wage.
    expect(await octoberPay(w)).toBe(800);
  });
});

describe("frozen means every minute: punches on a shift begun before the frozen dates", () => {
  const PIN = "1357";
  const weekdayOf = (date: string) =>
    ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][new Date(`${date}T00:00:00Z`).getUTCDay()]!;

  /**
   * A weekly period that ended two days ago, closed (workweeks aligned with it: its dates frozen, the day before it
   * free), and a shift its staff member clocked in to the day before the period, 20:00 New York, still open.
   */
  async function openAcrossTheClose() {
    const w = await createWorkplace();
    const today = new Date().toISOString().slice(0, 10);
    const periodId = addDays(today, -8);
    await api("PATCH", `/api/organizations/${w.org.id}/pay-period-settings`, {
      ...admin(w),
      body: { frequency: "WEEKLY", anchorDate: periodId },
    });
    await createRuleSet(w.org, { preset: "FLSA", workweekStartsOn: weekdayOf(periodId) });
    const dayBefore = addDays(periodId, -1);
    const offset = -300; // New York in winter; the business date is the day before either way.
    await seedShifts(w.org.id, [
      {
        employeeId: w.staff.id,
        locationId: w.location.id,
        roleId: w.roleId,
        start: new Date(`${dayBefore}T20:00:00-05:00`),
        minutes: 0,
        utcOffset: offset,
        open: true,
      },
    ]);
    expect((await closePeriod(w, periodId, { approveAll: true })).status).toBe(200);
    return { w, periodId };
  }

  it("a clock-out, a break and a kiosk clock-out of that shift are 409: its minutes run through the frozen dates", async () => {
    const { w, periodId } = await openAcrossTheClose();
    const lunch = await createBreakType(w);
    await setStaffPin(w.org, w.staff.id, PIN);
    const device = await enrollDevice(w.org, w.location.id);
    const attempts = {
      phoneClockOut: () => punch(w, "clock-out"),
      phoneBreak: () => punch(w, "break-start", { typeId: lunch.id }),
      kioskClockOut: () =>
        api("POST", "/api/kiosk/punches", {
          token: device.token,
          body: { employeeId: w.staff.id, pin: PIN, action: "CLOCK_OUT" },
          headers: { "Idempotency-Key": "kiosk-out" },
        }),
    };
    for (const [name, attempt] of Object.entries(attempts)) {
      const res = await attempt();
      expect(res.status, name).toBe(409);
      expect(res.body, name).toMatchObject({ code: "PAY_PERIOD_CLOSED", periodId });
    }
    const events = (await feed(w.org)).map((e) => e.type);
    expect(events.filter((t) => t.startsWith("shift."))).toEqual([]);
  });
});
