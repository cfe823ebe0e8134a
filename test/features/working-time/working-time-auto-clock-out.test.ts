import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { runAttendancePass } from "@/jobs/attendance-pass";
import { api } from "../../helpers/api";
import { feed } from "../../helpers/pay";
import { tenantDb } from "../../helpers/shards";
import {
  clockIn,
  createBreakType,
  createWorkplace,
  exceptionsAroundToday,
  minutesAgo,
  punch,
  type Workplace,
} from "../../helpers/workplace";

/* Issue 47: the Cron's automatic clock-out raises the working-time exceptions of the location's pack in its own batch. */

const db = () => createDatabase(tenantDb());

/** A German (ArbZG) workplace whose forgotten shifts the pass closes `afterMinutes` after their start. */
async function germanWorkplace(afterMinutes: number) {
  const w = await createWorkplace({ timezone: "UTC" });
  const pack = await api("PUT", `/api/organizations/${w.org.id}/locations/${w.location.id}/working-time`, {
    token: w.org.adminToken,
    body: { rulePack: "DE" },
  });
  expect(pack.status, pack.text).toBe(200);
  const settings = await api("PATCH", `/api/organizations/${w.org.id}/attendance-settings`, {
    token: w.org.adminToken,
    body: { autoClockOutAfterMinutes: afterMinutes },
  });
  expect(settings.status, settings.text).toBe(200);
  return w;
}

/** A shift clocked in 720 minutes ago with one break of `breakMinutes` taken 400 minutes ago, left open. */
async function forgottenShift(w: Workplace, breakMinutes: number) {
  const lunch = await createBreakType(w);
  const shift = await clockIn(w, { occurredAt: minutesAgo(720) });
  expect(shift.status, shift.text).toBe(200);
  await punch(w, "break-start", { typeId: lunch.id, occurredAt: minutesAgo(400) });
  await punch(w, "break-end", { occurredAt: minutesAgo(400 - breakMinutes) });
  return shift.body.id as string;
}

describe("automatic clock-out under Germany's ArbZG", () => {
  it("raises DAILY_MAXIMUM_EXCEEDED for a 10 h 30 day, 30 minutes over §3's 10 hours, once however often the pass runs", async () => {
    // Closed 675 minutes after the start, less a 45-minute break (the 45 due over 9 hours, taken): 630 worked.
    const w = await germanWorkplace(675);
    const shiftId = await forgottenShift(w, 45);
    await runAttendancePass(db(), new Date());
    await runAttendancePass(db(), new Date());
    const read = await api("GET", `/api/timesheets/${shiftId}`, { token: w.org.adminToken });
    expect(read.body.flags).toContain("AUTO_CLOCK_OUT");
    expect((await exceptionsAroundToday(w, ["UNSCHEDULED_SHIFT", "MISSED_CLOCK_OUT"])).map((e) => [e.type, e.minutes, e.shiftId])).toEqual([
      ["DAILY_MAXIMUM_EXCEEDED", 30, shiftId],
    ]);
    const raised = (await feed(w.org)).filter((e) => e.type === "attendance_exception.raised");
    expect(raised.filter((e) => e.data.type === "DAILY_MAXIMUM_EXCEEDED")).toHaveLength(1);
  });

  it("raises none for an 8-hour day with its 30-minute break", async () => {
    // Closed 510 minutes after the start, less a 30-minute break: 480 worked, the 30 due over 6 hours taken.
    const w = await germanWorkplace(510);
    const shiftId = await forgottenShift(w, 30);
    await runAttendancePass(db(), new Date());
    const read = await api("GET", `/api/timesheets/${shiftId}`, { token: w.org.adminToken });
    expect(read.body.flags).toContain("AUTO_CLOCK_OUT");
    expect(read.body.payableDuration).toBe(480);
    expect(await exceptionsAroundToday(w, ["UNSCHEDULED_SHIFT", "MISSED_CLOCK_OUT"])).toEqual([]);
  });
});
