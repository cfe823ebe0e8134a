import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { feed } from "../../helpers/pay";
import { staffPath } from "../../helpers/staff";
import { seedShifts } from "../../helpers/timesheets";
import { clockIn, createWorkplace, exceptionsAroundToday, minutesAgo, punch, type Workplace } from "../../helpers/workplace";

/*
 * Issue 47 item 2: a clock-out raises WEEKLY_AVERAGE_EXCEEDED (UK, unless the worker's opt-out is in force) and
 * MINOR_HOURS (US 14- and 15-year-olds) in its own batch. Dates are relative to now: the shifts seeded two days ago
 * and earlier lie inside the 17 weeks ending on the clock-out's date whatever the hour the test runs.
 */

const DAY = 86_400_000;

async function workplaceWith(rulePack: string) {
  const w = await createWorkplace({ timezone: "UTC" });
  const res = await api("PUT", `/api/organizations/${w.org.id}/locations/${w.location.id}/working-time`, {
    token: w.org.adminToken,
    body: { rulePack },
  });
  expect(res.status, res.text).toBe(200);
  return w;
}

/** One hour clocked in and out now: 60 minutes worked, no break due. */
async function anHour(w: Workplace) {
  const shift = await clockIn(w, { occurredAt: minutesAgo(70) });
  expect(shift.status, shift.text).toBe(200);
  expect((await punch(w, "clock-out", { occurredAt: minutesAgo(10) })).status).toBe(200);
  return shift.body.id as string;
}

describe("UK: the 17-week average at clock-out (WTR 1998 reg. 4, opt-out reg. 5)", () => {
  /**
   * 90 earlier days (2 to 91 days ago) of 08:00–17:29 with a 20-minute break: 549 minutes worked each, 49,410 in all.
   * With the hour clocked now, 49,470 over 17 weeks: 2,910 a week, 30 minutes over 48 hours (17 × 2,880 = 48,960).
   */
  const seventeenWeeks = (w: Workplace) =>
    seedShifts(
      w.org.id,
      Array.from({ length: 90 }, (_, i) => ({
        employeeId: w.staff.id,
        locationId: w.location.id,
        roleId: w.roleId,
        start: new Date(Date.parse(`${new Date(Date.now() - (i + 2) * DAY).toISOString().slice(0, 10)}T08:00:00Z`)),
        minutes: 569,
        unpaidBreakMinutes: 20,
        utcOffset: 0,
      })),
    );

  it("raises WEEKLY_AVERAGE_EXCEEDED, 30 minutes a week over, in the clock-out's batch", async () => {
    const w = await workplaceWith("UK");
    await seventeenWeeks(w);
    const shiftId = await anHour(w);
    expect((await exceptionsAroundToday(w)).map((e) => [e.type, e.minutes, e.shiftId])).toEqual([["WEEKLY_AVERAGE_EXCEEDED", 30, shiftId]]);
    const raised = (await feed(w.org)).filter((e) => e.type === "attendance_exception.raised");
    expect(raised.map((e) => e.data.type).filter((type) => type !== "UNSCHEDULED_SHIFT")).toEqual(["WEEKLY_AVERAGE_EXCEEDED"]);
  });

  it("raises nothing while the worker's opt-out is in force", async () => {
    const w = await workplaceWith("UK");
    const optOut = await api("PATCH", staffPath(w.org, `/${w.staff.id}`), {
      token: w.org.adminToken,
      body: { workingTimeOptOut: { signedOn: "2020-01-06" } },
    });
    expect(optOut.status, optOut.text).toBe(200);
    await seventeenWeeks(w);
    await anHour(w);
    expect(await exceptionsAroundToday(w)).toEqual([]);
  });
});

describe("US minors at clock-out (29 CFR 570.35(a))", () => {
  it("a 14-year-old's 8 h 01 on a day outside school: MINOR_HOURS, 1 minute over 8", async () => {
    const w = await workplaceWith("US_MINORS");
    // Fourteen years and a hundred days old today, whatever today is: a minor on the date worked.
    const born = new Date(Date.now() - 100 * DAY);
    born.setUTCFullYear(born.getUTCFullYear() - 14);
    const patch = await api("PATCH", staffPath(w.org, `/${w.staff.id}`), {
      token: w.org.adminToken,
      body: { birthDate: born.toISOString().slice(0, 10) },
    });
    expect(patch.status, patch.text).toBe(200);
    // No school terms: every day is outside school, 8 hours a day (570.35(a)(5)).
    const shift = await clockIn(w, { occurredAt: minutesAgo(491) });
    expect(shift.status, shift.text).toBe(200);
    expect((await punch(w, "clock-out", { occurredAt: minutesAgo(10) })).status).toBe(200);
    expect((await exceptionsAroundToday(w)).map((e) => [e.type, e.minutes, e.shiftId])).toEqual([["MINOR_HOURS", 1, shift.body.id]]);
  });
});
