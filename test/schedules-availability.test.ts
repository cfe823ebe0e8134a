import { describe, expect, it } from "vitest";
import { api } from "./helpers/api";
import { expectInvalid } from "./helpers/problems";
import { addWorker, createEntry, createOpenShift, createSchedulePlace, entryBody, type SchedulePlace } from "./helpers/schedules";
import { staffToken } from "./helpers/staff";

/** The staff member is unavailable every Monday 08:00–12:00 local (New York), from 2027-03-01 (a Monday). */
async function unavailableMondays(p: SchedulePlace, employeeId = p.staff.id) {
  const res = await api("POST", `/api/organizations/${p.org.id}/staffmembers/${employeeId}/availability`, {
    token: p.org.adminToken,
    body: {
      type: "UNAVAILABLE",
      startTime: "2027-03-01T08:00:00Z",
      endTime: "2027-03-01T12:00:00Z",
      timezone: "America/New_York",
      recurrence: "FREQ=WEEKLY",
    },
  });
  if (res.status !== 201) throw new Error(`availability: ${res.status} ${res.text}`);
  return res.body;
}

const MONDAY = { startTime: "2027-03-15T10:00:00Z", endTime: "2027-03-15T14:00:00Z" };
const entries = (p: SchedulePlace) =>
  api("GET", `${p.base}/schedules?startDate=2027-03-01&endDate=2027-03-31`, { token: p.org.adminToken }).then((r) => r.body as unknown[]);

describe("scheduling respects availability (409 WORKER_UNAVAILABLE)", () => {
  it("refuses published entries and drafts on an UNAVAILABLE occurrence (after DST too), unless ignoreAvailability", async () => {
    const p = await createSchedulePlace();
    await unavailableMondays(p);
    for (const draft of [false, true]) {
      const res = await api("POST", `${p.base}/schedules${draft ? "/drafts" : ""}`, {
        token: p.org.adminToken,
        body: entryBody(p, MONDAY),
      });
      expect(res.status, `draft ${draft}`).toBe(409);
      expect(res.body.code).toBe("WORKER_UNAVAILABLE");
    }
    expect(await entries(p)).toEqual([]);
    // 12:00 local is free: the occurrence ends then, whatever the offset (New York is on EDT from 14 March).
    expect((await createEntry(p, { startTime: "2027-03-15T12:00:00Z", endTime: "2027-03-15T16:00:00Z" })).id).toBeTruthy();
    const forced = await api("POST", `${p.base}/schedules`, {
      token: p.org.adminToken,
      body: entryBody(p, { startTime: "2027-03-22T09:00:00Z", endTime: "2027-03-22T11:00:00Z", ignoreAvailability: true }),
    });
    expect(forced.status).toBe(201);
  });

  it("refuses moving an entry onto an occurrence (PATCH), and reassigning it to an unavailable colleague", async () => {
    const p = await createSchedulePlace();
    const colleague = await addWorker(p);
    await unavailableMondays(p, colleague.id);
    const entry = await createEntry(p, MONDAY);
    const reassign = await api("PATCH", `${p.base}/schedules/${entry.id}`, { token: p.org.adminToken, body: { employeeId: colleague.id } });
    expect(reassign.status).toBe(409);
    expect(reassign.body.code).toBe("WORKER_UNAVAILABLE");
    const tuesday = await createEntry(p, { startTime: "2027-03-16T10:00:00Z", endTime: "2027-03-16T14:00:00Z", employeeId: colleague.id });
    const move = await api("PATCH", `${p.base}/schedules/${tuesday.id}`, { token: p.org.adminToken, body: MONDAY });
    expect(move.body.code).toBe("WORKER_UNAVAILABLE");
    const forced = await api("PATCH", `${p.base}/schedules/${tuesday.id}`, {
      token: p.org.adminToken,
      body: { ...MONDAY, startTime: "2027-03-22T10:00:00Z", endTime: "2027-03-22T14:00:00Z", ignoreAvailability: true },
    });
    expect(forced.status).toBe(200);
  });

  it("refuses a claim on an open shift during an occurrence; a PREFERRED availability refuses nothing", async () => {
    const p = await createSchedulePlace();
    await unavailableMondays(p);
    const shift = await createOpenShift(p, { startDate: "2027-03-08T09:00:00Z", endDate: "2027-03-08T13:00:00Z" });
    const claim = await api("POST", `${p.base}/open-shifts/${shift.id}/claim`, { token: p.token, body: {} });
    expect(claim.status).toBe(409);
    expect(claim.body.code).toBe("WORKER_UNAVAILABLE");
    const other = await addWorker(p);
    await api("POST", `/api/organizations/${p.org.id}/staffmembers/${other.id}/availability`, {
      token: p.org.adminToken,
      body: { type: "PREFERRED", startTime: "2027-03-08T08:00:00Z", endTime: "2027-03-08T12:00:00Z" },
    });
    const ok = await api("POST", `${p.base}/open-shifts/${shift.id}/claim`, { token: await staffToken(p.org, other.id), body: {} });
    expect(ok.status).toBe(201);
  });

  it("refuses assigning a pending preference of an unavailable worker, unless ignoreAvailability", async () => {
    const p = await createSchedulePlace();
    const shift = await createOpenShift(p, { startDate: "2027-03-08T09:00:00Z", endDate: "2027-03-08T13:00:00Z", requireApproval: true });
    const claim = await api("POST", `${p.base}/open-shifts/${shift.id}/claim`, { token: p.token, body: {} });
    expect(claim.status).toBe(201);
    await unavailableMondays(p);
    const assign = await api("POST", `${p.base}/open-shifts/${shift.id}/preferences/bulk-assign`, {
      token: p.org.adminToken,
      body: { preferenceIds: [claim.body.id] },
    });
    expect(assign.status).toBe(409);
    expect(assign.body.code).toBe("WORKER_UNAVAILABLE");
    const forced = await api("POST", `${p.base}/open-shifts/${shift.id}/preferences/bulk-assign`, {
      token: p.org.adminToken,
      body: { preferenceIds: [claim.body.id], ignoreAvailability: true },
    });
    expect(forced.status).toBe(200);
  });

  it("bulk copy skips and reports copies onto an occurrence, or copies them with ignoreAvailability", async () => {
    const p = await createSchedulePlace();
    const source = await createEntry(p, { startTime: "2027-02-22T09:00:00Z", endTime: "2027-02-22T11:00:00Z" });
    await unavailableMondays(p);
    const copy = (ignoreAvailability: boolean) =>
      api("POST", `${p.base}/schedules/bulk-copy`, {
        token: p.org.adminToken,
        body: { fromStartDate: "2027-02-22", fromEndDate: "2027-02-22", toStartDate: "2027-03-01", ignoreAvailability },
      });
    const skipped = await copy(false);
    expect(skipped.status).toBe(200);
    expect(skipped.body.created).toEqual([]);
    expect(skipped.body.skipped).toEqual([expect.objectContaining({ sourceId: source.id, reason: "WORKER_UNAVAILABLE" })]);
    const forced = await copy(true);
    expect(forced.body.created).toHaveLength(1);
  });
});

describe("GET …/schedules/eligibility", () => {
  it("ranks the location's staff for a slot with reasons, preference, the week's minutes and projected overtime", async () => {
    const p = await createSchedulePlace();
    const busy = await addWorker(p);
    const keen = await addWorker(p);
    await unavailableMondays(p);
    await createEntry(p, { employeeId: busy.id, startTime: "2027-03-15T11:00:00Z", endTime: "2027-03-15T13:00:00Z" });
    await createEntry(p, { employeeId: keen.id, startTime: "2027-03-16T09:00:00Z", endTime: "2027-03-16T17:00:00Z" });
    await api("POST", `/api/organizations/${p.org.id}/staffmembers/${keen.id}/availability`, {
      token: p.org.adminToken,
      body: { type: "PREFERRED", startTime: "2027-03-15T08:00:00Z", endTime: "2027-03-15T20:00:00Z", timezone: "America/New_York" },
    });
    await api("POST", `/api/organizations/${p.org.id}/pay-rules`, {
      token: p.org.adminToken,
      body: { name: "Tight", effectiveFrom: "2027-01-01", preset: "CUSTOM", weeklyOvertimeAfterMinutes: 600 },
    });
    const url = `${p.base}/schedules/eligibility?startTime=2027-03-15T10:00:00Z&endTime=2027-03-15T14:00:00Z`;
    const res = await api("GET", url, { token: p.org.adminToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { employeeId: keen.id, eligible: true, reasons: [], preferred: true, scheduledMinutesThisWeek: 480, projectedOvertimeMinutes: 120 },
      {
        employeeId: p.staff.id,
        eligible: false,
        reasons: ["UNAVAILABLE"],
        preferred: false,
        scheduledMinutesThisWeek: 0,
        projectedOvertimeMinutes: 0,
      },
      {
        employeeId: busy.id,
        eligible: false,
        reasons: ["SCHEDULE_OVERLAP"],
        preferred: false,
        scheduledMinutesThisWeek: 120,
        projectedOvertimeMinutes: 0,
      },
    ]);
    expect((await api("GET", url, { token: p.token })).status).toBe(403);
    const other = await createSchedulePlace();
    expect((await api("GET", url, { token: other.org.adminToken })).status).toBe(404);
    expectInvalid(
      await api("GET", `${p.base}/schedules/eligibility?startTime=2027-03-15T10:00:00Z&endTime=2027-03-15T09:00:00Z`, {
        token: p.org.adminToken,
      }),
      ["endTime"],
    );
  });
});
