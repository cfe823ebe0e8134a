import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createLocation } from "../../helpers/locations";
import { expectInvalid } from "../../helpers/problems";
import { tenantDb } from "../../helpers/shards";
import { createStaffMember } from "../../helpers/staff";
import { createManual, createRole, ids, timesheets } from "../../helpers/timesheets";
import { clockIn, createBreakType, createWorkplace, punch, type Workplace } from "../../helpers/workplace";

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

const patch = (w: Workplace, id: string, body: unknown) => api("PATCH", `/api/timesheets/${id}`, { token: w.org.adminToken, body });

const DAY = { startTime: "2026-03-14T09:00:00Z", endTime: "2026-03-14T17:00:00Z" };

describe("PATCH /api/timesheets/{id}", () => {
  it("changes times and breaks and recomputes the totals, keeping an audit of before and after", async () => {
    const w = await createWorkplace();
    const shift = await createManual(w, DAY);
    const res = await patch(w, shift.id, {
      endTime: "2026-03-14T18:00:00Z",
      breaks: [{ startTime: "2026-03-14T12:00:00Z", endTime: "2026-03-14T12:45:00Z" }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ endTime: "2026-03-14T18:00:00.000Z", duration: 540, totalUnpaidBreaks: 45, payableDuration: 495 });
    expect(res.body.updatedAt > shift.updatedAt).toBe(true);
    const [, update] = await audits(shift.id);
    expect(update!.action).toBe("update");
    expect(JSON.parse(update!.before!)).toMatchObject({ duration: 480, breaks: [] });
    // Every key, in order: the last two are added apart (D1's 32 arguments per SQL function).
    expect(Object.keys(JSON.parse(update!.before!))).toEqual([
      ...["id", "employeeId", "locationId", "roleId", "utcStartTime", "utcEndTime", "utcOffset", "businessDate"],
      ...["hourlyWage", "duration", "totalPaidBreaks", "totalUnpaidBreaks", "payableDuration", "flags", "manualEntry"],
      ...["deletedAt", "breaks"],
    ]);
    expect(JSON.parse(update!.before!)).toMatchObject({ manualEntry: true, deletedAt: null, flags: [] });
    expect(JSON.parse(update!.after!)).toMatchObject({
      duration: 540,
      breaks: [{ paid: false, utcStartTime: "2026-03-14T16:00:00.000Z" }],
    });
  });

  it("reads times with the shift's own utcOffset, moving its business date with its start", async () => {
    const w = await createWorkplace();
    const shift = await createManual(w, DAY);
    const res = await patch(w, shift.id, { startTime: "2026-03-13T23:00:00Z" });
    expect(res.body).toMatchObject({
      startTime: "2026-03-13T23:00:00.000Z",
      utcStartTime: "2026-03-14T03:00:00.000Z",
      businessDate: "2026-03-13",
      duration: 1080,
    });
  });

  it("takes a new role's wage unless hourlyWage is given", async () => {
    const w = await createWorkplace();
    const shift = await createManual(w, DAY);
    const lead = await createRole(w, 31);
    expect((await patch(w, shift.id, { roleId: lead.id })).body).toMatchObject({ roleId: lead.id, hourlyWage: 31 });
    expect((await patch(w, shift.id, { hourlyWage: 12.5 })).body.hourlyWage).toBe(12.5);
    expect((await patch(w, shift.id, { roleId: "nope" })).body.errors[0].path).toBe("roleId");
  });

  it("closes a shift still clocked in with endTime, ending its open break, and frees the staff member to clock in", async () => {
    const w = await createWorkplace();
    const lunch = await createBreakType(w);
    const now = Date.now();
    const ago = (minutes: number) => new Date(now - minutes * 60_000).toISOString();
    const opened = await clockIn(w, { occurredAt: ago(120) });
    await punch(w, "break-start", { typeId: lunch.id, occurredAt: ago(30) });
    const endTime = new Date(Date.parse(opened.body.startTime) + 100 * 60_000).toISOString();
    const onlyBreaks = await patch(w, opened.body.id, { breaks: [] });
    expectInvalid(onlyBreaks, ["breaks"]);
    const res = await patch(w, opened.body.id, { endTime });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ active: false, duration: 100, totalUnpaidBreaks: 10, payableDuration: 90 });
    expect(res.body.breaks[0].endTime).toBe(endTime);
    expect((await clockIn(w)).status).toBe(200);
  });

  it("refuses an overlap (409), an end before the start (400), an empty body (400) and an unknown id (404)", async () => {
    const w = await createWorkplace();
    const first = await createManual(w, DAY);
    const second = await createManual(w, { startTime: "2026-03-14T18:00:00Z", endTime: "2026-03-14T22:00:00Z" });
    const overlap = await patch(w, second.id, { startTime: "2026-03-14T16:00:00Z" });
    expect(overlap.status).toBe(409);
    expect(overlap.body.code).toBe("SHIFT_OVERLAP");
    expectInvalid(await patch(w, first.id, { endTime: "2026-03-14T08:00:00Z" }), ["endTime"]);
    expectInvalid(await patch(w, first.id, {}), ["(root)"]);
    expect((await patch(w, "nope", { hourlyWage: 1 })).status).toBe(404);
    expect((await api("GET", `/api/timesheets/${second.id}`, { token: w.org.adminToken })).body.startTime).toBe("2026-03-14T18:00:00.000Z");
  });
  it("simultaneous edits land one at a time: the rest are 409 SHIFT_CHANGED and leave no audit", async () => {
    const w = await createWorkplace();
    const shift = await createManual(w, DAY);
    const wages = [11, 12, 13, 14, 15];
    const results = await Promise.all(wages.map((hourlyWage) => patch(w, shift.id, { hourlyWage })));
    const won = results.filter((r) => r.status === 200);
    expect(won.length).toBeGreaterThanOrEqual(1);
    expect(results.filter((r) => r.status !== 200).every((r) => r.status === 409 && r.body.code === "SHIFT_CHANGED")).toBe(true);
    const updates = (await audits(shift.id)).filter((a) => a.action === "update");
    expect(updates).toHaveLength(won.length);
    const final = await api("GET", `/api/timesheets/${shift.id}`, { token: w.org.adminToken });
    expect(won.map((r) => r.body.hourlyWage)).toContain(final.body.hourlyWage);
  });
});

describe("DELETE /api/timesheets/{id} and ?date&locationId", () => {
  it("soft-deletes one shift: out of the listing and totals, 404 afterwards, audited", async () => {
    const w = await createWorkplace();
    const shift = await createManual(w, DAY);
    const res = await api("DELETE", `/api/timesheets/${shift.id}`, { token: w.org.adminToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: shift.id, active: false });
    expect(res.body.deletedAt).not.toBeNull();
    expect((await api("GET", `/api/timesheets/${shift.id}`, { token: w.org.adminToken })).status).toBe(404);
    expect((await api("DELETE", `/api/timesheets/${shift.id}`, { token: w.org.adminToken })).status).toBe(404);
    expect((await timesheets(w, { startDate: "2026-03-14", endDate: "2026-03-14" })).body.totals.count).toBe(0);
    expect((await audits(shift.id)).map((a) => a.action)).toEqual(["create", "delete"]);
  });

  it("deletes every shift of that business date at that location in one write and answers how many", async () => {
    const w = await createWorkplace();
    const elsewhere = await createLocation(w.org, { name: "Elsewhere", timezone: "America/New_York" });
    const colleague = await createStaffMember(w.org, { locationIds: [w.location.id, elsewhere.id] });
    const a = await createManual(w, DAY);
    const b = await createManual(w, { ...DAY, employeeId: colleague.id });
    const otherPlace = await createManual(w, {
      startTime: "2026-03-14T18:00:00Z",
      endTime: "2026-03-14T20:00:00Z",
      locationId: elsewhere.id,
    });
    const otherDay = await createManual(w, { startTime: "2026-03-15T09:00:00Z", endTime: "2026-03-15T10:00:00Z" });
    const res = await api("DELETE", `/api/timesheets?date=2026-03-14&locationId=${w.location.id}`, { token: w.org.adminToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: 2 });
    const left = await timesheets(w, { startDate: "2026-03-01", endDate: "2026-03-31" });
    expect(ids(left.body.shifts)).toEqual(ids([otherPlace, otherDay]));
    for (const gone of [a, b]) expect((await audits(gone.id)).map((x) => x.action)).toEqual(["create", "delete"]);
    const again = await api("DELETE", `/api/timesheets?date=2026-03-14&locationId=${w.location.id}`, { token: w.org.adminToken });
    expect(again.body).toEqual({ deleted: 0 });
  });

  it("refuses a missing or bad date (400) and an unknown location (400 naming locationId)", async () => {
    const w = await createWorkplace();
    expectInvalid(await api("DELETE", `/api/timesheets?locationId=${w.location.id}`, { token: w.org.adminToken }), ["date"]);
    expectInvalid(await api("DELETE", `/api/timesheets?date=2026-02-30&locationId=${w.location.id}`, { token: w.org.adminToken }), [
      "date",
    ]);
    const unknown = await api("DELETE", "/api/timesheets?date=2026-03-14&locationId=nope", { token: w.org.adminToken });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].path).toBe("locationId");
  });
});
