import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { availabilityOccurrences } from "@db/schema";
import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { runAvailabilityHorizonPass } from "@/jobs/availability-horizon";
import worker from "@/worker";
import { api } from "../../helpers/api";
import { expectInvalid } from "../../helpers/problems";
import { addWorker, createEntry, createOpenShift, createSchedulePlace, entryBody, type SchedulePlace } from "../../helpers/schedules";
import { tenantDb } from "../../helpers/shards";
import { staffToken } from "../../helpers/staff";

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

/** The staff member is unavailable on Wednesday 2027-03-17, 08:00–20:00 local (New York), once. */
async function unavailableWednesday(p: SchedulePlace) {
  const res = await api("POST", `/api/organizations/${p.org.id}/staffmembers/${p.staff.id}/availability`, {
    token: p.org.adminToken,
    body: { type: "UNAVAILABLE", startTime: "2027-03-17T08:00:00Z", endTime: "2027-03-17T20:00:00Z", timezone: "America/New_York" },
  });
  if (res.status !== 201) throw new Error(`availability: ${res.status} ${res.text}`);
}

const publishWeek = (p: SchedulePlace) =>
  api("POST", `${p.base}/schedules/publish`, { token: p.org.adminToken, body: { startDate: "2027-03-15", endDate: "2027-03-21" } });

describe("POST …/schedules/publish and availability added after the draft", () => {
  it("skips and reports (WORKER_UNAVAILABLE) a draft on an UNAVAILABLE occurrence; the rest publishes", async () => {
    const p = await createSchedulePlace();
    const tuesday = await createEntry(p, { startTime: "2027-03-16T10:00:00Z", endTime: "2027-03-16T12:00:00Z" }, true);
    const wednesday = await createEntry(p, { startTime: "2027-03-17T10:00:00Z", endTime: "2027-03-17T12:00:00Z" }, true);
    await unavailableWednesday(p);
    const res = await publishWeek(p);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ publishedEntries: 1, publishedOpenShifts: 0 });
    expect(res.body.skipped).toEqual([
      {
        id: wednesday.id,
        employeeId: p.staff.id,
        startTime: "2027-03-17T10:00:00.000Z",
        endTime: "2027-03-17T12:00:00.000Z",
        reason: "WORKER_UNAVAILABLE",
      },
    ]);
    expect((await api("GET", `${p.base}/schedules/drafts/${wednesday.id}`, { token: p.org.adminToken })).body.isDraft).toBe(true);
    expect((await api("GET", `${p.base}/schedules/${tuesday.id}`, { token: p.org.adminToken })).body.isPublished).toBe(true);
    // Still skipped the next time, and reported again.
    const again = await publishWeek(p);
    expect(again.body).toMatchObject({ publishedEntries: 0, skipped: [expect.objectContaining({ id: wednesday.id })] });
  });

  it("publishes a draft whose last create or update carried ignoreAvailability (a draft copy too)", async () => {
    const p = await createSchedulePlace();
    const before = await createEntry(p, { startTime: "2027-03-17T09:00:00Z", endTime: "2027-03-17T10:00:00Z" }, true);
    await createEntry(p, { startTime: "2027-03-10T14:00:00Z", endTime: "2027-03-10T15:00:00Z" });
    await unavailableWednesday(p);
    const created = await api("POST", `${p.base}/schedules/drafts`, {
      token: p.org.adminToken,
      body: entryBody(p, { startTime: "2027-03-17T11:00:00Z", endTime: "2027-03-17T12:00:00Z", ignoreAvailability: true }),
    });
    expect(created.status, created.text).toBe(201);
    const patched = await api("PATCH", `${p.base}/schedules/drafts/${before.id}`, {
      token: p.org.adminToken,
      body: { note: "Inventory", ignoreAvailability: true },
    });
    expect(patched.status, patched.text).toBe(200);
    const copied = await api("POST", `${p.base}/schedules/bulk-copy`, {
      token: p.org.adminToken,
      body: { fromStartDate: "2027-03-10", fromEndDate: "2027-03-10", toStartDate: "2027-03-17", ignoreAvailability: true },
    });
    expect(copied.body.created).toEqual([expect.objectContaining({ isDraft: true })]);
    const res = await publishWeek(p);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ publishedEntries: 3, skipped: [] });
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

const DAY_MS = 86_400_000;
const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** The Monday at least `days` days from now (a local date). */
const mondayAfter = (days: number) => {
  const at = new Date(Date.now() + days * DAY_MS);
  return date(at.getTime() + ((8 - at.getUTCDay()) % 7) * DAY_MS);
};
const addDaysTo = (day: string, days: number) => date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS);

/** Every Monday 08:00–12:00 New York from `first`, with `exdates`. */
async function mondaysFrom(p: SchedulePlace, first: string, exdates: string[] = []) {
  const res = await api("POST", `/api/organizations/${p.org.id}/staffmembers/${p.staff.id}/availability`, {
    token: p.org.adminToken,
    body: {
      type: "UNAVAILABLE",
      startTime: `${first}T08:00:00Z`,
      endTime: `${first}T12:00:00Z`,
      timezone: "America/New_York",
      recurrence: "freq=weekly;byday=mo",
      exdates,
    },
  });
  if (res.status !== 201) throw new Error(`availability: ${res.status} ${res.text}`);
  return res.body;
}

/** What the three views say of the staff member on `day` 10:00–14:00 local: listed, eligible, schedulable. */
async function views(p: SchedulePlace, day: string) {
  const listed = await api("GET", `/api/organizations/${p.org.id}/availability?startDate=${day}&endDate=${day}`, {
    token: p.org.adminToken,
  });
  const slot = { startTime: `${day}T10:00:00Z`, endTime: `${day}T14:00:00Z` };
  const eligibility = await api("GET", `${p.base}/schedules/eligibility?startTime=${slot.startTime}&endTime=${slot.endTime}`, {
    token: p.org.adminToken,
  });
  const entry = await api("POST", `${p.base}/schedules/drafts`, { token: p.org.adminToken, body: entryBody(p, slot) });
  if (entry.status === 201) {
    const removed = await api("DELETE", `${p.base}/schedules/drafts/${entry.body.id}`, { token: p.org.adminToken });
    if (removed.status !== 200) throw new Error(`delete entry: ${removed.status} ${removed.text}`);
  }
  return {
    listed: (listed.body as unknown[]).length > 0,
    eligible: (eligibility.body as { employeeId: string; eligible: boolean }[]).find((e) => e.employeeId === p.staff.id)!.eligible,
    refused: entry.status === 409 && entry.body.code === "WORKER_UNAVAILABLE",
  };
}

describe("exdates: scheduling and eligibility skip the dates a rule skips", () => {
  it("every Monday except one: that Monday is free in all three views, the next is not", async () => {
    const p = await createSchedulePlace();
    const first = mondayAfter(14);
    const skipped = addDaysTo(first, 7);
    await mondaysFrom(p, first, [skipped]);
    expect(await views(p, skipped)).toEqual({ listed: false, eligible: true, refused: false });
    expect(await views(p, addDaysTo(first, 14))).toEqual({ listed: true, eligible: false, refused: true });
  });
});

describe("the views agree past the first two years (issue 29, item 3)", () => {
  it("a rule begun three years ago: GET …/availability, eligibility and the scheduling guard agree on a Monday now", async () => {
    const p = await createSchedulePlace();
    const target = mondayAfter(14);
    await mondaysFrom(p, addDaysTo(target, -156 * 7));
    expect(await views(p, target)).toEqual({ listed: true, eligible: false, refused: true });
    expect(await views(p, addDaysTo(target, 1))).toEqual({ listed: false, eligible: true, refused: false });
  });

  it("the Cron writes occurrences out ahead of now, idempotently: three years from the first, all three views agree", async () => {
    const p = await createSchedulePlace();
    const first = mondayAfter(7);
    const rule = await mondaysFrom(p, first);
    const target = addDaysTo(first, 156 * 7);
    const db = createDatabase(tenantDb());
    const written = async () =>
      (await db.select({ n: count() }).from(availabilityOccurrences).where(eq(availabilityOccurrences.availabilityId, rule.id)))[0]!.n;
    const pass = async (now: Date) => {
      for (let round = 0; round < 20; round++) if ((await runAvailabilityHorizonPass(db, now, 1_000)).rules === 0) return;
    };
    const before = await written();
    // A year and a half from now, the Cron has kept two years ahead of then: the target is written out.
    const later = new Date(Date.now() + 548 * DAY_MS);
    await pass(later);
    const after = await written();
    expect(after).toBeGreaterThan(before + 70);
    await pass(later);
    expect(await written()).toBe(after);
    expect(await views(p, target)).toEqual({ listed: true, eligible: false, refused: true });
  });

  it("the Worker's scheduled handler runs the pass", async () => {
    const p = await createSchedulePlace();
    const first = mondayAfter(7);
    await mondaysFrom(p, first);
    const target = addDaysTo(first, 156 * 7);
    // Not yet written out: three years from now is past the two years ahead.
    expect((await views(p, target)).eligible).toBe(true);
    for (let round = 0; round < 20 && (await views(p, target)).eligible; round++) {
      const ctx = createExecutionContext();
      const scheduledTime = new Date(Date.now() + 548 * DAY_MS);
      await worker.scheduled(createScheduledController({ scheduledTime, cron: "*/30 * * * *" }), env, ctx);
      await waitOnExecutionContext(ctx);
    }
    expect(await views(p, target)).toEqual({ listed: true, eligible: false, refused: true });
  });
});
