import { describe, expect, it } from "vitest";
import { api } from "../helpers/api";
import { requestWithInterference } from "../helpers/interfering-d1";
import { createOpenShift, createSchedulePlace } from "../helpers/schedules";
import { tenantDb } from "../helpers/shards";
import { createRequest, createTimeOffPlace, dayFromToday, orgPath, requestBody, setBalance, type TimeOffPlace } from "../helpers/time-off";

const policyPath = (place: TimeOffPlace) => orgPath(place.org, `/policies/${place.policy.id}`);
const POLICY_UPDATE = /^update "time_off_policies"/i;

/** Every worker-policy row and ledger entry of the place's policy. */
async function balancesOf(place: TimeOffPlace) {
  const rows = await tenantDb()
    .prepare(
      `SELECT wp.worker_id, wp.is_included, wp.updated_at, l.kind, l.hours FROM worker_policies wp
       LEFT JOIN time_off_ledger l ON l.worker_policy_id = wp.id WHERE wp.policy_id = ? ORDER BY wp.worker_id, l.rowid`,
    )
    .bind(place.policy.id)
    .all();
  return rows.results;
}

const requestPath = (place: TimeOffPlace, id: string) => orgPath(place.org, `/time-off-requests/${id}`);

/** The worker's worker-policy rows (with updated_at, which touchBalance moves) and their ledger entries. */
async function workerPoliciesOf(place: TimeOffPlace) {
  const rows = await tenantDb()
    .prepare(
      `SELECT wp.id, wp.policy_id, wp.updated_at, (SELECT COUNT(*) FROM time_off_ledger l WHERE l.worker_policy_id = wp.id) AS entries
       FROM worker_policies wp WHERE wp.worker_id = ? ORDER BY wp.id`,
    )
    .bind(place.worker.id)
    .all();
  return rows.results;
}

/** A concurrent write of the request straight in D1: a new version, and another status when told. */
const bumpRequest = (id: string, status?: string) =>
  tenantDb()
    .prepare("UPDATE time_off_requests SET status = COALESCE(?1, status), updated_at = updated_at + 5 WHERE id = ?2")
    .bind(status ?? null, id)
    .run();

const rename = (place: TimeOffPlace, name: string) =>
  tenantDb().prepare("UPDATE time_off_policies SET name = ?1, updated_at = updated_at + 5 WHERE id = ?2").bind(name, place.policy.id).run();

const deletePolicy = (place: TimeOffPlace) =>
  tenantDb().prepare("UPDATE time_off_policies SET deleted_at = ?1, updated_at = ?1 WHERE id = ?2").bind(Date.now(), place.policy.id).run();

const balanceBody = (place: TimeOffPlace, extra: Record<string, unknown> = {}) => ({
  ...extra,
  workerPolicies: [{ employee: { externalEmployeeId: place.worker.externalId }, isIncluded: false, hoursBalance: 24 }],
});

describe("precondition guard", () => {
  it("PATCH /policies/{policy_id} whose If-Match version is overtaken before its batch answers 412 and writes no balance", async () => {
    const place = await createTimeOffPlace();
    const tag = (await api("GET", policyPath(place), { token: place.org.adminToken })).headers.get("ETag")!;
    const before = await balancesOf(place);
    const res = await requestWithInterference(
      "PATCH",
      policyPath(place),
      { token: place.org.adminToken, headers: { "If-Match": tag }, body: balanceBody(place, { name: "Mine" }) },
      { before: POLICY_UPDATE, meanwhile: () => rename(place, "Theirs") },
    );
    expect(res.status).toBe(412);
    expect(res.body.code).toBe("PRECONDITION_FAILED");
    expect(await balancesOf(place)).toEqual(before);
    expect((await api("GET", policyPath(place), { token: place.org.adminToken })).body.name).toBe("Theirs");
  });

  it("PATCH /policies/{policy_id} whose policy is deleted before its batch answers 404 and writes no balance", async () => {
    const place = await createTimeOffPlace();
    const before = await balancesOf(place);
    const res = await requestWithInterference(
      "PATCH",
      policyPath(place),
      { token: place.org.adminToken, body: balanceBody(place) },
      { before: POLICY_UPDATE, meanwhile: () => deletePolicy(place) },
    );
    expect(res.status).toBe(404);
    expect(await balancesOf(place)).toEqual(before);
  });

  it("PATCH /policies/{policy_id} with a current If-Match passes the guard and writes the balance", async () => {
    const place = await createTimeOffPlace();
    const tag = (await api("GET", policyPath(place), { token: place.org.adminToken })).headers.get("ETag")!;
    const res = await api("PATCH", policyPath(place), {
      token: place.org.adminToken,
      headers: { "If-Match": tag },
      body: balanceBody(place),
    });
    expect(res.status).toBe(200);
    const rows = await balancesOf(place);
    expect(rows.filter((r) => r.worker_id === place.worker.id && r.kind === "adjustment").map((r) => r.hours)).toEqual([24]);
  });

  it("PUT /time-off-requests/{id} whose If-Match version is overtaken before its batch answers 412 and touches no balance", async () => {
    const place = await createTimeOffPlace();
    await setBalance(place, 40);
    const created = await createRequest(place, requestBody(place));
    expect(created.status, created.text).toBe(201);
    const before = await workerPoliciesOf(place);
    const res = await requestWithInterference(
      "PUT",
      requestPath(place, created.body.id),
      { token: place.org.adminToken, headers: { "If-Match": created.headers.get("ETag")! }, body: requestBody(place, dayFromToday(9)) },
      { before: /^UPDATE time_off_requests/i, meanwhile: () => bumpRequest(created.body.id) },
    );
    expect(res.status).toBe(412);
    expect(res.body.code).toBe("PRECONDITION_FAILED");
    expect(await workerPoliciesOf(place)).toEqual(before);
  });

  it("PUT /time-off-requests/{id} whose request is approved before its batch answers 409 and touches no balance", async () => {
    const place = await createTimeOffPlace();
    await setBalance(place, 40);
    const created = await createRequest(place, requestBody(place));
    const before = await workerPoliciesOf(place);
    const res = await requestWithInterference(
      "PUT",
      requestPath(place, created.body.id),
      { token: place.org.adminToken, body: requestBody(place, dayFromToday(9)) },
      { before: /^UPDATE time_off_requests/i, meanwhile: () => bumpRequest(created.body.id, "approved") },
    );
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("REQUEST_NOT_PENDING");
    expect(await workerPoliciesOf(place)).toEqual(before);
  });

  it("DELETE /time-off-requests/{id} whose If-Match version is overtaken before its batch answers 412 and touches no balance", async () => {
    const place = await createTimeOffPlace();
    await setBalance(place, 40);
    const created = await createRequest(place, requestBody(place));
    const before = await workerPoliciesOf(place);
    const res = await requestWithInterference(
      "DELETE",
      requestPath(place, created.body.id),
      { token: place.org.adminToken, headers: { "If-Match": created.headers.get("ETag")! } },
      { before: /^UPDATE time_off_requests/i, meanwhile: () => bumpRequest(created.body.id) },
    );
    expect(res.status).toBe(412);
    expect(await workerPoliciesOf(place)).toEqual(before);
    expect((await api("GET", requestPath(place, created.body.id), { token: place.org.adminToken })).body.status).toBe("pending");
  });

  it("PATCH /open-shifts/{id} whose If-Match version is overtaken before its batch answers 412 and creates no role", async () => {
    const p = await createSchedulePlace();
    const shift = await createOpenShift(p);
    const path = `${p.base}/open-shifts/${shift.id}`;
    const tag = (await api("GET", path, { token: p.org.adminToken })).headers.get("ETag")!;
    const roleName = `Porter ${crypto.randomUUID()}`;
    const res = await requestWithInterference(
      "PATCH",
      path,
      { token: p.org.adminToken, headers: { "If-Match": tag }, body: { roleName } },
      {
        before: /^update "open_shifts"/i,
        meanwhile: () => tenantDb().prepare("UPDATE open_shifts SET updated_at = updated_at + 5 WHERE id = ?").bind(shift.id).run(),
      },
    );
    expect(res.status).toBe(412);
    expect(
      await tenantDb()
        .prepare("SELECT id FROM roles WHERE organization_id = ? AND name = ?")
        .bind(p.org.id, roleName)
        .all()
        .then((r) => r.results),
    ).toEqual([]);
  });

  it("PATCH /open-shifts/{id} whose open shift is deleted before its batch answers 404 and creates no role", async () => {
    const p = await createSchedulePlace();
    const shift = await createOpenShift(p);
    const roleName = `Porter ${crypto.randomUUID()}`;
    const res = await requestWithInterference(
      "PATCH",
      `${p.base}/open-shifts/${shift.id}`,
      { token: p.org.adminToken, body: { roleName } },
      {
        before: /^update "open_shifts"/i,
        meanwhile: () =>
          tenantDb().prepare("UPDATE open_shifts SET deleted_at = ?1, updated_at = ?1 WHERE id = ?2").bind(Date.now(), shift.id).run(),
      },
    );
    expect(res.status).toBe(404);
    expect(
      await tenantDb()
        .prepare("SELECT id FROM roles WHERE organization_id = ? AND name = ?")
        .bind(p.org.id, roleName)
        .all()
        .then((r) => r.results),
    ).toEqual([]);
  });
});
