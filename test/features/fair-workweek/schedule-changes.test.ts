import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { snapshot, changes as tableChanges } from "../../helpers/db-snapshot";
import { createOrganization } from "../../helpers/fixtures";
import { expectInvalid } from "../../helpers/problems";
import { addWorker, createEntry, createSchedulePlace, type SchedulePlace, setPackSince } from "../../helpers/schedules";
import { staffToken } from "../../helpers/staff";

const DAY = 86_400_000;
/** A wall-clock time `days` from now at a UTC location, on the hour (the location's local time is UTC). */
const at = (days: number, hour: number) => {
  const d = new Date(Date.now() + days * DAY);
  d.setUTCHours(hour, 0, 0, 0);
  return d.toISOString().replace(".000Z", "Z");
};
const dateOf = (time: string) => time.slice(0, 10);

async function placeWithPack(rulePack: string | null = "NYC_FAST_FOOD"): Promise<SchedulePlace> {
  const p = await createSchedulePlace("UTC");
  if (rulePack) {
    // In effect since January: some entries here are past dates, which keep the pack they had.
    await setPackSince(p.org, p.location.id, rulePack, "2026-01-01");
  }
  return p;
}

const changesOf = async (p: SchedulePlace, days = [0, 30], query = "") => {
  const res = await api(
    "GET",
    `/api/organizations/${p.org.id}/schedule-changes?startDate=${dateOf(at(days[0]!, 0))}&endDate=${dateOf(at(days[1]!, 0))}${query}`,
    { token: p.org.adminToken },
  );
  expect(res.status).toBe(200);
  return res.body as Record<string, any>[];
};

const eventsOf = async (p: SchedulePlace, type: string) =>
  (
    (await api("GET", `/api/organizations/${p.org.id}/events?limit=500`, { token: p.org.adminToken })).body as { type: string; data: any }[]
  ).filter((e) => e.type === type);

describe("the Fair Workweek change log", () => {
  it("records a published entry added inside the window as ADDED with its premium (NYC: $15 under 7 days), and its event", async () => {
    const p = await placeWithPack();
    const entry = await createEntry(p, { startTime: at(3, 9), endTime: at(3, 17) });
    const [change, ...more] = await changesOf(p);
    expect(more).toEqual([]);
    expect(change).toMatchObject({
      scheduleEntryId: entry.id,
      employeeId: p.staff.id,
      locationId: p.location.id,
      kind: "ADDED",
      minutesLost: 0,
      minutesAdded: 480,
      initiatedBy: "EMPLOYER",
      exemption: null,
      entryDate: dateOf(at(3, 9)),
      rulePack: "NYC_FAST_FOOD",
      premium: { hours: null, amount: 15 },
    });
    expect(change!.noticeMinutes).toBeGreaterThan(2 * 1440);
    expect(change!.noticeMinutes).toBeLessThan(4 * 1440);
    const events = await eventsOf(p, "schedule_change.recorded");
    expect(events.map((e) => e.data)).toEqual([change]);
  });

  it("records a cut with its reason ($45 with 24 h or more), an exempt change without premium, and a delete as CANCELLED", async () => {
    const p = await placeWithPack();
    const entry = await createEntry(p, { startTime: at(3, 9), endTime: at(3, 17) }, true);
    // A draft's changes are not the published schedule's.
    await api("PATCH", `${p.base}/schedules/drafts/${entry.id}`, { token: p.org.adminToken, body: { endTime: at(3, 16) } });
    expect(await changesOf(p)).toEqual([]);
    const published = await createEntry(p, { startTime: at(4, 9), endTime: at(4, 17) });
    const base = await changesOf(p);
    const cut = await api("PATCH", `${p.base}/schedules/${published.id}`, {
      token: p.org.adminToken,
      body: { endTime: at(4, 13), changeReason: "slow day" },
    });
    expect(cut.status).toBe(200);
    const exempt = await api("PATCH", `${p.base}/schedules/${published.id}`, {
      token: p.org.adminToken,
      body: { startTime: at(4, 10), endTime: at(4, 14), exemption: "MUTUAL_CONSENT" },
    });
    expect(exempt.status).toBe(200);
    const removed = await api("DELETE", `${p.base}/schedules/${published.id}?changeReason=closed&exemption=FORCE_MAJEURE`, {
      token: p.org.adminToken,
    });
    expect(removed.status).toBe(200);
    const changes = (await changesOf(p)).filter((c) => !base.some((b) => b.id === c.id));
    expect(changes.map((c) => [c.kind, c.minutesLost, c.minutesAdded, c.reason, c.exemption, c.premium?.amount ?? null])).toEqual([
      ["SHORTENED", 240, 0, "slow day", null, 45],
      ["MOVED", 0, 0, null, "MUTUAL_CONSENT", null],
      ["CANCELLED", 240, 0, "closed", "FORCE_MAJEURE", null],
    ]);
    expect(changes.every((c) => c.entryDate === dateOf(at(4, 9)))).toBe(true);
  });

  it("Oregon: a start or end moved by 30 minutes or less earns nothing (ORS 653.455(3)(a)); by 31, one hour", async () => {
    const p = await placeWithPack("OREGON");
    const entry = await createEntry(p, { startTime: at(4, 9), endTime: at(4, 17) });
    const base = await changesOf(p);
    const move = (startTime: string, endTime: string) =>
      api("PATCH", `${p.base}/schedules/${entry.id}`, { token: p.org.adminToken, body: { startTime, endTime } });
    const plus = (time: string, minutes: number) => new Date(Date.parse(time) + minutes * 60_000).toISOString().replace(".000Z", "Z");
    // 09:00–17:00 → 09:30–17:30 (both moved 30) → 09:59–17:59 (29) → 10:30–18:30 (31) → 10:30–18:00 (end 30 earlier).
    for (const [start, end] of [
      [30, 30],
      [59, 59],
      [90, 90],
      [90, 60],
    ] as const) {
      const res = await move(plus(at(4, 9), start), plus(at(4, 17), end));
      expect(res.status, res.text).toBe(200);
    }
    const changes = (await changesOf(p)).filter((c) => !base.some((b) => b.id === c.id));
    expect(changes.map((c) => [c.kind, c.minutesLost, c.premium])).toEqual([
      ["MOVED", 0, null],
      ["MOVED", 0, null],
      ["MOVED", 0, { hours: 1, amount: null, rule: "OREGON.CHANGE_UNDER_14_DAYS_ADDED" }],
      ["SHORTENED", 30, null],
    ]);
  });

  it("records nothing outside the window, nothing without a pack, and nothing for a refused write", async () => {
    const far = await placeWithPack();
    await createEntry(far, { startTime: at(15, 9), endTime: at(15, 17) });
    expect(await changesOf(far)).toEqual([]);
    const none = await placeWithPack(null);
    const plain = await createEntry(none, { startTime: at(3, 9), endTime: at(3, 17) });
    await api("DELETE", `${none.base}/schedules/${plain.id}`, { token: none.org.adminToken });
    expect(await changesOf(none)).toEqual([]);
    const p = await placeWithPack();
    const first = await createEntry(p, { startTime: at(3, 9), endTime: at(3, 17) });
    await createEntry(p, { startTime: at(3, 18), endTime: at(3, 22) });
    const before = await changesOf(p);
    const refused = await api("PATCH", `${p.base}/schedules/${first.id}`, { token: p.org.adminToken, body: { endTime: at(3, 20) } });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("SCHEDULE_OVERLAP");
    expect(await changesOf(p)).toEqual(before);
    expect(await eventsOf(p, "schedule_change.recorded")).toHaveLength(before.length);
  });

  it("records a reassignment as REASSIGNED for the worker losing it and ADDED for the one gaining it", async () => {
    const p = await placeWithPack();
    const other = await addWorker(p);
    const entry = await createEntry(p, { startTime: at(10, 9), endTime: at(10, 17) });
    const base = await changesOf(p);
    await api("PATCH", `${p.base}/schedules/${entry.id}`, { token: p.org.adminToken, body: { employeeId: other.id } });
    const changes = (await changesOf(p)).filter((c) => !base.some((b) => b.id === c.id));
    expect(changes.map((c) => [c.employeeId, c.kind, c.premium?.amount])).toEqual([
      [p.staff.id, "REASSIGNED", 20],
      [other.id, "ADDED", 10],
    ]);
  });

  it("records an approved drop as EMPLOYEE initiated with no premium, for both workers", async () => {
    const p = await placeWithPack();
    const taker = await addWorker(p);
    const takerToken = await staffToken(p.org, taker.id);
    const entry = await createEntry(p, { startTime: at(3, 9), endTime: at(3, 17) });
    const base = await changesOf(p);
    const requests = `${p.base}/shift-requests`;
    const created = await api("POST", requests, { token: p.token, body: { type: "DROP", scheduleEntryId: entry.id } });
    expect((await api("POST", `${requests}/${created.body.id}/accept`, { token: takerToken })).status).toBe(200);
    expect((await api("POST", `${requests}/${created.body.id}/approve`, { token: p.org.adminToken })).status).toBe(200);
    const changes = (await changesOf(p)).filter((c) => !base.some((b) => b.id === c.id));
    expect(changes.map((c) => [c.employeeId, c.kind, c.initiatedBy, c.premium])).toEqual([
      [p.staff.id, "REASSIGNED", "EMPLOYEE", null],
      [taker.id, "ADDED", "EMPLOYEE", null],
    ]);
  });

  it("records the drafts a publish makes public inside the window as ADDED, and none twice", async () => {
    const p = await placeWithPack();
    await createEntry(p, { startTime: at(2, 9), endTime: at(2, 17) }, true);
    await createEntry(p, { startTime: at(20, 9), endTime: at(20, 17) }, true);
    const body = { startDate: dateOf(at(1, 0)), endDate: dateOf(at(25, 0)) };
    const res = await api("POST", `${p.base}/schedules/publish`, { token: p.org.adminToken, body });
    expect(res.body.publishedEntries).toBe(2);
    await api("POST", `${p.base}/schedules/publish`, { token: p.org.adminToken, body });
    const changes = await changesOf(p);
    expect(changes.map((c) => [c.kind, c.entryDate, c.premium?.amount])).toEqual([["ADDED", dateOf(at(2, 9)), 15]]);
    // The publish's own schedule.published carries its changes, none per change; the second publish published nothing, no event.
    expect(await eventsOf(p, "schedule_change.recorded")).toEqual([]);
    expect((await eventsOf(p, "schedule.published")).map((e) => e.data)).toEqual([
      {
        locationId: p.location.id,
        ...body,
        publishedAt: res.body.publishedAt,
        changes: 1,
        premiumHours: 0,
        premiumAmount: 15,
      },
    ]);
  });

  it("a publish chooses the drafts it records by the window of the pack's overrides (noticeDays 20, NYC's own 14), in its read batch", async () => {
    const p = await placeWithPack(null);
    const put = await api("PUT", `${p.base}/fair-workweek`, {
      token: p.org.adminToken,
      body: { rulePack: "NYC_FAST_FOOD", overrides: { noticeDays: 20 } },
    });
    expect(put.status).toBe(200);
    await createEntry(p, { startTime: at(16, 9), endTime: at(16, 17) }, true);
    await createEntry(p, { startTime: at(22, 9), endTime: at(22, 17) }, true);
    const body = { startDate: dateOf(at(15, 0)), endDate: dateOf(at(23, 0)) };
    const res = await api("POST", `${p.base}/schedules/publish`, { token: p.org.adminToken, body });
    expect(res.body.publishedEntries).toBe(2);
    const changes = await changesOf(p);
    expect(changes.map((c) => [c.kind, c.entryDate])).toEqual([["ADDED", dateOf(at(16, 9))]]);
    expect((await eventsOf(p, "schedule.published")).map((e) => e.data.changes)).toEqual([1]);
  });

  it("lists by employee and location, a staff member only their own; 400 for a bad range; 404 for another organization", async () => {
    const p = await placeWithPack();
    await createEntry(p, { startTime: at(3, 9), endTime: at(3, 17) });
    expect(await changesOf(p, [0, 30], `&employeeId=${p.staff.id}&locationId=${p.location.id}`)).toHaveLength(1);
    expect(await changesOf(p, [0, 30], "&employeeId=nobody")).toEqual([]);
    const range = `startDate=${dateOf(at(0, 0))}&endDate=${dateOf(at(30, 0))}`;
    const own = await api("GET", `/api/organizations/${p.org.id}/schedule-changes?${range}`, { token: p.token });
    expect(own.status).toBe(200);
    expect(own.body).toHaveLength(1);
    const colleague = await addWorker(p);
    const theirs = await api("GET", `/api/organizations/${p.org.id}/schedule-changes?${range}&employeeId=${colleague.id}`, {
      token: p.token,
    });
    expect(theirs.body).toEqual([]);
    expectInvalid(
      await api("GET", `/api/organizations/${p.org.id}/schedule-changes?startDate=2026-06-10&endDate=2026-06-01`, {
        token: p.org.adminToken,
      }),
      ["endDate"],
    );
    const stranger = await createOrganization();
    const res = await api("GET", `/api/organizations/${p.org.id}/schedule-changes?${range}`, { token: stranger.adminToken });
    expect(res.status).toBe(404);
  });
});

describe("rest between shifts: consent", () => {
  it("refuses an entry inside a consent-requiring rest window (NYC clopening, 11 h) with 409 unless it names the worker's REST consent", async () => {
    const p = await placeWithPack();
    const other = await addWorker(p);
    await createEntry(p, { startTime: at(5, 14), endTime: at(5, 23) });
    const opening = { employeeId: p.staff.id, roleId: p.roleId, startTime: at(6, 6), endTime: at(6, 12) };
    const before = await snapshot();
    const refused = await api("POST", `${p.base}/schedules`, { token: p.org.adminToken, body: opening });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("REST_CONSENT_REQUIRED");
    expect(tableChanges(before, await snapshot())).toEqual([]);
    const consents = `/api/organizations/${p.org.id}/staffmembers/${p.staff.id}/consents`;
    const byManager = await api("POST", consents, { token: p.org.adminToken, body: { kind: "REST" } });
    expect(byManager.status).toBe(403);
    const theirs = await api("POST", `/api/organizations/${p.org.id}/staffmembers/${other.id}/consents`, {
      token: await staffToken(p.org, other.id),
      body: { kind: "REST", note: "fine by me" },
    });
    expect(theirs.status).toBe(201);
    const wrong = await api("POST", `${p.base}/schedules`, { token: p.org.adminToken, body: { ...opening, consentId: theirs.body.id } });
    expectInvalid(wrong, ["consentId"]);
    const consent = await api("POST", consents, { token: p.token, body: { kind: "REST", note: "I can open" } });
    expect(consent.status).toBe(201);
    expect(consent.body).toMatchObject({ employeeId: p.staff.id, kind: "REST", scheduleEntryId: null, note: "I can open" });
    const created = await api("POST", `${p.base}/schedules`, { token: p.org.adminToken, body: { ...opening, consentId: consent.body.id } });
    expect(created.status, created.text).toBe(201);
    expect((await eventsOf(p, "consent.created")).map((e) => e.data.id)).toEqual([theirs.body.id, consent.body.id]);
    const listed = await api("GET", consents, { token: p.token });
    expect(listed.body.map((c: Record<string, unknown>) => c.id)).toEqual([consent.body.id]);
    // The same hours on another day, 11 h or more after: no consent needed.
    const later = await api("POST", `${p.base}/schedules`, {
      token: p.org.adminToken,
      body: { ...opening, startTime: at(7, 10), endTime: at(7, 14) },
    });
    expect(later.status).toBe(201);
  });

  it("sees the window after the entry, an entry as long as one may be (24 h) before it, and no rest inside one day", async () => {
    const p = await placeWithPack();
    const write = (startTime: string, endTime: string) =>
      api("POST", `${p.base}/schedules`, {
        token: p.org.adminToken,
        body: { employeeId: p.staff.id, roleId: p.roleId, startTime, endTime },
      });
    await createEntry(p, { startTime: at(6, 6), endTime: at(6, 12) });
    const closing = await write(at(5, 14), at(5, 23));
    expect(closing.status).toBe(409);
    expect(closing.body.code).toBe("REST_CONSENT_REQUIRED");
    await createEntry(p, { startTime: at(8, 22), endTime: at(9, 22) });
    const opening = await write(at(10, 6), at(10, 12));
    expect(opening.body.code).toBe("REST_CONSENT_REQUIRED");
    await createEntry(p, { startTime: at(12, 6), endTime: at(12, 10) });
    expect((await write(at(12, 14), at(12, 20))).status).toBe(201);
  });
});

describe("POST …/schedules/publish with dryRun", () => {
  it("answers what the publish would record and its premiums, per employee and in total, and writes nothing", async () => {
    const p = await placeWithPack();
    const other = await addWorker(p);
    await createEntry(p, { startTime: at(2, 9), endTime: at(2, 17) }, true);
    await createEntry(p, { employeeId: other.id, startTime: at(9, 9), endTime: at(9, 17) }, true);
    await createEntry(p, { startTime: at(20, 9), endTime: at(20, 17) }, true);
    const body = { startDate: dateOf(at(1, 0)), endDate: dateOf(at(25, 0)), dryRun: true };
    const before = await snapshot();
    const res = await api("POST", `${p.base}/schedules/publish`, { token: p.org.adminToken, body });
    expect(res.status, res.text).toBe(200);
    expect(tableChanges(before, await snapshot())).toEqual([]);
    expect(res.body).toMatchObject({ dryRun: true, totals: { changes: 2, premiumHours: 0, premiumAmount: 25 } });
    expect(res.body.changes.map((c: Record<string, any>) => [c.employeeId, c.kind, c.premium.amount])).toEqual(
      expect.arrayContaining([
        [p.staff.id, "ADDED", 15],
        [other.id, "ADDED", 10],
      ]),
    );
    expect(res.body.employees).toHaveLength(2);
    const drafts = await api("GET", `${p.base}/schedules/drafts?startDate=${body.startDate}&endDate=${body.endDate}`, {
      token: p.org.adminToken,
    });
    expect(drafts.body).toHaveLength(3);
  });
});

describe("premiums are pay", () => {
  it("pays a change's flat premium as a PREDICTABILITY line dated by the entry, in grossPay", async () => {
    const p = await placeWithPack();
    await createEntry(p, { startTime: at(3, 9), endTime: at(3, 17) });
    const date = dateOf(at(3, 9));
    const res = await api("GET", `/api/timesheets/pay?startDate=${date}&endDate=${date}`, { token: p.org.adminToken });
    expect(res.status).toBe(200);
    const [employee] = res.body.employees;
    expect(employee).toMatchObject({ employeeId: p.staff.id, regularMinutes: 0, timeOffHours: 0, penaltyHours: 0, grossPay: 15 });
    expect(employee.lines).toEqual([
      {
        date,
        shiftId: null,
        kind: "PREDICTABILITY",
        minutes: 0,
        hours: 0,
        rate: null,
        amount: 15,
        rule: "NYC_FAST_FOOD.CHANGE_UNDER_7_DAYS_ADDED",
        ruleSetId: null,
      },
    ]);
    expect(res.body.totals.grossPay).toBe(15);
  });

  it("freezes a closed period's premiums in its payroll; a later change of its entries is 409 PAY_PERIOD_CLOSED (frozen means every minute)", async () => {
    const p = await placeWithPack();
    // A published entry of a past week (its period has ended): added with no notice.
    const entry = await createEntry(p, { startTime: "2026-09-15T09:00:00Z", endTime: "2026-09-15T17:00:00Z" });
    const periods = `/api/organizations/${p.org.id}/pay-periods`;
    const closed = await api("POST", `${periods}/2026-09-14/close`, { token: p.org.adminToken, body: { approveAll: true } });
    expect(closed.status, closed.text).toBe(200);
    const payroll = async () => (await api("GET", `${periods}/2026-09-14/payroll?format=json`, { token: p.org.adminToken })).body;
    const frozen = await payroll();
    expect(frozen.employees).toMatchObject([
      { employeeId: p.staff.id, grossPay: 15, lines: [{ kind: "PREDICTABILITY", date: "2026-09-15", amount: 15 }] },
    ]);
    const cut = await api("PATCH", `${p.base}/schedules/${entry.id}`, {
      token: p.org.adminToken,
      body: { endTime: "2026-09-15T13:00:00Z" },
    });
    // Issue 44 item 6: a cut after the close would add a premium dated in the closed week: refused.
    expect(cut.status).toBe(409);
    expect(cut.body).toMatchObject({ code: "PAY_PERIOD_CLOSED", periodId: "2026-09-14" });
    const live = await api("GET", "/api/timesheets/pay?startDate=2026-09-14&endDate=2026-09-20", { token: p.org.adminToken });
    expect(live.body.employees[0].lines.map((l: Record<string, unknown>) => l.kind)).toEqual(["PREDICTABILITY"]);
    expect(live.body.employees[0].grossPay).toBe(15);
    expect(await payroll()).toEqual(frozen);
  });

  it("pays a rest premium for a shift worked inside the rest window (Seattle: the extra half of the hours inside 10 h)", async () => {
    const p = await placeWithPack("SEATTLE");
    const shift = (startTime: string, endTime: string) =>
      api("POST", "/api/timesheets", {
        token: p.org.adminToken,
        body: { employeeId: p.staff.id, locationId: p.location.id, roleId: p.roleId, startTime, endTime, hourlyWage: 20 },
      });
    expect((await shift("2026-10-06T14:00:00Z", "2026-10-06T22:00:00Z")).status).toBe(201);
    // 8 h of rest: the first 2 h of the next shift are inside the 10 h window.
    expect((await shift("2026-10-07T06:00:00Z", "2026-10-07T14:00:00Z")).status).toBe(201);
    const res = await api("GET", "/api/timesheets/pay?startDate=2026-10-05&endDate=2026-10-11", { token: p.org.adminToken });
    const [employee] = res.body.employees;
    const rest = employee.lines.filter((l: Record<string, unknown>) => l.kind === "REST");
    expect(rest).toMatchObject([{ date: "2026-10-07", shiftId: null, minutes: 60, hours: 1, rate: 20, amount: 20 }]);
    expect(rest[0].rule).toMatch(/^SEATTLE\.REST/);
    expect(employee.regularMinutes).toBe(960);
    expect(employee.grossPay).toBe(340);
  });

  it("pays an hours premium at the wage when nothing was worked that workweek (Seattle: 1 h added)", async () => {
    const p = await placeWithPack("SEATTLE");
    await api("PATCH", `/api/organizations/${p.org.id}/staffmembers/${p.staff.id}`, { token: p.org.adminToken, body: { hourlyWage: 20 } });
    await createEntry(p, { startTime: at(3, 9), endTime: at(3, 17) });
    const date = dateOf(at(3, 9));
    const res = await api("GET", `/api/timesheets/pay?startDate=${date}&endDate=${date}`, { token: p.org.adminToken });
    const [employee] = res.body.employees;
    expect(employee.lines).toMatchObject([{ kind: "PREDICTABILITY", minutes: 60, hours: 1, rate: 20, amount: 20 }]);
    expect(employee.grossPay).toBe(20);
  });
});
