import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { webhooks } from "../drizzle/schema";
import worker from "../src/index";
import { createDatabase } from "../src/lib/db";
import { eventStatement } from "../src/lib/events";
import { newId } from "../src/lib/ids";
import { DISABLE_AFTER_FAILURES, deliverPending, MAX_ATTEMPTS } from "../src/webhooks/deliver";
import { drainOutbox, type WakeUp } from "../src/webhooks/drain";
import { encryptSecret, newSigningSecret } from "../src/webhooks/secret";
import { api } from "./helpers/api";
import { createOrganization, type OrganizationFixture } from "./helpers/fixtures";
import { createStaffMember, staffToken } from "./helpers/staff";
import { tenantDb } from "./helpers/shards";

const db = createDatabase(tenantDb());
const hooksPath = (org: OrganizationFixture, suffix = "") => `/api/organizations/${org.id}/webhooks${suffix}`;

/** An endpoint inserted straight into D1 (no API write, so no drain runs behind the test's back). */
async function endpoint(organizationId: string, types: string[] = []) {
  const id = newId();
  const secret = newSigningSecret();
  const now = new Date();
  await db.insert(webhooks).values({
    id,
    organizationId,
    url: "https://receiver.test/hook",
    types,
    secret: await encryptSecret(env.WEBHOOK_SECRET_KEY, id, secret),
    deliveredSequence: 0,
    createdAt: now,
    updatedAt: now,
  });
  return { id, secret };
}

/** Outbox events, as a write batch records them. */
async function record(organizationId: string, count: number, type: "location.created" | "shift.clocked_in" = "location.created") {
  for (let i = 0; i < count; i++) await db.batch([eventStatement(db, { type, organizationId, data: { n: i } })]);
}

interface Received {
  body: any;
  headers: Record<string, string>;
  status: number;
}

/** A receiver answering `statuses` in turn (then 200), remembering every request. */
function receiver(statuses: (number | ((body: any) => number))[] = []) {
  const received: Received[] = [];
  const fetch = async (request: Request) => {
    const body = JSON.parse(await request.text());
    const next = statuses.shift() ?? 200;
    const status = typeof next === "function" ? next(body) : next;
    received.push({ body, headers: Object.fromEntries(request.headers), status });
    return new Response(null, { status });
  };
  return { received, fetch };
}

/** The queue's part: calls deliverPending again after each retry (without waiting the delay) until it is done. */
async function deliverAll(webhookId: string, fetch: (request: Request) => Promise<Response>) {
  const retries: number[] = [];
  for (let i = 0; i < 100; i++) {
    const result = await deliverPending({ db, secretKey: env.WEBHOOK_SECRET_KEY, fetch }, webhookId);
    if (result.retryInSeconds !== undefined) retries.push(result.retryInSeconds);
    else if (!result.more) return retries;
  }
  throw new Error("never done");
}

describe("webhook endpoints", () => {
  it("POST creates an endpoint and answers its whsec_ secret once; it is stored encrypted; GET, list and PATCH read it", async () => {
    const org = await createOrganization();
    const res = await api("POST", hooksPath(org), {
      token: org.adminToken,
      body: { url: "https://hooks.example.com/in", types: ["shift.clocked_in"], description: "Payroll" },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ url: "https://hooks.example.com/in", types: ["shift.clocked_in"], enabled: true, description: "Payroll", disabledReason: null });
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const stored = await tenantDb().prepare("SELECT secret FROM webhooks WHERE id = ?").bind(res.body.id).first<{ secret: string }>();
    expect(stored!.secret).not.toContain(res.body.secret.slice(6));
    const { secret: _secret, ...shown } = res.body;
    const got = await api("GET", hooksPath(org, `/${res.body.id}`), { token: org.adminToken });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(shown);
    expect((await api("GET", hooksPath(org), { token: org.adminToken })).body).toEqual([shown]);
    const patched = await api("PATCH", hooksPath(org, `/${res.body.id}`), { token: org.adminToken, body: { enabled: false, types: [] } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ enabled: false, types: [] });
    expect(patched.body.secret).toBeUndefined();
  });

  it("DELETE removes it: 404 afterwards, on GET, PATCH, test and deliveries", async () => {
    const org = await createOrganization();
    const hook = await api("POST", hooksPath(org), { token: org.adminToken, body: { url: "https://hooks.example.com/in" } });
    expect((await api("DELETE", hooksPath(org, `/${hook.body.id}`), { token: org.adminToken })).status).toBe(200);
    for (const [method, suffix] of [["GET", ""], ["PATCH", ""], ["POST", "/test"], ["GET", "/deliveries"]] as const) {
      const res = await api(method, hooksPath(org, `/${hook.body.id}${suffix}`), { token: org.adminToken, body: method === "PATCH" ? {} : undefined });
      expect(res.status, `${method} ${suffix}`).toBe(404);
      expect(res.body.code).toBe("WEBHOOK_NOT_FOUND");
    }
  });

  it("refuses a URL that is not https (http is allowed for localhost outside production) and unknown types: 400", async () => {
    const org = await createOrganization();
    for (const body of [
      { url: "http://hooks.example.com/in" },
      { url: "ftp://hooks.example.com/in" },
      { url: "not a url" },
      { url: "https://user:pw@hooks.example.com/in" },
      { url: "https://hooks.example.com/in", types: ["shift.exploded"] },
      { url: "https://hooks.example.com/in", secret: "mine" },
    ]) {
      const res = await api("POST", hooksPath(org), { token: org.adminToken, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const local = await api("POST", hooksPath(org), { token: org.adminToken, body: { url: "http://localhost:8080/hook" } });
    expect(local.status).toBe(201);
  });

  it("is ORGANIZATION_ADMIN only (a Manager is 403) and per organization (another's is 404)", async () => {
    const org = await createOrganization();
    const manager = await createStaffMember(org, { accessRoleName: "Manager" });
    const token = await staffToken(org, manager.id);
    expect((await api("GET", hooksPath(org), { token })).status).toBe(403);
    expect((await api("POST", hooksPath(org), { token, body: { url: "https://hooks.example.com/in" } })).status).toBe(403);
    const other = await createOrganization();
    const theirs = await api("POST", hooksPath(other), { token: other.adminToken, body: { url: "https://hooks.example.com/in" } });
    expect((await api("GET", hooksPath(org, `/${theirs.body.id}`), { token: org.adminToken })).status).toBe(404);
    expect((await api("GET", hooksPath(other, `/${theirs.body.id}`), { token: org.adminToken })).status).toBe(404);
  });

  it("POST …/test records one attempt of a webhook.test event and answers it", async () => {
    const org = await createOrganization();
    const hook = await api("POST", hooksPath(org), { token: org.adminToken, body: { url: "http://127.0.0.1:9/hook" } });
    const res = await api("POST", hooksPath(org, `/${hook.body.id}/test`), { token: org.adminToken });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ webhookId: hook.body.id, eventType: "webhook.test", attempt: 1, status: "failed", responseStatus: null, sequence: null });
    const listed = await api("GET", hooksPath(org, `/${hook.body.id}/deliveries`), { token: org.adminToken });
    expect(listed.body).toEqual([res.body]);
    expect((await api("GET", hooksPath(org, `/${hook.body.id}/deliveries?limit=0`), { token: org.adminToken })).status).toBe(400);
  });
});

describe("delivery", () => {
  it("signs per Standard Webhooks: the receiver verifies with standardwebhooks' Webhook.verify, webhook-id = event id", async () => {
    const org = await createOrganization();
    const hook = await endpoint(org.id);
    await record(org.id, 1);
    const { received, fetch } = receiver();
    await deliverAll(hook.id, fetch);
    expect(received).toHaveLength(1);
    const [{ body, headers }] = received as [Received];
    const verified = new Webhook(hook.secret).verify(JSON.stringify(body), headers) as any;
    expect(verified).toMatchObject({ type: "location.created", organizationId: org.id, sequence: 1, data: { n: 0 } });
    expect(headers["webhook-id"]).toBe(body.id);
    expect(() => new Webhook(newSigningSecret()).verify(JSON.stringify(body), headers)).toThrow();
  });

  it("a receiver failing twice then succeeding gets the event once successfully, three attempts recorded", async () => {
    const org = await createOrganization();
    const hook = await endpoint(org.id);
    await record(org.id, 1);
    const { received, fetch } = receiver([503, 503]);
    const retries = await deliverAll(hook.id, fetch);
    expect(retries).toEqual([30, 60]);
    expect(received.map((r) => r.status)).toEqual([503, 503, 200]);
    expect(new Set(received.map((r) => r.headers["webhook-id"])).size).toBe(1);
    const listed = await api("GET", hooksPath(org, `/${hook.id}/deliveries`), { token: org.adminToken });
    expect(listed.body.map((d: any) => [d.attempt, d.status, d.responseStatus])).toEqual([
      [3, "succeeded", 200],
      [2, "retrying", 503],
      [1, "retrying", 503],
    ]);
    expect(listed.body[1].nextRetryAt).not.toBeNull();
    expect(listed.body[0].nextRetryAt).toBeNull();
  });

  it("keeps sequence order per endpoint under retries: n+1 is not sent before n succeeded", async () => {
    const org = await createOrganization();
    const hook = await endpoint(org.id);
    await record(org.id, 5);
    const { received, fetch } = receiver([200, 500, 429, 408, 200]);
    await deliverAll(hook.id, fetch);
    expect(received.map((r) => [r.body.sequence, r.status])).toEqual([
      [1, 200],
      [2, 500],
      [2, 429],
      [2, 408],
      [2, 200],
      [3, 200],
      [4, 200],
      [5, 200],
    ]);
  });

  it("does not retry other 4xx; gives up after the attempt limit; disables an endpoint after repeated failures", async () => {
    const org = await createOrganization();
    const hook = await endpoint(org.id);
    await record(org.id, 1);
    const first = receiver([400]);
    await deliverAll(hook.id, first.fetch);
    expect(first.received).toHaveLength(1);
    await record(org.id, 1);
    const down = receiver(Array(MAX_ATTEMPTS).fill(502));
    await deliverAll(hook.id, down.fetch);
    expect(down.received).toHaveLength(MAX_ATTEMPTS);
    await record(org.id, DISABLE_AFTER_FAILURES);
    const refusing = receiver(Array(10).fill(410));
    await deliverAll(hook.id, refusing.fetch);
    expect(refusing.received).toHaveLength(DISABLE_AFTER_FAILURES - 2);
    const got = await api("GET", hooksPath(org, `/${hook.id}`), { token: org.adminToken });
    expect(got.body).toMatchObject({ enabled: false, disabledReason: "failures" });
    const reenabled = await api("PATCH", hooksPath(org, `/${hook.id}`), { token: org.adminToken, body: { enabled: true } });
    expect(reenabled.body).toMatchObject({ enabled: true, disabledReason: null });
  });

  it("delivers only the endpoint's types, and starts after the events before it was created", async () => {
    const org = await createOrganization();
    await record(org.id, 2);
    const res = await api("POST", hooksPath(org), { token: org.adminToken, body: { url: "https://receiver.test/x", types: ["shift.clocked_in"] } });
    expect(res.body.deliveredSequence).toBe(2);
    await record(org.id, 1, "location.created");
    await record(org.id, 1, "shift.clocked_in");
    const { received, fetch } = receiver();
    await deliverAll(res.body.id, fetch);
    expect(received.map((r) => [r.body.sequence, r.body.type])).toEqual([[4, "shift.clocked_in"]]);
  });
});

describe("the queue", () => {
  it("the drain wakes each enabled endpoint with events past its cursor, once", async () => {
    const org = await createOrganization();
    const pending = await endpoint(org.id);
    await record(org.id, 3);
    const idle = await endpoint(org.id);
    await db.update(webhooks).set({ deliveredSequence: 3 }).where(eq(webhooks.id, idle.id));
    const sent: WakeUp[] = [];
    const queue = { sendBatch: async (messages: { body: WakeUp }[]) => void sent.push(...messages.map((m) => m.body)) } as unknown as Queue<WakeUp>;
    expect(await drainOutbox(db, queue, org.id)).toBe(1);
    expect(sent).toEqual([{ webhookId: pending.id, organizationId: org.id }]);
  });

  it("the consumer retries a message with backoff when the receiver is unreachable, and acks when nothing is pending", async () => {
    const org = await createOrganization();
    const hook = await endpoint(org.id);
    await db.update(webhooks).set({ url: "http://127.0.0.1:9/hook" }).where(eq(webhooks.id, hook.id));
    await record(org.id, 1);
    const batch = createMessageBatch<WakeUp>("shiftline-webhooks", [
      { id: "m1", timestamp: new Date(), attempts: 1, body: { webhookId: hook.id } },
      { id: "m2", timestamp: new Date(), attempts: 1, body: { webhookId: hook.id } },
      { id: "m3", timestamp: new Date(), attempts: 1, body: { webhookId: newId() } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env);
    const result = await getQueueResult(batch, ctx);
    expect(result.retryMessages.map((m) => m.msgId)).toEqual(["m1"]);
    expect(result.explicitAcks.sort()).toEqual(["m2", "m3"]);
    const attempts = await api("GET", hooksPath(org, `/${hook.id}/deliveries`), { token: org.adminToken });
    expect(attempts.body).toMatchObject([{ attempt: 1, status: "retrying", responseStatus: null }]);
    expect(Date.parse(attempts.body[0].nextRetryAt) - Date.parse(attempts.body[0].createdAt)).toBe(30_000);
  });
});
