import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "@/worker";
import { api } from "../helpers/api";
import { unique } from "../helpers/fixtures";
// A partner-level token's keys live on DB, with the directory; the organizations it creates on DB_SHARD_2.
import { directoryDb, tenantDb } from "../helpers/shards";
import { accessToken } from "../helpers/tokens";

const countOrganizationsNamed = async (name: string) =>
  (await tenantDb().prepare("SELECT COUNT(*) AS n FROM organizations WHERE name = ?").bind(name).first<{ n: number }>())!.n;

describe("Idempotency-Key", () => {
  it("replays the first response to a retry and creates nothing twice", async () => {
    const token = await accessToken();
    const name = unique("Idem");
    const key = unique("key");
    const first = await api("POST", "/api/organizations", { token, body: { name }, headers: { "Idempotency-Key": key } });
    const retry = await api("POST", "/api/organizations", { token, body: { name }, headers: { "Idempotency-Key": key } });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await countOrganizationsNamed(name)).toBe(1);
  });

  it("refuses the same key with a different body with 422 IDEMPOTENCY_KEY_REUSED", async () => {
    const token = await accessToken();
    const key = unique("key");
    await api("POST", "/api/organizations", { token, body: { name: unique("A") }, headers: { "Idempotency-Key": key } });
    const other = unique("B");
    const res = await api("POST", "/api/organizations", { token, body: { name: other }, headers: { "Idempotency-Key": key } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("IDEMPOTENCY_KEY_REUSED");
    expect(await countOrganizationsNamed(other)).toBe(0);
  });

  it("answers 409 while the first request with the key is still running", async () => {
    const token = await accessToken();
    const name = unique("Running");
    const key = unique("key");
    const first = await api("POST", "/api/organizations", { token, body: { name }, headers: { "Idempotency-Key": key } });
    await directoryDb().prepare("UPDATE idempotency_keys SET status = NULL WHERE key = ?").bind(key).run();
    const res = await api("POST", "/api/organizations", { token, body: { name }, headers: { "Idempotency-Key": key } });
    expect(first.status).toBe(201);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("IDEMPOTENCY_REQUEST_IN_PROGRESS");
  });

  it("keeps no refused response: a retry after a 400 is judged afresh, and an over-long key is refused", async () => {
    const token = await accessToken();
    const key = unique("key");
    const first = await api("POST", "/api/organizations", { token, body: { name: "" }, headers: { "Idempotency-Key": key } });
    expect(first.status).toBe(400);
    expect(
      (await directoryDb().prepare("SELECT COUNT(*) AS n FROM idempotency_keys WHERE key = ?").bind(key).first<{ n: number }>())!.n,
    ).toBe(0);
    const fixed = await api("POST", "/api/organizations", { token, body: { name: "Fixed" }, headers: { "Idempotency-Key": key } });
    expect(fixed.status).toBe(201);
    const long = await api("POST", "/api/organizations", { token, body: { name: "x" }, headers: { "Idempotency-Key": "k".repeat(256) } });
    expect(long.status).toBe(400);
    expect(long.body.code).toBe("INVALID_IDEMPOTENCY_KEY");
  });

  it("a claim left unanswered for over a minute (its request died) may be claimed again", async () => {
    const token = await accessToken();
    const key = unique("key");
    await api("POST", "/api/organizations", { token, body: { name: unique("Died") }, headers: { "Idempotency-Key": key } });
    await directoryDb()
      .prepare("UPDATE idempotency_keys SET status = NULL, created_at = ? WHERE key = ?")
      .bind(Date.now() - 61_000, key)
      .run();
    const name = unique("Retried");
    const res = await api("POST", "/api/organizations", { token, body: { name }, headers: { "Idempotency-Key": key } });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe(name);
  });

  it("the scheduled purge deletes expired keys and keeps live ones", async () => {
    const token = await accessToken();
    const expired = unique("expired");
    const live = unique("live");
    await api("POST", "/api/organizations", { token, body: { name: unique("P") }, headers: { "Idempotency-Key": expired } });
    await api("POST", "/api/organizations", { token, body: { name: unique("P") }, headers: { "Idempotency-Key": live } });
    await directoryDb()
      .prepare("UPDATE idempotency_keys SET expires_at = ? WHERE key = ?")
      .bind(Date.now() - 1000, expired)
      .run();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: new Date(), cron: "*/30 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    const keys = await directoryDb()
      .prepare("SELECT key FROM idempotency_keys WHERE key IN (?, ?)")
      .bind(expired, live)
      .all<{ key: string }>();
    expect(keys.results.map((r) => r.key)).toEqual([live]);
  });

  it("an expired key may be used again for a new request", async () => {
    const token = await accessToken();
    const key = unique("key");
    await api("POST", "/api/organizations", { token, body: { name: unique("Old") }, headers: { "Idempotency-Key": key } });
    await directoryDb()
      .prepare("UPDATE idempotency_keys SET expires_at = ? WHERE key = ?")
      .bind(Date.now() - 1000, key)
      .run();
    const name = unique("New");
    const res = await api("POST", "/api/organizations", { token, body: { name }, headers: { "Idempotency-Key": key } });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe(name);
  });
});
