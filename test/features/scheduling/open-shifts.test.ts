import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createOrganization } from "../../helpers/fixtures";
import { addWorker, createEntry, createOpenShift, createSchedulePlace, openShiftBody } from "../../helpers/schedules";
import { createStaffMember, staffToken } from "../../helpers/staff";
import { createBreakType } from "../../helpers/workplace";

describe("POST /open-shifts (operation 11)", () => {
  it("staffCountRequired: the document declares what the validator takes, a count from 1 to 500 as a number or a string", async () => {
    const document = (await api("GET", "/api/openapi.json")).body;
    const ref = document.paths["/api/organizations/{organizationId}/locations/{locationId}/open-shifts"].post.requestBody.$ref
      .split("/")
      .pop();
    const schema = document.components.requestBodies[ref].content["application/json"].schema;
    const body = schema.$ref ? document.components.schemas[schema.$ref.split("/").pop()] : schema;
    const forms = body.properties.staffCountRequired.anyOf;
    expect(forms).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: "integer", minimum: 1, maximum: 500 }),
        expect.objectContaining({ type: "string" }),
      ]),
    );
    const p = await createSchedulePlace();
    for (const staffCountRequired of [0, "0", 501, 2.5, "2.5", "", true]) {
      const res = await api("POST", `${p.base}/open-shifts`, { token: p.org.adminToken, body: openShiftBody({ staffCountRequired }) });
      expect(res.status, String(staffCountRequired)).toBe(400);
    }
    for (const staffCountRequired of [1, "2", 500]) {
      const res = await api("POST", `${p.base}/open-shifts`, { token: p.org.adminToken, body: openShiftBody({ staffCountRequired }) });
      expect(res.status, String(staffCountRequired)).toBe(201);
    }
  });

  it("takes the sample's string breaks and utcOffset, creates the named role, and answers the whole draft", async () => {
    const p = await createSchedulePlace();
    const lunch = await createBreakType({ org: p.org, location: p.location } as never);
    const res = await api("POST", `${p.base}/open-shifts`, {
      token: p.org.adminToken,
      body: {
        roleName: "Night porter",
        startDate: "2026-06-02T22:00:00Z",
        endDate: "2026-06-03T06:00:00Z",
        breaks: JSON.stringify([lunch.id]),
        staffCountRequired: 2,
        requireApproval: true,
        timezone: "America/New_York",
        utcOffset: "-240",
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      organizationId: p.org.id,
      locationId: p.location.id,
      location: { externalId: null },
      roleName: "Night porter",
      startDate: "2026-06-02T22:00:00.000Z",
      endDate: "2026-06-03T06:00:00.000Z",
      utcStartDate: "2026-06-03T02:00:00.000Z",
      utcEndDate: "2026-06-03T10:00:00.000Z",
      breaks: [lunch.id],
      staffCountRequired: 2,
      requireApproval: true,
      timezone: "America/New_York",
      utcOffset: -240,
      preferences: [],
      draftPreferences: [],
      isDraft: true,
      isPublished: false,
      isFullyClaimed: false,
    });
    const roles = await api("GET", `/api/organizations/${p.org.id}/roles`, { token: p.org.adminToken });
    expect(roles.body.find((r: { name: string }) => r.name === "Night porter").id).toBe(res.body.roleId);
    const again = await api("POST", `${p.base}/open-shifts`, {
      token: p.org.adminToken,
      body: openShiftBody({ roleName: "Night porter" }),
    });
    expect(again.body.roleId).toBe(res.body.roleId);
  });

  it("rejects a malformed breaks string, a non-numeric utcOffset, an unknown break type and a missing role", async () => {
    const p = await createSchedulePlace();
    for (const body of [
      { breaks: "[oops" },
      { utcOffset: "-4h" },
      { breaks: ["nope"] },
      { roleName: undefined },
      { endDate: "2026-06-02T08:00:00Z" },
    ]) {
      const res = await api("POST", `${p.base}/open-shifts`, { token: p.org.adminToken, body: openShiftBody(body) });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it("answers 404 for another organization's location and 403 to staff", async () => {
    const p = await createSchedulePlace();
    const other = await createOrganization();
    expect((await api("POST", `${p.base}/open-shifts`, { token: other.adminToken, body: openShiftBody() })).status).toBe(404);
    expect(
      (await api("POST", `/api/organizations/${p.org.id}/locations/nope/open-shifts`, { token: p.org.adminToken, body: openShiftBody() }))
        .status,
    ).toBe(404);
    expect((await api("POST", `${p.base}/open-shifts`, { token: p.token, body: openShiftBody() })).status).toBe(403);
  });
});

describe("GET /open-shifts (operation 10)", () => {
  it("answers a bare array with breaks as an array and utcOffset as a number, in the range", async () => {
    const p = await createSchedulePlace();
    const inside = await createOpenShift(p, { utcOffset: "-240", breaks: "[]" });
    await createOpenShift(p, { startDate: "2026-07-02T09:00:00Z", endDate: "2026-07-02T17:00:00Z" });
    const res = await api("GET", `${p.base}/open-shifts?startDate=2026-06-01&endDate=2026-06-07`, { token: p.org.adminToken });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({ id: inside.id, breaks: [], utcOffset: -240, isPublished: true });
    expect((await api("GET", `${p.base}/open-shifts?startDate=2026-06-07&endDate=2026-06-01`, { token: p.org.adminToken })).status).toBe(
      400,
    );
  });

  it("shows staff the published open shifts of their own locations, never drafts", async () => {
    const p = await createSchedulePlace();
    const published = await createOpenShift(p);
    const draft = await createOpenShift(p, { publish: false });
    const res = await api("GET", `${p.base}/open-shifts`, { token: p.token });
    expect(res.body.map((s: { id: string }) => s.id)).toEqual([published.id]);
    expect((await api("GET", `${p.base}/open-shifts/${draft.id}`, { token: p.token })).status).toBe(404);
    expect((await api("GET", `${p.base}/open-shifts/${draft.id}`, { token: p.org.adminToken })).status).toBe(200);
    const outsider = await createStaffMember(p.org, { locationIds: [], accessRoleName: "Employee" });
    expect((await api("GET", `${p.base}/open-shifts`, { token: await staffToken(p.org, outsider.id) })).status).toBe(404);
  });

  it("GET /open-shifts and GET /open-shifts/{id} show staff isFullyClaimed counted over every worker's approved places", async () => {
    const p = await createSchedulePlace();
    const shift = await createOpenShift(p, { staffCountRequired: 1, requireApproval: false });
    const other = await addWorker(p);
    const claim = await api("POST", `${p.base}/open-shifts/${shift.id}/claim`, { token: await staffToken(p.org, other.id), body: {} });
    expect(claim.body.status).toBe("APPROVED");
    const list = await api("GET", `${p.base}/open-shifts`, { token: p.token });
    expect(list.body).toEqual([expect.objectContaining({ id: shift.id, isFullyClaimed: true, preferences: [] })]);
    const one = await api("GET", `${p.base}/open-shifts/${shift.id}`, { token: p.token });
    expect(one.body).toMatchObject({ isFullyClaimed: true, preferences: [] });
  });
});

describe("PATCH and DELETE /open-shifts/{id}", () => {
  it("changes the named fields, refuses fewer places than approved, and soft-deletes", async () => {
    const p = await createSchedulePlace();
    const shift = await createOpenShift(p, { staffCountRequired: 2 });
    expect((await api("POST", `${p.base}/open-shifts/${shift.id}/claim`, { token: p.token, body: {} })).status).toBe(201);
    const patched = await api("PATCH", `${p.base}/open-shifts/${shift.id}`, {
      token: p.org.adminToken,
      body: { staffCountRequired: "1", endDate: "2026-06-02T18:00:00Z" },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ staffCountRequired: 1, endDate: "2026-06-02T18:00:00.000Z", isFullyClaimed: true });
    const below = await api("PATCH", `${p.base}/open-shifts/${shift.id}`, { token: p.org.adminToken, body: { staffCountRequired: 0 } });
    expect(below.status).toBe(400);
    const other = await addWorker(p);
    const pending = await api("POST", `${p.base}/open-shifts/${shift.id}/preferences`, {
      token: p.org.adminToken,
      body: { workerId: other.id, preference: "PREFERRED" },
    });
    expect(pending.status).toBe(201);
    const assign = await api("POST", `${p.base}/open-shifts/${shift.id}/preferences/${pending.body.id}/assign`, {
      token: p.org.adminToken,
    });
    expect(assign.status).toBe(409);
    expect(assign.body.code).toBe("OPEN_SHIFT_FULL");
    expect((await api("PATCH", `${p.base}/open-shifts/nope`, { token: p.org.adminToken, body: { requireApproval: true } })).status).toBe(
      404,
    );
    const removed = await api("DELETE", `${p.base}/open-shifts/${shift.id}`, { token: p.org.adminToken });
    expect(removed.status).toBe(200);
    expect(removed.body.deletedAt).not.toBeNull();
    expect((await api("GET", `${p.base}/open-shifts/${shift.id}`, { token: p.org.adminToken })).status).toBe(404);
  });
});

describe("claims", () => {
  it("approves a claim at once without requireApproval, with a published schedule entry", async () => {
    const p = await createSchedulePlace();
    const shift = await createOpenShift(p, { staffCountRequired: 1 });
    const res = await api("POST", `${p.base}/open-shifts/${shift.id}/claim`, { token: p.token, body: {} });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      workerId: p.staff.id,
      worker: { id: p.staff.id },
      preference: "PREFERRED",
      status: "APPROVED",
      isDraft: false,
    });
    const entry = await api("GET", `${p.base}/schedules/${res.body.scheduleShiftId}`, { token: p.token });
    expect(entry.body).toMatchObject({
      employeeId: p.staff.id,
      openShiftId: shift.id,
      isPublished: true,
      utcStartTime: shift.utcStartDate,
    });
    const after = await api("GET", `${p.base}/open-shifts/${shift.id}`, { token: p.org.adminToken });
    expect(after.body.isFullyClaimed).toBe(true);
    const again = await api("POST", `${p.base}/open-shifts/${shift.id}/claim`, { token: p.token, body: {} });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("ALREADY_CLAIMED");
  });

  it("refuses a claim on a draft, by a worker not assigned, overlapping their schedule, or for someone else", async () => {
    const p = await createSchedulePlace();
    const draft = await createOpenShift(p, { publish: false });
    const onDraft = await api("POST", `${p.base}/open-shifts/${draft.id}/claim`, {
      token: p.org.adminToken,
      body: { workerId: p.staff.id },
    });
    expect(onDraft.status).toBe(409);
    expect(onDraft.body.code).toBe("OPEN_SHIFT_NOT_PUBLISHED");
    const shift = await createOpenShift(p);
    const outsider = await createStaffMember(p.org, { locationIds: [] });
    const notAssigned = await api("POST", `${p.base}/open-shifts/${shift.id}/claim`, {
      token: p.org.adminToken,
      body: { workerId: outsider.id },
    });
    expect(notAssigned.status).toBe(409);
    expect(notAssigned.body.code).toBe("WORKER_NOT_ASSIGNED");
    await createEntry(p, { startTime: "2026-06-02T08:00:00Z", endTime: "2026-06-02T10:00:00Z" });
    const overlap = await api("POST", `${p.base}/open-shifts/${shift.id}/claim`, { token: p.token, body: {} });
    expect(overlap.status).toBe(409);
    expect(overlap.body.code).toBe("SCHEDULE_OVERLAP");
    const other = await addWorker(p);
    const forOther = await api("POST", `${p.base}/open-shifts/${shift.id}/claim`, { token: p.token, body: { workerId: other.id } });
    expect(forOther.status).toBe(403);
    expect((await api("POST", `${p.base}/open-shifts/nope/claim`, { token: p.token, body: {} })).status).toBe(404);
    expect(
      (await api("POST", `${p.base}/open-shifts/${shift.id}/claim`, { token: p.org.adminToken, body: { workerId: "nope" } })).status,
    ).toBe(400);
  });

  it("keeps a claim PENDING with requireApproval until a manager assigns it; the worker may retract first", async () => {
    const p = await createSchedulePlace();
    const shift = await createOpenShift(p, { requireApproval: true });
    const claim = await api("POST", `${p.base}/open-shifts/${shift.id}/claim`, { token: p.token, body: {} });
    expect(claim.body).toMatchObject({ status: "PENDING", scheduleShiftId: null });
    const retracted = await api("POST", `${p.base}/open-shifts/${shift.id}/retract`, { token: p.token, body: {} });
    expect(retracted.status).toBe(200);
    expect(retracted.body.status).toBe("RETRACTED");
    const twice = await api("POST", `${p.base}/open-shifts/${shift.id}/retract`, { token: p.token, body: {} });
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe("PREFERENCE_NOT_PENDING");
    // A staff member of another organization has nothing here to retract: 400 naming workerId, not a conflict.
    const elsewhere = await createSchedulePlace();
    const foreign = await api("POST", `${p.base}/open-shifts/${shift.id}/retract`, {
      token: p.org.adminToken,
      body: { workerId: elsewhere.staff.id },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toMatchObject({ code: "VALIDATION_FAILED", errors: [{ path: "workerId" }] });
    const again = await api("POST", `${p.base}/open-shifts/${shift.id}/claim`, { token: p.token, body: {} });
    expect(again.status).toBe(201);
    expect((await api("POST", `${p.base}/open-shifts/${shift.id}/preferences/${again.body.id}/assign`, { token: p.token })).status).toBe(
      403,
    );
    const assigned = await api("POST", `${p.base}/open-shifts/${shift.id}/preferences/${again.body.id}/assign`, {
      token: p.org.adminToken,
    });
    expect(assigned.status).toBe(200);
    expect(assigned.body.status).toBe("APPROVED");
    expect((await api("GET", `${p.base}/schedules/${assigned.body.scheduleShiftId}`, { token: p.token })).status).toBe(200);
    const late = await api("POST", `${p.base}/open-shifts/${shift.id}/retract`, { token: p.token, body: {} });
    expect(late.status).toBe(409);
  });
});

describe("preferences", () => {
  it("states, changes, retracts and declines preferences, each only while pending", async () => {
    const p = await createSchedulePlace();
    const shift = await createOpenShift(p, { requireApproval: true });
    const created = await api("POST", `${p.base}/open-shifts/${shift.id}/preferences`, {
      token: p.token,
      body: { preference: "NOT_PREFERRED" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ preference: "NOT_PREFERRED", status: "PENDING" });
    const path = `${p.base}/open-shifts/${shift.id}/preferences/${created.body.id}`;
    const changed = await api("PATCH", path, { token: p.token, body: { preference: "PREFERRED" } });
    expect(changed.body.preference).toBe("PREFERRED");
    expect((await api("PATCH", path, { token: p.token, body: { preference: "MAYBE" } })).status).toBe(400);
    expect((await api("PATCH", `${path}/remove`, { token: p.token })).status).toBe(403);
    const other = await addWorker(p);
    const theirs = await api("POST", `${p.base}/open-shifts/${shift.id}/preferences`, {
      token: p.org.adminToken,
      body: { workerId: other.id, preference: "PREFERRED" },
    });
    expect((await api("POST", `${p.base}/open-shifts/${shift.id}/preferences/${theirs.body.id}/retract`, { token: p.token })).status).toBe(
      404,
    );
    const declined = await api("PATCH", `${p.base}/open-shifts/${shift.id}/preferences/${theirs.body.id}/remove`, {
      token: p.org.adminToken,
    });
    expect(declined.body.status).toBe("DECLINED");
    const retracted = await api("POST", `${path}/retract`, { token: p.token });
    expect(retracted.body.status).toBe("RETRACTED");
    const late = await api("PATCH", path, { token: p.token, body: { preference: "NOT_PREFERRED" } });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe("PREFERENCE_NOT_PENDING");
    const view = await api("GET", `${p.base}/open-shifts/${shift.id}`, { token: p.token });
    expect(view.body.preferences.map((x: { id: string }) => x.id)).toEqual([created.body.id]);
    const managerView = await api("GET", `${p.base}/open-shifts/${shift.id}`, { token: p.org.adminToken });
    expect(managerView.body.preferences).toHaveLength(2);
  });

  it("a refused preference write (409 PREFERENCE_NOT_PENDING) changes nothing: same ETag and updatedAt, no event", async () => {
    const p = await createSchedulePlace();
    const shift = await createOpenShift(p, { requireApproval: true });
    const created = await api("POST", `${p.base}/open-shifts/${shift.id}/preferences`, {
      token: p.token,
      body: { preference: "NOT_PREFERRED" },
    });
    const path = `${p.base}/open-shifts/${shift.id}/preferences/${created.body.id}`;
    expect((await api("POST", `${path}/retract`, { token: p.token })).status).toBe(200);
    const read = () => api("GET", `${p.base}/open-shifts/${shift.id}`, { token: p.org.adminToken });
    const eventCount = async () =>
      ((await api("GET", `/api/organizations/${p.org.id}/events?limit=500`, { token: p.org.adminToken })).body as unknown[]).length;
    const before = await read();
    const events = await eventCount();
    const refusals = [
      await api("PATCH", path, { token: p.token, body: { preference: "PREFERRED" } }),
      await api("POST", `${path}/retract`, { token: p.token }),
      await api("PATCH", `${path}/remove`, { token: p.org.adminToken }),
    ];
    for (const refused of refusals) {
      expect(refused.status, refused.text).toBe(409);
      expect(refused.body.code).toBe("PREFERENCE_NOT_PENDING");
    }
    const after = await read();
    expect(after.headers.get("etag")).toBe(before.headers.get("etag"));
    expect(after.body.updatedAt).toBe(before.body.updatedAt);
    expect(await eventCount()).toBe(events);
  });

  it("bulk-assigns all or none: over capacity is 409 OPEN_SHIFT_FULL and assigns nobody", async () => {
    const p = await createSchedulePlace();
    const shift = await createOpenShift(p, { requireApproval: true, staffCountRequired: 2 });
    const workers = [p.staff, await addWorker(p), await addWorker(p)];
    const ids: string[] = [];
    for (const w of workers) {
      const res = await api("POST", `${p.base}/open-shifts/${shift.id}/claim`, { token: p.org.adminToken, body: { workerId: w.id } });
      ids.push(res.body.id);
    }
    const over = await api("POST", `${p.base}/open-shifts/${shift.id}/preferences/bulk-assign`, {
      token: p.org.adminToken,
      body: { preferenceIds: ids },
    });
    expect(over.status).toBe(409);
    expect(over.body.code).toBe("OPEN_SHIFT_FULL");
    const unchanged = await api("GET", `${p.base}/open-shifts/${shift.id}`, { token: p.org.adminToken });
    expect(unchanged.body.preferences.every((x: { status: string }) => x.status === "PENDING")).toBe(true);
    const fits = await api("POST", `${p.base}/open-shifts/${shift.id}/preferences/bulk-assign`, {
      token: p.org.adminToken,
      body: { preferenceIds: ids.slice(0, 2) },
    });
    expect(fits.status).toBe(200);
    expect(fits.body.map((x: { status: string }) => x.status)).toEqual(["APPROVED", "APPROVED"]);
    const full = await api("GET", `${p.base}/open-shifts/${shift.id}`, { token: p.org.adminToken });
    expect(full.body.isFullyClaimed).toBe(true);
    expect(
      (
        await api("POST", `${p.base}/open-shifts/${shift.id}/preferences/bulk-assign`, {
          token: p.org.adminToken,
          body: { preferenceIds: ["nope"] },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await api("POST", `${p.base}/open-shifts/${shift.id}/preferences/bulk-assign`, {
          token: p.org.adminToken,
          body: { preferenceIds: [] },
        })
      ).status,
    ).toBe(400);
  });

  it("assigning on a draft open shift makes a draft assignment, applied at publish", async () => {
    const p = await createSchedulePlace();
    const shift = await createOpenShift(p, { publish: false, requireApproval: true });
    const pref = await api("POST", `${p.base}/open-shifts/${shift.id}/preferences`, {
      token: p.org.adminToken,
      body: { workerId: p.staff.id, preference: "PREFERRED" },
    });
    const assigned = await api("POST", `${p.base}/open-shifts/${shift.id}/preferences/${pref.body.id}/assign`, { token: p.org.adminToken });
    expect(assigned.body).toMatchObject({ status: "APPROVED", isDraft: true, scheduleShiftId: null });
    const draftView = await api("GET", `${p.base}/open-shifts/${shift.id}`, { token: p.org.adminToken });
    expect(draftView.body.draftPreferences).toHaveLength(1);
    expect(draftView.body.draftPreferences[0]).not.toHaveProperty("isDraft");
    const published = await api("POST", `${p.base}/schedules/publish`, {
      token: p.org.adminToken,
      body: { startDate: "2026-06-02", endDate: "2026-06-02" },
    });
    expect(published.body).toMatchObject({ publishedEntries: 0, publishedOpenShifts: 1, appliedAssignments: 1 });
    const after = await api("GET", `${p.base}/open-shifts/${shift.id}`, { token: p.token });
    expect(after.body).toMatchObject({ isPublished: true, draftPreferences: [] });
    const entryId = after.body.preferences[0].scheduleShiftId;
    expect((await api("GET", `${p.base}/schedules/${entryId}`, { token: p.token })).body.openShiftId).toBe(shift.id);
  });
});

describe("retried claims", () => {
  it("replays a claim retried with the same Idempotency-Key instead of answering ALREADY_CLAIMED", async () => {
    const p = await createSchedulePlace();
    const shift = await createOpenShift(p, { staffCountRequired: 1 });
    const headers = { "Idempotency-Key": `claim-${shift.id}` };
    const first = await api("POST", `${p.base}/open-shifts/${shift.id}/claim`, { token: p.token, body: {}, headers });
    const retry = await api("POST", `${p.base}/open-shifts/${shift.id}/claim`, { token: p.token, body: {}, headers });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
  });
});
