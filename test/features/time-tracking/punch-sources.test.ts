import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { closeShifts, FIRST_SHIFT, planClosures, readDueShifts } from "@/jobs/auto-clock-out";
import { api } from "../../helpers/api";
import { feed } from "../../helpers/pay";
import { expectInvalid } from "../../helpers/problems";
import { tenantDb } from "../../helpers/shards";
import { createStaffMember, staffToken } from "../../helpers/staff";
import { manualShift, timesheets } from "../../helpers/timesheets";
import { clockIn, createBreakType, createWorkplace, minutesAgo, punch, type Workplace } from "../../helpers/workplace";

const MINUTE = 60_000;
const db = () => createDatabase(tenantDb());
const readShift = async (w: Workplace, id: string) => (await api("GET", `/api/timesheets/${id}`, { token: w.org.adminToken })).body;
const sourcesOf = (shift: { events: { kind: string; source: string; deviceId: string | null }[] }) =>
  shift.events.map((e) => [e.kind, e.source, e.deviceId]);
const storedSources = async (shiftId: string) =>
  (
    await tenantDb()
      .prepare("SELECT kind, source, device_id FROM shift_events WHERE shift_id = ? ORDER BY occurred_at, kind")
      .bind(shiftId)
      .all<{ kind: string; source: string; device_id: string | null }>()
  ).results.map((r) => [r.kind, r.source, r.device_id]);

async function managerToken(w: Workplace) {
  const manager = await createStaffMember(w.org, { locationIds: [w.location.id], accessRoleName: "Manager" });
  return staffToken(w.org, manager.id);
}

describe("the source of every shift event", () => {
  it("a staff member's own punches are MOBILE: on each event, the shift, the timesheet and the events", async () => {
    const w = await createWorkplace();
    const lunch = await createBreakType(w);
    const opened = await clockIn(w, { occurredAt: minutesAgo(30) });
    expect(opened.body).toMatchObject({ clockInSource: "MOBILE", clockInDeviceId: null, clockOutSource: null, clockOutDeviceId: null });
    expect(sourcesOf(opened.body)).toEqual([["clock_in", "MOBILE", null]]);
    await punch(w, "break-start", { typeId: lunch.id, occurredAt: minutesAgo(20) });
    await punch(w, "break-end", { occurredAt: minutesAgo(10) });
    const closed = await punch(w, "clock-out", {});
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ clockInSource: "MOBILE", clockOutSource: "MOBILE", clockOutDeviceId: null });
    const read = await readShift(w, opened.body.id);
    expect(sourcesOf(read)).toEqual([
      ["clock_in", "MOBILE", null],
      ["break_start", "MOBILE", null],
      ["break_end", "MOBILE", null],
      ["clock_out", "MOBILE", null],
    ]);
    expect(await storedSources(opened.body.id)).toHaveLength(4);
    const events = await feed(w.org);
    expect(events.find((e) => e.type === "shift.clocked_in")!.data).toMatchObject({ clockInSource: "MOBILE" });
    expect(events.find((e) => e.type === "shift.clocked_out")!.data).toMatchObject({ clockInSource: "MOBILE", clockOutSource: "MOBILE" });
  });

  it("punches with an organization-level token (the integrator's backend) are API", async () => {
    const w = await createWorkplace();
    const path = `${w.punchPath}/clock-in`;
    const opened = await api("POST", path, {
      token: w.org.adminToken,
      body: { roleId: w.roleId, latitude: 40.748817, longitude: -73.985428 },
    });
    expect(opened.status).toBe(200);
    expect(opened.body.clockInSource).toBe("API");
    expect(await storedSources(opened.body.id)).toEqual([["clock_in", "API", null]]);
    const closed = await api("POST", `${w.punchPath}/clock-out`, {
      token: w.org.adminToken,
      body: { latitude: 40.748817, longitude: -73.985428 },
    });
    expect(closed.body).toMatchObject({ clockInSource: "API", clockOutSource: "API" });
  });

  it("a manual shift is MANUAL from a manager and API from an organization-level token; an edited end becomes the editor's", async () => {
    const w = await createWorkplace();
    const manager = await managerToken(w);
    const day = { startTime: "2026-03-14T09:00:00Z", endTime: "2026-03-14T17:00:00Z" };
    const byManager = await manualShift(w, day, manager);
    expect(byManager.status).toBe(201);
    expect(byManager.body).toMatchObject({ clockInSource: "MANUAL", clockOutSource: "MANUAL", clockInDeviceId: null });
    const byApi = await manualShift(w, { startTime: "2026-03-15T09:00:00Z", endTime: "2026-03-15T17:00:00Z" });
    expect(byApi.body).toMatchObject({ clockInSource: "API", clockOutSource: "API" });

    const phone = await clockIn(w, { occurredAt: minutesAgo(60) });
    await punch(w, "clock-out", {});
    const edited = await api("PATCH", `/api/timesheets/${phone.body.id}`, {
      token: manager,
      body: { endTime: new Date(Date.parse(phone.body.startTime) + 30 * MINUTE).toISOString() },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ clockInSource: "MOBILE", clockOutSource: "MANUAL" });
    const updated = (await feed(w.org)).filter((e) => e.type === "shift.updated").at(-1)!;
    expect(updated.data).toMatchObject({ id: phone.body.id, clockOutSource: "MANUAL" });
  });

  it("the attendance pass's clock-out is AUTO", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const shift = await clockIn(w, { occurredAt: new Date(Date.now() - 17 * 60 * MINUTE).toISOString() });
    const now = new Date();
    const due = await readDueShifts(db(), now, FIRST_SHIFT, 1000);
    const mine = planClosures(due, now).filter((c) => c.shift.id === shift.body.id);
    expect(await closeShifts(db(), mine, now)).toBe(1);
    const read = await readShift(w, shift.body.id);
    expect(read).toMatchObject({ clockInSource: "MOBILE", clockOutSource: "AUTO", clockOutDeviceId: null });
    expect(sourcesOf(read)).toEqual([
      ["clock_in", "MOBILE", null],
      ["clock_out", "AUTO", null],
    ]);
    const clockedOut = (await feed(w.org)).find((e) => e.type === "shift.clocked_out")!;
    expect(clockedOut.data).toMatchObject({ clockOutSource: "AUTO" });
  });
});

describe("GET /api/timesheets?source=", () => {
  it("lists only shifts clocked in or out from one of the sources, and refuses an unknown one", async () => {
    const w = await createWorkplace();
    const manager = await managerToken(w);
    const manual = await manualShift(w, { startTime: "2026-03-14T09:00:00Z", endTime: "2026-03-14T17:00:00Z" }, manager);
    const api_ = await manualShift(w, { startTime: "2026-03-15T09:00:00Z", endTime: "2026-03-15T17:00:00Z" });
    const range = { startDate: "2026-03-01", endDate: "2026-03-31", employeeId: w.staff.id };
    const ids = async (source?: string) =>
      ((await timesheets(w, { ...range, source })).body.shifts as { id: string }[]).map((s) => s.id).sort();
    expect(await ids()).toEqual([manual.body.id, api_.body.id].sort());
    expect(await ids("MANUAL")).toEqual([manual.body.id]);
    expect(await ids("api")).toEqual([api_.body.id]);
    expect(await ids("KIOSK,AUTO")).toEqual([]);
    expect(await ids("MANUAL,API")).toEqual([manual.body.id, api_.body.id].sort());
    const totals = await timesheets(w, { ...range, source: "MANUAL" });
    expect(totals.body.totals.count).toBe(1);
    expectInvalid(await timesheets(w, { ...range, source: "PHONE" }), ["source"]);
    expectInvalid(await timesheets(w, { ...range, source: "," }), ["source"]);
  });

  it("an edited shift matches both its clock-in's and its clock-out's source", async () => {
    const w = await createWorkplace();
    const manager = await managerToken(w);
    const phone = await clockIn(w, { occurredAt: minutesAgo(60) });
    await punch(w, "clock-out", {});
    await api("PATCH", `/api/timesheets/${phone.body.id}`, {
      token: manager,
      body: { endTime: new Date(Date.parse(phone.body.startTime) + 30 * MINUTE).toISOString() },
    });
    const today = phone.body.businessDate;
    const range = { startDate: today, endDate: today, employeeId: w.staff.id };
    for (const source of ["MOBILE", "MANUAL"]) {
      expect((await timesheets(w, { ...range, source })).body.shifts.map((s: { id: string }) => s.id)).toEqual([phone.body.id]);
    }
    expect((await timesheets(w, { ...range, source: "API" })).body.shifts).toEqual([]);
  });
});

describe("exports carry the sources", () => {
  it("CSV columns and JSON fields clockInSource, clockInDeviceId, clockOutSource, clockOutDeviceId; the filter applies", async () => {
    const w = await createWorkplace();
    const manager = await managerToken(w);
    await manualShift(w, { startTime: "2026-03-14T09:00:00Z", endTime: "2026-03-14T17:00:00Z" }, manager);
    await manualShift(w, { startTime: "2026-03-15T09:00:00Z", endTime: "2026-03-15T17:00:00Z" });
    const query = `startDate=2026-03-01&endDate=2026-03-31&employeeId=${w.staff.id}`;
    const csv = (await api("GET", `/api/timesheets/export?${query}`, { token: w.org.adminToken })).text.trim().split("\r\n");
    const header = csv[0]!.split(",");
    const column = (name: string) => csv.slice(1).map((line) => line.split(",")[header.indexOf(name)]);
    expect(column("clockInSource")).toEqual(["MANUAL", "API"]);
    expect(column("clockOutSource")).toEqual(["MANUAL", "API"]);
    expect(column("clockInDeviceId")).toEqual(["", ""]);
    expect(header).toContain("clockOutDeviceId");
    const json = await api("GET", `/api/timesheets/export?${query}&format=json&source=API`, { token: w.org.adminToken });
    expect(json.body).toHaveLength(1);
    expect(json.body[0]).toMatchObject({ clockInSource: "API", clockInDeviceId: null, clockOutSource: "API", clockOutDeviceId: null });
  });
});
