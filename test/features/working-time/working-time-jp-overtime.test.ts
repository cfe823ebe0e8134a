import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createSchedulePlace, type SchedulePlace } from "../../helpers/schedules";
import { staffPath } from "../../helpers/staff";
import { seedShifts } from "../../helpers/timesheets";
import { clockIn, createWorkplace, exceptionsAroundToday, minutesAgo, punch } from "../../helpers/workplace";

/*
 * Issue 47: Japan's overtime caps (Labour Standards Act art. 36) at clock-out and in the report, with the special
 * clause a location's agreement may have (art. 36(5)) and the limits binding whatever it says (art. 36(6)); the UK
 * young workers' weekly rest (WTR 1998 reg. 11(3)) in the report.
 */

const DAY = 86_400_000;

async function putRules(orgId: string, locationId: string, token: string, body: Record<string, unknown>) {
  return api("PUT", `/api/organizations/${orgId}/locations/${locationId}/working-time`, { token, body });
}

describe("JP at clock-out: MONTHLY_OVERTIME_CAP_EXCEEDED (art. 36(4): 45 hours a month)", () => {
  /** JP; the six other dates of the clocked hour's week seeded with `perDay` minutes from 06:00; the hour clocked. */
  async function weekWithHour(perDay: number) {
    const w = await createWorkplace({ timezone: "UTC" });
    const put = await putRules(w.org.id, w.location.id, w.org.adminToken, { rulePack: "JP" });
    expect(put.status, put.text).toBe(200);
    // The hour is clocked from 70 to 10 minutes ago: its date, and the six other dates of its Monday-to-Sunday week.
    const date = new Date(Date.now() - 70 * 60_000).toISOString().slice(0, 10);
    const monday = Date.parse(`${date}T00:00:00Z`) - ((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7) * DAY;
    const others = Array.from({ length: 7 }, (_, i) => monday + i * DAY).filter((d) => new Date(d).toISOString().slice(0, 10) !== date);
    const shift = await clockIn(w, { occurredAt: minutesAgo(70) });
    expect(shift.status, shift.text).toBe(200);
    // Seeded after the clock-in: an open shift would overlap the week's later days.
    // Six days of 14 h 10 (850 minutes, 06:00–20:10): 5,100 minutes, 2,700 over the week's 40 hours (2,400) — exactly
    // 45 hours of overtime, the cap, all of it in the month the week starts (no other week of it is worked).
    await seedShifts(
      w.org.id,
      others.map((d) => ({
        employeeId: w.staff.id,
        locationId: w.location.id,
        roleId: w.roleId,
        start: new Date(d + 6 * 3_600_000),
        minutes: perDay,
        utcOffset: 0,
      })),
    );
    expect((await punch(w, "clock-out", { occurredAt: minutesAgo(10) })).status).toBe(200);
    return { w, shiftId: shift.body.id as string };
  }

  it("an hour that takes the month's overtime from exactly 45 hours to 46 raises it, 60 minutes over, through fetch", async () => {
    const { w, shiftId } = await weekWithHour(850);
    // 5,160 minutes in the week: 2,760 over 40 hours, 46 hours of overtime, 60 minutes over 45.
    expect((await exceptionsAroundToday(w)).map((e) => [e.type, e.minutes, e.shiftId])).toEqual([
      ["MONTHLY_OVERTIME_CAP_EXCEEDED", 60, shiftId],
    ]);
  });

  it("an hour that brings it to exactly 45 raises nothing", async () => {
    // Six days of 14 h (840 minutes): 5,040; with the hour 5,100, 2,700 over 40 hours — exactly the 45-hour cap.
    const { w } = await weekWithHour(840);
    expect(await exceptionsAroundToday(w)).toEqual([]);
  });
});

/** February 2026, Monday to Friday from the 2nd to the 27th, 06:00 for 14 h with a 60-minute break: 13 h worked, 5 over 8. */
const februaryOf = (p: SchedulePlace, workedLastFriday = 780) =>
  seedShifts(
    p.org.id,
    Array.from({ length: 20 }, (_, i) => ({
      employeeId: p.staff.id,
      locationId: p.location.id,
      roleId: p.roleId,
      start: new Date(Date.parse("2026-02-02T06:00:00Z") + (Math.floor(i / 5) * 7 + (i % 5)) * DAY),
      minutes: (i === 19 ? workedLastFriday : 780) + 60,
      unpaidBreakMinutes: 60,
      utcOffset: 0,
    })),
  );

type Row = { violations: { rule: string; limit: number; actual: number; date: string; source: string }[]; weeksWithoutWeeklyRest: number };
const reportOf = async (p: SchedulePlace, startDate: string, endDate: string) => {
  const res = await api(
    "GET",
    `/api/organizations/${p.org.id}/working-time?startDate=${startDate}&endDate=${endDate}&employeeId=${p.staff.id}`,
    { token: p.org.adminToken },
  );
  expect(res.status, res.text).toBe(200);
  return res.body as Row[];
};

describe("JP in the report: the special clause (art. 36(5)) and under 100 hours a month (art. 36(6)(ii))", () => {
  it("with the clause, February's 100 hours of overtime is MONTHLY_OVERTIME_AND_HOLIDAY_WORK only (one month over 45 is allowed)", async () => {
    const p = await createSchedulePlace("UTC");
    const put = await putRules(p.org.id, p.location.id, p.org.adminToken, { rulePack: "JP", overrides: { overtimeSpecialClause: true } });
    expect(put.status, put.text).toBe(200);
    expect(put.body.effective.overtimeCap.specialClause).toMatchObject({ applies: true, yearHours: 720, monthsOverMonthHours: 6 });
    await februaryOf(p);
    // 20 days × 5 hours over 8 = 100 hours: "under 100" is broken at exactly 100.
    expect((await reportOf(p, "2026-02-02", "2026-03-01"))[0]!.violations).toEqual([
      expect.objectContaining({
        rule: "MONTHLY_OVERTIME_AND_HOLIDAY_WORK",
        limit: 100,
        actual: 100,
        date: "2026-02-01",
        source: "Labour Standards Act art. 36(6)(ii)",
      }),
    ]);
  });

  it("without the clause the same month is also over 45; with 99 h 59 only the 45", async () => {
    const p = await createSchedulePlace("UTC");
    expect((await putRules(p.org.id, p.location.id, p.org.adminToken, { rulePack: "JP" })).status).toBe(200);
    await februaryOf(p, 779);
    expect((await reportOf(p, "2026-02-02", "2026-03-01"))[0]!.violations).toEqual([
      expect.objectContaining({ rule: "MONTHLY_OVERTIME", limit: 45, actual: 99.98, source: "Labour Standards Act art. 32, art. 36(4)" }),
    ]);
  });

  it("only JP takes the override; a UK location's is a 400 naming it", async () => {
    const p = await createSchedulePlace("UTC");
    const res = await putRules(p.org.id, p.location.id, p.org.adminToken, { rulePack: "UK", overrides: { overtimeSpecialClause: true } });
    expect(res.status, res.text).toBe(400);
    expect(res.text).toContain("overrides.overtimeSpecialClause");
  });
});

describe("UK young workers in the report: 48 hours' weekly rest in each 7 days (WTR 1998 reg. 11(3))", () => {
  /**
   * A 17-year-old (born 2009-01-01) works Monday 2026-06-01 to Friday 09:00–16:30 with a 30-minute break (7 h, reg.
   * 12(4)'s break kept), then Sunday from `sunday` for 4 hours: 39 hours, under reg. 5A's 40.
   */
  async function youngWeek(sunday: string) {
    const p = await createSchedulePlace("UTC");
    expect((await putRules(p.org.id, p.location.id, p.org.adminToken, { rulePack: "UK" })).status).toBe(200);
    const patch = await api("PATCH", staffPath(p.org, `/${p.staff.id}`), { token: p.org.adminToken, body: { birthDate: "2009-01-01" } });
    expect(patch.status, patch.text).toBe(200);
    const seed = { employeeId: p.staff.id, locationId: p.location.id, roleId: p.roleId, utcOffset: 0 };
    await seedShifts(p.org.id, [
      ...[1, 2, 3, 4, 5].map((d) => ({ ...seed, start: new Date(`2026-06-0${d}T09:00:00Z`), minutes: 450, unpaidBreakMinutes: 30 })),
      { ...seed, start: new Date(sunday), minutes: 240 },
    ]);
    return (await reportOf(p, "2026-06-01", "2026-06-07"))[0]!;
  }

  it("Friday 16:30 to Sunday 16:30 is exactly 48 hours: nothing reported", async () => {
    expect(await youngWeek("2026-06-07T16:30:00Z")).toMatchObject({ violations: [], weeksWithoutWeeklyRest: 0 });
  });

  it("from 16:29 it is 47 h 59: MINOR_WEEKLY_REST", async () => {
    const row = await youngWeek("2026-06-07T16:29:00Z");
    expect(row.weeksWithoutWeeklyRest).toBe(1);
    expect(row.violations).toEqual([
      expect.objectContaining({
        rule: "MINOR_WEEKLY_REST",
        limit: 48,
        actual: 47.98,
        date: "2026-06-01",
        source: "WTR 1998 reg. 11(3), 11(8)(b)",
      }),
    ]);
  });
});
