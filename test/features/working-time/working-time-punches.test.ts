import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { feed } from "../../helpers/pay";
import {
  clockIn,
  createBreakType,
  createWorkplace,
  exceptionsAroundToday,
  minutesAgo,
  punch,
  type Workplace,
} from "../../helpers/workplace";

/* Issue 47: a clock-out raises the working-time exceptions of the location's pack in its own batch. */

async function germanWorkplace() {
  const w = await createWorkplace({ timezone: "UTC" });
  const res = await api("PUT", `/api/organizations/${w.org.id}/locations/${w.location.id}/working-time`, {
    token: w.org.adminToken,
    body: { rulePack: "DE" },
  });
  expect(res.status, res.text).toBe(200);
  return w;
}

/** A 7-hour shift (clock-in to clock-out) with one break of `breakMinutes`. */
async function sevenHours(w: Workplace, breakMinutes: number) {
  const lunch = await createBreakType(w);
  const shift = await clockIn(w, { occurredAt: minutesAgo(460) });
  expect(shift.status, shift.text).toBe(200);
  await punch(w, "break-start", { typeId: lunch.id, occurredAt: minutesAgo(280) });
  await punch(w, "break-end", { occurredAt: minutesAgo(280 - breakMinutes) });
  const out = await punch(w, "clock-out", { occurredAt: minutesAgo(40) });
  expect(out.status, out.text).toBe(200);
  return shift.body.id as string;
}

describe("clock-out under Germany's ArbZG", () => {
  it("flags a 7-hour shift with only a 15-minute break: BREAK_TOO_SHORT, 15 minutes short (§4: 30 over 6 hours)", async () => {
    const w = await germanWorkplace();
    const shiftId = await sevenHours(w, 15);
    // 420 minutes less a 15-minute break: 405 worked, over 360, so 30 are due; 15 taken, 15 short.
    expect(await exceptionsAroundToday(w)).toEqual([expect.objectContaining({ type: "BREAK_TOO_SHORT", minutes: 15, shiftId })]);
    const raised = (await feed(w.org)).filter((e) => e.type === "attendance_exception.raised");
    expect(raised.map((e) => e.data.type)).toContain("BREAK_TOO_SHORT");
  });

  it("raises nothing for the same shift with a 30-minute break", async () => {
    const w = await germanWorkplace();
    await sevenHours(w, 30);
    expect(await exceptionsAroundToday(w)).toEqual([]);
  });

  it("raises nothing without a pack", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    await sevenHours(w, 15);
    expect(await exceptionsAroundToday(w)).toEqual([]);
  });

  it("raises REST_TOO_SHORT for a shift starting 9 hours after the previous one ended (§5(1): 11), 120 minutes short", async () => {
    const w = await germanWorkplace();
    const end = Date.now() - (300 + 540) * 60_000;
    const manual = await api("POST", "/api/timesheets", {
      token: w.org.adminToken,
      body: {
        employeeId: w.staff.id,
        locationId: w.location.id,
        roleId: w.roleId,
        startTime: new Date(end - 240 * 60_000).toISOString(),
        endTime: new Date(end).toISOString(),
      },
    });
    expect(manual.status, manual.text).toBe(201);
    await clockIn(w, { occurredAt: minutesAgo(300) });
    expect((await punch(w, "clock-out", { occurredAt: minutesAgo(60) })).status).toBe(200);
    expect((await exceptionsAroundToday(w)).map((e) => [e.type, e.minutes])).toEqual([["REST_TOO_SHORT", 120]]);
  });
});
