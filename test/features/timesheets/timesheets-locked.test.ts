import { describe, expect, it } from "vitest";
import { addDays, businessDate, offsetMinutesAt } from "@/domain/local-time";
import { instantInZone } from "@/domain/zoned-wall-clock";
import { api } from "../../helpers/api";
import { expectInvalid } from "../../helpers/problems";
import { createStaffMember, staffToken } from "../../helpers/staff";
import { createManual, lockDay, manualShift, staffWithPermissions, timesheets, unlockDay } from "../../helpers/timesheets";
import { clockIn, createBreakType, createWorkplace, punch } from "../../helpers/workplace";

const DAY = { startTime: "2026-03-14T09:00:00Z", endTime: "2026-03-14T17:00:00Z" };
const newYorkDate = (instant: Date) => businessDate(instant, offsetMinutesAt("America/New_York", instant));

describe("POST /api/timesheets/locked-days", () => {
  it("locks a day idempotently and shows it in the listing and on its shifts", async () => {
    const w = await createWorkplace();
    const shift = await createManual(w, DAY);
    const first = await lockDay(w, "2026-03-14");
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      organizationId: w.org.id,
      locationId: w.location.id,
      date: "2026-03-14",
      locked: true,
      lockedBy: "partner:dev-partner",
    });
    const again = await lockDay(w, "2026-03-14");
    expect(again.body).toEqual(first.body);
    const listing = await timesheets(w, { startDate: "2026-03-01", endDate: "2026-03-31" });
    expect(listing.body.lockedDays).toEqual(["2026-03-14"]);
    expect(listing.body.shifts[0]).toMatchObject({ id: shift.id, locked: true });
    expect((await api("GET", `/api/timesheets/${shift.id}`, { token: w.org.adminToken })).body.locked).toBe(true);
  });

  it("needs LOCATION_ADMIN: a SHIFT_WRITE holder is 403, a Manager locks in their own name", async () => {
    const w = await createWorkplace();
    const writer = await staffWithPermissions(w, ["SHIFT_WRITE"]);
    expect((await lockDay(w, "2026-03-14", writer.token)).status).toBe(403);
    expect((await unlockDay(w, "2026-03-14", writer.token)).status).toBe(403);
    expect((await lockDay(w, "2026-03-14", w.token)).status).toBe(403);
    const manager = await createStaffMember(w.org, { accessRoleName: "Manager" });
    const res = await lockDay(w, "2026-03-14", await staffToken(w.org, manager.id));
    expect(res.status).toBe(200);
    expect(res.body.lockedBy).toBe(manager.id);
  });

  it("refuses a bad date, an unknown location and another organization's location with 400", async () => {
    const w = await createWorkplace();
    const other = await createWorkplace();
    const post = (body: unknown) => api("POST", "/api/timesheets/locked-days", { token: w.org.adminToken, body });
    expect((await post({ date: "2026-02-30", locationId: w.location.id })).body.errors[0].path).toBe("date");
    expect((await post({ date: "2026-03-14", locationId: "nope" })).body.errors[0].path).toBe("locationId");
    const foreign = await post({ date: "2026-03-14", locationId: other.location.id });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors[0].path).toBe("locationId");
    expectInvalid(await unlockDay({ ...w, location: other.location }, "2026-03-14"), ["locationId"]);
  });

  it("DELETE reopens the day, idempotently", async () => {
    const w = await createWorkplace();
    await lockDay(w, "2026-03-14");
    const res = await unlockDay(w, "2026-03-14");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ date: "2026-03-14", locked: false, lockedBy: null, lockedAt: null });
    expect((await unlockDay(w, "2026-03-14")).body.locked).toBe(false);
    expect((await timesheets(w, { startDate: "2026-03-14", endDate: "2026-03-14" })).body.lockedDays).toEqual([]);
  });
});

describe("a locked day refuses every write with 409 DAY_LOCKED, and allows them after unlock", () => {
  it("manual create, patch (of the day and into it), delete and delete-by-date", async () => {
    const w = await createWorkplace();
    const shift = await createManual(w, DAY);
    const nextDay = await createManual(w, { startTime: "2026-03-15T09:00:00Z", endTime: "2026-03-15T10:00:00Z" });
    await lockDay(w, "2026-03-14");
    const colleague = await createStaffMember(w.org, { locationIds: [w.location.id] });
    const attempts = {
      create: () => manualShift(w, { ...DAY, employeeId: colleague.id }),
      patch: () => api("PATCH", `/api/timesheets/${shift.id}`, { token: w.org.adminToken, body: { hourlyWage: 99 } }),
      patchInto: () =>
        api("PATCH", `/api/timesheets/${nextDay.id}`, { token: w.org.adminToken, body: { startTime: "2026-03-14T20:00:00Z" } }),
      delete: () => api("DELETE", `/api/timesheets/${shift.id}`, { token: w.org.adminToken }),
      deleteDay: () => api("DELETE", `/api/timesheets?date=2026-03-14&locationId=${w.location.id}`, { token: w.org.adminToken }),
    };
    for (const [name, attempt] of Object.entries(attempts)) {
      const res = await attempt();
      expect(res.status, name).toBe(409);
      expect(res.body.code, name).toBe("DAY_LOCKED");
    }
    const unchanged = await timesheets(w, { startDate: "2026-03-14", endDate: "2026-03-15" });
    expect(unchanged.body.shifts.map((s: { hourlyWage: number; businessDate: string }) => [s.businessDate, s.hourlyWage])).toEqual([
      ["2026-03-14", 0],
      ["2026-03-15", 0],
    ]);
    await unlockDay(w, "2026-03-14");
    expect((await attempts.create()).status).toBe(201);
    expect((await attempts.patch()).status).toBe(200);
    expect((await attempts.patchInto()).status).toBe(200);
    expect((await attempts.delete()).status).toBe(200);
    expect((await attempts.deleteDay()).body).toEqual({ deleted: 2 });
  });

  it("clock-in, break start and end, and clock-out through the time-tracking routes", async () => {
    const w = await createWorkplace();
    const lunch = await createBreakType(w);
    const opened = await clockIn(w);
    expect(opened.status).toBe(200);
    expect((await punch(w, "break-start", { typeId: lunch.id })).status).toBe(200);
    const today = opened.body.businessDate as string;
    await lockDay(w, today);
    const colleague = await createStaffMember(w.org, { locationIds: [w.location.id] });
    const colleagueWorkplace = {
      ...w,
      token: await staffToken(w.org, colleague.id),
      punchPath: `/api/organizations/${w.org.id}/staffmembers/${colleague.id}/locations/${w.location.id}`,
    };
    const attempts = {
      breakStart: () => punch(w, "break-start", { typeId: lunch.id }),
      breakEnd: () => punch(w, "break-end"),
      clockOut: () => punch(w, "clock-out"),
      clockIn: () => clockIn(colleagueWorkplace),
    };
    for (const [name, attempt] of Object.entries(attempts)) {
      const res = await attempt();
      expect(res.status, name).toBe(409);
      expect(res.body.code, name).toBe("DAY_LOCKED");
    }
    await unlockDay(w, today);
    expect((await attempts.breakEnd()).status).toBe(200);
    expect((await attempts.clockOut()).status).toBe(200);
    expect((await attempts.clockIn()).status).toBe(200);
  });

  it("an offline clock-in whose occurredAt falls on a locked day", async () => {
    const w = await createWorkplace();
    const now = new Date();
    const yesterday = addDays(newYorkDate(now), -1);
    // 22:00 New York yesterday: within the 72 h an offline punch may reach back.
    const lateYesterday = instantInZone(new Date(`${yesterday}T22:00:00Z`), "America/New_York");
    await lockDay(w, yesterday);
    const refused = await clockIn(w, { occurredAt: lateYesterday.toISOString() });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("DAY_LOCKED");
    await unlockDay(w, yesterday);
    const accepted = await clockIn(w, { occurredAt: lateYesterday.toISOString() });
    expect(accepted.status).toBe(200);
    expect(accepted.body.businessDate).toBe(yesterday);
  });
});
