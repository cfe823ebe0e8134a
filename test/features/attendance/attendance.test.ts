import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { runAttendancePass } from "@/jobs/attendance-pass";
import { closeShifts, FIRST_SHIFT, planClosures, readDueShifts } from "@/jobs/auto-clock-out";
import { raiseNoShows } from "@/jobs/no-shows";
import { api } from "../../helpers/api";
import { allPages } from "../../helpers/pages";
import { createRuleSet, feed, payLines } from "../../helpers/pay";
import { expectInvalid } from "../../helpers/problems";
import { tenantDb } from "../../helpers/shards";
import { createStaffMember, staffToken } from "../../helpers/staff";
import { clockIn, createBreakType, createWorkplace, minutesAgo, punch, type Workplace } from "../../helpers/workplace";

const db = () => createDatabase(tenantDb());
const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const settingsPath = (w: Workplace) => `/api/organizations/${w.org.id}/attendance-settings`;
const exceptionsPath = (w: Workplace, suffix = "") => `/api/organizations/${w.org.id}/attendance-exceptions${suffix}`;

/** A published entry of the workplace's staff member over [start, end) (epoch ms). */
async function publishEntry(w: Workplace, start: number, end: number, employeeId = w.staff.id) {
  const res = await api("POST", `/api/organizations/${w.org.id}/locations/${w.location.id}/schedules`, {
    token: w.org.adminToken,
    body: { employeeId, roleId: w.roleId, startTime: iso(start), endTime: iso(end) },
  });
  if (res.status !== 201) throw new Error(`entry: ${res.status} ${res.text}`);
  return res.body as { id: string };
}

const aroundToday = () => {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  return `startDate=${day(-3)}&endDate=${day(2)}`;
};

async function exceptionsOf(w: Workplace, query = "") {
  const res = await api("GET", exceptionsPath(w, `?${aroundToday()}${query}`), { token: w.org.adminToken });
  expect(res.status).toBe(200);
  return res.body as Record<string, any>[];
}

const raisedEvents = async (w: Workplace) => (await feed(w.org)).filter((e) => e.type === "attendance_exception.raised");

describe("attendance settings", () => {
  it("answers the defaults, changes only the named settings with an event, and records nothing for a PATCH that changes nothing", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const read = await api("GET", settingsPath(w), { token: w.org.adminToken });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      lateGraceMinutes: 5,
      earlyLeaveGraceMinutes: 5,
      noShowAfterMinutes: 30,
      autoClockOutAfterMinutes: 960,
    });
    const patched = await api("PATCH", settingsPath(w), {
      token: w.org.adminToken,
      body: { lateGraceMinutes: 10, autoClockOutAfterMinutes: null },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ lateGraceMinutes: 10, earlyLeaveGraceMinutes: 5, autoClockOutAfterMinutes: null });
    const again = await api("PATCH", settingsPath(w), { token: w.org.adminToken, body: { lateGraceMinutes: 10 } });
    expect(again.status).toBe(200);
    const updates = (await feed(w.org)).filter((e) => e.type === "attendance_settings.updated");
    expect(updates).toHaveLength(1);
    expect(updates[0]!.data).toMatchObject({ lateGraceMinutes: 10, autoClockOutAfterMinutes: null });
  });

  it("refuses bad values with a problem naming the field, and changes nothing", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    for (const body of [{ lateGraceMinutes: -1 }, { autoClockOutAfterMinutes: 10 }, { noShowAfterMinutes: 0 }, {}]) {
      const res = await api("PATCH", settingsPath(w), { token: w.org.adminToken, body });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("VALIDATION_FAILED");
    }
    expect((await api("GET", settingsPath(w), { token: w.org.adminToken })).body.autoClockOutAfterMinutes).toBe(960);
  });

  it("is the organization's: a staff member may not change it, another organization's is 404", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const other = await createWorkplace({ timezone: "UTC" });
    expect((await api("PATCH", settingsPath(w), { token: w.token, body: { lateGraceMinutes: 1 } })).status).toBe(403);
    expect((await api("GET", settingsPath(other), { token: w.org.adminToken })).status).toBe(404);
  });
});

describe("exceptions found by punches, in the punch's own batch", () => {
  it("a late clock-in raises LATE_CLOCK_IN with its minutes and event; an early clock-out EARLY_CLOCK_OUT", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const start = Date.now() - 60 * MINUTE;
    const entry = await publishEntry(w, start, start + 120 * MINUTE);
    expect((await clockIn(w, { occurredAt: iso(start + 20 * MINUTE) })).status).toBe(200);
    const out = await punch(w, "clock-out", { occurredAt: iso(start + 59 * MINUTE) });
    expect(out.status).toBe(200);
    const found = await exceptionsOf(w);
    expect(found.map((e) => [e.type, e.minutes, e.scheduleEntryId, e.shiftId, e.status])).toEqual([
      ["LATE_CLOCK_IN", 20, entry.id, out.body.id, "OPEN"],
      ["EARLY_CLOCK_OUT", 61, entry.id, out.body.id, "OPEN"],
    ]);
    expect((await raisedEvents(w)).map((e) => e.data.type)).toEqual(["LATE_CLOCK_IN", "EARLY_CLOCK_OUT"]);
  });

  it("a clock-in within the grace raises nothing; one with no entry raises UNSCHEDULED_SHIFT", async () => {
    const onTime = await createWorkplace({ timezone: "UTC" });
    const start = Date.now() - 30 * MINUTE;
    await publishEntry(onTime, start, start + 240 * MINUTE);
    expect((await clockIn(onTime, { occurredAt: iso(start + 4 * MINUTE) })).status).toBe(200);
    expect(await exceptionsOf(onTime)).toEqual([]);
    const unscheduled = await createWorkplace({ timezone: "UTC" });
    const shift = await clockIn(unscheduled);
    expect((await exceptionsOf(unscheduled)).map((e) => [e.type, e.shiftId, e.minutes, e.scheduleEntryId])).toEqual([
      ["UNSCHEDULED_SHIFT", shift.body.id, null, null],
    ]);
  });

  it("a clock-out past the meal rule's threshold without a meal break raises MISSED_MEAL_BREAK; a taken meal raises nothing", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    await createRuleSet(w.org, { name: "California", preset: "CALIFORNIA", effectiveFrom: "2020-01-01" });
    await clockIn(w, { occurredAt: minutesAgo(400) });
    expect((await punch(w, "clock-out", { occurredAt: minutesAgo(40) })).status).toBe(200);
    const [missed] = (await exceptionsOf(w)).filter((e) => e.type === "MISSED_MEAL_BREAK");
    expect(missed).toMatchObject({ minutes: 60, scheduleEntryId: null });

    const fed = await createStaffMember(w.org, { locationIds: [w.location.id], accessRoleName: "Employee" });
    const colleague: Workplace = {
      ...w,
      staff: fed,
      token: await staffToken(w.org, fed.id),
      punchPath: w.punchPath.replace(w.staff.id, fed.id),
    };
    const lunch = await createBreakType(colleague);
    await clockIn(colleague, { occurredAt: minutesAgo(400) });
    await punch(colleague, "break-start", { typeId: lunch.id, occurredAt: minutesAgo(250) });
    await punch(colleague, "break-end", { occurredAt: minutesAgo(210) });
    await punch(colleague, "clock-out", { occurredAt: minutesAgo(40) });
    expect((await exceptionsOf(colleague, `&employeeId=${fed.id}`)).filter((e) => e.type === "MISSED_MEAL_BREAK")).toEqual([]);
  });
});

describe("listing, reading and resolving", () => {
  it("filters by type, status, employee and location; a staff member sees only their own", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    await clockIn(w);
    const [unscheduled] = await exceptionsOf(w);
    expect(await exceptionsOf(w, "&type=LATE_CLOCK_IN")).toEqual([]);
    expect(await exceptionsOf(w, "&status=OPEN")).toHaveLength(1);
    expect(await exceptionsOf(w, `&locationId=${w.location.id}&employeeId=${w.staff.id}`)).toHaveLength(1);
    const own = await api("GET", exceptionsPath(w, `?${aroundToday()}`), { token: w.token });
    expect(own.body.map((e: { id: string }) => e.id)).toEqual([unscheduled!.id]);
    const colleague = await createStaffMember(w.org, { locationIds: [w.location.id], accessRoleName: "Employee" });
    const theirs = await staffToken(w.org, colleague.id);
    expect((await api("GET", exceptionsPath(w, `?${aroundToday()}`), { token: theirs })).body).toEqual([]);
    expect((await api("GET", exceptionsPath(w, `/${unscheduled!.id}`), { token: theirs })).status).toBe(404);
    expect((await api("GET", exceptionsPath(w, `/${unscheduled!.id}`), { token: w.token })).body).toMatchObject({ id: unscheduled!.id });
    // Naming a colleague shows nothing of theirs.
    const named = await api("GET", exceptionsPath(w, `?${aroundToday()}&employeeId=${colleague.id}`), { token: w.token });
    expect(named.body).toEqual([]);
    expect((await api("GET", settingsPath(w), { token: w.token })).status).toBe(403);
  });

  it("pages by (businessDate, id) with limit, cursor and Link: every exception of the range is reachable once", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    // Seven exceptions over three dates, several a date, so pages end inside a date.
    const seeded = [-2, -2, -1, -1, -1, 0, 0].map((offset) => ({ id: crypto.randomUUID(), date: day(offset) }));
    for (const { id, date } of seeded) {
      await tenantDb()
        .prepare(
          `INSERT INTO attendance_exceptions (id, organization_id, location_id, employee_id, type, business_date, status, detected_at, updated_at)
           VALUES (?, ?, ?, ?, 'UNSCHEDULED_SHIFT', ?, 'OPEN', ?, ?)`,
        )
        .bind(id, w.org.id, w.location.id, w.staff.id, date, Date.now(), Date.now())
        .run();
    }
    const expected = seeded.map((e) => `${e.date}|${e.id}`).sort();
    const first = await api("GET", exceptionsPath(w, `?${aroundToday()}&limit=3`), { token: w.org.adminToken });
    expect(first.body).toHaveLength(3);
    expect(first.headers.get("Link")).toMatch(/^<\/api\/organizations\/[^>]+cursor=[^>]+>; rel="next"$/);
    const pages = await allPages(exceptionsPath(w, `?${aroundToday()}&limit=3`), w.org.adminToken, 3);
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    expect(pages.flat().map((e) => `${e.businessDate}|${e.id}`)).toEqual(expected);
    // The filters hold on every page, and a staff member pages their own.
    expect((await allPages(exceptionsPath(w, `?${aroundToday()}&limit=2&status=OPEN`), w.token, 2)).flat()).toHaveLength(7);
    expect((await allPages(exceptionsPath(w, `?${aroundToday()}&limit=2&status=RESOLVED`), w.token, 2)).flat()).toHaveLength(0);
  });

  it("refuses a range over 92 days or reversed, and an unknown filter value", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    for (const [query, path] of [
      ["startDate=2026-01-01&endDate=2026-06-01", "endDate"],
      ["startDate=2026-02-01&endDate=2026-01-01", "endDate"],
      [`${aroundToday()}&type=LATE`, "type"],
    ] as const) {
      expectInvalid(await api("GET", exceptionsPath(w, `?${query}`), { token: w.org.adminToken }), [path]);
    }
  });

  it("a manager resolves, excuses (with a note, sent or stored) and reopens, recording who, when and the events; staff may not", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    await clockIn(w);
    const [exception] = await exceptionsOf(w);
    const path = exceptionsPath(w, `/${exception!.id}`);
    expect((await api("PATCH", path, { token: w.token, body: { status: "RESOLVED" } })).status).toBe(403);
    const noNote = await api("PATCH", path, { token: w.org.adminToken, body: { status: "EXCUSED" } });
    expect(noNote.status).toBe(400);
    expect(noNote.body.errors[0].path).toBe("note");
    const excused = await api("PATCH", path, { token: w.org.adminToken, body: { status: "EXCUSED", note: "Covering for a colleague" } });
    expect(excused.status).toBe(200);
    expect(excused.body).toMatchObject({ status: "EXCUSED", note: "Covering for a colleague", resolvedBy: expect.any(String) });
    expect(excused.body.resolvedAt).not.toBeNull();
    const reopened = await api("PATCH", path, { token: w.org.adminToken, body: { status: "OPEN" } });
    expect(reopened.body).toMatchObject({ status: "OPEN", resolvedAt: null, resolvedBy: null, note: "Covering for a colleague" });
    // The stored note is enough to excuse again.
    expect((await api("PATCH", path, { token: w.org.adminToken, body: { status: "EXCUSED" } })).body.status).toBe("EXCUSED");
    const events = (await feed(w.org)).filter(
      (e) => e.type.startsWith("attendance_exception.") && e.type !== "attendance_exception.raised",
    );
    expect(events.map((e) => [e.type, e.data.status])).toEqual([
      ["attendance_exception.resolved", "EXCUSED"],
      ["attendance_exception.reopened", "OPEN"],
      ["attendance_exception.resolved", "EXCUSED"],
    ]);
  });

  it("refuses a manager their own exception, an unknown id (404) and a body without a status (400)", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const role = await api("POST", `/api/organizations/${w.org.id}/access-roles`, {
      token: w.org.adminToken,
      body: { name: "Shift lead", permissions: ["SHIFT_READ", "SHIFT_WRITE"] },
    });
    const lead = await createStaffMember(w.org, { locationIds: [w.location.id], accessRoleId: role.body.id });
    const leadToken = await staffToken(w.org, lead.id);
    const leadPlace: Workplace = { ...w, staff: lead, token: leadToken, punchPath: w.punchPath.replace(w.staff.id, lead.id) };
    await clockIn(leadPlace);
    const [own] = await exceptionsOf(w, `&employeeId=${lead.id}`);
    const refused = await api("PATCH", exceptionsPath(w, `/${own!.id}`), { token: leadToken, body: { status: "RESOLVED" } });
    expect(refused.status).toBe(403);
    expect((await api("GET", exceptionsPath(w, `/${own!.id}`), { token: w.org.adminToken })).body.status).toBe("OPEN");
    await clockIn(w);
    const [theirs] = await exceptionsOf(w, `&employeeId=${w.staff.id}`);
    expect((await api("PATCH", exceptionsPath(w, `/${theirs!.id}`), { token: leadToken, body: { status: "RESOLVED" } })).status).toBe(200);
    const unknown = await api("GET", exceptionsPath(w, "/0193a5a0-7c1e-7b2a-9d4e-1f2a3b4c5d6e"), { token: w.org.adminToken });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("ATTENDANCE_EXCEPTION_NOT_FOUND");
    const empty = await api("PATCH", exceptionsPath(w, `/${theirs!.id}`), { token: w.org.adminToken, body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.errors[0].path).toBe("status");
  });
});

describe("the attendance pass (Cron)", () => {
  it("raises NO_SHOW once per entry however often it runs, not for an entry worked or published after the fact", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const start = Date.now() + 60 * MINUTE;
    const missed = await publishEntry(w, start, start + 240 * MINUTE);
    const colleague = await createStaffMember(w.org, { locationIds: [w.location.id], accessRoleName: "Employee" });
    await publishEntry(w, start, start + 240 * MINUTE, colleague.id);
    const soon = new Date(start + 20 * MINUTE);
    await runAttendancePass(db(), soon);
    expect((await exceptionsOf(w, "&type=NO_SHOW")).length).toBe(0);
    // Published after it was due: a schedule written after the fact raises nothing.
    const latecomer = await createStaffMember(w.org, { locationIds: [w.location.id], accessRoleName: "Employee" });
    const pastStart = Date.now() - 60 * MINUTE;
    await publishEntry(w, pastStart, pastStart + 120 * MINUTE, latecomer.id);
    const later = new Date(start + 31 * MINUTE);
    // The colleague was there: their open shift began before the entry's start plus the threshold.
    await tenantDb()
      .prepare(
        `INSERT INTO shifts (id, organization_id, employee_id, location_id, role_id, start_at, utc_offset, business_date, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, -300, '2026-01-01', ?, ?)`,
      )
      .bind(crypto.randomUUID(), w.org.id, colleague.id, w.location.id, w.roleId, start + 10 * MINUTE, start, start)
      .run();
    await Promise.all([runAttendancePass(db(), later), runAttendancePass(db(), later)]);
    await runAttendancePass(db(), new Date(start + 90 * MINUTE));
    const noShows = await exceptionsOf(w, "&type=NO_SHOW");
    expect(noShows.map((e) => [e.scheduleEntryId, e.employeeId, e.minutes, e.shiftId])).toEqual([[missed.id, w.staff.id, 240, null]]);
    expect((await raisedEvents(w)).filter((e) => e.data.type === "NO_SHOW")).toHaveLength(1);
  });

  it("walks a backlog of no-shows batch by batch from where the last one stopped", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const start = Date.now() + 60 * MINUTE;
    const staff = await Promise.all(
      [0, 1, 2].map(() => createStaffMember(w.org, { locationIds: [w.location.id], accessRoleName: "Employee" })),
    );
    const entries = await Promise.all(staff.map((s, i) => publishEntry(w, start + i * MINUTE, start + 240 * MINUTE, s.id)));
    const now = new Date(start + 60 * MINUTE);
    const first = await raiseNoShows(db(), now, 1);
    const second = await raiseNoShows(db(), now, 1, first.next!);
    const third = await raiseNoShows(db(), now, 1, second.next!);
    // The other tests' entries were raised already, worked, or published after they were due: only these three are due.
    expect([first, second, third].map((b) => [b.raised, b.next?.id])).toEqual(entries.map((e) => [1, e.id]));
    expect((await raiseNoShows(db(), now, 1, third.next!)).raised).toBe(0);
    expect((await exceptionsOf(w, "&type=NO_SHOW")).map((e) => e.scheduleEntryId).sort()).toEqual(entries.map((e) => e.id).sort());
  });

  it("closes a forgotten shift at start + the threshold, its break first, with AUTO_CLOCK_OUT, totals and MISSED_CLOCK_OUT once", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const lunch = await createBreakType(w);
    const started = Date.now() - 20 * 60 * MINUTE;
    const shift = await clockIn(w, { occurredAt: iso(started) });
    await punch(w, "break-start", { typeId: lunch.id, occurredAt: iso(started + 14 * 60 * MINUTE) });
    await runAttendancePass(db(), new Date());
    await runAttendancePass(db(), new Date());
    const read = await api("GET", `/api/timesheets/${shift.body.id}`, { token: w.org.adminToken });
    expect(read.body.utcEndTime).toBe(iso(started + 960 * MINUTE));
    expect(read.body.flags).toContain("AUTO_CLOCK_OUT");
    expect(read.body.breaks.map((b: Record<string, unknown>) => b.utcEndTime ?? b.endTime)).not.toContain(null);
    expect(read.body.totalUnpaidBreaks).toBe(120);
    expect(read.body.payableDuration).toBe(960 - 120);
    const missed = await exceptionsOf(w, "&type=MISSED_CLOCK_OUT");
    expect(missed.map((e) => [e.shiftId, e.minutes])).toEqual([[shift.body.id, 960]]);
    // Pay reads the closed shift like any other: its payable minutes, all regular without a rule set. The range spans
    // both dates the shift touches (pay counts minutes by the day they are worked; the shift crosses midnight at most
    // times of day this test runs).
    const pay = await payLines(w, {
      startDate: read.body.startTime.slice(0, 10),
      endDate: read.body.endTime.slice(0, 10),
      employeeId: w.staff.id,
    });
    expect(pay.body.totals.regularMinutes).toBe(960 - 120);
    const types = (await feed(w.org)).map((e) => e.type);
    expect(types.filter((t) => t === "shift.clocked_out")).toHaveLength(1);
    expect((await raisedEvents(w)).filter((e) => e.data.type === "MISSED_CLOCK_OUT")).toHaveLength(1);
    const state = await api("GET", `${w.punchPath}/shift-state`, { token: w.token });
    expect(state.body.openShift).toBeNull();
  });

  it("closes at the published entry's end when the shift works one, and not while that entry runs", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const started = Date.now() - 18 * 60 * MINUTE;
    await publishEntry(w, started, started + 8 * 60 * MINUTE);
    const shift = await clockIn(w, { occurredAt: iso(started + 3 * MINUTE) });
    await runAttendancePass(db(), new Date());
    const read = await api("GET", `/api/timesheets/${shift.body.id}`, { token: w.org.adminToken });
    expect(read.body.utcEndTime).toBe(iso(started + 8 * 60 * MINUTE));
    const long = await createWorkplace({ timezone: "UTC" });
    const longStart = Date.now() - 17 * 60 * MINUTE;
    await publishEntry(long, longStart, Date.now() + 60 * MINUTE);
    const open = await clockIn(long, { occurredAt: iso(longStart) });
    await runAttendancePass(db(), new Date());
    expect((await api("GET", `/api/timesheets/${open.body.id}`, { token: long.org.adminToken })).body.utcEndTime).toBeNull();
  });

  it("deducts no mandatory break not taken and raises MISSED_MEAL_BREAK once, when two passes of the same instant race", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    await createBreakType(w, { name: "Meal", mandatory: true, frequencyMinutes: 360, durationMinutes: 30 });
    const started = Date.now() - 18 * 60 * MINUTE;
    const shift = await clockIn(w, { occurredAt: iso(started) });
    const now = new Date();
    const due = await readDueShifts(db(), now, FIRST_SHIFT, 1000);
    const mine = (closures: ReturnType<typeof planClosures>) => closures.filter((c) => c.shift.id === shift.body.id);
    const [closedA, closedB] = await Promise.all([
      closeShifts(db(), mine(planClosures(due, now)), now),
      closeShifts(db(), mine(planClosures(due, now)), now),
    ]);
    expect(closedA + closedB).toBe(1);
    const read = await api("GET", `/api/timesheets/${shift.body.id}`, { token: w.org.adminToken });
    expect(read.body.breaks).toEqual([]);
    expect(read.body.totalUnpaidBreaks).toBe(0);
    // Closed 960 minutes after the start (the default threshold): all of them payable.
    expect(read.body.payableDuration).toBe(960);
    expect(await exceptionsOf(w, "&type=MISSED_CLOCK_OUT")).toHaveLength(1);
    // Due after 360 minutes, not taken in 960: 600 minutes past it.
    expect(await exceptionsOf(w, "&type=MISSED_MEAL_BREAK")).toMatchObject([{ shiftId: shift.body.id, minutes: 600, status: "OPEN" }]);
    const raised = (await raisedEvents(w)).map((e) => e.data.type).filter((t) => t !== "UNSCHEDULED_SHIFT");
    expect(raised.sort()).toEqual(["MISSED_CLOCK_OUT", "MISSED_MEAL_BREAK"]);
    expect((await feed(w.org)).filter((e) => e.type === "shift.clocked_out")).toHaveLength(1);
  });

  it("never closes a shift a real clock-out closed after the pass read it, nor one of an organization that turned it off", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const lunch = await createBreakType(w);
    const shift = await clockIn(w, { occurredAt: iso(Date.now() - 17 * 60 * MINUTE) });
    await punch(w, "break-start", { typeId: lunch.id, occurredAt: iso(Date.now() - 30 * MINUTE) });
    const now = new Date();
    const due = await readDueShifts(db(), now, FIRST_SHIFT, 1000);
    const closures = planClosures(due, now).filter((c) => c.shift.id === shift.body.id);
    expect(closures).toHaveLength(1);
    const out = await punch(w, "clock-out", {});
    expect(out.status).toBe(200);
    expect(await closeShifts(db(), closures, now)).toBe(0);
    const read = await api("GET", `/api/timesheets/${shift.body.id}`, { token: w.org.adminToken });
    expect(read.body.flags).not.toContain("AUTO_CLOCK_OUT");
    expect(read.body.utcEndTime).toBe(out.body.utcEndTime);
    expect(read.body.breaks.map((b: { utcEndTime: string }) => b.utcEndTime)).toEqual([out.body.utcEndTime]);
    expect(await exceptionsOf(w, "&type=MISSED_CLOCK_OUT")).toEqual([]);
    expect((await feed(w.org)).filter((e) => e.type === "shift.clocked_out")).toHaveLength(1);

    const off = await createWorkplace({ timezone: "UTC" });
    await api("PATCH", settingsPath(off), { token: off.org.adminToken, body: { autoClockOutAfterMinutes: null } });
    const kept = await clockIn(off, { occurredAt: iso(Date.now() - 30 * 60 * MINUTE) });
    await runAttendancePass(db(), new Date());
    expect((await api("GET", `/api/timesheets/${kept.body.id}`, { token: off.org.adminToken })).body.utcEndTime).toBeNull();
  });
});
