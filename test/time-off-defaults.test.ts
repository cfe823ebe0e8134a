import { describe, expect, it } from "vitest";
import { api } from "./helpers/api";
import { createOrganization, unique } from "./helpers/fixtures";
import { createStaffMember, staffToken } from "./helpers/staff";
import { balanceOf, createPolicy, createRequest, createTimeOffPlace, orgPath, policyTypeId, requestBody, setBalance } from "./helpers/time-off";

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
    expect((await api("GET", orgPath(place.org, `/time-off-requests/${own.body.id}`), { token: managerToken })).body.status).toBe("pending");
    const approved = await approve(place.org.adminToken);
    expect(approved.status).toBe(200);
    expect(approved.body.status).toBe("approved");
  });

  it("a pending request on a policy made Inactive is not approved: 409 POLICY_NOT_AVAILABLE, nothing changes", async () => {
    const place = await createTimeOffPlace({ requiresApproval: true });
    await setBalance(place, 40);
    const pending = await createRequest(place, requestBody(place));
    expect(pending.status).toBe(201);
    expect((await api("PATCH", orgPath(place.org, `/policies/${place.policy.id}/deactivate`), { token: place.org.adminToken })).status).toBe(200);
    const before = await balanceOf(place);
    const res = await api("POST", orgPath(place.org, `/time-off-requests/${pending.body.id}/approve`), { token: place.org.adminToken });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("POLICY_NOT_AVAILABLE");
    expect(await balanceOf(place)).toEqual(before);
    const declined = await api("POST", orgPath(place.org, `/time-off-requests/${pending.body.id}/decline`), { token: place.org.adminToken, body: {} });
    expect(declined.body.status).toBe("declined");
  });
});
