import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { shardBinding } from "@/data/shards";
import { runAccrualPass } from "@/jobs/accrual-pass";
import { deliverPending, LEASE_MS } from "@/jobs/webhook-delivery";
import { api } from "../helpers/api";
import { createOrganization } from "../helpers/fixtures";
import { createLocation } from "../helpers/locations";
import { shardOf } from "../helpers/shards";
import { balanceOf, createTimeOffPlace, ledgerOf, simulateSince } from "../helpers/time-off";

/** Freezes the organization on its shard as a move's first step does; answers the unfreeze. */
async function freeze(organizationId: string) {
  const db = shardBinding(env, await shardOf(organizationId));
  await db
    .prepare("INSERT INTO organization_freezes (organization_id, moving_to, started_at) VALUES (?, 'ELSEWHERE', ?)")
    .bind(organizationId, Date.now())
    .run();
  return { db, unfreeze: () => db.prepare("DELETE FROM organization_freezes WHERE organization_id = ?").bind(organizationId).run() };
}

const weekly = {
  limitSettings: {
    isFixedAmount: true,
    fixedAmount: { hours: 2, accrualCycle: "Periodic", accrualFrequency: "EveryOneWeek", accrualDay: "Monday" },
  },
};

describe("writers outside requests skip a frozen organization", () => {
  it("the accrual pass writes nothing for it, and catches up once it is unfrozen", async () => {
    const place = await createTimeOffPlace(weekly);
    const { db, unfreeze } = await freeze(place.org.id);
    await simulateSince(place, "2030-01-01T00:00:00Z", db);
    const ledger = () =>
      db
        .prepare("SELECT COUNT(*) AS n FROM time_off_ledger WHERE organization_id = ? AND kind = 'accrual'")
        .bind(place.org.id)
        .first<number>("n");
    await runAccrualPass(createDatabase(db), new Date("2030-01-14T10:00:00Z"));
    expect(await ledger()).toBe(0);
    await unfreeze();
    await runAccrualPass(createDatabase(db), new Date("2030-01-14T10:00:00Z"));
    expect(await ledger()).toBe(2);
    expect((await ledgerOf((await balanceOf(place)).id)).filter((e) => e.kind === "accrual")).toHaveLength(2);
  });

  it("webhook delivery sends nothing and records nothing for it, and asks to come back", async () => {
    const org = await createOrganization();
    const hook = await api("POST", `/api/organizations/${org.id}/webhooks`, {
      token: org.adminToken,
      body: { url: "https://hooks.example.com/in" },
    });
    expect(hook.status).toBe(201);
    await createLocation(org);
    const { db, unfreeze } = await freeze(org.id);
    const sent: Request[] = [];
    const deps = {
      db: createDatabase(db),
      secretKey: env.WEBHOOK_SECRET_KEY,
      fetch: async (request: Request) => (sent.push(request), new Response(null, { status: 204 })),
    };
    const deliveries = () =>
      db.prepare("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE webhook_id = ?").bind(hook.body.id).first<number>("n");
    expect(await deliverPending(deps, hook.body.id)).toEqual({ retryInSeconds: LEASE_MS / 1000 });
    expect(sent).toHaveLength(0);
    expect(await deliveries()).toBe(0);
    await unfreeze();
    expect(await deliverPending(deps, hook.body.id)).toEqual({});
    expect(sent.length).toBeGreaterThan(0);
    expect(await deliveries()).toBe(sent.length);
  });

  it("webhook delivery refused by a freeze comes back only once a lease the move copied has lapsed, and then delivers", async () => {
    const org = await createOrganization();
    const hook = await api("POST", `/api/organizations/${org.id}/webhooks`, {
      token: org.adminToken,
      body: { url: "https://hooks.example.com/in" },
    });
    expect(hook.status).toBe(201);
    await createLocation(org);
    const refusedAt = Date.now();
    const { db, unfreeze } = await freeze(org.id);
    // A wake-up claimed the endpoint just before the freeze: its lease is in the row the move copies to the target.
    await db
      .prepare("UPDATE webhooks SET delivery_lease = 'before-the-freeze', delivering_until = ? WHERE id = ?")
      .bind(refusedAt + LEASE_MS, hook.body.id)
      .run();
    const sent: Request[] = [];
    const at = (time: number) => ({
      db: createDatabase(db),
      secretKey: env.WEBHOOK_SECRET_KEY,
      now: () => new Date(time),
      fetch: async (request: Request) => (sent.push(request), new Response(null, { status: 204 })),
    });
    const { retryInSeconds } = await deliverPending(at(refusedAt), hook.body.id);
    expect(retryInSeconds).toBeGreaterThanOrEqual(LEASE_MS / 1000);
    // The retried wake-up, on the shard the organization now lives on (no freeze there).
    await unfreeze();
    expect(await deliverPending(at(refusedAt + retryInSeconds! * 1000), hook.body.id)).toEqual({});
    expect(sent.length).toBeGreaterThan(0);
  });
});
