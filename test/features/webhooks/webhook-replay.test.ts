import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createDatabase } from "@/data/client";
import { eventStatement } from "@/data/outbox/outbox";
import type { WakeUp } from "@/data/outbox/wake";
import { deliverPending } from "@/jobs/webhook-delivery";
import worker from "@/worker";
import { api } from "../../helpers/api";
import { createOrganization, unique } from "../../helpers/fixtures";
import { tenantDb } from "../../helpers/shards";
import { accessToken } from "../../helpers/tokens";
import { insertEndpoint } from "../../helpers/webhooks";

const db = createDatabase(tenantDb());

interface Received {
  body: any;
  headers: Record<string, string>;
}

/**
 * A fake receiver at https://receiver.test: the Worker's own outbound fetch is stubbed, so the deliveries run through
 * the Worker's queue handler as deployed, answered `statuses` in turn, then 200.
 */
function stubReceiver(statuses: number[] = []) {
  const received: Received[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (new URL(request.url).hostname !== "receiver.test") throw new Error(`unexpected fetch of ${request.url}`);
    received.push({ body: JSON.parse(await request.text()), headers: Object.fromEntries(request.headers) });
    return new Response(null, { status: statuses.shift() ?? 200 });
  });
  return received;
}

afterEach(() => vi.restoreAllMocks());

/** The queue handler, woken for the endpoint as the drain after a write wakes it. */
async function wake(webhookId: string, organizationId: string) {
  const batch = createMessageBatch<WakeUp>("shiftline-webhooks", [
    { id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: { webhookId, organizationId } },
  ]);
  const ctx = createExecutionContext();
  await worker.queue(batch, env);
  return getQueueResult(batch, ctx);
}

describe("webhook delivery replay", () => {
  it("GET …/deliveries shows a delivered event; POST …/replay sends it again (same webhook-id), 202 PENDING then SUCCEEDED with 2 attempts", async () => {
    const received = stubReceiver();
    const org = await createOrganization();
    const hooks = `/api/organizations/${org.id}/webhooks`;
    const hook = await api("POST", hooks, {
      token: org.adminToken,
      body: { url: "https://receiver.test/hook", types: ["location.created"] },
    });
    expect(hook.status).toBe(201);
    const location = await api("POST", `/api/organizations/${org.id}/locations`, { token: org.adminToken, body: { name: unique("Loc") } });
    expect(location.status, location.text).toBe(201);
    const listPath = `${hooks}/${hook.body.id}/deliveries`;
    await wake(hook.body.id, org.id);
    const [delivered] = (await api("GET", listPath, { token: org.adminToken })).body;
    expect(delivered).toMatchObject({
      eventType: "location.created",
      status: "SUCCEEDED",
      attempts: 1,
      lastStatusCode: 200,
      nextAttemptAt: null,
    });
    expect(received).toHaveLength(1);

    const replayed = await api("POST", `${listPath}/${delivered.id}/replay`, { token: org.adminToken });
    expect(replayed.status, replayed.text).toBe(202);
    expect(replayed.body).toMatchObject({ id: delivered.id, status: "PENDING", attempts: 1 });
    expect(replayed.body.nextAttemptAt).not.toBeNull();
    expect(received).toHaveLength(1);
    await wake(hook.body.id, org.id);
    const after = (await api("GET", listPath, { token: org.adminToken })).body;
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: delivered.id, status: "SUCCEEDED", attempts: 2, lastStatusCode: 200, nextAttemptAt: null });
    expect(received).toHaveLength(2);
    // The same event, signed again: receivers de-duplicate on webhook-id.
    expect(received[1]!.headers["webhook-id"]).toBe(received[0]!.headers["webhook-id"]);
    expect(received[1]!.body).toEqual(received[0]!.body);
  });

  it("a replay asked twice before it is made is one replay; unknown delivery 404; a webhook.test delivery 409 WEBHOOK_EVENT_GONE", async () => {
    const org = await createOrganization();
    const endpoint = await insertEndpoint(db, org.id);
    await db.batch([eventStatement(db, { type: "location.created", organizationId: org.id, data: { n: 1 } })]);
    const received: Received[] = [];
    const fetch = async (request: Request) => {
      received.push({ body: JSON.parse(await request.text()), headers: Object.fromEntries(request.headers) });
      return new Response(null, { status: 204 });
    };
    const deps = { db, secretKey: env.WEBHOOK_SECRET_KEY, fetch };
    await deliverPending(deps, endpoint.id);
    const listPath = `/api/organizations/${org.id}/webhooks/${endpoint.id}/deliveries`;
    const [delivery] = (await api("GET", listPath, { token: org.adminToken })).body;
    const first = await api("POST", `${listPath}/${delivery.id}/replay`, { token: org.adminToken });
    const second = await api("POST", `${listPath}/${delivery.id}/replay`, { token: org.adminToken });
    expect([first.status, second.status]).toEqual([202, 202]);
    const pending = await tenantDb()
      .prepare("SELECT count(*) AS n FROM webhook_deliveries WHERE webhook_id = ? AND status = 'pending'")
      .bind(endpoint.id)
      .first<{ n: number }>();
    expect(pending!.n).toBe(1);
    expect(second.body).toMatchObject({ status: "PENDING", attempts: 1 });
    await deliverPending(deps, endpoint.id);
    const listed = (await api("GET", listPath, { token: org.adminToken })).body;
    expect(listed[0]).toMatchObject({ status: "SUCCEEDED", attempts: 2, lastStatusCode: 204 });
    expect(received).toHaveLength(2);
    const verified = new Webhook(endpoint.secret).verify(JSON.stringify(received.at(-1)!.body), received.at(-1)!.headers) as any;
    expect(verified).toMatchObject({ type: "location.created", sequence: 1 });

    const missing = await api("POST", `${listPath}/${crypto.randomUUID()}/replay`, { token: org.adminToken });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("WEBHOOK_DELIVERY_NOT_FOUND");
    const test = await api("POST", `/api/organizations/${org.id}/webhooks/${endpoint.id}/test`, { token: org.adminToken });
    const gone = await api("POST", `${listPath}/${test.body.id}/replay`, { token: org.adminToken });
    expect(gone.status).toBe(409);
    expect(gone.body.code).toBe("WEBHOOK_EVENT_GONE");
  });

  it("a sandbox's retries fall due by its test clock: advancing it past the backoff sends the retry, real time has not", async () => {
    const created = await api("POST", "/api/organizations/sandbox", { token: await accessToken(), body: { name: unique("Sandbox") } });
    expect(created.status).toBe(201);
    const sandbox = { id: created.body.id as string, token: await accessToken({ organizationId: created.body.id }) };
    // Its own test_clock.advanced events are not this endpoint's.
    const endpoint = await insertEndpoint(db, sandbox.id, { types: ["location.created"] });
    await db.batch([eventStatement(db, { type: "location.created", organizationId: sandbox.id, data: { n: 1 } })]);
    const statuses = [503, 503, 503];
    const sent: number[] = [];
    const fetch = async () => {
      sent.push(Date.now());
      return new Response(null, { status: statuses.shift() ?? 200 });
    };
    // No `now` given: the consumer reads the endpoint's organization's clock, as the queue handler does.
    const deps = { db, secretKey: env.WEBHOOK_SECRET_KEY, fetch };
    expect(await deliverPending(deps, endpoint.id)).toEqual({ retryInSeconds: 5 });
    expect(await deliverPending(deps, endpoint.id)).toMatchObject({ retryInSeconds: expect.any(Number) });
    expect(sent).toHaveLength(1);
    const clock = async (to: number) =>
      api("POST", `/api/organizations/${sandbox.id}/test-clock/advance`, {
        token: sandbox.token,
        body: { to: new Date(to).toISOString() },
      });
    const now = Date.parse((await api("GET", `/api/organizations/${sandbox.id}/test-clock`, { token: sandbox.token })).body.now);
    expect((await clock(now + 60_000)).status).toBe(200);
    // 1 minute on: the 5-second backoff is over; the next is 5 minutes.
    expect(await deliverPending(deps, endpoint.id)).toEqual({ retryInSeconds: 300 });
    expect(sent).toHaveLength(2);
    expect(await deliverPending(deps, endpoint.id)).toMatchObject({ retryInSeconds: expect.any(Number) });
    expect(sent).toHaveLength(2);
    await clock(now + 60_000 + 301_000);
    expect(await deliverPending(deps, endpoint.id)).toEqual({ retryInSeconds: 1800 });
    await clock(now + 60_000 + 301_000 + 1_801_000);
    expect(await deliverPending(deps, endpoint.id)).toEqual({});
    expect(sent).toHaveLength(4);
    const listed = await api("GET", `/api/organizations/${sandbox.id}/webhooks/${endpoint.id}/deliveries`, { token: sandbox.token });
    expect(listed.body[0]).toMatchObject({ status: "SUCCEEDED", attempts: 4, lastStatusCode: 200 });
    // The last attempt is stamped with the sandbox's time, 36 minutes 2 seconds ahead of the real clock.
    expect(Date.parse(listed.body[0].lastAttemptAt) - Date.now()).toBeGreaterThan(2_162_000 - 60_000);
  });
});
