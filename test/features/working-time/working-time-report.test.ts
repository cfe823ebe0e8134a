import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createWorkingTimePlace, type SchedulePlace } from "../../helpers/schedules";
import { createStaffMember, staffPath, staffToken } from "../../helpers/staff";
import { seedShifts } from "../../helpers/timesheets";

/* Issue 47 item 3: the working-time report, per worker and reference period. */

const DAY = 86_400_000;
// 17 weeks from Monday 2026-01-05: 2026-01-05 .. 2026-05-03 (119 days).
const START = "2026-01-05";
const END = "2026-05-03";

/** 17 weeks of five 10-hour days (08:00–18:00 UTC, a 20-minute break each: 9 h 40 worked) for `employeeId`. */
const fiftyHourWeeks = (p: SchedulePlace, employeeId: string) =>
  seedShifts(
    p.org.id,
    Array.from({ length: 17 * 5 }, (_, i) => ({
      employeeId,
      locationId: p.location.id,
      roleId: p.roleId,
      start: new Date(Date.parse(`${START}T08:00:00Z`) + (Math.floor(i / 5) * 7 + (i % 5)) * DAY),
      // 10 h 20 min with a 20-minute unpaid break: 10 hours worked a day, 50 a week.
      minutes: 620,
      unpaidBreakMinutes: 20,
      utcOffset: 0,
    })),
  );

const reportOf = (p: SchedulePlace, employeeId: string, token = p.org.adminToken) =>
  api("GET", `/api/organizations/${p.org.id}/working-time?startDate=${START}&endDate=${END}&employeeId=${employeeId}`, { token });

describe("GET /organizations/{org}/working-time", () => {
  it("reports a UK worker's 17-week average over 48 hours, with its source (WTR 1998 reg. 4)", async () => {
    const p = await createWorkingTimePlace("UK");
    await fiftyHourWeeks(p, p.staff.id);
    const res = await reportOf(p, p.staff.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toHaveLength(1);
    // 85 days of 10 h = 850 h over 17 weeks: 50 a week.
    expect(res.body[0]).toMatchObject({
      employeeId: p.staff.id,
      rulePack: "UK",
      periodStart: START,
      periodEnd: END,
      averageWeeklyHours: 50,
      longestDayHours: 10,
      shortestRestHours: 13.67, // 18:20 to 08:00
      weeksWithoutWeeklyRest: 0,
    });
    expect(res.body[0].violations).toEqual([
      {
        rule: "WEEKLY_AVERAGE",
        limit: 48,
        actual: 50,
        unit: "HOURS",
        date: START,
        scheduleEntryIds: [],
        shiftIds: [],
        source: "WTR 1998 reg. 4(1), 4(3)(b); opt-out reg. 5",
      },
    ]);
  });

  it("does not hold a worker who opted out to the average; a withdrawn opt-out holds again", async () => {
    const p = await createWorkingTimePlace("UK");
    await fiftyHourWeeks(p, p.staff.id);
    const optOut = await api("PATCH", staffPath(p.org, `/${p.staff.id}`), {
      token: p.org.adminToken,
      body: { workingTimeOptOut: { signedOn: "2025-11-03" } },
    });
    expect(optOut.status, optOut.text).toBe(200);
    expect(optOut.body.workingTimeOptOut).toEqual({ signedOn: "2025-11-03", withdrawnOn: null });
    const res = await reportOf(p, p.staff.id);
    expect(res.body[0].averageWeeklyHours).toBe(50);
    expect(res.body[0].violations).toEqual([]);
    await api("PATCH", staffPath(p.org, `/${p.staff.id}`), {
      token: p.org.adminToken,
      body: { workingTimeOptOut: { signedOn: "2025-11-03", withdrawnOn: "2026-02-01" } },
    });
    expect((await reportOf(p, p.staff.id)).body[0].violations.map((v: { rule: string }) => v.rule)).toEqual(["WEEKLY_AVERAGE"]);
  });

  it("refuses an opt-out withdrawn before it was signed", async () => {
    const p = await createWorkingTimePlace("UK");
    const res = await api("PATCH", staffPath(p.org, `/${p.staff.id}`), {
      token: p.org.adminToken,
      body: { workingTimeOptOut: { signedOn: "2026-03-01", withdrawnOn: "2026-02-01" } },
    });
    expect(res.status).toBe(400);
  });

  it("pages by staff member; a staff member reads only their own rows", async () => {
    const p = await createWorkingTimePlace("UK");
    const other = await createStaffMember(p.org, { locationIds: [p.location.id], accessRoleName: "Employee" });
    await fiftyHourWeeks(p, p.staff.id);
    await fiftyHourWeeks(p, other.id);
    const first = await api("GET", `/api/organizations/${p.org.id}/working-time?startDate=${START}&endDate=${END}&limit=1`, {
      token: p.org.adminToken,
    });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toHaveLength(1);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get("Link") ?? "")?.[1];
    expect(next).toBeTruthy();
    const own = await api("GET", `/api/organizations/${p.org.id}/working-time?startDate=${START}&endDate=${END}`, {
      token: await staffToken(p.org, other.id),
    });
    expect(own.body.map((r: { employeeId: string }) => r.employeeId)).toEqual([other.id]);
  });

  it("refuses a range over 371 days", async () => {
    const p = await createWorkingTimePlace("UK");
    const res = await api("GET", `/api/organizations/${p.org.id}/working-time?startDate=2025-01-01&endDate=2026-01-08`, {
      token: p.org.adminToken,
    });
    expect(res.status).toBe(400);
  });
});
