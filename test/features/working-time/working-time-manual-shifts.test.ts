import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { feed } from "../../helpers/pay";
import { createWorkplace, type Workplace } from "../../helpers/workplace";

/*
 * Issue 47: a manual shift (POST /timesheets) and an edit of a worked shift's times (PATCH) are judged by the
 * location's pack as a clock-out is, in their own batch; the weekly maximum is judged as the shift closes; a location's
 * pack setting is effective-dated.
 */

async function workplaceWith(rulePack: string, effectiveFrom?: string) {
  const w = await createWorkplace({ timezone: "UTC" });
  await setPack(w, rulePack, effectiveFrom);
  return w;
}

async function setPack(w: Workplace, rulePack: string, effectiveFrom?: string) {
  const res = await api("PUT", `/api/organizations/${w.org.id}/locations/${w.location.id}/working-time`, {
    token: w.org.adminToken,
    body: { rulePack, ...(effectiveFrom ? { effectiveFrom } : {}) },
  });
  expect(res.status, res.text).toBe(200);
  return res;
}

/** A manual shift from `start` (UTC) of `minutes`, with an unpaid break block at its middle of `breakMinutes`. */
async function manual(w: Workplace, start: string, minutes: number) {
  const startMs = Date.parse(start);
  const res = await api("POST", "/api/timesheets", {
    token: w.org.adminToken,
    body: {
      employeeId: w.staff.id,
      locationId: w.location.id,
      roleId: w.roleId,
      startTime: new Date(startMs).toISOString(),
      endTime: new Date(startMs + minutes * 60_000).toISOString(),
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; updatedAt: string };
}

async function exceptionsOf(w: Workplace, from: string, to: string, type?: string) {
  const res = await api("GET", `/api/organizations/${w.org.id}/attendance-exceptions?startDate=${from}&endDate=${to}`, {
    token: w.org.adminToken,
  });
  expect(res.status, res.text).toBe(200);
  return (res.body as { type: string; minutes: number | null; shiftId: string | null; businessDate: string }[]).filter(
    (e) => e.type !== "UNSCHEDULED_SHIFT" && (type === undefined || e.type === type),
  );
}

describe("a manual shift is judged by the location's pack (POST /timesheets)", () => {
  it("Ontario: Monday to Saturday 8 h is 48 h (ESA s. 17(1)(b)), a Sunday minute more is 1 minute over", async () => {
    const w = await workplaceWith("ON");
    // 4-hour shifts twice a day need no eating period (s. 20: after 5 hours), nor 8 h between them as they total 13 h
    // or less (s. 18(3)), and leave 15 h free each day (s. 18(1): 11): 08:00-12:00 and 13:00-17:00, Monday
    // 2026-06-01 to Saturday 2026-06-06: 6 x 8 h = 48 h.
    for (const day of ["01", "02", "03", "04", "05", "06"]) {
      await manual(w, `2026-06-${day}T08:00:00Z`, 240);
      await manual(w, `2026-06-${day}T13:00:00Z`, 239);
    }
    // 6 x 7 h 59 = 47 h 54: six minutes under. Sunday 08:00-08:06 makes exactly 48 h; 08:10-08:11 one minute over.
    await manual(w, "2026-06-07T08:00:00Z", 6);
    expect(await exceptionsOf(w, "2026-06-01", "2026-06-07")).toEqual([]);
    const over = await manual(w, "2026-06-07T16:10:00Z", 1);
    expect((await exceptionsOf(w, "2026-06-01", "2026-06-07")).map((e) => [e.type, e.minutes, e.shiftId])).toEqual([
      ["WEEKLY_MAXIMUM_EXCEEDED", 1, over.id],
    ]);
    const raised = (await feed(w.org)).filter((e) => e.type === "attendance_exception.raised");
    expect(raised.map((e) => e.data.type)).toEqual(["WEEKLY_MAXIMUM_EXCEEDED"]);
  });

  it("Germany: a 9-hour rest before a manual shift is REST_TOO_SHORT, 120 minutes short (ArbZG §5(1): 11)", async () => {
    const w = await workplaceWith("DE");
    await manual(w, "2026-06-01T16:00:00Z", 360); // ends 22:00 (6 h: no break due, §4)
    const next = await manual(w, "2026-06-02T07:00:00Z", 240); // 9 h later
    expect((await exceptionsOf(w, "2026-06-01", "2026-06-02")).map((e) => [e.type, e.minutes, e.shiftId])).toEqual([
      ["REST_TOO_SHORT", 120, next.id],
    ]);
  });

  it("PATCH moving a worked shift's start closer to the previous one raises REST_TOO_SHORT in its batch", async () => {
    const w = await workplaceWith("DE");
    await manual(w, "2026-06-01T16:00:00Z", 360); // ends 22:00 (6 h: no break due, §4)
    const next = await manual(w, "2026-06-02T10:00:00Z", 240); // 12 h later: enough
    expect(await exceptionsOf(w, "2026-06-01", "2026-06-02")).toEqual([]);
    const patch = await api("PATCH", `/api/timesheets/${next.id}`, {
      token: w.org.adminToken,
      body: { startTime: "2026-06-02T08:00:00Z" }, // 10 h after: 60 minutes short
    });
    expect(patch.status, patch.text).toBe(200);
    expect((await exceptionsOf(w, "2026-06-01", "2026-06-02")).map((e) => [e.type, e.minutes, e.shiftId])).toEqual([
      ["REST_TOO_SHORT", 60, next.id],
    ]);
  });
});

describe("a location's pack setting is effective-dated", () => {
  it("switching from Spain (12 h rest) to Germany (11 h) on 2026-06-10: the day before by Spain, the day by Germany", async () => {
    const w = await workplaceWith("ES", "2026-01-01");
    const put = await setPack(w, "DE", "2026-06-10");
    expect(put.body.history).toEqual([
      { effectiveFrom: "2026-01-01", rulePack: "ES", overrides: null },
      { effectiveFrom: "2026-06-10", rulePack: "DE", overrides: null },
    ]);
    // Both rests 11 h 30: short of Spain's 12 (art. 34.3) by 30 minutes, enough for Germany's 11.
    await manual(w, "2026-06-08T10:00:00Z", 240); // ends 14:00
    const dayBefore = await manual(w, "2026-06-09T01:30:00Z", 120); // 2026-06-09, 11 h 30 later: Spain's
    await manual(w, "2026-06-09T16:00:00Z", 120); // 12 h 30 after 03:30: enough for both; ends 18:00
    await manual(w, "2026-06-10T05:30:00Z", 240); // 2026-06-10, 11 h 30 later: Germany's
    expect((await exceptionsOf(w, "2026-06-08", "2026-06-10", "REST_TOO_SHORT")).map((e) => [e.type, e.minutes, e.shiftId])).toEqual([
      ["REST_TOO_SHORT", 30, dayBefore.id],
    ]);
  });

  it("switching from Germany (11 h) to Spain (12 h): the day before by Germany, the day by Spain", async () => {
    const w = await workplaceWith("DE", "2026-01-01");
    await setPack(w, "ES", "2026-06-10");
    await manual(w, "2026-06-08T10:00:00Z", 240);
    await manual(w, "2026-06-09T01:30:00Z", 120); // 11 h 30 on 2026-06-09: enough under Germany
    await manual(w, "2026-06-09T16:00:00Z", 120);
    const onTheDay = await manual(w, "2026-06-10T05:30:00Z", 240); // 11 h 30 on 2026-06-10: short under Spain
    expect((await exceptionsOf(w, "2026-06-08", "2026-06-10", "REST_TOO_SHORT")).map((e) => [e.type, e.minutes, e.shiftId])).toEqual([
      ["REST_TOO_SHORT", 30, onTheDay.id],
    ]);
  });

  it("GET shows the setting in effect today and the history; a PUT without effectiveFrom takes the location's today", async () => {
    const w = await workplaceWith("ES", "2026-01-01");
    const path = `/api/organizations/${w.org.id}/locations/${w.location.id}/working-time`;
    await setPack(w, "DE", "2099-01-01");
    const got = await api("GET", path, { token: w.org.adminToken });
    expect(got.body).toMatchObject({ rulePack: "ES", effectiveFrom: "2026-01-01", effective: { id: "ES" } });
    expect(got.body.history.map((v: { rulePack: string }) => v.rulePack)).toEqual(["ES", "DE"]);
    const today = new Date().toISOString().slice(0, 10);
    const now = await setPack(w, "FR");
    expect(now.body).toMatchObject({ rulePack: "FR", effectiveFrom: today });
    expect(now.body.history.map((v: { effectiveFrom: string }) => v.effectiveFrom)).toEqual(["2026-01-01", today, "2099-01-01"]);
  });
});
