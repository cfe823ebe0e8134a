import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import { createOrganization, unique } from "../../helpers/fixtures";
import { createLocation } from "../../helpers/locations";
import { tenantDb } from "../../helpers/shards";
import { createStaffMember, staffToken } from "../../helpers/staff";
import { balanceOf, createPolicy, createTimeOffPlace, ledgerOf, orgPath, policyTypeId, setBalance } from "../../helpers/time-off";

describe("policy types", () => {
  it("GET /policies/types lists the five defaults of an organization made with defaults", async () => {
    const org = await createOrganization();
    const res = await api("GET", orgPath(org, "/policies/types"), { token: org.adminToken });
    expect(res.status).toBe(200);
    expect(res.body.map((t: { type: string }) => t.type).sort()).toEqual(["Bereavement", "Personal", "Sick", "Unpaid", "Vacation"]);
  });

  it("POST /policies/types adds an Other kind and rejects an unknown kind", async () => {
    const org = await createOrganization();
    const created = await api("POST", orgPath(org, "/policies/types"), {
      token: org.adminToken,
      body: { name: "Jury duty", type: "Other" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Jury duty", type: "Other" });
    const bad = await api("POST", orgPath(org, "/policies/types"), { token: org.adminToken, body: { name: "X", type: "Holiday" } });
    expect(bad.status).toBe(400);
    const listed = await api("GET", orgPath(org, "/policies/types"), { token: org.adminToken });
    expect(listed.body).toHaveLength(6);
  });

  it("refuses an Employee (403) and another organization's token (404)", async () => {
    const org = await createOrganization();
    const other = await createOrganization();
    const employee = await createStaffMember(org, { accessRoleName: "Employee" });
    const token = await staffToken(org, employee.id);
    expect((await api("POST", orgPath(org, "/policies/types"), { token, body: { name: "X", type: "Other" } })).status).toBe(403);
    expect((await api("GET", orgPath(org, "/policies/types"), { token: other.adminToken })).status).toBe(404);
  });
});

describe("policies", () => {
  it("POST /policies answers 201 Draft with its type embedded and the settings' full day", async () => {
    const org = await createOrganization();
    const typeId = await policyTypeId(org, "Sick");
    const res = await api("POST", orgPath(org, "/policies"), { token: org.adminToken, body: { name: "Sick leave", typeId } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "Sick leave",
      status: "Draft",
      typeId,
      type: { id: typeId, name: "Sick", type: "Sick" },
      fullDayDuration: 8,
      units: "hours",
      requiresApproval: true,
      allowNegativeBalance: false,
      assignedStaffCount: 0,
    });
  });

  it("POST /policies rejects an unknown typeId, a missing name and a bad accrualDate (400)", async () => {
    const org = await createOrganization();
    const typeId = await policyTypeId(org);
    const unknown = await api("POST", orgPath(org, "/policies"), { token: org.adminToken, body: { name: "P", typeId: "nope" } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].path).toBe("typeId");
    expect((await api("POST", orgPath(org, "/policies"), { token: org.adminToken, body: { typeId } })).status).toBe(400);
    const date = await api("POST", orgPath(org, "/policies"), {
      token: org.adminToken,
      body: { name: "P", typeId, limitSettings: { isFixedAmount: true, fixedAmount: { accrualDate: "32nd" } } },
    });
    expect(date.status).toBe(400);
  });

  it("GET /policies filters by status and typeId and pages with Link", async () => {
    const org = await createOrganization();
    const active = await createPolicy(org);
    const draft = await createPolicy(org, {}, false);
    const sick = await createPolicy(org, { typeId: await policyTypeId(org, "Sick") }, false);
    const byStatus = await api("GET", orgPath(org, "/policies?status=Active"), { token: org.adminToken });
    expect(byStatus.body.map((p: { id: string }) => p.id)).toEqual([active.id]);
    const byType = await api("GET", orgPath(org, `/policies?typeId=${sick.typeId}`), { token: org.adminToken });
    expect(byType.body.map((p: { id: string }) => p.id)).toEqual([sick.id]);
    const first = await api("GET", orgPath(org, "/policies?limit=2"), { token: org.adminToken });
    expect(first.body.map((p: { id: string }) => p.id)).toEqual([active.id, draft.id]);
    const next = first.headers.get("link")!.match(/<([^>]+)>/)![1]!;
    const second = await api("GET", next, { token: org.adminToken });
    expect(second.body.map((p: { id: string }) => p.id)).toEqual([sick.id]);
  });

  it("GET /policies/{id} answers 404 for another organization's policy", async () => {
    const org = await createOrganization();
    const other = await createOrganization();
    const policy = await createPolicy(other);
    expect((await api("GET", orgPath(org, `/policies/${policy.id}`), { token: org.adminToken })).status).toBe(404);
    expect((await api("GET", orgPath(other, `/policies/${policy.id}`), { token: org.adminToken })).status).toBe(404);
    expect((await api("GET", orgPath(org, "/policies/missing"), { token: org.adminToken })).status).toBe(404);
  });

  it("activate and deactivate follow the state machine; deactivating a Draft is 409 POLICY_NOT_ACTIVE", async () => {
    const org = await createOrganization();
    const draft = await createPolicy(org, {}, false);
    const path = orgPath(org, `/policies/${draft.id}`);
    const refused = await api("PATCH", `${path}/deactivate`, { token: org.adminToken });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("POLICY_NOT_ACTIVE");
    expect((await api("PATCH", `${path}/activate`, { token: org.adminToken })).body.status).toBe("Active");
    expect((await api("PATCH", `${path}/activate`, { token: org.adminToken })).body.status).toBe("Active");
    expect((await api("PATCH", `${path}/deactivate`, { token: org.adminToken })).body.status).toBe("Inactive");
    expect((await api("PATCH", `${path}/deactivate`, { token: org.adminToken })).status).toBe(200);
    expect((await api("PATCH", `${path}/activate`, { token: org.adminToken })).body.status).toBe("Active");
    expect((await api("PATCH", orgPath(org, "/policies/missing/activate"), { token: org.adminToken })).status).toBe(404);
  });
});

describe("PATCH /policies/{policy_id} (operation 8)", () => {
  it("updates fields and answers the whole policy", async () => {
    const org = await createOrganization();
    const policy = await createPolicy(org, {}, false);
    const location = await createLocation(org);
    const res = await api("PATCH", orgPath(org, `/policies/${policy.id}`), {
      token: org.adminToken,
      body: {
        name: "Renamed",
        locationId: location.id,
        paid: false,
        units: "days",
        requiresApproval: false,
        carryoverLimit: 5,
        allowNegativeBalance: true,
        fullDayDuration: 7.5,
        limitSettings: {
          isFixedAmount: true,
          fixedAmount: { daysEarned: 1, accrualCycle: "Periodic", accrualFrequency: "EveryMonth", accrualDate: "last" },
        },
        defaultSettings: { assignedStaff: { type: "Location", value: location.id } },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: policy.id,
      name: "Renamed",
      locationId: location.id,
      paid: false,
      units: "days",
      requiresApproval: false,
      carryoverLimit: 5,
      allowNegativeBalance: true,
      fullDayDuration: 7.5,
      status: "Draft",
      type: { type: "Vacation" },
      limitSettings: { fixedAmount: { accrualDate: "last" } },
      defaultSettings: { assignedStaff: { type: "Location", value: location.id } },
    });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(policy.updatedAt));
  });

  it("workerPolicies: includes by externalEmployeeId and writes one adjustment of the difference", async () => {
    const place = await createTimeOffPlace({ defaultSettings: {} });
    const path = orgPath(place.org, `/policies/${place.policy.id}`);
    expect((await api("GET", path, { token: place.org.adminToken })).body.assignedStaffCount).toBe(0);
    const body = { workerPolicies: [{ employee: { externalEmployeeId: place.worker.externalId }, isIncluded: true, hoursBalance: 16 }] };
    const res = await api("PATCH", path, { token: place.org.adminToken, body });
    expect(res.status).toBe(200);
    expect(res.body.assignedStaffCount).toBe(1);
    const balance = await balanceOf(place);
    expect(balance).toMatchObject({ hoursBalance: 16, availableBalance: 16, isIncluded: true });
    for (const hoursBalance of [10, 10]) {
      const body = { workerPolicies: [{ employee: { externalEmployeeId: place.worker.externalId }, hoursBalance }] };
      await api("PATCH", path, { token: place.org.adminToken, body });
    }
    expect((await ledgerOf(balance.id)).map((e) => [e.kind, e.hours])).toEqual([
      ["adjustment", 16],
      ["adjustment", -6],
      ["adjustment", 0],
    ]);
    expect((await balanceOf(place)).hoursBalance).toBe(10);
  });

  it("workerPolicies naming unknown staff is a 400 naming them, and changes nothing", async () => {
    const place = await createTimeOffPlace();
    const res = await api("PATCH", orgPath(place.org, `/policies/${place.policy.id}`), {
      token: place.org.adminToken,
      body: { name: "Changed", workerPolicies: [{ employee: { externalEmployeeId: "ghost-1" }, isIncluded: true }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain("ghost-1");
    expect((await api("GET", orgPath(place.org, `/policies/${place.policy.id}`), { token: place.org.adminToken })).body.name).not.toBe(
      "Changed",
    );
  });

  it("workerPolicies naming one staff member twice is a 400 naming them, and writes nothing", async () => {
    const place = await createTimeOffPlace({ defaultSettings: {} });
    const path = orgPath(place.org, `/policies/${place.policy.id}`);
    const first = { workerPolicies: [{ employee: { externalEmployeeId: place.worker.externalId }, isIncluded: true, hoursBalance: 4 }] };
    expect((await api("PATCH", path, { token: place.org.adminToken, body: first })).status).toBe(200);
    const twice = { employee: { externalEmployeeId: place.worker.externalId }, hoursBalance: 10 };
    const res = await api("PATCH", path, { token: place.org.adminToken, body: { workerPolicies: [twice, twice] } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("VALIDATION_FAILED");
    expect(JSON.stringify(res.body)).toContain(place.worker.externalId);
    expect((await balanceOf(place)).hoursBalance).toBe(4);
  });

  it("hoursBalance is in days for a days policy; the ledger keeps hours", async () => {
    const place = await createTimeOffPlace({ units: "days", fullDayDuration: 8 });
    await api("PATCH", orgPath(place.org, `/policies/${place.policy.id}`), {
      token: place.org.adminToken,
      body: { workerPolicies: [{ employee: { externalEmployeeId: place.worker.externalId }, hoursBalance: 2.5 }] },
    });
    const balance = await balanceOf(place);
    expect(balance.hoursBalance).toBe(2.5);
    expect((await ledgerOf(balance.id))[0]!.hours).toBe(20);
  });

  it("refuses an Employee (403), another organization (404) and a bad body (400)", async () => {
    const place = await createTimeOffPlace();
    const other = await createOrganization();
    const path = orgPath(place.org, `/policies/${place.policy.id}`);
    expect((await api("PATCH", path, { token: place.workerToken, body: { name: "x" } })).status).toBe(403);
    expect((await api("PATCH", path, { token: other.adminToken, body: { name: "x" } })).status).toBe(404);
    expect((await api("PATCH", path, { token: place.org.adminToken, body: { units: "weeks" } })).status).toBe(400);
    expect((await api("PATCH", orgPath(place.org, "/policies/missing"), { token: place.org.adminToken, body: { name: "x" } })).status).toBe(
      404,
    );
  });
});

describe("inclusion follows assignedStaff without extra calls", () => {
  it("Role, Location and EmploymentType rules include staff created later; an explicit exclusion wins", async () => {
    const org = await createOrganization();
    const location = await createLocation(org);
    const byRole = await createPolicy(org, { defaultSettings: { assignedStaff: { type: "Role", value: org.defaultRoleId } } });
    const byLocation = await createPolicy(org, { defaultSettings: { assignedStaff: { type: "Location", value: location.id } } });
    const byType = await createPolicy(org, { defaultSettings: { assignedStaff: { type: "EmploymentType", value: "part_time" } } });
    const worker = await createStaffMember(org, { externalId: unique("ext"), roleIds: [org.defaultRoleId], locationIds: [location.id] });
    const res = await api("GET", orgPath(org, `/worker-policies?workerId=${worker.id}`), { token: org.adminToken });
    expect(res.status).toBe(200);
    const included = Object.fromEntries(res.body.map((w: { policyId: string; isIncluded: boolean }) => [w.policyId, w.isIncluded]));
    expect(included).toEqual({ [byRole.id]: true, [byLocation.id]: true, [byType.id]: false });
    await api("PATCH", orgPath(org, `/policies/${byRole.id}`), {
      token: org.adminToken,
      body: { workerPolicies: [{ employee: { externalEmployeeId: worker.externalId }, isIncluded: false }] },
    });
    const after = await api("GET", orgPath(org, `/policies/${byRole.id}/worker-policies`), { token: org.adminToken });
    expect(after.body).toHaveLength(1);
    expect(after.body[0]).toMatchObject({
      workerId: worker.id,
      isIncluded: false,
      employee: { id: worker.id, externalEmployeeId: worker.externalId },
    });
  });
});

describe("worker policies", () => {
  it("GET /policies/{id}/worker-policies lists one balance per staff member, paged", async () => {
    const place = await createTimeOffPlace();
    const second = await createStaffMember(place.org, { externalId: unique("ext") });
    const path = orgPath(place.org, `/policies/${place.policy.id}/worker-policies`);
    const first = await api("GET", `${path}?limit=1`, { token: place.org.adminToken });
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(1);
    const next = await api("GET", first.headers.get("link")!.match(/<([^>]+)>/)![1]!, { token: place.org.adminToken });
    expect([first.body[0].workerId, next.body[0].workerId].sort()).toEqual([place.worker.id, second.id].sort());
    expect(next.body[0]).toMatchObject({ policyId: place.policy.id, hoursBalance: 0, availableBalance: 0, isIncluded: true });
  });

  it("the worker-policies GETs write nothing; a balance keeps the id they answered once its row is made", async () => {
    const place = await createTimeOffPlace();
    const rows = async () =>
      (await tenantDb().prepare("SELECT id FROM worker_policies WHERE policy_id = ?").bind(place.policy.id).all<{ id: string }>()).results;
    const listed = await api("GET", orgPath(place.org, `/policies/${place.policy.id}/worker-policies`), { token: place.org.adminToken });
    const mine = await balanceOf(place);
    expect(listed.body).toMatchObject([{ id: mine.id, hoursBalance: 0, availableBalance: 0, isIncluded: true }]);
    expect(await rows()).toEqual([]);
    await setBalance(place, 8);
    expect(await rows()).toEqual([{ id: mine.id }]);
    expect(await balanceOf(place)).toMatchObject({ id: mine.id, hoursBalance: 8 });
  });

  it("a worker reads their own balances and ledger, not another's (403); other organizations get 404", async () => {
    const place = await createTimeOffPlace();
    const other = await createStaffMember(place.org, { externalId: unique("ext") });
    const own = await api("GET", orgPath(place.org, `/worker-policies?workerId=${place.worker.id}`), { token: place.workerToken });
    expect(own.status).toBe(200);
    expect(own.body).toHaveLength(1);
    const forced = await api("GET", orgPath(place.org, "/worker-policies"), { token: place.workerToken });
    expect(forced.body.map((w: { workerId: string }) => w.workerId)).toEqual([place.worker.id]);
    expect((await api("GET", orgPath(place.org, `/worker-policies?workerId=${other.id}`), { token: place.workerToken })).status).toBe(403);
    const ledgerPath = (id: string) => orgPath(place.org, `/policies/${place.policy.id}/worker-policies/${id}/ledger`);
    expect((await api("GET", ledgerPath(place.worker.id), { token: place.workerToken })).status).toBe(200);
    expect((await api("GET", ledgerPath(other.id), { token: place.workerToken })).status).toBe(403);
    expect(
      (await api("GET", orgPath(place.org, `/policies/${place.policy.id}/worker-policies`), { token: place.workerToken })).status,
    ).toBe(403);
    const stranger = await createOrganization();
    expect((await api("GET", ledgerPath(place.worker.id), { token: stranger.adminToken })).status).toBe(404);
    expect((await api("GET", orgPath(place.org, "/worker-policies?workerId=missing"), { token: place.org.adminToken })).status).toBe(404);
    expect((await api("GET", orgPath(place.org, "/worker-policies?limit=0"), { token: place.org.adminToken })).status).toBe(400);
  });
});

describe("time-off settings", () => {
  it("GET answers the defaults; PATCH changes only the named settings", async () => {
    const org = await createOrganization();
    const path = orgPath(org, "/time-off-settings");
    const initial = await api("GET", path, { token: org.adminToken });
    expect(initial.status).toBe(200);
    expect(initial.body).toMatchObject({
      allowPastRequests: false,
      minimumNoticeDays: 0,
      requireNote: false,
      fullDayHours: 8,
      weekStartsOn: "Monday",
    });
    const patched = await api("PATCH", path, { token: org.adminToken, body: { minimumNoticeDays: 3, weekStartsOn: "Sunday" } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ allowPastRequests: false, minimumNoticeDays: 3, fullDayHours: 8, weekStartsOn: "Sunday" });
    expect((await api("PATCH", path, { token: org.adminToken, body: { minimumNoticeDays: -1 } })).status).toBe(400);
    const employee = await createStaffMember(org, { accessRoleName: "Employee" });
    expect((await api("PATCH", path, { token: await staffToken(org, employee.id), body: { requireNote: true } })).status).toBe(403);
    expect((await api("GET", path, { token: (await createOrganization()).adminToken })).status).toBe(404);
  });

  it("a new policy takes the settings' fullDayHours", async () => {
    const org = await createOrganization();
    await api("PATCH", orgPath(org, "/time-off-settings"), { token: org.adminToken, body: { fullDayHours: 7 } });
    expect((await createPolicy(org, {}, false)).fullDayDuration).toBe(7);
  });
});
