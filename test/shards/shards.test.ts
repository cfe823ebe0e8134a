import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  env,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { app } from "@/app";
import { createDatabase } from "@/data/client";
import { eventStatement } from "@/data/outbox/outbox";
import type { WakeUp } from "@/data/outbox/wake";
import { shardBinding, shardOfOrganization } from "@/data/shards";
import { encodeIdCursor } from "@/platform/http/pagination";
import worker from "@/worker";
import { api } from "../helpers/api";
import { createOrganization, unique } from "../helpers/fixtures";
import { requestWithInterference } from "../helpers/interfering-d1";
import { expectInvalid } from "../helpers/problems";
import { directoryDb, insertOrganization, shardOf, tenantDb } from "../helpers/shards";
import { accessToken, DEV_PARTNER, partnerToken } from "../helpers/tokens";
import { insertEndpoint } from "../helpers/webhooks";

const count = async (db: D1Database, sql: string, ...values: unknown[]) =>
  (await db
    .prepare(sql)
    .bind(...values)
    .first<{ n: number }>())!.n;

const directoryEntries = (partnerId: string) =>
  count(directoryDb(), "SELECT COUNT(*) AS n FROM organization_directory WHERE partner_id = ?", partnerId);

/** An organization on DB, as one created before sharding or moved there, with an admin token. */
async function organizationOnDb(fields: { externalId?: string; id?: string } = {}) {
  const id = await insertOrganization("DB", { partnerId: DEV_PARTNER, name: unique("OnDb"), ...fields });
  return { id, adminToken: await accessToken({ organizationId: id }) };
}

describe("organizations live on their shard", () => {
  it("an organization created through the API is on DB_SHARD_2, its directory entry on DB", async () => {
    const org = await createOrganization();
    expect(await shardOf(org.id)).toBe("DB_SHARD_2");
    for (const table of ["organizations"]) {
      expect(await count(tenantDb(), `SELECT COUNT(*) AS n FROM ${table} WHERE id = ?`, org.id)).toBe(1);
      expect(await count(env.DB, `SELECT COUNT(*) AS n FROM ${table} WHERE id = ?`, org.id)).toBe(0);
    }
    for (const table of ["access_roles", "roles", "policy_types", "time_off_settings"]) {
      expect(await count(tenantDb(), `SELECT COUNT(*) AS n FROM ${table} WHERE organization_id = ?`, org.id), table).toBeGreaterThan(0);
      expect(await count(env.DB, `SELECT COUNT(*) AS n FROM ${table} WHERE organization_id = ?`, org.id), table).toBe(0);
    }
    expect(await count(tenantDb(), "SELECT COUNT(*) AS n FROM organization_directory WHERE organization_id = ?", org.id)).toBe(0);
    const created = await api("POST", `/api/organizations/${org.id}/roles`, { token: org.adminToken, body: { name: "Barista" } });
    expect(created.status).toBe(201);
    expect(await count(tenantDb(), "SELECT COUNT(*) AS n FROM roles WHERE id = ?", created.body.id)).toBe(1);
    expect(await count(env.DB, "SELECT COUNT(*) AS n FROM roles WHERE id = ?", created.body.id)).toBe(0);
    expect(created.headers.get("X-D1-Bookmark")).toMatch(/^DB_SHARD_2:/);
  });

  it("an organization on DB and one on DB_SHARD_2 each answer their own token and are 404 to the other's", async () => {
    const onDb = await organizationOnDb();
    const onShard = await createOrganization();
    for (const [own, other] of [
      [onDb, onShard],
      [onShard, onDb],
    ] as const) {
      const read = await api("GET", `/api/organizations/${own.id}`, { token: own.adminToken });
      expect(read.status).toBe(200);
      expect(read.body.id).toBe(own.id);
      const created = await api("POST", `/api/organizations/${own.id}/roles`, { token: own.adminToken, body: { name: "Cook" } });
      expect(created.status).toBe(201);
      const listed = await api("GET", `/api/organizations/${own.id}/roles`, { token: own.adminToken });
      expect(listed.body.map((r: { id: string }) => r.id)).toContain(created.body.id);
      for (const path of [
        `/api/organizations/${other.id}`,
        `/api/organizations/${other.id}/roles`,
        `/api/organizations/${other.id}/roles/${created.body.id}`,
      ]) {
        const refused = await api("GET", path, { token: own.adminToken });
        expect(refused.status, path).toBe(404);
      }
      const foreign = await api("GET", `/api/organizations/${other.id}/roles/${created.body.id}`, { token: other.adminToken });
      expect(foreign.status).toBe(404);
    }
    expect(await count(env.DB, "SELECT COUNT(*) AS n FROM roles WHERE organization_id = ?", onDb.id)).toBe(1);
    expect(await count(tenantDb(), "SELECT COUNT(*) AS n FROM roles WHERE organization_id = ?", onDb.id)).toBe(0);
  });

  it("a partner token reads, updates and deletes organizations on either shard, by id and by externalId", async () => {
    const partner = await accessToken();
    const onDb = await organizationOnDb({ externalId: unique("ext-db") });
    const onShard = await createOrganization({ externalId: unique("ext-2") });
    for (const org of [onDb, onShard]) {
      const read = await api("GET", `/api/organizations/${org.id}`, { token: partner });
      expect(read.status).toBe(200);
      const byExternal = await api("GET", `/api/organizations/external/${read.body.externalId}`, { token: partner });
      expect(byExternal.body.id).toBe(org.id);
      const renamed = await api("PATCH", `/api/organizations/${org.id}`, { token: partner, body: { name: "Renamed" } });
      expect(renamed.status).toBe(200);
      expect(renamed.headers.get("X-D1-Bookmark")).toMatch(new RegExp(`^${await shardOf(org.id)}:`));
      const deleted = await api("DELETE", `/api/organizations/external/${read.body.externalId}`, { token: partner });
      expect(deleted.status).toBe(200);
      expect((await api("GET", `/api/organizations/${org.id}`, { token: partner })).status).toBe(404);
      // The directory keeps a deleted organization's entry.
      expect(await shardOf(org.id)).toBe(org === onDb ? "DB" : "DB_SHARD_2");
    }
  });
});

describe("a partner-level token acting on one organization (?organizationId=) runs on its shard", () => {
  it("reads the timesheets of an organization on DB and of one on DB_SHARD_2; another partner's is 404", async () => {
    const partner = await accessToken();
    for (const org of [await organizationOnDb(), await createOrganization()]) {
      const res = await api("GET", `/api/timesheets?startDate=2026-03-01&endDate=2026-03-31&organizationId=${org.id}`, { token: partner });
      expect(res.status).toBe(200);
      expect(res.headers.get("X-D1-Bookmark")).toMatch(new RegExp(`^${await shardOf(org.id)}:`));
    }
    const theirs = await insertOrganization("DB", { partnerId: "other-partner" });
    const refused = await api("GET", `/api/timesheets?startDate=2026-03-01&endDate=2026-03-31&organizationId=${theirs}`, {
      token: partner,
    });
    expect(refused.status).toBe(404);
    expect(refused.body.code).toBe("ORGANIZATION_NOT_FOUND");
  });
});

describe("a partner's listing reads the directory, then the shards", () => {
  it("lists organizations of both shards in id order, page by page, skipping deleted ones", async () => {
    const prefix = `zz${crypto.randomUUID().replaceAll("-", "")}`;
    const placed: [string, string, boolean?][] = [
      ["1", "DB"],
      ["2", "DB_SHARD_2"],
      ["3", "DB"],
      ["3b", "DB_SHARD_2", true],
      ["4", "DB_SHARD_2"],
      ["5", "DB"],
      ["6", "DB_SHARD_2"],
    ];
    for (const [suffix, shard, deleted] of placed) {
      const id = `${prefix}-${suffix}`;
      await insertOrganization(shard, { id, partnerId: DEV_PARTNER });
      if (deleted)
        await shardBinding(env, shard).prepare("UPDATE organizations SET deleted_at = ? WHERE id = ?").bind(Date.now(), id).run();
    }
    const partner = await accessToken();
    const pages: string[][] = [];
    let path = `/api/organizations?limit=2&cursor=${encodeIdCursor(`${prefix}-0`)}`;
    for (let i = 0; i < 3; i++) {
      const res = await api("GET", path, { token: partner });
      expect(res.status).toBe(200);
      pages.push(res.body.map((o: { id: string }) => o.id.slice(prefix.length + 1)));
      path = /<([^>]+)>; rel="next"/.exec(res.headers.get("Link") ?? "")?.[1] ?? "";
      if (!path) break;
    }
    expect(pages[0]).toEqual(["1", "2"]);
    expect(pages[1]).toEqual(["3", "4"]);
    expect(pages[2]!.slice(0, 2)).toEqual(["5", "6"]);
    const withDeleted = await api("GET", `/api/organizations?limit=3&includeDeleted=true&cursor=${encodeIdCursor(`${prefix}-2`)}`, {
      token: partner,
    });
    expect(withDeleted.body.map((o: { id: string }) => o.id.slice(prefix.length + 1))).toEqual(["3", "3b", "4"]);
  });

  it("an organization token lists only its own organization, on its shard", async () => {
    const org = await organizationOnDb();
    const res = await api("GET", "/api/organizations", { token: org.adminToken });
    expect(res.status).toBe(200);
    expect(res.body.map((o: { id: string }) => o.id)).toEqual([org.id]);
  });

  it("a malformed cursor is still a 400", async () => {
    const res = await api("GET", "/api/organizations?cursor=%21%21", { token: await accessToken() });
    expectInvalid(res, ["cursor"]);
  });
});

describe("externalId is unique per partner across shards", () => {
  it("creating with an externalId taken on the other shard is 409 and leaves no organization and no second entry", async () => {
    const externalId = unique("taken");
    await organizationOnDb({ externalId });
    const entries = await directoryEntries(DEV_PARTNER);
    const name = unique("Second");
    for (const path of ["/api/organizations", "/api/organizations/with-defaults"]) {
      const res = await api("POST", path, { token: await accessToken(), body: { name, externalId } });
      expect(res.status, path).toBe(409);
      expect(res.body.code).toBe("EXTERNAL_ID_TAKEN");
    }
    expect(await directoryEntries(DEV_PARTNER)).toBe(entries);
    expect(await count(tenantDb(), "SELECT COUNT(*) AS n FROM organizations WHERE name = ?", name)).toBe(0);
  });

  it("a PATCH to an externalId taken on the other shard is 409; a free one moves the directory's copy too", async () => {
    const partner = await accessToken();
    const taken = unique("taken");
    const onDb = await organizationOnDb({ externalId: taken });
    const onShard = await createOrganization({ externalId: unique("mine") });
    const refused = await api("PATCH", `/api/organizations/${onShard.id}`, { token: partner, body: { externalId: taken } });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("EXTERNAL_ID_TAKEN");
    const fresh = unique("fresh");
    for (const org of [onShard, onDb]) {
      const externalId = `${fresh}-${org === onDb ? "db" : "2"}`;
      const res = await api("PATCH", `/api/organizations/${org.id}`, { token: org.adminToken, body: { externalId } });
      expect(res.status).toBe(200);
      expect(res.body.externalId).toBe(externalId);
      const entry = await directoryDb()
        .prepare("SELECT external_id FROM organization_directory WHERE organization_id = ?")
        .bind(org.id)
        .first<{ external_id: string }>();
      expect(entry!.external_id).toBe(externalId);
      expect((await api("GET", `/api/organizations/external/${externalId}`, { token: partner })).body.id).toBe(org.id);
    }
    // The old externalId is free again, on either shard.
    expect((await api("POST", "/api/organizations", { token: partner, body: { name: "Reuse", externalId: taken } })).status).toBe(201);
  });

  it("a PATCH of an organization on DB_SHARD_2 whose shard write fails puts the directory's externalId back", async () => {
    const partner = await accessToken();
    const before = unique("before");
    const org = await createOrganization({ externalId: before });
    const res = await api("PATCH", `/api/organizations/${org.id}`, {
      token: partner,
      body: { externalId: unique("after") },
      headers: { "If-Match": '"1"' },
    });
    expect(res.status).toBe(412);
    const entry = await directoryDb()
      .prepare("SELECT external_id FROM organization_directory WHERE organization_id = ?")
      .bind(org.id)
      .first<{ external_id: string }>();
    expect(entry!.external_id).toBe(before);
  });

  it("two renames of one organization racing each other leave the directory on the row's externalId", async () => {
    const partner = await accessToken();
    const org = await createOrganization({ externalId: unique("start") });
    const [first, second] = [unique("first"), unique("second")];
    // The first rename has claimed its value in the directory; the second runs whole before the first's shard write.
    const res = await requestWithInterference(
      "PATCH",
      `/api/organizations/${org.id}`,
      { token: partner, body: { externalId: first } },
      {
        before: /^update "organizations"/i,
        meanwhile: async () =>
          expect((await api("PATCH", `/api/organizations/${org.id}`, { token: partner, body: { externalId: second } })).status).toBe(200),
      },
    );
    expect(res.status).toBe(200);
    const row = await tenantDb().prepare("SELECT external_id FROM organizations WHERE id = ?").bind(org.id).first<string>("external_id");
    const entry = await directoryDb()
      .prepare("SELECT external_id FROM organization_directory WHERE organization_id = ?")
      .bind(org.id)
      .first<string>("external_id");
    expect(row).toBe(first);
    expect(entry).toBe(first);
    expect((await api("GET", `/api/organizations/external/${first}`, { token: partner })).body.id).toBe(org.id);
  });

  it("a create whose shard batch fails removes its directory entry again", async () => {
    const name = unique("Boom");
    const trigger = `refuse_${name.replace(/\W/g, "_")}`;
    await tenantDb()
      .prepare(
        `CREATE TRIGGER ${trigger} BEFORE INSERT ON organizations WHEN NEW.name = '${name}' BEGIN SELECT RAISE(ABORT, 'refused'); END`,
      )
      .run();
    try {
      const entries = await directoryEntries(DEV_PARTNER);
      const res = await api("POST", "/api/organizations", { token: await accessToken(), body: { name, externalId: unique("boom") } });
      expect(res.status).toBe(500);
      expect(await directoryEntries(DEV_PARTNER)).toBe(entries);
    } finally {
      await tenantDb().prepare(`DROP TRIGGER ${trigger}`).run();
    }
  });

  it("a create whose shard batch committed but whose answer was lost keeps its directory entry", async () => {
    const real = env.DB_SHARD_2;
    const answerLost = {
      withSession: (anchor?: string) => {
        const session = real.withSession(anchor);
        return {
          prepare: (sql: string) => session.prepare(sql),
          batch: async (statements: D1PreparedStatement[]) => {
            await session.batch(statements);
            throw new Error("Network connection lost.");
          },
          getBookmark: () => session.getBookmark(),
        };
      },
      prepare: (sql: string) => real.prepare(sql),
    };
    const externalId = unique("lost");
    const init = {
      method: "POST",
      headers: { Authorization: `Bearer ${await accessToken()}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Lost answer", externalId }),
    };
    const res = await app.request("http://shiftline.test/api/organizations", init, { ...env, DB_SHARD_2: answerLost });
    expect(res.status).toBe(500);
    const entry = await directoryDb()
      .prepare("SELECT organization_id, shard FROM organization_directory WHERE partner_id = ? AND external_id = ?")
      .bind(DEV_PARTNER, externalId)
      .first<{ organization_id: string; shard: string }>();
    expect(entry?.shard).toBe("DB_SHARD_2");
    expect(await count(tenantDb(), "SELECT COUNT(*) AS n FROM organizations WHERE id = ?", entry!.organization_id)).toBe(1);
  });
});

describe("the directory read on a replica", () => {
  it("falls back to the primary for an organization the replica does not know yet (created a moment ago)", async () => {
    const org = await createOrganization();
    const anchors: string[] = [];
    const lagging = {
      withSession: (anchor: string) => {
        anchors.push(anchor);
        const session = env.DB.withSession(anchor);
        // The replica has not received the entry yet; the primary has.
        return anchor === "first-primary" ? session : { prepare: () => ({ bind: () => ({ first: async () => null }) }) };
      },
    } as unknown as D1Database;
    expect(await shardOfOrganization({ ...env, DB: lagging }, org.id, "first-unconstrained")).toBe("DB_SHARD_2");
    expect(anchors).toEqual(["first-unconstrained", "first-primary"]);
  });
});

describe("the token exchange finds the organization through the directory", () => {
  it("exchanges tokens for organizations on either shard, and refuses another partner's", async () => {
    const onDb = await organizationOnDb();
    const onShard = await createOrganization();
    for (const id of [onDb.id, onShard.id]) {
      const res = await api("POST", "/api/auth/exchangeToken", { body: { token: await partnerToken({ organizationId: id }) } });
      expect(res.status).toBe(200);
      expect(res.headers.get("X-D1-Bookmark")).toMatch(new RegExp(`^${await shardOf(id)}:`));
    }
    const theirs = await insertOrganization("DB_SHARD_2", { partnerId: "other-partner" });
    const refused = await api("POST", "/api/auth/exchangeToken", { body: { token: await partnerToken({ organizationId: theirs }) } });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("UNKNOWN_ORGANIZATION");
  });
});

describe("work behind no request reaches every shard", () => {
  /** An endpoint with one pending event, on `shard`, that cannot be reached (the consumer then retries it). */
  async function pendingEndpoint(shard: string, organizationId: string) {
    const db = createDatabase(shardBinding(env, shard));
    const { id } = await insertEndpoint(db, organizationId, { url: "http://127.0.0.1:9/hook" });
    await db.batch([eventStatement(db, { type: "location.created", organizationId, data: {} })]);
    return id;
  }

  it("the queue consumer delivers an endpoint's events from its organization's shard", async () => {
    const onDb = await organizationOnDb();
    const onShard = await createOrganization();
    const hooks = { DB: await pendingEndpoint("DB", onDb.id), DB_SHARD_2: await pendingEndpoint("DB_SHARD_2", onShard.id) };
    const batch = createMessageBatch<WakeUp>("shiftline-webhooks", [
      { id: "db", timestamp: new Date(), attempts: 1, body: { webhookId: hooks.DB, organizationId: onDb.id } },
      { id: "shard-2", timestamp: new Date(), attempts: 1, body: { webhookId: hooks.DB_SHARD_2, organizationId: onShard.id } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env);
    const result = await getQueueResult(batch, ctx);
    expect(result.retryMessages.map((m) => m.msgId).sort()).toEqual(["db", "shard-2"]);
    for (const [shard, id] of Object.entries(hooks)) {
      expect(await count(shardBinding(env, shard), "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE webhook_id = ?", id), shard).toBe(1);
    }
  });

  it("the Cron purges expired Idempotency-Key records and wakes pending endpoints on every shard", async () => {
    const onShard = await createOrganization();
    const [partnerKey, organizationKey] = [unique("partner"), unique("org")];
    await api("POST", "/api/organizations", {
      token: await accessToken(),
      body: { name: unique("P") },
      headers: { "Idempotency-Key": partnerKey },
    });
    await api("POST", `/api/organizations/${onShard.id}/roles`, {
      token: onShard.adminToken,
      body: { name: "R" },
      headers: { "Idempotency-Key": organizationKey },
    });
    const keyCount = (db: D1Database, key: string) => count(db, "SELECT COUNT(*) AS n FROM idempotency_keys WHERE key = ?", key);
    expect([await keyCount(env.DB, partnerKey), await keyCount(tenantDb(), organizationKey)]).toEqual([1, 1]);
    await env.DB.prepare("UPDATE idempotency_keys SET expires_at = 0 WHERE key = ?").bind(partnerKey).run();
    await tenantDb().prepare("UPDATE idempotency_keys SET expires_at = 0 WHERE key = ?").bind(organizationKey).run();
    const onDb = await organizationOnDb();
    const hooks = [await pendingEndpoint("DB", onDb.id), await pendingEndpoint("DB_SHARD_2", onShard.id)];
    const woken: WakeUp[] = [];
    const queue = {
      send: async (body: WakeUp) => void woken.push(body),
      sendBatch: async (messages: { body: WakeUp }[]) => void woken.push(...messages.map((m) => m.body)),
    };
    const ctx = createExecutionContext();
    await worker.scheduled(
      createScheduledController({ scheduledTime: new Date(), cron: "*/30 * * * *" }),
      { ...env, WEBHOOK_QUEUE: queue as unknown as Queue },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect([await keyCount(env.DB, partnerKey), await keyCount(tenantDb(), organizationKey)]).toEqual([0, 0]);
    expect(woken).toEqual(
      expect.arrayContaining([
        { webhookId: hooks[0], organizationId: onDb.id },
        { webhookId: hooks[1], organizationId: onShard.id },
      ]),
    );
  });
});

describe("shard configuration", () => {
  const request = (vars: Partial<Env>) =>
    app.request("http://shiftline.test/api/organizations", { headers: { Authorization: "Bearer x" } }, { ...env, ...vars });

  it("a misconfigured SHARDS or NEW_ORGANIZATION_SHARD fails every request loudly", async () => {
    for (const vars of [
      { SHARDS: "DB_SHARD_2,DB" },
      { SHARDS: "DB,DB_SHARD_2,DB" },
      { SHARDS: "DB", NEW_ORGANIZATION_SHARD: "DB_SHARD_2" },
    ]) {
      const res = await request(vars);
      expect(res.status, JSON.stringify(vars)).toBe(500);
    }
  });

  it("a shard that names no D1 binding fails the requests that need it", async () => {
    const org = await createOrganization();
    await env.DB.prepare("UPDATE organization_directory SET shard = 'DB_SHARD_3' WHERE organization_id = ?").bind(org.id).run();
    const res = await app.request(
      `http://shiftline.test/api/organizations/${org.id}`,
      { headers: { Authorization: `Bearer ${org.adminToken}` } },
      { ...env, SHARDS: "DB,DB_SHARD_2,DB_SHARD_3" },
    );
    expect(res.status).toBe(500);
    const unknown = await api("GET", `/api/organizations/${org.id}`, { token: org.adminToken });
    expect(unknown.status).toBe(500);
  });

  it("GET /api/health answers 503 when one shard does not answer", async () => {
    expect((await app.request("http://shiftline.test/api/health", {}, env)).status).toBe(200);
    const res = await app.request("http://shiftline.test/api/health", {}, { ...env, DB_SHARD_2: undefined });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: "degraded", database: "unavailable" });
  });

  it("one shard: every organization is on DB and no request reads the directory", async () => {
    const org = await organizationOnDb();
    await env.DB.prepare("DELETE FROM organization_directory WHERE organization_id = ?").bind(org.id).run();
    const res = await app.request(
      `http://shiftline.test/api/organizations/${org.id}/roles`,
      { headers: { Authorization: `Bearer ${org.adminToken}` } },
      { ...env, SHARDS: "DB", NEW_ORGANIZATION_SHARD: "DB" },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("X-D1-Bookmark")).toMatch(/^DB:/);
  });
});
