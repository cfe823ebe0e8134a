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
  orgPath,
  policyTypeId,
  requestBody,
  setBalance,
} from "../../helpers/time-off";

describe("time-off defaults", () => {
  it("an employee filing for themself may leave workerId out: it is the caller", async () => {
    const place = await createTimeOffPlace();
    await setBalance(place, 40);
    const { workerId: _named, ...body } = requestBody(place);
    const res = await createRequest(place, body);
    expect(res.status, res.text).toBe(201);
    expect(res.body.workerId).toBe(place.worker.id);
  });

  it("an organization token without a workerId is a 400 naming it, and nothing is written", async () => {
    const place = await createTimeOffPlace();
    const { workerId: _named, ...body } = requestBody(place);
    const res = await createRequest(place, body, place.org.adminToken);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(["workerId"]);
    const listed = await api("GET", orgPath(place.org, "/time-off-requests"), { token: place.org.adminToken });
    expect(listed.body).toEqual([]);
  });

  it("a policy of type Unpaid is unpaid unless the body says otherwise; other types are paid", async () => {
    const org = await createOrganization();
    const unpaid = await createPolicy(org, { typeId: await policyTypeId(org, "Unpaid") }, false);
    expect(unpaid.paid).toBe(false);
    const forced = await createPolicy(org, { typeId: await policyTypeId(org, "Unpaid"), paid: true }, false);
    expect(forced.paid).toBe(true);
    const vacation = await createPolicy(org, { typeId: await policyTypeId(org, "Vacation") }, false);
    expect(vacation.paid).toBe(true);
  });
});

describe("approving time off", () => {
  it("nobody approves their own request, whatever their permissions; the organization's token may", async () => {
    const place = await createTimeOffPlace({ requiresApproval: true });
    const manager = await createStaffMember(place.org, { externalId: unique("mgr"), accessRoleName: "Manager" });
    const managerToken = await staffToken(place.org, manager.id);
    await setBalance(place, 40, manager);
    const own = await createRequest(place, { ...requestBody(place), workerId: manager.id }, managerToken);
    expect(own.status, own.text).toBe(201);
    expect(own.body.status).toBe("pending");
    const approve = (token: string) => api("POST", orgPath(place.org, `/time-off-requests/${own.body.id}/approve`), { token });
    const refused = await approve(managerToken);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("FORBIDDEN");
    expect((await api("GET", orgPath(place.org, `/time-off-requests/${own.body.id}`), { token: managerToken })).body.status).toBe(
      "pending",
    );
    const approved = await approve(place.org.adminToken);
    expect(approved.status).toBe(200);
    expect(approved.body.status).toBe("approved");
  });

  it("a pending request on a policy made Inactive is not approved: 409 POLICY_NOT_AVAILABLE, nothing changes", async () => {
    const place = await createTimeOffPlace({ requiresApproval: true });
    await setBalance(place, 40);
    const pending = await createRequest(place, requestBody(place));
    expect(pending.status).toBe(201);
    expect(
      (await api("PATCH", orgPath(place.org, `/policies/${place.policy.id}/deactivate`), { token: place.org.adminToken })).status,
    ).toBe(200);
    const before = await balanceOf(place);
    const res = await api("POST", orgPath(place.org, `/time-off-requests/${pending.body.id}/approve`), { token: place.org.adminToken });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("POLICY_NOT_AVAILABLE");
    expect(await balanceOf(place)).toEqual(before);
    const declined = await api("POST", orgPath(place.org, `/time-off-requests/${pending.body.id}/decline`), {
      token: place.org.adminToken,
      body: {},
    });
    expect(declined.body.status).toBe("declined");
  });
});

describe("hour configuration: it must add up", () => {
  const monday = "2027-07-05";
  const week = (place: Awaited<ReturnType<typeof createTimeOffPlace>>, extra: Record<string, unknown>) => ({
    ...requestBody(place),
    startTime: `${monday}T00:00:00Z`,
    endTime: "2027-07-10T00:00:00Z",
    isAllDay: true,
    ...extra,
  });

  it("a week off named as one day of 0.01 h is a 400 on an auto-approved policy, and nothing is written", async () => {
    const place = await createTimeOffPlace({ requiresApproval: false });
    await setBalance(place, 80);
    const before = await balanceOf(place);
    const res = await createRequest(place, week(place, { hourConfiguration: [{ date: monday, hours: 0.01 }] }));
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors[0].path).toBe("hourConfiguration");
    expect(res.body.errors[0].message).toMatch(/missing 2027-07-06/);
    expect(await balanceOf(place)).toEqual(before);
    const derived = await createRequest(place, week(place, {}));
    expect(derived.status, derived.text).toBe(201);
    expect(derived.body).toMatchObject({ status: "approved", totalHours: 40 });
  });

  it("20 hours in a 09:00–10:00 window is a 400; one hour is accepted", async () => {
    const place = await createTimeOffPlace();
    await setBalance(place, 80);
    const body = requestBody(place, "2027-07-06", 1);
    const refused = await createRequest(place, { ...body, hourConfiguration: [{ date: "2027-07-06", hours: 20 }] });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].message).toMatch(/window's hours that day \(1\)/);
    const accepted = await createRequest(place, { ...body, hourConfiguration: [{ date: "2027-07-06", hours: 1 }] });
    expect(accepted.status, accepted.text).toBe(201);
  });

  it("a request over a 25-hour DST day reads back as it can be PUT back unchanged", async () => {
    const place = await createTimeOffPlace({}, { timezone: "America/New_York" });
    await setBalance(place, 80);
    const created = await createRequest(place, {
      workerId: place.worker.id,
      policyId: place.policy.id,
      startTime: "2027-11-07T00:00:00-04:00",
      endTime: "2027-11-08T00:00:00-05:00",
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.hourConfiguration).toEqual([{ date: "2027-11-07", hours: 25 }]);
    const { policyId, startTime, endTime, isAllDay, hourConfiguration, timezone } = created.body;
    const put = await api("PUT", orgPath(place.org, `/time-off-requests/${created.body.id}`), {
      token: place.workerToken,
      body: { policyId, startTime, endTime, isAllDay, hourConfiguration, timezone },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.hourConfiguration).toEqual([{ date: "2027-11-07", hours: 25 }]);
  });
});

describe("a time-off request's locationId", () => {
  it("defaults to the worker's first location, takes another of theirs, refuses a foreign one, and filters operation 9", async () => {
    const org = await createOrganization({ timezone: "UTC" });
    const [north, south, elsewhere] = [await createLocation(org), await createLocation(org), await createLocation(org)];
    const worker = await createStaffMember(org, {
      externalId: unique("ext"),
      accessRoleName: "Employee",
      locationIds: [north.id, south.id],
    });
    const place = {
      org,
      worker,
      workerToken: await staffToken(org, worker.id),
      policy: await createPolicy(org, { requiresApproval: false }),
    };
    await setBalance(place, 80);
    const first = await createRequest(place, requestBody(place, "2027-07-06"));
    expect(first.status, first.text).toBe(201);
    expect(first.body.locationId).toBe(north.id);
    const second = await createRequest(place, { ...requestBody(place, "2027-07-07"), locationId: south.id });
    expect(second.body.locationId).toBe(south.id);
    const foreign = await createRequest(place, { ...requestBody(place, "2027-07-08"), locationId: elsewhere.id });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors[0].path).toBe("locationId");
    const timeOffs = (locationId: string) =>
      api("GET", orgPath(org, `/time-off-requests/time-offs?locationId=${locationId}`), { token: org.adminToken });
    expect((await timeOffs(south.id)).body.map((r: { id: string }) => r.id)).toEqual([second.body.id]);
    expect((await timeOffs(north.id)).body.map((r: { id: string }) => r.id)).toEqual([first.body.id]);
    expect((await timeOffs(elsewhere.id)).body).toEqual([]);
    const read = await api("GET", orgPath(org, `/time-off-requests/${second.body.id}`), { token: org.adminToken });
    expect(read.body.locationId).toBe(south.id);
  });
});
