import { describe, expect, it } from "vitest";
import { api } from "../helpers/api";
import type { OrganizationFixture } from "../helpers/fixtures";
import { requestWithInterference } from "../helpers/interfering-d1";
import { addWorker, createEntry, createOpenShift, createSchedulePlace } from "../helpers/schedules";
import { tenantDb } from "../helpers/shards";
import { createStaffMember } from "../helpers/staff";
import { createPolicy, createRequest, createTimeOffPlace, orgPath, requestBody, setBalance } from "../helpers/time-off";

/** The organization's whole feed, following Link rel=next. */
async function feed(org: OrganizationFixture) {
  const all: any[] = [];
  let path: string | undefined = `/api/organizations/${org.id}/events?limit=500`;
  while (path) {
    const res = await api("GET", path, { token: org.adminToken });
    expect(res.status, res.text).toBe(200);
    all.push(...res.body);
    path = res.headers.get("Link")?.match(/^<([^>]+)>; rel="next"$/)?.[1];
  }
  return all;
}

const ofArea = async (org: OrganizationFixture, prefix: string) => (await feed(org)).filter((e) => e.type.startsWith(prefix));

describe("time off request events", () => {
  it("create, approve, decline and cancel record their event with the request exactly as the API answers it (policy, balances)", async () => {
    const place = await createTimeOffPlace();
    await setBalance(place, 40);
    const one = await createRequest(place, requestBody(place));
    const two = await createRequest(
      place,
      requestBody(place, undefined, 8, { startTime: "2030-01-07T09:00:00Z", endTime: "2030-01-07T17:00:00Z" }),
    );
    expect([one.status, two.status], one.text + two.text).toEqual([201, 201]);
    const path = (id: string) => orgPath(place.org, `/time-off-requests/${id}`);
    const approved = await api("POST", `${path(one.body.id)}/approve`, { token: place.org.adminToken });
    const cancelled = await api("DELETE", path(one.body.id), { token: place.workerToken });
    const declined = await api("POST", `${path(two.body.id)}/decline`, { token: place.org.adminToken, body: { reason: "busy" } });
    expect([approved.status, cancelled.status, declined.status]).toEqual([200, 200, 200]);
    const events = await ofArea(place.org, "time_off_request.");
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ["time_off_request.created", one.body],
      ["time_off_request.created", two.body],
      ["time_off_request.approved", approved.body],
      ["time_off_request.cancelled", cancelled.body],
      ["time_off_request.declined", declined.body],
    ]);
  });

  it("a refused approve, decline or cancel (409 REQUEST_NOT_PENDING, 412 stale If-Match) records nothing", async () => {
    const place = await createTimeOffPlace();
    await setBalance(place, 40);
    const created = await createRequest(place, requestBody(place));
    const path = orgPath(place.org, `/time-off-requests/${created.body.id}`);
    expect((await api("POST", `${path}/decline`, { token: place.org.adminToken })).status).toBe(200);
    const before = await feed(place.org);
    const refused = [
      await api("POST", `${path}/approve`, { token: place.org.adminToken }),
      await api("POST", `${path}/decline`, { token: place.org.adminToken }),
      await api("DELETE", path, { token: place.workerToken }),
      await api("DELETE", path, { token: place.workerToken, headers: { "If-Match": '"stale"' } }),
    ];
    expect(refused.map((r) => r.status)).toEqual([409, 409, 409, 412]);
    expect(await feed(place.org)).toEqual(before);
  });
});

describe("time off policy events", () => {
  it("activate and deactivate record their event once; a repeat, or deactivating a Draft (409), records nothing", async () => {
    const place = await createTimeOffPlace();
    const path = (id: string, action: string) => orgPath(place.org, `/policies/${id}/${action}`);
    const token = place.org.adminToken;
    const deactivated = await api("PATCH", path(place.policy.id, "deactivate"), { token });
    const again = await api("PATCH", path(place.policy.id, "deactivate"), { token });
    const activated = await api("PATCH", path(place.policy.id, "activate"), { token });
    const activeAgain = await api("PATCH", path(place.policy.id, "activate"), { token });
    expect([deactivated.status, again.status, activated.status, activeAgain.status]).toEqual([200, 200, 200, 200]);
    const draft = await createPolicy(place.org, {}, false);
    expect((await api("PATCH", path(draft.id, "deactivate"), { token })).status).toBe(409);
    const events = (await ofArea(place.org, "time_off_policy.")).filter((e) => e.type !== "time_off_policy.created");
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ["time_off_policy.activated", place.policy],
      ["time_off_policy.deactivated", deactivated.body],
      ["time_off_policy.activated", activated.body],
    ]);
  });
});

const week = { startDate: "2026-06-01", endDate: "2026-06-07" };

describe("schedule events", () => {
  it("POST /schedules/publish records schedule.published with the range and instant once; publishing nothing records nothing", async () => {
    const p = await createSchedulePlace();
    await createEntry(p, {}, true);
    const res = await api("POST", `${p.base}/schedules/publish`, { token: p.org.adminToken, body: week });
    expect(res.status, res.text).toBe(200);
    expect(res.body.publishedEntries).toBe(1);
    const again = await api("POST", `${p.base}/schedules/publish`, { token: p.org.adminToken, body: week });
    expect(again.body.publishedEntries).toBe(0);
    const events = await ofArea(p.org, "schedule.");
    expect(events.map((e) => [e.type, e.data])).toEqual([
      // Without a Fair Workweek pack it records no change: zeros (issue 45: a publish's changes ride on its event).
      [
        "schedule.published",
        { locationId: p.location.id, ...week, publishedAt: res.body.publishedAt, changes: 0, premiumHours: 0, premiumAmount: 0 },
      ],
    ]);
    expect(events[0].occurredAt).toBe(res.body.publishedAt);
  });

  it("a publish refused in its batch (409 SCHEDULE_OVERLAP) records nothing", async () => {
    const p = await createSchedulePlace();
    await createEntry(p, {}, true);
    const worker = await addWorker(p);
    const shift = await createOpenShift(p, { publish: false, requireApproval: true });
    const pref = await api("POST", `${p.base}/open-shifts/${shift.id}/preferences`, {
      token: p.org.adminToken,
      body: { workerId: worker.id, preference: "PREFERRED" },
    });
    expect(
      (await api("POST", `${p.base}/open-shifts/${shift.id}/preferences/${pref.body.id}/assign`, { token: p.org.adminToken })).status,
    ).toBe(200);
    const before = await feed(p.org);
    const now = Date.now();
    const res = await requestWithInterference(
      "POST",
      `${p.base}/schedules/publish`,
      { token: p.org.adminToken, body: week },
      {
        before: /^update "schedule_entries"/i,
        meanwhile: () =>
          tenantDb()
            .prepare(
              `INSERT INTO schedule_entries (id, organization_id, location_id, employee_id, role_id, start_at, end_at, utc_offset,
               timezone, is_draft, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, -240, 'America/New_York', 0, ?, ?)`,
            )
            .bind(
              `meanwhile-${now}`,
              p.org.id,
              p.location.id,
              worker.id,
              p.roleId,
              Date.parse("2026-06-02T12:00:00Z"),
              Date.parse("2026-06-02T15:00:00Z"),
              now,
              now,
            )
            .run(),
      },
    );
    expect(res.status).toBe(409);
    expect(await feed(p.org)).toEqual(before);
  });
});

describe("open shift events", () => {
  it("create, claim, assign and retract record their event with the resource exactly as the API answers it (worker block)", async () => {
    const p = await createSchedulePlace();
    const token = p.org.adminToken;
    const shift = await createOpenShift(p, { requireApproval: true });
    const withExternalId = (externalId: string) =>
      createStaffMember(p.org, { locationIds: [p.location.id], accessRoleName: "Employee", externalId });
    const other = await withExternalId(`ext-${shift.id}-2`);
    const third = await withExternalId(`ext-${shift.id}-3`);
    const claimed = await api("POST", `${p.base}/open-shifts/${shift.id}/claim`, { token: p.token, body: {} });
    const claimedToo = await api("POST", `${p.base}/open-shifts/${shift.id}/claim`, { token, body: { workerId: other.id } });
    const preferred = await api("POST", `${p.base}/open-shifts/${shift.id}/preferences`, {
      token,
      body: { workerId: third.id, preference: "PREFERRED" },
    });
    expect([claimed.status, claimedToo.status, preferred.status]).toEqual([201, 201, 201]);
    const assigned = await api("POST", `${p.base}/open-shifts/${shift.id}/preferences/${claimed.body.id}/assign`, { token });
    const retracted = await api("POST", `${p.base}/open-shifts/${shift.id}/retract`, { token, body: { workerId: other.id } });
    const retractedPreference = await api("POST", `${p.base}/open-shifts/${shift.id}/preferences/${preferred.body.id}/retract`, { token });
    expect([assigned.status, retracted.status, retractedPreference.status], retracted.text + retractedPreference.text).toEqual([
      200, 200, 200,
    ]);
    expect(retracted.body.worker).toEqual({ id: other.id, externalId: `ext-${shift.id}-2` });
    const events = await ofArea(p.org, "open_shift.");
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ["open_shift.created", shift],
      ["open_shift.claimed", claimed.body],
      ["open_shift.claimed", claimedToo.body],
      ["open_shift.preference_created", preferred.body],
      ["open_shift.assigned", assigned.body],
      ["open_shift.retracted", retracted.body],
      ["open_shift.retracted", retractedPreference.body],
    ]);
  });

  it("bulk assign records open_shift.assigned per preference; a refused assign, claim or retract (409) records nothing", async () => {
    const p = await createSchedulePlace();
    const token = p.org.adminToken;
    const shift = await createOpenShift(p, { requireApproval: true, staffCountRequired: 1 });
    const other = await addWorker(p);
    const mine = await api("POST", `${p.base}/open-shifts/${shift.id}/claim`, { token: p.token, body: {} });
    const theirs = await api("POST", `${p.base}/open-shifts/${shift.id}/claim`, { token, body: { workerId: other.id } });
    const before = await feed(p.org);
    const refused = [
      await api("POST", `${p.base}/open-shifts/${shift.id}/preferences/bulk-assign`, {
        token,
        body: { preferenceIds: [mine.body.id, theirs.body.id] },
      }),
      await api("POST", `${p.base}/open-shifts/${shift.id}/claim`, { token: p.token, body: {} }),
    ];
    expect(refused.map((r) => r.status)).toEqual([409, 409]);
    expect(await feed(p.org)).toEqual(before);
    const bulk = await api("POST", `${p.base}/open-shifts/${shift.id}/preferences/bulk-assign`, {
      token,
      body: { preferenceIds: [mine.body.id] },
    });
    expect(bulk.status, bulk.text).toBe(200);
    const afterAssign = await feed(p.org);
    expect(afterAssign.slice(before.length).map((e) => [e.type, e.data])).toEqual([["open_shift.assigned", bulk.body[0]]]);
    expect((await api("POST", `${p.base}/open-shifts/${shift.id}/preferences/${mine.body.id}/retract`, { token })).status).toBe(409);
    expect(await feed(p.org)).toEqual(afterAssign);
  });
});
