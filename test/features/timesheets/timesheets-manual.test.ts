import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createLocation } from "../../helpers/locations";
import { expectInvalid } from "../../helpers/problems";
import { tenantDb } from "../../helpers/shards";
import { createStaffMember } from "../../helpers/staff";
import { createManual, createRole, manualShift, timesheets } from "../../helpers/timesheets";
import { clockIn, createBreakType, createWorkplace, minutesAgo, punch } from "../../helpers/workplace";

const audits = async (shiftId: string) =>
  (
    await tenantDb()
      .prepare(
        "SELECT action, actor_partner_id, actor_staff_member_id, before, after FROM shift_audits WHERE shift_id = ? ORDER BY at, action",
      )
      .bind(shiftId)
      .all<{
        action: string;
        actor_partner_id: string;
        actor_staff_member_id: string | null;
        before: string | null;
        after: string | null;
      }>()
  ).results;

const DAY = { startTime: "2026-03-14T09:00:00Z", endTime: "2026-03-14T17:00:00Z" };

describe("POST /api/timesheets", () => {
  it("creates a manual shift with breaks, the role's wage and clock-out's totals", async () => {
    const w = await createWorkplace();
    const role = await createRole(w, 18.5);
    const coffee = await createBreakType(w, { name: "Coffee", paid: true, durationMinutes: 15 });
    const res = await manualShift(w, {
      ...DAY,
      roleId: role.id,
      breaks: [
        { startTime: "2026-03-14T10:30:00Z", endTime: "2026-03-14T10:45:00Z", typeId: coffee.id },
        { startTime: "2026-03-14T12:00:00Z", endTime: "2026-03-14T12:30:00Z", name: "Lunch" },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      employeeId: w.staff.id,
      locationId: w.location.id,
      roleId: role.id,
      manualEntry: true,
      active: false,
      locked: false,
      startTime: "2026-03-14T09:00:00.000Z",
      endTime: "2026-03-14T17:00:00.000Z",
      utcOffset: -240,
      utcStartTime: "2026-03-14T13:00:00.000Z",
      businessDate: "2026-03-14",
      hourlyWage: 18.5,
      duration: 480,
      totalPaidBreaks: 15,
      totalUnpaidBreaks: 30,
      payableDuration: 450,
      flags: [],
    });
    expect(res.body.breaks).toMatchObject([
      { name: "Coffee", typeId: coffee.id, paid: true, durationInSettingsMinutes: 15, startTime: "2026-03-14T10:30:00.000Z" },
      { name: "Lunch", typeId: null, paid: false, automatic: false },
    ]);
    const stored = await api("GET", `/api/timesheets/${res.body.id}`, { token: w.org.adminToken });
    expect(stored.body).toMatchObject({ ...res.body, updatedAt: res.body.updatedAt, events: [] });
  });

  it("reads times with the given utcOffset and takes an explicit hourlyWage", async () => {
    const w = await createWorkplace();
    const res = await manualShift(w, { ...DAY, utcOffset: "60", hourlyWage: 30 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ utcOffset: 60, utcStartTime: "2026-03-14T08:00:00.000Z", hourlyWage: 30 });
  });

  it("deducts no mandatory break that was not taken, as clock-out does not (issue 44)", async () => {
    const w = await createWorkplace();
    await createBreakType(w, { name: "Meal", mandatory: true, frequencyMinutes: 300, durationMinutes: 30 });
    const res = await manualShift(w, DAY);
    expect(res.body.breaks).toEqual([]);
    // 09:00–17:00, no break taken: all 480 minutes payable.
    expect(res.body).toMatchObject({ duration: 480, totalUnpaidBreaks: 0, payableDuration: 480 });
  });

  it("refuses an end before or at the start, a shift over 24 h and bad breaks with 400 naming the field", async () => {
    const w = await createWorkplace();
    const cases: [Record<string, unknown>, string][] = [
      [{ startTime: "2026-03-14T17:00:00Z", endTime: "2026-03-14T09:00:00Z" }, "endTime"],
      [{ startTime: "2026-03-14T09:00:00Z", endTime: "2026-03-14T09:00:00Z" }, "endTime"],
      [{ startTime: "2026-03-14T09:00:00Z", endTime: "2026-03-15T09:01:00Z" }, "endTime"],
      [{ ...DAY, breaks: [{ startTime: "2026-03-14T16:45:00Z", endTime: "2026-03-14T17:15:00Z" }] }, "breaks.0.startTime"],
      [{ ...DAY, breaks: [{ startTime: "2026-03-14T12:00:00Z", endTime: "2026-03-14T11:00:00Z" }] }, "breaks.0.endTime"],
      [{ ...DAY, breaks: [{ startTime: "2026-03-14T12:00:00Z", endTime: "2026-03-14T12:30:00Z", typeId: "nope" }] }, "breaks.0.typeId"],
      [{ ...DAY, startTime: "2026-03-14T09:00:00+02:00" }, "startTime"],
      [{ ...DAY, utcOffset: 900 }, "utcOffset"],
      [{ ...DAY, employeeId: "nope" }, "employeeId"],
      [{ ...DAY, locationId: "nope" }, "locationId"],
      [{ ...DAY, roleId: "nope" }, "roleId"],
      [{ endTime: DAY.endTime }, "startTime"],
    ];
    for (const [body, path] of cases) {
      const res = await manualShift(w, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(
        res.body.errors.map((e: { path: string }) => e.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    expect((await timesheets(w, { startDate: "2026-03-01", endDate: "2026-03-31" })).body.shifts).toEqual([]);
  });

  it("refuses a break type of another location (400) and a staff member of another organization (400)", async () => {
    const w = await createWorkplace();
    const elsewhere = await createLocation(w.org, { name: "Elsewhere" });
    const foreignType = await createBreakType({ ...w, location: elsewhere }, {});
    const res = await manualShift(w, {
      ...DAY,
      breaks: [{ startTime: "2026-03-14T12:00:00Z", endTime: "2026-03-14T12:30:00Z", typeId: foreignType.id }],
    });
    expectInvalid(res, ["breaks.0.typeId"]);
    const other = await createWorkplace();
    const stranger = await manualShift(w, { ...DAY, employeeId: other.staff.id });
    expect(stranger.status).toBe(400);
    expect(stranger.body.errors[0].path).toBe("employeeId");
  });

  it("writes an audit row with who and the shift after", async () => {
    const w = await createWorkplace();
    const shift = await createManual(w, DAY);
    const [row] = await audits(shift.id);
    expect(row).toMatchObject({ action: "create", actor_partner_id: "dev-partner", actor_staff_member_id: null, before: null });
    expect(JSON.parse(row!.after!)).toMatchObject({
      id: shift.id,
      utcStartTime: shift.utcStartTime,
      duration: 480,
      manualEntry: true,
      breaks: [],
    });
  });
});

describe("overlaps", () => {
  it("refuses a shift overlapping another of the same staff member with 409 SHIFT_OVERLAP; back-to-back is fine", async () => {
    const w = await createWorkplace();
    await createManual(w, DAY);
    const overlapping = await manualShift(w, { startTime: "2026-03-14T16:00:00Z", endTime: "2026-03-14T20:00:00Z" });
    expect(overlapping.status).toBe(409);
    expect(overlapping.body.code).toBe("SHIFT_OVERLAP");
    const inside = await manualShift(w, { startTime: "2026-03-14T10:00:00Z", endTime: "2026-03-14T11:00:00Z" });
    expect(inside.body.code).toBe("SHIFT_OVERLAP");
    expect((await manualShift(w, { startTime: "2026-03-14T17:00:00Z", endTime: "2026-03-14T20:00:00Z" })).status).toBe(201);
    const colleague = await createStaffMember(w.org, { locationIds: [w.location.id] });
    expect((await manualShift(w, { ...DAY, employeeId: colleague.id })).status).toBe(201);
  });

  it("treats a shift still clocked in as running on: a later manual shift overlaps it", async () => {
    const w = await createWorkplace();
    await clockIn(w, { occurredAt: minutesAgo(60) });
    const now = new Date();
    const local = (ms: number) => `${new Date(ms - 5 * 3_600_000).toISOString().slice(0, 19)}Z`;
    const res = await manualShift(w, {
      startTime: local(now.getTime() + 3_600_000),
      endTime: local(now.getTime() + 7_200_000),
      utcOffset: -300,
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("SHIFT_OVERLAP");
  });

  it("ignores deleted shifts", async () => {
    const w = await createWorkplace();
    const first = await createManual(w, DAY);
    await api("DELETE", `/api/timesheets/${first.id}`, { token: w.org.adminToken });
    expect((await manualShift(w, DAY)).status).toBe(201);
  });

  it("lets one of simultaneous overlapping creates through, in the database, not by a read first", async () => {
    const w = await createWorkplace();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => manualShift(w, { startTime: `2026-03-14T0${i}:30:00Z`, endTime: "2026-03-14T12:00:00Z" })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.code === "SHIFT_OVERLAP")).toBe(true);
    const count = await tenantDb()
      .prepare("SELECT COUNT(*) AS n FROM shifts WHERE employee_id = ?")
      .bind(w.staff.id)
      .first<{ n: number }>();
    expect(count!.n).toBe(1);
  });
});

describe("GET /api/timesheets/{id}", () => {
  it("answers a clocked shift with its clock events", async () => {
    const w = await createWorkplace();
    const opened = await clockIn(w, { occurredAt: minutesAgo(30) });
    await punch(w, "clock-out");
    const res = await api("GET", `/api/timesheets/${opened.body.id}`, { token: w.org.adminToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: opened.body.id, manualEntry: false, active: false });
    expect(res.body.events.map((e: { kind: string }) => e.kind)).toEqual(["clock_in", "clock_out"]);
    expect((await api("GET", "/api/timesheets/nope", { token: w.org.adminToken })).status).toBe(404);
  });
});
