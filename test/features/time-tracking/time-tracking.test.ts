import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createOrganization, unique } from "../../helpers/fixtures";
import { tenantDb } from "../../helpers/shards";
import { createStaffMember, staffToken } from "../../helpers/staff";
import { clockIn, createBreakType, createWorkplace, HERE, minutesAgo, punch } from "../../helpers/workplace";

/** Instants `minutes` after a shift's clock-in, so that every total below is exact. */
const afterStart = (shift: { utcStartTime: string }) => (minutes: number) =>
  new Date(Date.parse(shift.utcStartTime) + minutes * 60_000).toISOString();

const count = async (table: string, column: string, value: string) =>
  (await tenantDb().prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = ?`).bind(value).first<{ n: number }>())!.n;

describe("clock in", () => {
  it("POST …/clock-in opens a shift exactly as the brief's state table says", async () => {
    const w = await createWorkplace();
    const res = await clockIn(w, { utcOffset: -240 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      employeeId: w.staff.id,
      locationId: w.location.id,
      roleId: w.roleId,
      endTime: null,
      utcEndTime: null,
      active: true,
      locked: false,
      breaks: [],
      duration: 0,
      payableDuration: 0,
      totalPaidBreaks: 0,
      totalUnpaidBreaks: 0,
      utcOffset: -240,
      deletedAt: null,
    });
    expect(Date.parse(res.body.utcStartTime) - Date.parse(res.body.startTime)).toBe(-240 * -60_000);
    expect(res.body.events[0]).toMatchObject({ kind: "clock_in", verdict: "inside", distanceCentimeters: 0, flags: [] });
    expect(res.body.events[0].receivedAt).toMatch(/Z$/);
  });

  it("derives utcOffset from the location's zone when omitted (Asia/Kathmandu, +5:45)", async () => {
    const w = await createWorkplace({ timezone: "Asia/Kathmandu" });
    const res = await clockIn(w);
    expect(res.status).toBe(200);
    expect(res.body.utcOffset).toBe(345);
    expect(Date.parse(res.body.startTime) - Date.parse(res.body.utcStartTime)).toBe(345 * 60_000);
  });

  it("derives the New York offset for the instant clocked (DST-aware)", async () => {
    const w = await createWorkplace();
    const res = await clockIn(w);
    const zoneName = new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", timeZoneName: "short" })
      .formatToParts(Date.parse(res.body.utcStartTime))
      .find((p) => p.type === "timeZoneName")!.value;
    expect(res.body.utcOffset).toBe(zoneName === "EDT" ? -240 : -300);
  });

  it("takes the wage from the role, else the staff member", async () => {
    const w = await createWorkplace();
    const role = await api("POST", `/api/organizations/${w.org.id}/roles`, {
      token: w.org.adminToken,
      body: { name: "Barista", hourlyWage: 21.5 },
    });
    const res = await clockIn(w, { roleId: role.body.id });
    expect(res.body.hourlyWage).toBe(21.5);
  });

  it("refuses a second clock-in with 409 SHIFT_ALREADY_OPEN", async () => {
    const w = await createWorkplace();
    await clockIn(w);
    const again = await clockIn(w);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("SHIFT_ALREADY_OPEN");
  });

  it("20 simultaneous clock-ins give one 200 and nineteen 409s, with no orphan rows", async () => {
    const w = await createWorkplace();
    const results = await Promise.all(Array.from({ length: 20 }, () => clockIn(w)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    // A clock-in that read before the winner wrote meets the one-open-shift index, not the overlap guard.
    expect(new Set(results.filter((r) => r.status === 409).map((r) => r.body.code))).toEqual(new Set(["SHIFT_ALREADY_OPEN"]));
    expect(await count("shifts", "employee_id", w.staff.id)).toBe(1);
    expect(await count("shift_events", "employee_id", w.staff.id)).toBe(1);
  });

  it("refuses a position outside the fence with 422 and the distances, and records nothing", async () => {
    const w = await createWorkplace();
    const res = await clockIn(w, { latitude: 40.758, longitude: -73.9855, accuracy: 10 });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: "OUTSIDE_GEOFENCE", allowedCentimeters: 10000, accuracyCentimeters: 1000 });
    expect(res.body.distanceCentimeters).toBeGreaterThan(100_000);
    expect(await count("shifts", "employee_id", w.staff.id)).toBe(0);
  });

  it("accepts an undetermined position and flags it", async () => {
    const w = await createWorkplace();
    const res = await clockIn(w, { latitude: 40.7496, longitude: -73.985428, accuracy: 80 });
    expect(res.status).toBe(200);
    expect(res.body.flags).toEqual(["UNDETERMINED_GEOFENCE"]);
  });

  it("accepts and flags an outside position when the location's geofenceMode is flag, and flags a mock location", async () => {
    const w = await createWorkplace({ geofenceMode: "flag" });
    const res = await clockIn(w, { latitude: 41, longitude: -74, mock: true });
    expect(res.status).toBe(200);
    expect(res.body.flags).toEqual(["MOCK_LOCATION", "OUTSIDE_GEOFENCE"]);
  });

  it("needs latitude and longitude inside a fenced location (400 naming them), not in an unfenced one", async () => {
    const w = await createWorkplace();
    const res = await api("POST", `${w.punchPath}/clock-in`, { token: w.token, body: { roleId: w.roleId } });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(["latitude", "longitude"]);
    const open = await createWorkplace({ clock_in_distance_centimeters: 0 });
    const ok = await api("POST", `${open.punchPath}/clock-in`, { token: open.token, body: { roleId: open.roleId } });
    expect(ok.status).toBe(200);
    expect(ok.body.events[0].verdict).toBe("unfenced");
  });

  it("rejects invalid input with 400 and unknown records with 404", async () => {
    const w = await createWorkplace();
    const bad = await clockIn(w, { latitude: 91, utcOffset: 9999 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["latitude", "utcOffset"]);
    const role = await clockIn(w, { roleId: "missing" });
    expect(role.status).toBe(404);
    expect(role.body.code).toBe("ROLE_NOT_FOUND");
    const admin = { token: w.org.adminToken, body: { roleId: w.roleId, ...HERE } };
    expect((await api("POST", `/api/organizations/${w.org.id}/staffmembers/nope/locations/${w.location.id}/clock-in`, admin)).status).toBe(
      404,
    );
    expect((await api("POST", `/api/organizations/${w.org.id}/staffmembers/${w.staff.id}/locations/nope/clock-in`, admin)).status).toBe(
      404,
    );
  });

  it("refuses a staff member not assigned to the location, and an inactive one", async () => {
    const w = await createWorkplace();
    const stranger = await createStaffMember(w.org);
    const path = `/api/organizations/${w.org.id}/staffmembers/${stranger.id}/locations/${w.location.id}/clock-in`;
    const res = await api("POST", path, { token: w.org.adminToken, body: { roleId: w.roleId, ...HERE } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("NOT_ASSIGNED_TO_LOCATION");
    await api("PATCH", `/api/organizations/${w.org.id}/staffmembers/${w.staff.id}`, { token: w.org.adminToken, body: { active: false } });
    const inactive = await clockIn({ ...w, token: w.org.adminToken });
    expect(inactive.status).toBe(400);
    expect(inactive.body.code).toBe("STAFF_MEMBER_INACTIVE");
  });

  it("lets a staff member clock only themself in; a manager may clock anyone; another organization is 404", async () => {
    const w = await createWorkplace();
    const colleague = await createStaffMember(w.org, { locationIds: [w.location.id] });
    const colleagueToken = await staffToken(w.org, colleague.id);
    expect((await clockIn({ ...w, token: colleagueToken })).status).toBe(403);
    const manager = await createStaffMember(w.org, { accessRoleName: "Manager" });
    expect((await clockIn({ ...w, token: await staffToken(w.org, manager.id) })).status).toBe(200);
    const other = await createOrganization();
    expect((await clockIn({ ...w, token: other.adminToken })).status).toBe(404);
    expect((await api("POST", `${w.punchPath}/clock-in`, { body: { roleId: w.roleId } })).status).toBe(401);
  });

  it("refuses a clock-in on a locked day with 409 DAY_LOCKED", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    const today = new Date().toISOString().slice(0, 10);
    await tenantDb()
      .prepare("INSERT INTO locked_days (organization_id, location_id, date, locked_by, created_at) VALUES (?, ?, ?, 'test', ?)")
      .bind(w.org.id, w.location.id, today, Date.now())
      .run();
    const res = await clockIn(w);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("DAY_LOCKED");
  });
});

describe("offline punches and exactly-once", () => {
  it("takes the shift's times from occurredAt and records receivedAt beside it", async () => {
    const w = await createWorkplace();
    const occurredAt = minutesAgo(180);
    const res = await clockIn(w, { occurredAt });
    expect(res.status).toBe(200);
    expect(res.body.utcStartTime).toBe(occurredAt);
    expect(Date.parse(res.body.events[0].receivedAt)).toBeGreaterThan(Date.parse(occurredAt));
  });

  it("refuses occurredAt more than 2 minutes ahead, older than 72 h, or before the shift's previous event", async () => {
    const w = await createWorkplace();
    const future = await clockIn(w, { occurredAt: minutesAgo(-3) });
    expect(future.status).toBe(400);
    expect(future.body.code).toBe("OCCURRED_AT_IN_FUTURE");
    const old = await clockIn(w, { occurredAt: minutesAgo(72 * 60 + 1) });
    expect(old.body.code).toBe("OCCURRED_AT_TOO_OLD");
    await clockIn(w, { occurredAt: minutesAgo(60) });
    const before = await punch(w, "clock-out", { occurredAt: minutesAgo(90) });
    expect(before.status).toBe(400);
    expect(before.body.code).toBe("OCCURRED_AT_BEFORE_PREVIOUS_EVENT");
  });

  it("a clock-in replayed hours later with the same Idempotency-Key returns the original shift", async () => {
    const w = await createWorkplace();
    const key = unique("punch");
    const body = { occurredAt: minutesAgo(240) };
    const first = await clockIn(w, body, { "Idempotency-Key": key });
    const replay = await clockIn(w, body, { "Idempotency-Key": key });
    expect(first.status).toBe(200);
    expect(replay.status).toBe(200);
    expect(replay.body.id).toBe(first.body.id);
    expect(await count("shifts", "employee_id", w.staff.id)).toBe(1);
    expect(await count("shift_events", "idempotency_key", key)).toBe(1);
  });
});

describe("Idempotency-Key on punches (recorded inside the punch's own batches)", () => {
  it("replays every punch kind, refuses another body under the key, and applies each punch once", async () => {
    const w = await createWorkplace();
    const lunch = await createBreakType(w);
    const steps: [string, Record<string, unknown>][] = [
      ["clock-in", { roleId: w.roleId, occurredAt: minutesAgo(30) }],
      ["break-start", { typeId: lunch.id, occurredAt: minutesAgo(20) }],
      ["break-end", { occurredAt: minutesAgo(10) }],
      ["clock-out", {}],
    ];
    for (const [action, body] of steps) {
      const key = unique(action);
      const first = await punch(w, action, body, { "Idempotency-Key": key });
      const retry = await punch(w, action, body, { "Idempotency-Key": key });
      expect(first.status, action).toBe(200);
      expect(retry.status, action).toBe(200);
      expect(retry.body, action).toEqual(first.body);
      expect(retry.headers.get("Idempotent-Replayed"), action).toBe("true");
      const other = await punch(w, action, { ...body, accuracy: 5 }, { "Idempotency-Key": key });
      expect(other.status, action).toBe(422);
      expect(other.body.code).toBe("IDEMPOTENCY_KEY_REUSED");
    }
    expect(await count("shift_events", "employee_id", w.staff.id)).toBe(4);
    expect(
      await count(
        "shift_breaks",
        "shift_id",
        (await tenantDb().prepare("SELECT id FROM shifts WHERE employee_id = ?").bind(w.staff.id).first<{ id: string }>())!.id,
      ),
    ).toBe(1);
  });

  it("simultaneous twins with one key: one applies, the others answer 409, and a later retry replays", async () => {
    const w = await createWorkplace();
    const key = unique("twin");
    const results = await Promise.all(Array.from({ length: 8 }, () => clockIn(w, {}, { "Idempotency-Key": key })));
    const ok = results.filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((r) => r.body.id)).size).toBe(1);
    expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    expect(await count("shifts", "employee_id", w.staff.id)).toBe(1);
    const later = await clockIn(w, {}, { "Idempotency-Key": key });
    expect(later.status).toBe(200);
    expect(later.body.id).toBe(ok[0]!.body.id);
  });

  it("a punch refused (409) stores nothing under its key, so the retry is judged afresh", async () => {
    const w = await createWorkplace();
    const key = unique("refused");
    const refused = await punch(w, "clock-out", {}, { "Idempotency-Key": key });
    expect(refused.status).toBe(409);
    expect(await count("idempotency_keys", "key", key)).toBe(0);
  });
});

describe("breaks and clock out", () => {
  it("starts and ends a break, then clocks out with the totals", async () => {
    const w = await createWorkplace();
    const lunch = await createBreakType(w, { paid: false });
    const opened = await clockIn(w, { occurredAt: minutesAgo(120) });
    const at = afterStart(opened.body);
    const started = await punch(w, "break-start", { typeId: lunch.id, occurredAt: at(60) });
    expect(started.status).toBe(200);
    expect(started.body.breaks).toHaveLength(1);
    expect(started.body.breaks[0]).toMatchObject({
      typeId: lunch.id,
      name: "Lunch",
      paid: false,
      mandatory: false,
      frequencyMinutes: 360,
      durationInSettingsMinutes: 30,
      endTime: null,
    });
    const state = await api("GET", `${w.punchPath}/shift-state`, { token: w.token });
    expect(state.body.availableBreaks).toEqual([]);
    const ended = await punch(w, "break-end", { occurredAt: at(90) });
    expect(ended.status).toBe(200);
    expect(ended.body.breaks[0].endTime).not.toBeNull();
    const out = await punch(w, "clock-out", { occurredAt: at(120) });
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({ active: false, duration: 120, totalUnpaidBreaks: 30, totalPaidBreaks: 0, payableDuration: 90 });
    expect(out.body.endTime).not.toBeNull();
    expect(Date.parse(out.body.utcEndTime) - Date.parse(out.body.endTime)).toBe(out.body.utcOffset * -60_000);
  });

  it("clock-out ends an open break at the same instant", async () => {
    const w = await createWorkplace();
    const coffee = await createBreakType(w, { name: "Coffee", paid: true, durationMinutes: 10 });
    const at = afterStart((await clockIn(w, { occurredAt: minutesAgo(50) })).body);
    await punch(w, "break-start", { typeId: coffee.id, occurredAt: at(30) });
    const out = await punch(w, "clock-out", { occurredAt: at(50) });
    expect(out.status).toBe(200);
    expect(out.body.breaks[0].endTime).toBe(out.body.endTime);
    expect(out.body).toMatchObject({ duration: 50, totalPaidBreaks: 20, totalUnpaidBreaks: 0, payableDuration: 50 });
    expect(out.body.events.map((e: { kind: string }) => e.kind)).toEqual(["clock_out", "break_end"]);
  });

  it("deducts no mandatory break that was not taken: every minute is payable (issue 44)", async () => {
    const w = await createWorkplace();
    await createBreakType(w, { name: "Meal", mandatory: true, frequencyMinutes: 300, durationMinutes: 30 });
    await clockIn(w, { occurredAt: minutesAgo(360) });
    const out = await punch(w, "clock-out");
    expect(out.body.breaks).toEqual([]);
    expect(out.body.totalUnpaidBreaks).toBe(0);
    expect(out.body.payableDuration).toBe(out.body.duration);
  });

  it("answers 409 for break and clock-out conflicts", async () => {
    const w = await createWorkplace();
    const lunch = await createBreakType(w);
    expect((await punch(w, "clock-out")).body.code).toBe("NO_OPEN_SHIFT");
    expect((await punch(w, "break-start", { typeId: lunch.id })).body.code).toBe("NO_OPEN_SHIFT");
    await clockIn(w);
    expect((await punch(w, "break-end")).body.code).toBe("NO_OPEN_BREAK");
    await punch(w, "break-start", { typeId: lunch.id });
    const again = await punch(w, "break-start", { typeId: lunch.id });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("BREAK_ALREADY_OPEN");
  });

  it("refuses a disabled break type or one of another location with 400 naming typeId", async () => {
    const w = await createWorkplace();
    const disabled = await createBreakType(w, { enabled: false });
    const elsewhere = await createWorkplace();
    const foreign = await createBreakType(elsewhere);
    await clockIn(w);
    for (const typeId of [disabled.id, foreign.id]) {
      const res = await punch(w, "break-start", { typeId });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].path).toBe("typeId");
    }
  });

  it("simultaneous clock-outs close the shift once", async () => {
    const w = await createWorkplace();
    await clockIn(w, { occurredAt: minutesAgo(30) });
    const results = await Promise.all(Array.from({ length: 5 }, () => punch(w, "clock-out")));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(4);
    expect(await count("shift_events", "employee_id", w.staff.id)).toBe(2);
  });

  it("counts an overnight shift on the business date it started (22:00–06:00 local)", async () => {
    const w = await createWorkplace({ timezone: "America/New_York" });
    const now = Date.now();
    // The latest night whose 06:00 end is already past, found by stepping back a day from today's 22:00 local.
    const offset = (instant: number) => {
      const state = new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", timeZoneName: "longOffset" }).format(instant);
      const m = /GMT([+-])(\d{2}):(\d{2})/.exec(state)!;
      return (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
    };
    let localDate = new Date(now + offset(now) * 60_000).toISOString().slice(0, 10);
    let start = 0;
    for (;;) {
      const naive = Date.parse(`${localDate}T22:00:00Z`);
      start = naive - offset(naive) * 60_000;
      if (start + 8 * 3_600_000 <= now) break;
      localDate = new Date(Date.parse(localDate) - 86_400_000).toISOString().slice(0, 10);
    }
    const inRes = await clockIn(w, { occurredAt: new Date(start).toISOString() });
    expect(inRes.status).toBe(200);
    expect(inRes.body.businessDate).toBe(localDate);
    expect(inRes.body.startTime).toBe(`${localDate}T22:00:00.000Z`);
    const out = await punch(w, "clock-out", { occurredAt: new Date(start + 8 * 3_600_000).toISOString() });
    expect(out.body.duration).toBe(480);
    expect(out.body.endTime.slice(11, 16)).toBe("06:00");
    expect(out.body.businessDate).toBe(localDate);
  });
});

describe("shift state", () => {
  it("GET …/shift-state reports the open shift, minutes today and the breaks allowed now", async () => {
    const w = await createWorkplace();
    const lunch = await createBreakType(w);
    await createBreakType(w, { name: "Off", enabled: false });
    const idle = await api("GET", `${w.punchPath}/shift-state`, { token: w.token });
    expect(idle.status).toBe(200);
    expect(idle.body).toEqual({ totalShiftTimeToday: 0, openShift: null, availableBreaks: [] });
    // A closed shift of 40 minutes with 10 unpaid, then an open one 3 minutes old: 30 + 3 payable minutes.
    const earlier = afterStart((await clockIn(w, { occurredAt: minutesAgo(60) })).body);
    await punch(w, "break-start", { typeId: lunch.id, occurredAt: earlier(10) });
    await punch(w, "break-end", { occurredAt: earlier(20) });
    const closed = await punch(w, "clock-out", { occurredAt: earlier(40) });
    expect(closed.body.payableDuration).toBe(30);
    const opened = await clockIn(w, { occurredAt: minutesAgo(3) });
    const state = await api("GET", `${w.punchPath}/shift-state`, { token: w.token });
    expect(state.body.openShift.id).toBe(opened.body.id);
    expect(state.body.availableBreaks).toEqual([lunch.id]);
    // Only shifts that started on today's local date count (near local midnight the earlier one may not).
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(new Date());
    const expected = (closed.body.businessDate === today ? 30 : 0) + (opened.body.businessDate === today ? 3 : 0);
    expect(state.body.totalShiftTimeToday).toBe(expected);
  });

  it("is 404 for unknown staff or location, 403 for a colleague, 401 without a token", async () => {
    const w = await createWorkplace();
    expect(
      (
        await api("GET", `/api/organizations/${w.org.id}/staffmembers/nope/locations/${w.location.id}/shift-state`, {
          token: w.org.adminToken,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await api("GET", `/api/organizations/${w.org.id}/staffmembers/${w.staff.id}/locations/nope/shift-state`, {
          token: w.org.adminToken,
        })
      ).status,
    ).toBe(404);
    const colleague = await createStaffMember(w.org);
    expect((await api("GET", `${w.punchPath}/shift-state`, { token: await staffToken(w.org, colleague.id) })).status).toBe(403);
    expect((await api("GET", `${w.punchPath}/shift-state`)).status).toBe(401);
  });
});
