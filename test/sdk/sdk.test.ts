import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import {
  createShiftline,
  IDEMPOTENCY_KEY,
  nextLink,
  retryDelayMs,
  ShiftlineError,
  verifyWebhook,
  WebhookVerificationError,
} from "@shiftline/sdk";
import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { deliverPending } from "@/jobs/webhook-delivery";
import { lateToday, receiveWebhook } from "../../sdk/examples/quickstart";
import example from "../../sdk/examples/quickstart.ts?raw";
import readme from "../../sdk/README.md?raw";
import { api } from "../helpers/api";
import { createOrganization } from "../helpers/fixtures";
import { tenantDb } from "../helpers/shards";
import { insertEndpoint } from "../helpers/webhooks";
import { clockIn, createWorkplace } from "../helpers/workplace";

const BASE_URL = "http://shiftline.test";
const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** The Worker's own fetch, remembering each request it was sent (a copy, so its body can be read after). */
function worker() {
  const sent: Request[] = [];
  const fetch = (request: Request) => {
    sent.push(request.clone());
    return exports.default.fetch(request);
  };
  return { sent, fetch };
}

/** Answers `statuses` (with their Retry-After) in turn before handing requests to the Worker. */
function busyThen(answers: { status: number; retryAfter?: string }[]) {
  const inner = worker();
  const fetch = (request: Request) => {
    const answer = answers.shift();
    if (!answer) return inner.fetch(request);
    inner.sent.push(request.clone());
    const headers = answer.retryAfter === undefined ? undefined : { "Retry-After": answer.retryAfter };
    return Promise.resolve(
      new Response(JSON.stringify({ status: answer.status, code: "RATE_LIMITED" }), { status: answer.status, headers }),
    );
  };
  return { sent: inner.sent, fetch };
}

const recorder = () => {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
};

describe("the SDK's README example, run as written against the Worker", () => {
  it("is in the README verbatim", () => {
    expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
  });

  it("opens a location, finds who is late today and lists every location across pages", async () => {
    const w = await createWorkplace({ timezone: "UTC" });
    // Two more locations: three in all, two a page, so the iterator follows one Link.
    for (const name of ["Chelsea", "SoHo"]) {
      const res = await api("POST", `/api/organizations/${w.org.id}/locations`, { token: w.org.adminToken, body: { name } });
      expect(res.status).toBe(201);
    }
    // Late today: an entry from 10 minutes ago, worked from 6 minutes past its start (over the 5-minute grace). In the
    // first 10 minutes of a UTC day that entry began yesterday, so nobody is late today.
    const start = Date.now() - 10 * MINUTE;
    const expectedLate = iso(start).slice(0, 10) === iso(Date.now()).slice(0, 10) ? [w.staff.id] : [];
    const entry = await api("POST", `/api/organizations/${w.org.id}/locations/${w.location.id}/schedules`, {
      token: w.org.adminToken,
      body: { employeeId: w.staff.id, roleId: w.roleId, startTime: iso(start), endTime: iso(start + 120 * MINUTE) },
    });
    expect(entry.status).toBe(201);
    expect((await clockIn(w, { occurredAt: iso(start + 6 * MINUTE) })).status).toBe(200);
    const { sent, fetch } = worker();

    const answer = await lateToday(BASE_URL, w.org.adminToken, w.org.id, fetch);

    expect(answer.late).toEqual(expectedLate);
    // Every location once, in the API's order: the workplace's, Chelsea, SoHo and the example's Flatiron.
    const all = await api("GET", `/api/organizations/${w.org.id}/locations?limit=500`, { token: w.org.adminToken });
    expect(answer.locations).toEqual(all.body.map((location: { name: string }) => location.name));
    expect(answer.locations.toSorted()).toEqual(["Chelsea", "Flatiron", w.location.name, "SoHo"].toSorted());
    const listed = sent.filter((request) => request.method === "GET" && new URL(request.url).pathname.endsWith("/locations"));
    // Four locations, two a page: the first page and the one its Link named (whose cursor it carries).
    expect(listed.map((request) => new URL(request.url).searchParams.has("cursor"))).toEqual([false, true]);
    expect(new URL(listed[1]!.url).searchParams.get("limit")).toBe("2");
    const read = await api("GET", `/api/organizations/${w.org.id}/locations/${answer.locationId}`, { token: w.org.adminToken });
    expect([read.status, read.body.name, read.body.timezone]).toEqual([200, "Flatiron", "America/New_York"]);
  });
});

describe("writes carry an Idempotency-Key", () => {
  it("a random UUID on every POST unless the caller names one; none on a GET or PATCH", async () => {
    const org = await createOrganization();
    const { sent, fetch } = worker();
    const shiftline = createShiftline({ baseUrl: BASE_URL, token: org.adminToken, fetch });
    const params = { path: { organization_id: org.id } };
    const first = await shiftline.POST("/api/organizations/{organization_id}/roles", { params, body: { name: "Barista" } });
    const second = await shiftline.POST("/api/organizations/{organization_id}/roles", { params, body: { name: "Baker" } });
    expect([first.response.status, second.response.status]).toEqual([201, 201]);
    const [a, b] = sent.map((request) => request.headers.get(IDEMPOTENCY_KEY));
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(b).not.toBe(a);
    await shiftline.GET("/api/organizations/{organization_id}/roles", { params });
    await shiftline.PATCH("/api/organizations/{organization_id}/roles/{id}", {
      params: { path: { organization_id: org.id, id: first.data!.id } },
      body: { name: "Head barista" },
    });
    expect(sent.slice(2).map((request) => [request.method, request.headers.get(IDEMPOTENCY_KEY)])).toEqual([
      ["GET", null],
      ["PATCH", null],
    ]);
  });

  it("the caller's own key is sent as is, and the API replays the first answer for it", async () => {
    const org = await createOrganization();
    const { sent, fetch } = worker();
    const shiftline = createShiftline({ baseUrl: BASE_URL, token: org.adminToken, fetch });
    const write = () =>
      shiftline.POST("/api/organizations/{organization_id}/roles", {
        params: { path: { organization_id: org.id } },
        headers: { "Idempotency-Key": "role-barista-1" },
        body: { name: "Barista" },
      });
    const first = await write();
    const again = await write();
    expect(sent.map((request) => request.headers.get(IDEMPOTENCY_KEY))).toEqual(["role-barista-1", "role-barista-1"]);
    expect(again.data?.id).toBe(first.data?.id);
    expect(again.response.headers.get("Idempotent-Replayed")).toBe("true");
    const roles = await shiftline.GET("/api/organizations/{organization_id}/roles", { params: { path: { organization_id: org.id } } });
    expect(roles.data?.filter((role) => role.name === "Barista")).toHaveLength(1);
  });
});

describe("retries on 429 and 503", () => {
  it("waits the Retry-After named (seconds or a date) and sends the same write again, with the same key", async () => {
    const org = await createOrganization();
    const busy = busyThen([
      { status: 503, retryAfter: "2" },
      { status: 429, retryAfter: new Date(Date.now() + 5_000).toUTCString() },
    ]);
    const clock = recorder();
    const shiftline = createShiftline({ baseUrl: BASE_URL, token: org.adminToken, fetch: busy.fetch, retry: { sleep: clock.sleep } });
    const created = await shiftline.POST("/api/organizations/{organization_id}/roles", {
      params: { path: { organization_id: org.id } },
      body: { name: "Barista" },
    });
    expect(created.response.status).toBe(201);
    expect(clock.waits[0]).toBe(2000);
    // An HTTP-date has whole seconds: 5 s ahead is between 4 and 5 s away.
    expect(clock.waits[1]).toBeGreaterThan(3_000);
    expect(clock.waits[1]).toBeLessThanOrEqual(5_000);
    const keys = busy.sent.map((request) => request.headers.get(IDEMPOTENCY_KEY));
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(await Promise.all(busy.sent.map((request) => request.json()))).toEqual([
      { name: "Barista" },
      { name: "Barista" },
      { name: "Barista" },
    ]);
  });

  it("is bounded: gives up after its retries, and at once on a wait beyond maxDelaySeconds; other errors are never retried", async () => {
    const org = await createOrganization();
    const always = busyThen([{ status: 503 }, { status: 503 }, { status: 503 }, { status: 503 }]);
    const clock = recorder();
    const shiftline = createShiftline({
      baseUrl: BASE_URL,
      token: org.adminToken,
      fetch: always.fetch,
      retry: { retries: 2, sleep: clock.sleep },
    });
    const answer = await shiftline.GET("/api/organizations/{organization_id}/roles", { params: { path: { organization_id: org.id } } });
    expect(answer.response.status).toBe(503);
    // No Retry-After: 0.5 s, then 1 s (doubling).
    expect(clock.waits).toEqual([500, 1000]);
    expect(always.sent).toHaveLength(3);

    const far = busyThen([{ status: 429, retryAfter: "120" }]);
    const patient = recorder();
    const limited = createShiftline({
      baseUrl: BASE_URL,
      token: org.adminToken,
      fetch: far.fetch,
      retry: { maxDelaySeconds: 60, sleep: patient.sleep },
    });
    const refused = await limited.GET("/api/organizations/{organization_id}/roles", { params: { path: { organization_id: org.id } } });
    expect([refused.response.status, refused.error?.code, patient.waits, far.sent.length]).toEqual([429, "RATE_LIMITED", [], 1]);

    const { sent, fetch } = worker();
    const plain = createShiftline({ baseUrl: BASE_URL, token: org.adminToken, fetch, retry: { sleep: clock.sleep } });
    const invalid = await plain.POST("/api/organizations/{organization_id}/roles", {
      params: { path: { organization_id: org.id } },
      body: { name: "" },
    });
    expect([invalid.response.status, invalid.error?.code, sent.length]).toEqual([400, "VALIDATION_FAILED", 1]);
  });

  it("reads Retry-After as RFC 9110 writes it", () => {
    const now = Date.parse("2026-12-06T10:00:00Z");
    expect(retryDelayMs("7", 0, now)).toBe(7000);
    expect(retryDelayMs(" 0 ", 3, now)).toBe(0);
    expect(retryDelayMs("Sun, 06 Dec 2026 10:00:30 GMT", 0, now)).toBe(30_000);
    expect(retryDelayMs("Sun, 06 Dec 2026 09:59:00 GMT", 0, now)).toBe(0);
    expect(retryDelayMs(null, 0, now)).toBe(500);
    expect(retryDelayMs("soon", 2, now)).toBe(2000);
  });
});

describe("pagination", () => {
  it("yields every item of every page once, in the API's order, following Link until none", async () => {
    const org = await createOrganization();
    for (let i = 0; i < 4; i++) {
      expect((await api("POST", `/api/organizations/${org.id}/roles`, { token: org.adminToken, body: { name: `Role ${i}` } })).status).toBe(
        201,
      );
    }
    const all = await api("GET", `/api/organizations/${org.id}/roles?limit=500`, { token: org.adminToken });
    expect(all.body.length).toBe(5);
    const { sent, fetch } = worker();
    const shiftline = createShiftline({ baseUrl: BASE_URL, token: org.adminToken, fetch });
    const ids: string[] = [];
    const first = shiftline.GET("/api/organizations/{organization_id}/roles", {
      params: { path: { organization_id: org.id }, query: { limit: 2 } },
    });
    for await (const role of shiftline.paginate(first)) ids.push(role.id);
    expect(ids).toEqual(all.body.map((role: { id: string }) => role.id));
    // Five roles, two a page: three pages, the last without a Link.
    expect(sent.length).toBe(3);
    expect(sent.every((request) => request.headers.get("Authorization") === `Bearer ${org.adminToken}`)).toBe(true);
  });

  it("throws the API's problem as a ShiftlineError", async () => {
    const org = await createOrganization();
    const shiftline = createShiftline({ baseUrl: BASE_URL, token: org.adminToken, fetch: worker().fetch });
    const first = shiftline.GET("/api/organizations/{organization_id}/roles", {
      params: { path: { organization_id: org.id }, query: { cursor: "!" } },
    });
    const error = await (async () => {
      for await (const _ of shiftline.paginate(first)) return null;
      return null;
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ShiftlineError);
    expect([(error as ShiftlineError).status, (error as ShiftlineError).problem.code]).toEqual([400, "VALIDATION_FAILED"]);
  });

  it("reads the next target of a Link header (RFC 8288)", () => {
    expect(nextLink('</api/x?cursor=a>; rel="next"')).toBe("/api/x?cursor=a");
    expect(nextLink('</a>; rel="prev", </b>; rel="next"')).toBe("/b");
    expect(nextLink("</b>; rel=next")).toBe("/b");
    expect(nextLink('</b>; rel="prev next"')).toBe("/b");
    expect(nextLink('</a>; rel="prev"')).toBeNull();
    expect(nextLink('</a>; rel="nextish"')).toBeNull();
    expect(nextLink(null)).toBeNull();
  });
});

describe("webhook verification", () => {
  it("verifies a delivery the Worker signed and hands on its event; refuses a tampered one (the README's receiver)", async () => {
    const db = createDatabase(tenantDb());
    const org = await createOrganization();
    const hook = await insertEndpoint(db, org.id, { types: ["role.created"] });
    const created = await api("POST", `/api/organizations/${org.id}/roles`, { token: org.adminToken, body: { name: "Barista" } });
    expect(created.status).toBe(201);
    const received: unknown[] = [];
    const answers: number[] = [];
    const deliver = async (request: Request) => {
      const response = await receiveWebhook(request, hook.secret, async (event) => void received.push(event));
      answers.push(response.status);
      return response;
    };
    await deliverPending({ db, secretKey: env.WEBHOOK_SECRET_KEY, fetch: deliver }, hook.id);
    expect(answers).toEqual([204]);
    expect(received).toMatchObject([{ type: "role.created", organizationId: org.id, data: { id: created.body.id, name: "Barista" } }]);

    const captured: { body: string; headers: Headers }[] = [];
    await api("POST", `/api/organizations/${org.id}/roles`, { token: org.adminToken, body: { name: "Baker" } });
    await deliverPending(
      {
        db,
        secretKey: env.WEBHOOK_SECRET_KEY,
        fetch: async (request) => {
          captured.push({ body: await request.text(), headers: request.headers });
          return new Response(null, { status: 204 });
        },
      },
      hook.id,
    );
    const [delivery] = captured as [{ body: string; headers: Headers }];
    expect(verifyWebhook(hook.secret, delivery.body, delivery.headers)).toMatchObject({ type: "role.created", data: { name: "Baker" } });
    expect(() => verifyWebhook(hook.secret, delivery.body.replace("Baker", "Boss"), delivery.headers)).toThrow(WebhookVerificationError);
    const forged = new Request("http://receiver.test", {
      method: "POST",
      headers: delivery.headers,
      body: delivery.body.replace("Baker", "Boss"),
    });
    expect((await receiveWebhook(forged, hook.secret, async () => {})).status).toBe(400);
  });
});
