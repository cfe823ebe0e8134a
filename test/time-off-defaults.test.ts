import { describe, expect, it } from "vitest";
import { api } from "./helpers/api";
import { createOrganization } from "./helpers/fixtures";
import { createPolicy, createRequest, createTimeOffPlace, orgPath, policyTypeId, requestBody, setBalance } from "./helpers/time-off";

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
