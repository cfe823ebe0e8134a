import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { webhooks } from "@db/schema";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { newId } from "@/data/ids";
import { eventStatement } from "@/data/outbox/outbox";
import type { WakeUp } from "@/data/outbox/wake";
import { DELIVERY_QUERIES_PER_INVOCATION, deliverPending, MAX_ATTEMPTS } from "@/jobs/webhook-delivery";
import { drainOutbox } from "@/webhook-delivery/drain";
import { newSigningSecret } from "@/webhook-delivery/secret";
import worker from "@/worker";
import { api } from "../../helpers/api";
import { createOrganization, type OrganizationFixture } from "../../helpers/fixtures";
import { recordingRequest } from "../../helpers/recording-d1";
import { tenantDb } from "../../helpers/shards";
import { createStaffMember, staffToken } from "../../helpers/staff";
import { insertEndpoint } from "../../helpers/webhooks";
import { createWorkplace, HERE } from "../../helpers/workplace";

const db = createDatabase(tenantDb());
const hooksPath = (org: OrganizationFixture, suffix = "") => `/api/organizations/${org.id}/webhooks${suffix}`;

const endpoint = (organizationId: string, types: string[] = []) => insertEndpoint(db, organizationId, { types });

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

/** The queue's part: calls deliverPending again after each retry, its clock moved past the delay, until it is done. */
async function deliverAll(webhookId: string, fetch: (request: Request) => Promise<Response>) {
  const retries: number[] = [];
  let offset = 0;
  const now = () => new Date(Date.now() + offset);
  for (let i = 0; i < 100; i++) {
    const result = await deliverPending({ db, secretKey: env.WEBHOOK_SECRET_KEY, fetch, now }, webhookId);
    if (result.retryInSeconds !== undefined) {
      retries.push(result.retryInSeconds);
      offset += result.retryInSeconds * 1000;
    } else if (!result.more) return retries;
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
    expect(res.body).toMatchObject({
      url: "https://hooks.example.com/in",
      types: ["shift.clocked_in"],
      enabled: true,
      description: "Payroll",
      disabledReason: null,
    });
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
    for (const [method, suffix] of [
      ["GET", ""],
      ["PATCH", ""],
      ["POST", "/test"],
      ["GET", "/deliveries"],
    ] as const) {
      const res = await api(method, hooksPath(org, `/${hook.body.id}${suffix}`), {
        token: org.adminToken,
        body: method === "PATCH" ? {} : undefined,
      });
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

  it("POST …/test records one delivery of a webhook.test event, of one attempt, and answers it", async () => {
    const org = await createOrganization();
    const hook = await api("POST", hooksPath(org), { token: org.adminToken, body: { url: "http://127.0.0.1:9/hook" } });
    const res = await api("POST", hooksPath(org, `/${hook.body.id}/test`), { token: org.adminToken });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      webhookId: hook.body.id,
      eventType: "webhook.test",
      attempts: 1,
      status: "FAILED",
      lastStatusCode: null,
      nextAttemptAt: null,
      sequence: null,
    });
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

  it("a receiver failing twice then succeeding gets the event once successfully: one delivery of three attempts", async () => {
    const org = await createOrganization();
    const hook = await endpoint(org.id);
    await record(org.id, 1);
    const { received, fetch } = receiver([503, 503]);
    const retries = await deliverAll(hook.id, fetch);
    // Standard Webhooks' example schedule: 5 seconds after the first failure, 5 minutes after the second.
    expect(retries).toEqual([5, 300]);
    expect(received.map((r) => r.status)).toEqual([503, 503, 200]);
    expect(new Set(received.map((r) => r.headers["webhook-id"])).size).toBe(1);
    const listed = await api("GET", hooksPath(org, `/${hook.id}/deliveries`), { token: org.adminToken });
    expect(listed.body).toHaveLength(1);
    expect(listed.body[0]).toMatchObject({ attempts: 3, status: "SUCCEEDED", lastStatusCode: 200, nextAttemptAt: null, sequence: 1 });
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

  it("does not retry other 4xx; retries 10 times over 3 days, then the endpoint is disabled with webhook.disabled to the others", async () => {
    const org = await createOrganization();
    const hook = await endpoint(org.id);
    await record(org.id, 1);
    const first = receiver([400]);
    await deliverAll(hook.id, first.fetch);
    expect(first.received).toHaveLength(1);
    const other = await endpoint(org.id);
    await record(org.id, 1);
    const down = receiver(Array(20).fill(502));
    const retries = await deliverAll(hook.id, down.fetch);
    expect(MAX_ATTEMPTS).toBe(10);
    expect(down.received).toHaveLength(10);
    // 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then 24 h twice (12 h, the longest Queues delay, at a time): 75 h 35 min 5 s.
    expect(retries).toEqual([5, 300, 1800, 7200, 18_000, 36_000, 36_000, 43_200, 43_200, 43_200, 43_200]);
    const got = await api("GET", hooksPath(org, `/${hook.id}`), { token: org.adminToken });
    expect(got.body).toMatchObject({ enabled: false, disabledReason: "failures" });
    const listed = await api("GET", hooksPath(org, `/${hook.id}/deliveries`), { token: org.adminToken });
    expect(listed.body[0]).toMatchObject({ attempts: 10, status: "FAILED", lastStatusCode: 502, nextAttemptAt: null });
    // webhook.disabled is in the feed, for the other endpoint; the disabled one receives nothing more.
    const feed = await api("GET", `/api/organizations/${org.id}/events`, { token: org.adminToken });
    const disabled = feed.body.filter((e: any) => e.type === "webhook.disabled");
    expect(disabled.map((e: any) => e.data.id)).toEqual([hook.id]);
    const others = receiver();
    await deliverAll(other.id, others.fetch);
    expect(others.received.map((r) => r.body.type)).toContain("webhook.disabled");
    const reenabled = await api("PATCH", hooksPath(org, `/${hook.id}`), { token: org.adminToken, body: { enabled: true } });
    expect(reenabled.body).toMatchObject({ enabled: true, disabledReason: null });
    const back = receiver();
    await deliverAll(hook.id, back.fetch);
    expect(back.received.length).toBeGreaterThan(0);
    expect((await api("GET", hooksPath(org, `/${hook.id}`), { token: org.adminToken })).body.enabled).toBe(true);
  });

  it("delivers nothing more once the organization is deleted, whatever was pending", async () => {
    const org = await createOrganization();
    const hook = await endpoint(org.id);
    await record(org.id, 3);
    expect((await api("DELETE", `/api/organizations/${org.id}`, { token: org.adminToken })).status).toBe(200);
    const { received, fetch } = receiver();
    await deliverAll(hook.id, fetch);
    expect(received).toEqual([]);
  });

  it("delivers only the endpoint's types, and starts after the events before it was created", async () => {
    const org = await createOrganization();
    await record(org.id, 2);
    const res = await api("POST", hooksPath(org), {
      token: org.adminToken,
      body: { url: "https://receiver.test/x", types: ["shift.clocked_in"] },
    });
    expect(res.body.deliveredSequence).toBe(2);
    await record(org.id, 1, "location.created");
    await record(org.id, 1, "shift.clocked_in");
    const { received, fetch } = receiver();
    await deliverAll(res.body.id, fetch);
    // 3 is the endpoint's own webhook.created, which it was not created to receive.
    expect(received.map((r) => [r.body.sequence, r.body.type])).toEqual([[5, "shift.clocked_in"]]);
  });
});

describe("the delivery lease", () => {
  const deps = (fetch: (request: Request) => Promise<Response>) => ({ db, secretKey: env.WEBHOOK_SECRET_KEY, fetch });
  /** A receiver that takes a while over each request, so two wake-ups overlap. */
  function slowReceiver() {
    const sequences: number[] = [];
    const fetch = async (request: Request) => {
      sequences.push(JSON.parse(await request.text()).sequence);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return new Response(null, { status: 204 });
    };
    return { sequences, fetch };
  }

  it("two concurrent wake-ups of one endpoint: one claims it, the other returns, and each event is sent once, in order", async () => {
    const org = await createOrganization();
    const hook = await endpoint(org.id);
    await record(org.id, 5);
    const { sequences, fetch } = slowReceiver();
    const results = await Promise.all([deliverPending(deps(fetch), hook.id), deliverPending(deps(fetch), hook.id)]);
    expect(results).toEqual([{}, {}]);
    expect(sequences).toEqual([1, 2, 3, 4, 5]);
    const [row] = await db.select().from(webhooks).where(eq(webhooks.id, hook.id));
    expect(row).toMatchObject({ deliveredSequence: 5, deliveryLease: null, deliveringUntil: null });
  });

  it("more events than a page and a recording group: every one sent once in order, each attempt recorded, the cursor at the last", async () => {
    const org = await createOrganization();
    const hook = await endpoint(org.id);
    await record(org.id, 230);
    const { received, fetch } = receiver();
    expect(await deliverPending(deps(fetch), hook.id)).toEqual({});
    expect(received.map((r) => r.body.sequence)).toEqual(Array.from({ length: 230 }, (_, i) => i + 1));
    const counted = await tenantDb()
      .prepare(
        "SELECT count(*) AS n, count(DISTINCT event_id) AS events FROM webhook_deliveries WHERE webhook_id = ? AND status = 'succeeded'",
      )
      .bind(hook.id)
      .first<{ n: number; events: number }>();
    expect(counted).toEqual({ n: 230, events: 230 });
    const [row] = await db.select().from(webhooks).where(eq(webhooks.id, hook.id));
    expect(row!.deliveredSequence).toBe(230);
  });

  it("a wake-up stays within its share of the invocation's D1 queries: past it, it hands on and the next goes on from the cursor", async () => {
    const org = await createOrganization();
    const hook = await endpoint(org.id);
    await record(org.id, 230);
    const { received, fetch } = receiver();
    const queries = { used: 0, limit: 30 };
    // Before the fix a wake-up delivered until its 20 s ran out, past D1's 1,000 queries an invocation: the 1,001st
    // threw, the lease stayed held and the events waited for the next Cron (npm run bench -- --scenario webhooks).
    expect(await deliverPending({ ...deps(fetch), queries }, hook.id)).toEqual({ more: true });
    const first = received.length;
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(230);
    // It stops at the first event past the share; what it sent is recorded, the lease let go.
    expect(queries.used).toBeGreaterThanOrEqual(30);
    expect(queries.used).toBeLessThanOrEqual(30 + 15);
    const [row] = await db.select().from(webhooks).where(eq(webhooks.id, hook.id));
    expect(row).toMatchObject({ deliveredSequence: first, deliveryLease: null, deliveringUntil: null });
    // A wake-up of an invocation whose share is already spent sends nothing and hands on.
    expect(await deliverPending({ ...deps(fetch), queries }, hook.id)).toEqual({ more: true });
    expect(received).toHaveLength(first);
    // The next invocations go on from the cursor: every event once, in order.
    for (let i = 0; i < 20 && received.length < 230; i++)
      await deliverPending({ ...deps(fetch), queries: { used: 0, limit: 30 } }, hook.id);
    expect(received.map((r) => r.body.sequence)).toEqual(Array.from({ length: 230 }, (_, i) => i + 1));
  });

  it("counts every D1 statement it sends, a batch's each: the share cannot be overrun by an uncounted query", async () => {
    const org = await createOrganization();
    const hook = await endpoint(org.id);
    await record(org.id, 120);
    const { fetch } = receiver();
    let sent = 0;
    const counted = (statement: D1PreparedStatement): D1PreparedStatement => {
      const bind = statement.bind.bind(statement);
      statement.bind = (...values: unknown[]) => counted(bind(...values));
      for (const call of ["all", "run", "first", "raw"] as const) {
        const original = (statement[call] as (...args: unknown[]) => Promise<unknown>).bind(statement);
        Object.assign(statement, { [call]: (...args: unknown[]) => (sent++, original(...args)) });
      }
      return statement;
    };
    const binding = tenantDb();
    const countingBinding = {
      prepare: (sql: string) => counted(binding.prepare(sql)),
      batch: (statements: D1PreparedStatement[]) => ((sent += statements.length), binding.batch(statements)),
    } as unknown as D1Database;
    const queries = { used: 0, limit: 10_000 };
    expect(
      await deliverPending({ db: createDatabase(countingBinding), secretKey: env.WEBHOOK_SECRET_KEY, fetch, queries }, hook.id),
    ).toEqual({});
    expect(sent).toBeGreaterThan(0);
    expect(queries.used).toBe(sent);
  });

  it("the consumer's share leaves room under D1's 1,000 queries an invocation for its own reads and one last step", () => {
    expect(DELIVERY_QUERIES_PER_INVOCATION).toBe(800);
  });

  it("a wake-up finding an unexpired lease sends nothing; an expired lease (a crashed holder) is taken over", async () => {
    const org = await createOrganization();
    const hook = await endpoint(org.id);
    await record(org.id, 2);
    const { sequences, fetch } = slowReceiver();
    await db
      .update(webhooks)
      .set({ deliveryLease: "other", deliveringUntil: new Date(Date.now() + 60_000) })
      .where(eq(webhooks.id, hook.id));
    expect(await deliverPending(deps(fetch), hook.id)).toEqual({});
    expect(sequences).toEqual([]);
    await db
      .update(webhooks)
      .set({ deliveringUntil: new Date(Date.now() - 1) })
      .where(eq(webhooks.id, hook.id));
    await deliverPending(deps(fetch), hook.id);
    expect(sequences).toEqual([1, 2]);
  });

  it("a retry's backoff holds the endpoint: a wake-up before it is due sends nothing and answers when to come back", async () => {
    const org = await createOrganization();
    const hook = await endpoint(org.id);
    await record(org.id, 1);
    const { received, fetch } = receiver([503]);
    const start = Date.now();
    const at = (seconds: number) => ({ db, secretKey: env.WEBHOOK_SECRET_KEY, fetch, now: () => new Date(start + seconds * 1000) });
    expect(await deliverPending(at(0), hook.id)).toEqual({ retryInSeconds: 5 });
    await record(org.id, 1);
    expect(await deliverPending(at(2), hook.id)).toEqual({ retryInSeconds: 3 });
    expect(received).toHaveLength(1);
    expect(await deliverPending(at(5), hook.id)).toEqual({});
    expect(received.map((r) => [r.body.sequence, r.status])).toEqual([
      [1, 503],
      [1, 200],
      [2, 200],
    ]);
  });

  it("an event written while the holder delivers (its wake-up refused by the lease) is delivered before the holder returns", async () => {
    const org = await createOrganization();
    const hook = await endpoint(org.id);
    await record(org.id, 1);
    const sequences: number[] = [];
    const refused: unknown[] = [];
    const fetch = async (request: Request) => {
      const { sequence } = JSON.parse(await request.text());
      sequences.push(sequence);
      if (sequence === 1) {
        await record(org.id, 1);
        refused.push(await deliverPending(deps(fetch), hook.id));
      }
      return new Response(null, { status: 200 });
    };
    expect(await deliverPending(deps(fetch), hook.id)).toEqual({});
    expect(refused).toEqual([{}]);
    expect(sequences).toEqual([1, 2]);
  });

  it("an endpoint whose types match none of the events past its cursor is not woken for them", async () => {
    const org = await createOrganization();
    const hook = await endpoint(org.id, ["shift.clocked_in"]);
    await record(org.id, 2, "location.created");
    const sent: WakeUp[] = [];
    const queue = {
      sendBatch: async (messages: { body: WakeUp }[]) => void sent.push(...messages.map((m) => m.body)),
    } as unknown as Queue<WakeUp>;
    expect(await drainOutbox(db, queue, org.id)).toBe(0);
    await record(org.id, 1, "shift.clocked_in");
    expect(await drainOutbox(db, queue, org.id)).toBe(1);
    expect(sent).toEqual([{ webhookId: hook.id, organizationId: org.id }]);
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
    const queue = {
      sendBatch: async (messages: { body: WakeUp }[]) => void sent.push(...messages.map((m) => m.body)),
    } as unknown as Queue<WakeUp>;
    expect(await drainOutbox(db, queue, org.id)).toBe(1);
    expect(sent).toEqual([{ webhookId: pending.id, organizationId: org.id }]);
  });

  it("a write recording an event finds the endpoints to wake in its own batch: the drain after it makes no D1 round trip", async () => {
    const w = await createWorkplace();
    const hook = await endpoint(w.org.id, ["shift.clocked_in"]);
    const idle = await endpoint(w.org.id, ["shift.deleted"]);
    const sent: WakeUp[] = [];
    const queue = {
      sendBatch: async (messages: { body: WakeUp }[]) => void sent.push(...messages.map((m) => m.body)),
    } as unknown as Queue<WakeUp>;
    const waits: Promise<unknown>[] = [];
    const ctx = {
      waitUntil: (promise: Promise<unknown>) => void waits.push(promise),
      passThroughOnException: () => {},
      props: {},
    } as ExecutionContext;
    const res = await recordingRequest("POST", `${w.punchPath}/clock-in`, {
      token: w.token,
      body: { roleId: w.roleId, ...HERE },
      env: { WEBHOOK_QUEUE: queue },
      ctx,
    });
    expect(res.status).toBe(200);
    await Promise.all(waits);
    expect(res.trips).toHaveLength(2);
    expect(res.trips[1]!.at(-3)).toMatch(/^insert into "events"/);
    // The audit log's entry of that event, in the same batch (data/audit).
    expect(res.trips[1]!.at(-2)).toMatch(/^insert into "audit_log"/);
    expect(res.trips[1]!.at(-1)).toMatch(/^select "id", "organization_id" from "webhooks"/);
    expect(sent).toEqual([{ webhookId: hook.id, organizationId: w.org.id }]);
    expect(sent.map((wakeUp) => wakeUp.webhookId)).not.toContain(idle.id);
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
    expect(attempts.body).toMatchObject([{ attempts: 1, status: "PENDING", lastStatusCode: null }]);
    expect(Date.parse(attempts.body[0].nextAttemptAt) - Date.parse(attempts.body[0].lastAttemptAt)).toBe(5_000);
  });
});
