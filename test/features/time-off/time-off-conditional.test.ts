import { describe, expect, it } from "vitest";
import { api } from "../../helpers/api";
import {
  createRequest,
  createTimeOffPlace,
  dayFromToday,
  ledgerOf,
  orgPath,
  requestBody,
  setBalance,
  type TimeOffPlace,
} from "../../helpers/time-off";

const policyPath = (place: TimeOffPlace) => orgPath(place.org, `/policies/${place.policy.id}`);
const requestPath = (place: TimeOffPlace, id: string) => orgPath(place.org, `/time-off-requests/${id}`);
const admin = (place: TimeOffPlace, headers: Record<string, string> = {}, body?: unknown) => ({
  token: place.org.adminToken,
  headers,
  body,
});

async function pendingRequest(place: TimeOffPlace) {
  await setBalance(place, 40);
  const created = await createRequest(place, requestBody(place));
  expect(created.status, created.text).toBe(201);
  return created;
}

describe("time-off ETags and If-Match", () => {
  it("GET /policies/{policy_id} answers an ETag and 304 to If-None-Match while the policy is that version", async () => {
    const place = await createTimeOffPlace();
    const read = await api("GET", policyPath(place), admin(place));
    expect(read.status).toBe(200);
    const tag = read.headers.get("ETag")!;
    expect(tag).toMatch(/^"\d+"$/);
    expect((await api("GET", policyPath(place), admin(place, { "If-None-Match": tag }))).status).toBe(304);
    expect((await api("PATCH", policyPath(place), admin(place, {}, { name: "Renamed" }))).status).toBe(200);
    expect((await api("GET", policyPath(place), admin(place, { "If-None-Match": tag }))).status).toBe(200);
  });

  it("PATCH /policies/{policy_id} with a stale If-Match answers 412 and writes neither the policy nor a balance", async () => {
    const place = await createTimeOffPlace();
    const stale = (await api("GET", policyPath(place), admin(place))).headers.get("ETag")!;
    const renamed = await api("PATCH", policyPath(place), admin(place, { "If-Match": stale }, { name: "First" }));
    expect(renamed.status).toBe(200);
    const fresh = renamed.headers.get("ETag")!;
    expect(fresh).not.toBe(stale);
    const balance = { name: "Second", workerPolicies: [{ employee: { externalEmployeeId: place.worker.externalId }, hoursBalance: 16 }] };
    const refused = await api("PATCH", policyPath(place), admin(place, { "If-Match": stale }, balance));
    expect(refused.status).toBe(412);
    expect(refused.body.code).toBe("PRECONDITION_FAILED");
    expect((await api("GET", policyPath(place), admin(place))).body.name).toBe("First");
    const worker = await api("GET", orgPath(place.org, `/worker-policies?workerId=${place.worker.id}`), admin(place));
    const row = (worker.body as { id: string; policyId: string }[]).find((w) => w.policyId === place.policy.id)!;
    expect(await ledgerOf(row.id)).toEqual([]);
    const accepted = await api("PATCH", policyPath(place), admin(place, { "If-Match": fresh }, balance));
    expect(accepted.status).toBe(200);
    expect(accepted.body.name).toBe("Second");
  });

  it("PATCH /policies/{policy_id} rejects a malformed If-Match with 400", async () => {
    const place = await createTimeOffPlace();
    const res = await api("PATCH", policyPath(place), admin(place, { "If-Match": "not-a-tag" }, { name: "X" }));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_IF_MATCH");
  });

  it("GET /time-off-requests/{id} answers the request's ETag and 304 to If-None-Match", async () => {
    const place = await createTimeOffPlace();
    const created = await pendingRequest(place);
    const tag = created.headers.get("ETag")!;
    expect(tag).toMatch(/^"\d+"$/);
    const read = await api("GET", requestPath(place, created.body.id), { token: place.workerToken });
    expect(read.headers.get("ETag")).toBe(tag);
    expect(
      (await api("GET", requestPath(place, created.body.id), { token: place.workerToken, headers: { "If-None-Match": tag } })).status,
    ).toBe(304);
  });

  it("PUT /time-off-requests/{id} with a stale If-Match answers 412 and keeps the request", async () => {
    const place = await createTimeOffPlace();
    const created = await pendingRequest(place);
    const stale = created.headers.get("ETag")!;
    const first = await api(
      "PUT",
      requestPath(place, created.body.id),
      admin(place, { "If-Match": stale }, requestBody(place, dayFromToday(9))),
    );
    expect(first.status, first.text).toBe(200);
    const refused = await api(
      "PUT",
      requestPath(place, created.body.id),
      admin(place, { "If-Match": stale }, requestBody(place, dayFromToday(11))),
    );
    expect(refused.status).toBe(412);
    expect(refused.body.code).toBe("PRECONDITION_FAILED");
    const read = await api("GET", requestPath(place, created.body.id), admin(place));
    expect(read.body.startTime).toBe(first.body.startTime);
    const fresh = await api(
      "PUT",
      requestPath(place, created.body.id),
      admin(place, { "If-Match": first.headers.get("ETag")! }, requestBody(place, dayFromToday(11))),
    );
    expect(fresh.status).toBe(200);
    expect(fresh.body.startTime).not.toBe(first.body.startTime);
  });

  it("DELETE /time-off-requests/{id} with a stale If-Match answers 412 and does not cancel", async () => {
    const place = await createTimeOffPlace();
    const created = await pendingRequest(place);
    const stale = created.headers.get("ETag")!;
    expect((await api("PUT", requestPath(place, created.body.id), admin(place, {}, requestBody(place, dayFromToday(9))))).status).toBe(200);
    const refused = await api("DELETE", requestPath(place, created.body.id), admin(place, { "If-Match": stale }));
    expect(refused.status).toBe(412);
    expect((await api("GET", requestPath(place, created.body.id), admin(place))).body.status).toBe("pending");
    const cancelled = await api("DELETE", requestPath(place, created.body.id), admin(place, { "If-Match": "*" }));
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe("cancelled");
  });
});
