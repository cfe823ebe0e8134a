import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api } from "./helpers/api";
import { requestWithInterference } from "./helpers/interfering-d1";
import { createTimeOffPlace, orgPath, type TimeOffPlace } from "./helpers/time-off";

const policyPath = (place: TimeOffPlace) => orgPath(place.org, `/policies/${place.policy.id}`);
const POLICY_UPDATE = /^update "time_off_policies"/i;

/** Every worker-policy row and ledger entry of the place's policy. */
async function balancesOf(place: TimeOffPlace) {
  const rows = await env.DB.prepare(
    `SELECT wp.worker_id, wp.is_included, wp.updated_at, l.kind, l.hours FROM worker_policies wp
       LEFT JOIN time_off_ledger l ON l.worker_policy_id = wp.id WHERE wp.policy_id = ? ORDER BY wp.worker_id, l.rowid`,
  )
    .bind(place.policy.id)
    .all();
  return rows.results;
}

const rename = (place: TimeOffPlace, name: string) =>
  env.DB.prepare("UPDATE time_off_policies SET name = ?1, updated_at = updated_at + 5 WHERE id = ?2").bind(name, place.policy.id).run();

const deletePolicy = (place: TimeOffPlace) =>
  env.DB.prepare("UPDATE time_off_policies SET deleted_at = ?1, updated_at = ?1 WHERE id = ?2").bind(Date.now(), place.policy.id).run();

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
    const res = await api("PATCH", policyPath(place), { token: place.org.adminToken, headers: { "If-Match": tag }, body: balanceBody(place) });
    expect(res.status).toBe(200);
    const rows = await balancesOf(place);
    expect(rows.filter((r) => r.worker_id === place.worker.id && r.kind === "adjustment").map((r) => r.hours)).toEqual([24]);
  });
});
