import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { payLines } from "../../helpers/pay";
import { createStaffMember, staffToken } from "../../helpers/staff";
import { createManual, createRole, manualShift } from "../../helpers/timesheets";
import { clockIn, createWorkplace, minutesAgo, punch, type Workplace } from "../../helpers/workplace";

/** The workplace with a second, salaried staff member at its location, holding their own token. */
async function withSalaried(w: Workplace): Promise<Workplace> {
  const staff = await createStaffMember(w.org, {
    locationIds: [w.location.id],
    accessRoleName: "Employee",
    wageType: "salary",
    hourlyWage: 40,
  });
  return {
    ...w,
    staff,
    token: await staffToken(w.org, staff.id),
    punchPath: `/api/organizations/${w.org.id}/staffmembers/${staff.id}/locations/${w.location.id}`,
  };
}

const DAY = { startTime: "2026-06-01T09:00:00Z", endTime: "2026-06-01T17:00:00Z" };

describe("a salaried staff member's shifts", () => {
  it("read hourlyWage null wherever a shift is answered, as their pay lines read rate null", async () => {
    const w = await createWorkplace();
    const role = await createRole(w, 18.5);
    const salaried = await withSalaried(w);
    // A manual shift: its answer, the shift read back, the timesheet and the export.
    const manual = await createManual(salaried, { ...DAY, roleId: role.id });
    expect(manual.hourlyWage).toBeNull();
    expect((await api("GET", `/api/timesheets/${manual.id}`, { token: w.org.adminToken })).body.hourlyWage).toBeNull();
    const listed = await api("GET", `/api/timesheets?startDate=2026-06-01&endDate=2026-06-01&employeeId=${salaried.staff.id}`, {
      token: w.org.adminToken,
    });
    expect(listed.body.shifts.map((s: { hourlyWage: number | null }) => s.hourlyWage)).toEqual([null]);
    // Not paid by the hour: no amount in the totals, nor in the export.
    expect(listed.body.totals.amount).toBe(0);
    const exported = await api("GET", `/api/timesheets/export?startDate=2026-06-01&endDate=2026-06-01&format=json`, {
      token: w.org.adminToken,
    });
    expect(exported.body.map((r: { hourlyWage: number | null; amount: number | null }) => [r.hourlyWage, r.amount])).toEqual([
      [null, null],
    ]);
    const lines = await payLines(w, { startDate: "2026-06-01", endDate: "2026-06-01", employeeId: salaried.staff.id });
    expect(lines.status).toBe(200);
    expect(lines.body.employees[0].lines.map((l: { rate: number | null }) => l.rate)).toEqual([null]);
    // A clock-in: the open shift, its clock-out, and the event.
    const opened = await clockIn(salaried, { occurredAt: minutesAgo(30) });
    expect(opened.status).toBe(200);
    expect(opened.body.hourlyWage).toBeNull();
    const closed = await punch(salaried, "clock-out");
    expect(closed.body.hourlyWage).toBeNull();
    const created = (await api("GET", `/api/organizations/${w.org.id}/events?limit=500`, { token: w.org.adminToken })).body.filter(
      (e: { type: string; data: { employeeId?: string } }) => e.type === "shift.created" && e.data.employeeId === salaried.staff.id,
    );
    expect(created.map((e: { data: { hourlyWage: number | null } }) => e.data.hourlyWage)).toEqual([null]);
    // An hourly colleague's shifts keep their wage.
    expect((await createManual(w, { ...DAY, roleId: role.id })).hourlyWage).toBe(18.5);
  });

  it("take no hourlyWage: 400 naming it on creation and on PATCH, writing nothing", async () => {
    const w = await createWorkplace();
    const salaried = await withSalaried(w);
    const refused = await manualShift(salaried, { ...DAY, hourlyWage: 25 });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((e: { path: string }) => e.path)).toEqual(["hourlyWage"]);
    const listed = await api("GET", `/api/timesheets?startDate=2026-06-01&endDate=2026-06-01&employeeId=${salaried.staff.id}`, {
      token: w.org.adminToken,
    });
    expect(listed.body.shifts).toEqual([]);
    const shift = await createManual(salaried, DAY);
    const patch = await api("PATCH", `/api/timesheets/${shift.id}`, { token: w.org.adminToken, body: { hourlyWage: 25 } });
    expect(patch.status).toBe(400);
    expect(patch.body.errors.map((e: { path: string }) => e.path)).toEqual(["hourlyWage"]);
    const role = await createRole(w, 30);
    const moved = await api("PATCH", `/api/timesheets/${shift.id}`, { token: w.org.adminToken, body: { roleId: role.id } });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ roleId: role.id, hourlyWage: null });
  });
});
