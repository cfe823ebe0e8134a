import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createEntry, createSchedulePlace, entryBody, type SchedulePlace } from "../../helpers/schedules";
import { createStaffMember, staffPath, staffToken } from "../../helpers/staff";

/* Issue 47: schedule writes are judged by the location's working-time pack (409 WORKING_TIME_CONFLICT). */

async function placeWithPack(rulePack: string, timezone = "UTC"): Promise<SchedulePlace> {
  const p = await createSchedulePlace(timezone);
  const res = await api("PUT", `/api/organizations/${p.org.id}/locations/${p.location.id}/working-time`, {
    token: p.org.adminToken,
    body: { rulePack },
  });
  expect(res.status, res.text).toBe(200);
  return p;
}

/** A staff member of the place whose access role holds exactly `permissions`, and their token. */
async function scheduler(p: SchedulePlace, permissions: string[]) {
  const role = await api("POST", `/api/organizations/${p.org.id}/access-roles`, {
    token: p.org.adminToken,
    body: { name: `Scheduler ${Math.random().toString(36).slice(2, 8)}`, permissions },
  });
  expect(role.status, role.text).toBe(201);
  const staff = await createStaffMember(p.org, { locationIds: [p.location.id], accessRoleId: role.body.id });
  return { id: staff.id, token: await staffToken(p.org, staff.id) };
}

const post = (p: SchedulePlace, body: Record<string, unknown>, token = p.org.adminToken) =>
  api("POST", `${p.base}/schedules`, { token, body: entryBody(p, body) });

describe("Germany (ArbZG §5(1): 11 hours' rest)", () => {
  it("refuses a 9-hour rest between shifts, listing the violation with its source", async () => {
    const p = await placeWithPack("DE");
    const first = await createEntry(p, { startTime: "2026-06-01T14:00:00Z", endTime: "2026-06-01T22:00:00Z" });
    // 22:00 to 07:00 the next day: 9 hours, 2 under the 11 of §5(1).
    const res = await post(p, { startTime: "2026-06-02T07:00:00Z", endTime: "2026-06-02T15:00:00Z" });
    expect(res.status, res.text).toBe(409);
    expect(res.body.code).toBe("WORKING_TIME_CONFLICT");
    expect(res.body.violations).toEqual([
      {
        rule: "REST_BETWEEN_SHIFTS",
        limit: 11,
        actual: 9,
        unit: "HOURS",
        date: "2026-06-02",
        scheduleEntryIds: [first.id],
        shiftIds: [],
        source: "ArbZG §5(1)",
      },
    ]);
    const list = await api("GET", `${p.base}/schedules?startDate=2026-06-01&endDate=2026-06-03`, { token: p.org.adminToken });
    expect(list.body).toHaveLength(1); // nothing written
  });

  it("takes exactly 11 hours, refuses one minute under", async () => {
    const p = await placeWithPack("DE");
    await createEntry(p, { startTime: "2026-06-01T14:00:00Z", endTime: "2026-06-01T22:00:00Z" });
    const under = await post(p, { startTime: "2026-06-02T08:59:00Z", endTime: "2026-06-02T15:00:00Z" });
    expect(under.status, under.text).toBe(409);
    expect(under.body.violations[0]).toMatchObject({ limit: 11, actual: 10.98 }); // 10 h 59 min
    const exactly = await post(p, { startTime: "2026-06-02T09:00:00Z", endTime: "2026-06-02T15:00:00Z" });
    expect(exactly.status, exactly.text).toBe(201);
  });

  it("judges a move (PATCH) and a worked shift as well as published entries", async () => {
    const p = await placeWithPack("DE");
    const worked = await api("POST", "/api/timesheets", {
      token: p.org.adminToken,
      body: {
        employeeId: p.staff.id,
        locationId: p.location.id,
        roleId: p.roleId,
        startTime: "2026-06-08T12:00:00Z",
        endTime: "2026-06-08T20:00:00Z",
      },
    });
    expect(worked.status, worked.text).toBe(201);
    const entry = await createEntry(p, { startTime: "2026-06-09T10:00:00Z", endTime: "2026-06-09T16:00:00Z" });
    // Moved to 06:00: 10 hours after the worked shift ended at 20:00.
    const res = await api("PATCH", `${p.base}/schedules/${entry.id}`, {
      token: p.org.adminToken,
      body: { startTime: "2026-06-09T06:00:00Z", endTime: "2026-06-09T12:00:00Z" },
    });
    expect(res.status, res.text).toBe(409);
    expect(res.body.violations).toMatchObject([
      { rule: "REST_BETWEEN_SHIFTS", actual: 10, scheduleEntryIds: [entry.id], shiftIds: [worked.body.id] },
    ]);
  });

  it("refuses 10 h 01 min on one day (ArbZG §3), takes exactly 10", async () => {
    const p = await placeWithPack("DE");
    expect((await post(p, { startTime: "2026-06-03T08:00:00Z", endTime: "2026-06-03T18:01:00Z" })).body.violations).toMatchObject([
      { rule: "DAILY_MAXIMUM", limit: 10, actual: 10.02, source: "ArbZG §3" },
    ]);
    expect((await post(p, { startTime: "2026-06-03T08:00:00Z", endTime: "2026-06-03T18:00:00Z" })).status).toBe(201);
  });

  it("an override by a caller allowed to override passes, kept on the entry and in its event", async () => {
    const p = await placeWithPack("DE");
    await createEntry(p, { startTime: "2026-06-01T14:00:00Z", endTime: "2026-06-01T22:00:00Z" });
    const body = {
      startTime: "2026-06-02T07:00:00Z",
      endTime: "2026-06-02T15:00:00Z",
      workingTimeOverride: { reason: "Stocktake, agreed with the works council" },
    };
    const writer = await scheduler(p, ["SCHEDULE_WRITE"]);
    const refused = await post(p, body, writer.token);
    expect(refused.status, refused.text).toBe(403);
    const manager = await scheduler(p, ["SCHEDULE_WRITE", "WORKING_TIME_OVERRIDE"]);
    const res = await post(p, body, manager.token);
    expect(res.status, res.text).toBe(201);
    expect(res.body.workingTimeOverride).toMatchObject({
      reason: "Stocktake, agreed with the works council",
      by: manager.id,
      violations: [{ rule: "REST_BETWEEN_SHIFTS", limit: 11, actual: 9, unit: "HOURS", source: "ArbZG §5(1)" }],
    });
    const events = (await api("GET", `/api/organizations/${p.org.id}/events?limit=500`, { token: p.org.adminToken })).body as {
      type: string;
      data: any;
    }[];
    const created = events.filter((e) => e.type === "schedule_entry.created" && e.data.id === res.body.id);
    expect(created).toHaveLength(1);
    expect(created[0]!.data.workingTimeOverride.reason).toBe("Stocktake, agreed with the works council");
  });

  it("a location may shorten the rest by agreement (ArbZG §7): 10 hours then passes", async () => {
    const p = await placeWithPack("DE");
    const put = await api("PUT", `/api/organizations/${p.org.id}/locations/${p.location.id}/working-time`, {
      token: p.org.adminToken,
      body: { rulePack: "DE", overrides: { restBetweenShiftsHours: 10 } },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.effective.restBetweenShifts).toMatchObject({ value: 10 });
    await createEntry(p, { startTime: "2026-06-01T14:00:00Z", endTime: "2026-06-01T22:00:00Z" });
    expect((await post(p, { startTime: "2026-06-02T08:00:00Z", endTime: "2026-06-02T15:00:00Z" })).status).toBe(201);
  });

  it("no pack, no check", async () => {
    const p = await createSchedulePlace("UTC");
    await createEntry(p, { startTime: "2026-06-01T14:00:00Z", endTime: "2026-06-01T22:00:00Z" });
    expect((await post(p, { startTime: "2026-06-02T07:00:00Z", endTime: "2026-06-02T15:00:00Z" })).status).toBe(201);
  });
});

describe("US minors (29 CFR 570.35)", () => {
  it("refuses a 15-year-old's 4-hour school-day entry, takes 3 hours", async () => {
    const p = await placeWithPack("US_MINORS");
    const terms = await api("PUT", `/api/organizations/${p.org.id}/locations/${p.location.id}/school-terms`, {
      token: p.org.adminToken,
      body: [{ startDate: "2026-09-01", endDate: "2026-12-18" }],
    });
    expect(terms.status, terms.text).toBe(200);
    // Born 2011-03-10: 15 on Tuesday 2026-09-15, a school day.
    const patch = await api("PATCH", staffPath(p.org, `/${p.staff.id}`), { token: p.org.adminToken, body: { birthDate: "2011-03-10" } });
    expect(patch.status, patch.text).toBe(200);
    const four = await post(p, { startTime: "2026-09-15T14:00:00Z", endTime: "2026-09-15T18:00:00Z" });
    expect(four.status, four.text).toBe(409);
    expect(four.body.violations).toEqual([
      {
        rule: "MINOR_DAILY_HOURS",
        limit: 3,
        actual: 4,
        unit: "HOURS",
        date: "2026-09-15",
        scheduleEntryIds: [],
        shiftIds: [],
        source: "29 CFR 570.35(a)",
      },
    ]);
    expect((await post(p, { startTime: "2026-09-15T15:00:00Z", endTime: "2026-09-15T18:00:00Z" })).status).toBe(201);
    // A Saturday is no school day: 8 hours pass.
    expect((await post(p, { startTime: "2026-09-19T10:00:00Z", endTime: "2026-09-19T18:00:00Z" })).status).toBe(201);
  });

  it("judges age on the date worked, not today: the day they turn 16 the limit is gone", async () => {
    const p = await placeWithPack("US_MINORS");
    await api("PUT", `/api/organizations/${p.org.id}/locations/${p.location.id}/school-terms`, {
      token: p.org.adminToken,
      body: [{ startDate: "2026-09-01", endDate: "2026-12-18" }],
    });
    await api("PATCH", staffPath(p.org, `/${p.staff.id}`), { token: p.org.adminToken, body: { birthDate: "2010-09-16" } });
    expect((await post(p, { startTime: "2026-09-15T14:00:00Z", endTime: "2026-09-15T18:00:00Z" })).status).toBe(409); // 15 that day
    expect((await post(p, { startTime: "2026-09-16T14:00:00Z", endTime: "2026-09-16T18:00:00Z" })).status).toBe(201); // 16
  });
});

describe("publish (and its dry run) under Germany's ArbZG", () => {
  it("the dry run lists each draft's violations; the publish is refused, then passes with an override kept on the entry", async () => {
    const p = await placeWithPack("DE");
    const published = await createEntry(p, { startTime: "2026-06-01T14:00:00Z", endTime: "2026-06-01T22:00:00Z" });
    const draft = await createEntry(p, { startTime: "2026-06-02T07:00:00Z", endTime: "2026-06-02T15:00:00Z" }, true);
    const fine = await createEntry(p, { startTime: "2026-06-04T09:00:00Z", endTime: "2026-06-04T17:00:00Z" }, true);
    const range = { startDate: "2026-06-01", endDate: "2026-06-07" };
    const dry = await api("POST", `${p.base}/schedules/publish`, { token: p.org.adminToken, body: { ...range, dryRun: true } });
    expect(dry.status, dry.text).toBe(200);
    // 22:00 to 07:00: 9 hours of the 11 of §5(1).
    expect(dry.body.workingTimeViolations).toEqual([
      {
        scheduleEntryId: draft.id,
        violations: [
          {
            rule: "REST_BETWEEN_SHIFTS",
            limit: 11,
            actual: 9,
            unit: "HOURS",
            date: "2026-06-02",
            scheduleEntryIds: [published.id, draft.id],
            shiftIds: [],
            source: "ArbZG §5(1)",
          },
        ],
      },
    ]);
    const refused = await api("POST", `${p.base}/schedules/publish`, { token: p.org.adminToken, body: range });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.code).toBe("WORKING_TIME_CONFLICT");
    expect(refused.body.violations).toMatchObject([{ rule: "REST_BETWEEN_SHIFTS", scheduleEntryIds: [published.id, draft.id] }]);
    const drafts = await api("GET", `${p.base}/schedules/drafts?startDate=2026-06-01&endDate=2026-06-07`, { token: p.org.adminToken });
    expect(drafts.body.map((e: { id: string }) => e.id).sort()).toEqual([draft.id, fine.id].sort()); // nothing published
    const overridden = await api("POST", `${p.base}/schedules/publish`, {
      token: p.org.adminToken,
      body: { ...range, workingTimeOverride: { reason: "Inventory night" } },
    });
    expect(overridden.status, overridden.text).toBe(200);
    expect(overridden.body.publishedEntries).toBe(2);
    const read = await api("GET", `${p.base}/schedules/${draft.id}`, { token: p.org.adminToken });
    expect(read.body.workingTimeOverride).toMatchObject({
      reason: "Inventory night",
      violations: [{ rule: "REST_BETWEEN_SHIFTS", actual: 9 }],
    });
    expect((await api("GET", `${p.base}/schedules/${fine.id}`, { token: p.org.adminToken })).body.workingTimeOverride).toBeNull();
  });
});
