import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createOrganization, unique } from "../../helpers/fixtures";
import { createLocation } from "../../helpers/locations";
import { createStaffMember, staffToken } from "../../helpers/staff";
import {
  balanceOf,
  createPolicy,
  createRequest,
  createTimeOffPlace,
  dayFromToday,
  ledgerOf,
  orgPath,
  requestBody,
  setBalance,
} from "../../helpers/time-off";

describe("POST /time-off-requests", () => {
  it("a worker requests their own time off: 201 pending, hours derived, the balance reserves them", async () => {
    const place = await createTimeOffPlace();
    await setBalance(place, 40);
    const date = dayFromToday(10);
    const res = await createRequest(place, requestBody(place, date, 6, { note: "Dentist" }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      workerId: place.worker.id,
      policyId: place.policy.id,
      status: "pending",
      note: "Dentist",
      isAllDay: false,
      timezone: "UTC",
      utcOffset: 0,
      hourConfiguration: [{ date, hours: 6 }],
      totalHours: 6,
      remainingBalance: 34,
      policy: { id: place.policy.id, type: { type: "Vacation" } },
      workerPolicy: { name: place.policy.name, hoursBalance: 40, availableBalance: 34, isIncluded: true },
    });
    expect(await balanceOf(place)).toMatchObject({ hoursBalance: 40, availableBalance: 34 });
  });

  it("an all-day request over three dates takes the policy's full day for each", async () => {
    const place = await createTimeOffPlace({ fullDayDuration: 7.5 });
    await setBalance(place, 40);
    const first = dayFromToday(20);
    const last = dayFromToday(22);
    const res = await createRequest(place, {
      ...requestBody(place),
      isAllDay: true,
      startTime: `${first}T00:00:00Z`,
      endTime: `${dayFromToday(23)}T00:00:00Z`,
    });
    expect(res.status).toBe(201);
    expect(res.body.hourConfiguration.map((d: { date: string }) => d.date)).toEqual([first, dayFromToday(21), last]);
    expect(res.body.totalHours).toBe(22.5);
  });

  it("a given hourConfiguration is kept; a date outside the window or an empty one is 400", async () => {
    const place = await createTimeOffPlace();
    await setBalance(place, 40);
    const date = dayFromToday(5);
    const ok = await createRequest(place, requestBody(place, date, 8, { hourConfiguration: [{ date, hours: 4 }] }));
    expect(ok.status).toBe(201);
    expect(ok.body.totalHours).toBe(4);
    const outside = await createRequest(
      place,
      requestBody(place, dayFromToday(6), 8, { hourConfiguration: [{ date: dayFromToday(9), hours: 4 }] }),
    );
    expect(outside.status).toBe(400);
    expect(outside.body.errors[0].path).toBe("hourConfiguration");
    const empty = await createRequest(place, requestBody(place, dayFromToday(6), 8, { hourConfiguration: [] }));
    expect(empty.status).toBe(400);
    const backwards = await createRequest(place, { ...requestBody(place), startTime: `${date}T12:00:00Z`, endTime: `${date}T10:00:00Z` });
    expect(backwards.status).toBe(400);
    expect(backwards.body.errors[0].path).toBe("endTime");
  });

  it("a window longer than 366 days is 400 naming endTime, on create and on PUT; 366 days is accepted", async () => {
    const place = await createTimeOffPlace();
    await setBalance(place, 10_000);
    const start = dayFromToday(10);
    const allDay = (days: number) => ({
      ...requestBody(place),
      isAllDay: true,
      startTime: `${start}T00:00:00Z`,
      endTime: `${dayFromToday(10 + days)}T00:00:00Z`,
    });
    for (const body of [allDay(367), { ...allDay(1), endTime: "9999-12-31T00:00:00Z" }]) {
      const res = await createRequest(place, body);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].path).toBe("endTime");
    }
    const ok = await createRequest(place, allDay(366));
    expect(ok.status).toBe(201);
    expect(ok.body.hourConfiguration).toHaveLength(366);
    const { workerId: _, ...edit } = allDay(367);
    const put = await api("PUT", orgPath(place.org, `/time-off-requests/${ok.body.id}`), { token: place.workerToken, body: edit });
    expect(put.status).toBe(400);
    expect(put.body.errors[0].path).toBe("endTime");
  });

  it("over the available balance is 409 INSUFFICIENT_BALANCE with requested and available hours", async () => {
    const place = await createTimeOffPlace();
    await setBalance(place, 10);
    expect((await createRequest(place, requestBody(place, dayFromToday(3), 6))).status).toBe(201);
    const res = await createRequest(place, requestBody(place, dayFromToday(4), 6));
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "INSUFFICIENT_BALANCE", requestedHours: 6, availableHours: 4 });
  });

  it("allowNegativeBalance lets a request go below zero", async () => {
    const place = await createTimeOffPlace({ allowNegativeBalance: true });
    const res = await createRequest(place, requestBody(place));
    expect(res.status).toBe(201);
    expect(res.body.remainingBalance).toBe(-8);
  });

  it("a Draft policy, or one the worker is not included in, is 409 POLICY_NOT_AVAILABLE", async () => {
    const place = await createTimeOffPlace({ allowNegativeBalance: true });
    const draft = await createPolicy(place.org, { allowNegativeBalance: true }, false);
    const res = await createRequest(place, { ...requestBody(place), policyId: draft.id });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("POLICY_NOT_AVAILABLE");
    const excluding = await createPolicy(place.org, {
      allowNegativeBalance: true,
      defaultSettings: { assignedStaff: { type: "EmploymentType", value: "seasonal" } },
    });
    expect((await createRequest(place, { ...requestBody(place), policyId: excluding.id })).body.code).toBe("POLICY_NOT_AVAILABLE");
  });

  it("overlapping a pending request of the same worker is 409 TIME_OFF_OVERLAP; back-to-back is fine", async () => {
    const place = await createTimeOffPlace({ allowNegativeBalance: true });
    const date = dayFromToday(8);
    expect((await createRequest(place, requestBody(place, date, 4))).status).toBe(201);
    const overlap = await createRequest(place, {
      ...requestBody(place, date),
      startTime: `${date}T12:00:00Z`,
      endTime: `${date}T15:00:00Z`,
    });
    expect(overlap.status).toBe(409);
    expect(overlap.body.code).toBe("TIME_OFF_OVERLAP");
    const after = await createRequest(place, { ...requestBody(place, date), startTime: `${date}T13:00:00Z`, endTime: `${date}T15:00:00Z` });
    expect(after.status).toBe(201);
  });

  it("settings are enforced: past requests, minimum notice and a required note are 400", async () => {
    const place = await createTimeOffPlace({ allowNegativeBalance: true });
    const past = await createRequest(place, requestBody(place, dayFromToday(-2)));
    expect(past.status).toBe(400);
    expect(past.body.errors[0].path).toBe("startTime");
    await api("PATCH", orgPath(place.org, "/time-off-settings"), {
      token: place.org.adminToken,
      body: { allowPastRequests: true, minimumNoticeDays: 5, requireNote: true },
    });
    expect((await createRequest(place, requestBody(place, dayFromToday(-2), 8, { note: "late" }))).status).toBe(201);
    const soon = await createRequest(place, requestBody(place, dayFromToday(2), 8, { note: "soon" }));
    expect(soon.status).toBe(400);
    expect(soon.body.detail).toContain("notice");
    const noNote = await createRequest(place, requestBody(place, dayFromToday(9)));
    expect(noNote.status).toBe(400);
    expect(noNote.body.errors[0].path).toBe("note");
  });

  it("requiresApproval false approves on creation and writes the usage entry", async () => {
    const place = await createTimeOffPlace({ requiresApproval: false });
    await setBalance(place, 16);
    const res = await createRequest(place, requestBody(place));
    expect(res.status).toBe(201);
    expect(res.body.status).toBe("approved");
    expect(res.body.workerPolicy).toMatchObject({ hoursBalance: 8, availableBalance: 8 });
    expect((await ledgerOf(res.body.workerPolicy.id)).map((e) => [e.kind, e.hours, e.source_id])).toEqual([
      ["adjustment", 16, expect.any(String)],
      ["usage", -8, res.body.id],
    ]);
  });

  it("a worker may not request for someone else (403); unknown policy or worker is 400; other organization 404", async () => {
    const place = await createTimeOffPlace();
    const other = await createStaffMember(place.org, { externalId: unique("ext") });
    expect((await createRequest(place, { ...requestBody(place), workerId: other.id })).status).toBe(403);
    const unknownPolicy = await createRequest(place, { ...requestBody(place), policyId: "nope" }, place.org.adminToken);
    expect(unknownPolicy.status).toBe(400);
    expect(unknownPolicy.body.errors[0].path).toBe("policyId");
    expect((await createRequest(place, { ...requestBody(place), workerId: "nope" }, place.org.adminToken)).status).toBe(400);
    const stranger = await createOrganization();
    expect((await createRequest(place, requestBody(place), stranger.adminToken)).status).toBe(404);
  });

  it("honours Idempotency-Key: a retry answers the first request", async () => {
    const place = await createTimeOffPlace({ allowNegativeBalance: true });
    const headers = { "Idempotency-Key": unique("key") };
    const path = orgPath(place.org, "/time-off-requests");
    const first = await api("POST", path, { token: place.workerToken, body: requestBody(place), headers });
    const again = await api("POST", path, { token: place.workerToken, body: requestBody(place), headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
  });
});

describe("approve, decline, edit and cancel", () => {
  it("approve writes one usage entry; a second approve is 409 REQUEST_NOT_PENDING", async () => {
    const place = await createTimeOffPlace();
    await setBalance(place, 20);
    const created = await createRequest(place, requestBody(place));
    const path = orgPath(place.org, `/time-off-requests/${created.body.id}`);
    const approved = await api("POST", `${path}/approve`, { token: place.org.adminToken });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: "approved", workerPolicy: { hoursBalance: 12, availableBalance: 12 } });
    expect(approved.body.decidedAt).not.toBeNull();
    const again = await api("POST", `${path}/approve`, { token: place.org.adminToken });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("REQUEST_NOT_PENDING");
    expect((await ledgerOf(created.body.workerPolicy.id)).filter((e) => e.kind === "usage")).toHaveLength(1);
  });

  it("approve needs TIMEOFF_APPROVE (403), finds nothing in another organization (404)", async () => {
    const place = await createTimeOffPlace();
    await setBalance(place, 20);
    const created = await createRequest(place, requestBody(place));
    const path = orgPath(place.org, `/time-off-requests/${created.body.id}`);
    expect((await api("POST", `${path}/approve`, { token: place.workerToken })).status).toBe(403);
    const missing = await api("POST", orgPath(place.org, "/time-off-requests/missing/approve"), { token: place.org.adminToken });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("TIME_OFF_REQUEST_NOT_FOUND");
    expect((await api("GET", orgPath(place.org, "/time-off-requests/missing"), { token: place.org.adminToken })).status).toBe(404);
    expect((await api("DELETE", orgPath(place.org, "/time-off-requests/missing"), { token: place.org.adminToken })).status).toBe(404);
    expect(
      (await api("POST", orgPath(place.org, "/time-off-requests/missing/decline"), { token: place.org.adminToken, body: {} })).status,
    ).toBe(404);
    const stranger = await createOrganization();
    expect((await api("POST", `${path}/approve`, { token: stranger.adminToken })).status).toBe(404);
    expect((await api("GET", path, { token: stranger.adminToken })).status).toBe(404);
    expect((await api("POST", `${path}/decline`, { token: place.workerToken, body: {} })).status).toBe(403);
  });

  it("decline records the reason; declining again or approving a declined request is 409", async () => {
    const place = await createTimeOffPlace({ allowNegativeBalance: true });
    const created = await createRequest(place, requestBody(place));
    const path = orgPath(place.org, `/time-off-requests/${created.body.id}`);
    const declined = await api("POST", `${path}/decline`, { token: place.org.adminToken, body: { reason: "Short-staffed" } });
    expect(declined.status).toBe(200);
    expect(declined.body).toMatchObject({ status: "declined", declineReason: "Short-staffed", remainingBalance: 0 });
    expect((await api("POST", `${path}/decline`, { token: place.org.adminToken, body: {} })).body.code).toBe("REQUEST_NOT_PENDING");
    expect((await api("POST", `${path}/approve`, { token: place.org.adminToken })).body.code).toBe("REQUEST_NOT_PENDING");
    expect((await api("POST", `${path}/decline`, { token: place.org.adminToken, body: { reason: 5 } })).status).toBe(400);
  });

  it("decline needs no body", async () => {
    const place = await createTimeOffPlace({ allowNegativeBalance: true });
    const created = await createRequest(place, requestBody(place));
    const res = await api("POST", orgPath(place.org, `/time-off-requests/${created.body.id}/decline`), { token: place.org.adminToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "declined", declineReason: null });
  });

  it("PUT edits a pending request under the same checks; an approved one is 409", async () => {
    const place = await createTimeOffPlace();
    await setBalance(place, 10);
    const created = await createRequest(place, requestBody(place, dayFromToday(6), 8));
    const path = orgPath(place.org, `/time-off-requests/${created.body.id}`);
    const { workerId: _, ...edit } = requestBody(place, dayFromToday(7), 4);
    const edited = await api("PUT", path, { token: place.workerToken, body: edit });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ totalHours: 4, remainingBalance: 6, hourConfiguration: [{ date: dayFromToday(7), hours: 4 }] });
    const tooMuch = await api("PUT", path, { token: place.workerToken, body: { ...edit, endTime: `${dayFromToday(7)}T20:00:00Z` } });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body).toMatchObject({ code: "INSUFFICIENT_BALANCE", requestedHours: 11 });
    expect((await api("PUT", path, { token: place.workerToken, body: { ...edit, startTime: "yesterday" } })).status).toBe(400);
    await api("POST", `${path}/approve`, { token: place.org.adminToken });
    const late = await api("PUT", path, { token: place.workerToken, body: edit });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe("REQUEST_NOT_PENDING");
    expect((await api("PUT", orgPath(place.org, "/time-off-requests/missing"), { token: place.org.adminToken, body: edit })).status).toBe(
      404,
    );
  });

  it("another worker may not edit, cancel or read the request (403)", async () => {
    const place = await createTimeOffPlace({ allowNegativeBalance: true });
    const created = await createRequest(place, requestBody(place));
    const path = orgPath(place.org, `/time-off-requests/${created.body.id}`);
    const other = await createStaffMember(place.org, { externalId: unique("ext"), accessRoleName: "Employee" });
    const token = await staffToken(place.org, other.id);
    const { workerId: _, ...edit } = requestBody(place);
    expect((await api("PUT", path, { token, body: edit })).status).toBe(403);
    expect((await api("DELETE", path, { token })).status).toBe(403);
    expect((await api("GET", path, { token })).status).toBe(403);
    expect((await api("GET", path, { token: place.workerToken })).status).toBe(200);
  });

  it("cancelling an approved request writes a reversal; cancelling twice is 409", async () => {
    const place = await createTimeOffPlace();
    await setBalance(place, 20);
    const created = await createRequest(place, requestBody(place));
    const path = orgPath(place.org, `/time-off-requests/${created.body.id}`);
    await api("POST", `${path}/approve`, { token: place.org.adminToken });
    const cancelled = await api("DELETE", path, { token: place.workerToken });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: "cancelled", workerPolicy: { hoursBalance: 20, availableBalance: 20 } });
    expect((await ledgerOf(created.body.workerPolicy.id)).map((e) => [e.kind, e.hours])).toEqual([
      ["adjustment", 20],
      ["usage", -8],
      ["reversal", 8],
    ]);
    expect((await api("DELETE", path, { token: place.workerToken })).body.code).toBe("REQUEST_NOT_PENDING");
  });

  it("cancelling a pending request frees its hours without any entry", async () => {
    const place = await createTimeOffPlace();
    await setBalance(place, 20);
    const created = await createRequest(place, requestBody(place));
    const cancelled = await api("DELETE", orgPath(place.org, `/time-off-requests/${created.body.id}`), { token: place.org.adminToken });
    expect(cancelled.body).toMatchObject({ status: "cancelled", remainingBalance: 20 });
    expect(await ledgerOf(created.body.workerPolicy.id)).toHaveLength(1);
  });
});

describe("listing", () => {
  it("GET /time-off-requests filters by status, worker, policy and window; a worker sees only their own", async () => {
    const place = await createTimeOffPlace({ allowNegativeBalance: true });
    const other = await createStaffMember(place.org, { externalId: unique("ext") });
    const mine = await createRequest(place, requestBody(place, dayFromToday(3)));
    const theirs = await createRequest(place, { ...requestBody(place, dayFromToday(4)), workerId: other.id }, place.org.adminToken);
    const admin = place.org.adminToken;
    const ids = (res: { body: { id: string }[] }) => res.body.map((r) => r.id);
    const path = orgPath(place.org, "/time-off-requests");
    expect(ids(await api("GET", path, { token: admin }))).toEqual([mine.body.id, theirs.body.id]);
    expect(ids(await api("GET", `${path}?workerId=${other.id}`, { token: admin }))).toEqual([theirs.body.id]);
    expect(ids(await api("GET", path, { token: place.workerToken }))).toEqual([mine.body.id]);
    expect((await api("GET", `${path}?workerId=${other.id}`, { token: place.workerToken })).status).toBe(403);
    expect(ids(await api("GET", `${path}?startTime=${dayFromToday(4)}&endTime=${dayFromToday(4)}`, { token: admin }))).toEqual([
      theirs.body.id,
    ]);
    expect(ids(await api("GET", `${path}?status=approved`, { token: admin }))).toEqual([]);
    expect(ids(await api("GET", `${path}?policyId=${place.policy.id}&limit=1`, { token: admin }))).toEqual([mine.body.id]);
    expect((await api("GET", `${path}?startTime=soon`, { token: admin })).status).toBe(400);
    expect((await api("GET", `${path}?status=open`, { token: admin })).status).toBe(400);
    expect((await api("GET", path, { token: (await createOrganization()).adminToken })).status).toBe(404);
  });

  it("GET /time-off-requests/time-offs (operation 9) answers a bare array of approved requests overlapping the window", async () => {
    const place = await createTimeOffPlace({ requiresApproval: false, allowNegativeBalance: true });
    const inside = await createRequest(place, requestBody(place, dayFromToday(3)));
    await createRequest(place, requestBody(place, dayFromToday(30)));
    const pendingPolicy = await createPolicy(place.org, { allowNegativeBalance: true });
    await createRequest(place, { ...requestBody(place, dayFromToday(4)), policyId: pendingPolicy.id });
    const res = await api(
      "GET",
      orgPath(
        place.org,
        `/time-off-requests/time-offs?workerId=${place.worker.id}&startTime=${dayFromToday(1)}T00:00:00Z&endTime=${dayFromToday(10)}T00:00:00Z`,
      ),
      { token: place.org.adminToken },
    );
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({
      id: inside.body.id,
      status: "approved",
      totalHours: 8,
      policy: { id: place.policy.id, name: place.policy.name, type: { type: "Vacation" } },
      workerPolicy: {
        id: inside.body.workerPolicy.id,
        name: place.policy.name,
        hoursBalance: -16,
        availableBalance: -16,
        isIncluded: true,
      },
    });
    expect(res.body[0].remainingBalance).toBe(-16);
    const own = await api("GET", orgPath(place.org, "/time-off-requests/time-offs"), { token: place.workerToken });
    expect(own.body).toHaveLength(2);
    expect((await api("GET", orgPath(place.org, "/time-off-requests/time-offs?endTime=x"), { token: place.org.adminToken })).status).toBe(
      400,
    );
  });
});

describe("incremental reads", () => {
  it("updatedSince returns requests and balances changed since then; locationId filters by the worker's locations", async () => {
    const place = await createTimeOffPlace({ allowNegativeBalance: true });
    const first = await createRequest(place, requestBody(place, dayFromToday(3)));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const since = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await createRequest(place, requestBody(place, dayFromToday(4)));
    const admin = place.org.adminToken;
    const changed = await api("GET", orgPath(place.org, `/time-off-requests?updatedSince=${since}`), { token: admin });
    expect(changed.body.map((r: { id: string }) => r.id)).toEqual([second.body.id]);
    const balances = await api("GET", orgPath(place.org, `/worker-policies?workerId=${place.worker.id}&updatedSince=${since}`), {
      token: admin,
    });
    expect(balances.body.map((w: { id: string }) => w.id)).toEqual([first.body.workerPolicy.id]);
    const later = new Date(Date.now() + 60_000).toISOString();
    expect(
      (await api("GET", orgPath(place.org, `/worker-policies?workerId=${place.worker.id}&updatedSince=${later}`), { token: admin })).body,
    ).toEqual([]);
    const location = await createLocation(place.org);
    expect((await api("GET", orgPath(place.org, `/time-off-requests?locationId=${location.id}`), { token: admin })).body).toEqual([]);
    await api("PATCH", `/api/organizations/${place.org.id}/staffmembers/${place.worker.id}`, {
      token: admin,
      body: { locationIds: [location.id] },
    });
    const atLocation = await api("GET", orgPath(place.org, `/time-off-requests?locationId=${location.id}`), { token: admin });
    expect(atLocation.body).toHaveLength(2);
  });
});
