import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { runAccrualPass } from "@/jobs/accrual-pass";
import { api } from "../../helpers/api";
import { createOrganization } from "../../helpers/fixtures";
import { operatorMove, otherShard, shardOf, tenantDb } from "../../helpers/shards";
import { createTimeOffPlace, simulateSince } from "../../helpers/time-off";

const auditLog = (org: { id: string; adminToken: string }, query: string) =>
  api("GET", `/api/organizations/${org.id}/audit-log?${query}`, { token: org.adminToken });

const feed = async (org: { id: string; adminToken: string }, type: string) =>
  (
    (await api("GET", `/api/organizations/${org.id}/events?limit=500`, { token: org.adminToken })).body as {
      id: string;
      type: string;
      data: unknown;
    }[]
  ).filter((e) => e.type === type);

const weekly = {
  limitSettings: {
    isFixedAmount: true,
    fixedAmount: { hours: 2, accrualCycle: "Periodic", accrualFrequency: "EveryOneWeek", accrualDay: "Monday" },
  },
};

describe("the audit log of writes with no request's principal behind them", () => {
  it("the accrual pass: one SYSTEM accrual-pass entry per policy and pass that wrote entries, none for a re-run", async () => {
    const place = await createTimeOffPlace(weekly);
    await simulateSince(place, "2030-01-01T00:00:00Z");
    const pass = (iso: string) => runAccrualPass(createDatabase(tenantDb()), new Date(iso));

    await pass("2030-01-14T10:00:00Z");
    // The worker's two Mondays since 1 January 2030 (7 and 14 January), 2 h each.
    const first = await feed(place.org, "time_off_policy.accrued");
    expect(first.map((e) => e.data)).toEqual([{ id: place.policy.id, entries: 2, hours: 4 }]);
    const entries = await auditLog(place.org, "actorId=accrual-pass");
    expect(entries.status).toBe(200);
    expect(entries.body).toEqual([
      expect.objectContaining({
        id: first[0]!.id,
        actor: { type: "SYSTEM", id: "accrual-pass", deviceId: null },
        operationId: null,
        eventType: "time_off_policy.accrued",
        resourceType: "time_off_policy",
        resourceId: place.policy.id,
        ipCountry: null,
        before: null,
        after: null,
      }),
    ]);

    // The same day again, and the same instant again: nothing due, nothing written, nothing recorded.
    await pass("2030-01-14T10:30:00Z");
    await tenantDb().prepare("UPDATE worker_policies SET accrued_through = NULL WHERE policy_id = ?").bind(place.policy.id).run();
    await pass("2030-01-14T10:30:00Z");
    expect(await feed(place.org, "time_off_policy.accrued")).toHaveLength(1);
    expect((await auditLog(place.org, "actorId=accrual-pass")).body).toHaveLength(1);

    // A week later: one more Monday, one more entry.
    await pass("2030-01-21T10:00:00Z");
    expect((await feed(place.org, "time_off_policy.accrued")).map((e) => e.data)).toEqual([
      { id: place.policy.id, entries: 2, hours: 4 },
      { id: place.policy.id, entries: 1, hours: 2 },
    ]);
    expect((await auditLog(place.org, "actorId=accrual-pass")).body).toHaveLength(2);
  });

  it("the operator's move between shards: an OPERATOR entry on the organization, once, where it now lives", async () => {
    const org = await createOrganization();
    const target = otherShard(await shardOf(org.id));
    let state = (await operatorMove(org.id, { to: target, pages: 200, settleSeconds: 0 })).body;
    for (let i = 0; !state.finished && i < 100; i++) state = (await operatorMove(org.id, { pages: 200, settleSeconds: 0 })).body;
    expect(state).toMatchObject({ step: "done", target });

    const moved = await feed(org, "organization.moved");
    const organization = await api("GET", `/api/organizations/${org.id}`, { token: org.adminToken });
    expect(moved.map((e) => e.data)).toEqual([organization.body]);
    const entries = await auditLog(org, "actorId=operator");
    expect(entries.status).toBe(200);
    expect(entries.body).toEqual([
      expect.objectContaining({
        id: moved[0]!.id,
        actor: { type: "OPERATOR", id: "operator", deviceId: null },
        operationId: null,
        eventType: "organization.moved",
        resourceType: "organization",
        resourceId: org.id,
        ipCountry: null,
      }),
    ]);
    // A call after the move's end records nothing more.
    await operatorMove(org.id, { pages: 200, settleSeconds: 0 });
    expect((await auditLog(org, "actorId=operator")).body).toHaveLength(1);
  });
});
