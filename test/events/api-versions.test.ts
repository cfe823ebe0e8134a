import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDatabase } from "@/data/client";
import { deliverPending } from "@/jobs/webhook-delivery";
import { api } from "../helpers/api";
import { createOrganization } from "../helpers/fixtures";
import { tenantDb } from "../helpers/shards";
import { accessToken, SECOND_PARTNER } from "../helpers/tokens";
import { insertEndpoint } from "../helpers/webhooks";

/*
 * Dated versions (domain/api-versions): on 2026-12-06 a publish's Fair Workweek summary moved into schedule.published
 * and schedule_changes.recorded was removed. A partner pinned before receives the old shape: schedule.published
 * without the summary and, after it, schedule_changes.recorded carrying it.
 */

const db = createDatabase(tenantDb());
const range = { locationId: "loc-1", startDate: "2026-12-07", endDate: "2026-12-13", publishedAt: "2026-12-06T10:00:00.000Z" };
const summary = { changes: 2, premiumHours: 1.5, premiumAmount: 45 };

/** A publish's event as this build records it: schedule.published with its summary. */
async function recordPublish(organizationId: string) {
  const id = crypto.randomUUID();
  await tenantDb()
    .prepare(
      `INSERT INTO events (id, organization_id, sequence, type, occurred_at, form, data)
        SELECT ?, ?, coalesce((SELECT max(sequence) FROM events WHERE organization_id = ?), 0) + 1, 'schedule.published', ?, 'wire', ?`,
    )
    .bind(id, organizationId, organizationId, Date.parse(range.publishedAt), JSON.stringify({ ...range, ...summary }))
    .run();
  return id;
}

const feed = (orgId: string, token: string, query = "", headers: Record<string, string> = {}) =>
  api("GET", `/api/organizations/${orgId}/events${query}`, { token, headers });

const shapes = (events: { id: string; type: string; data: unknown }[]) => events.map((e) => [e.id, e.type, e.data]);

describe("dated API versions", () => {
  it("pins a partner at its first exchange to the current version, and serves it (the response names it)", async () => {
    const org = await createOrganization();
    const id = await recordPublish(org.id);
    const res = await feed(org.id, org.adminToken);
    expect(res.status).toBe(200);
    expect(res.headers.get("Shiftline-Version")).toBe("2026-12-06");
    expect(shapes(res.body)).toEqual([[id, "schedule.published", { ...range, ...summary }]]);
    const pinned = await env.DB.prepare("SELECT version FROM partner_api_versions WHERE partner_id = 'dev-partner'").first<{
      version: string;
    }>();
    expect(pinned?.version).toBe("2026-12-06");
  });

  it("serves a partner pinned before 2026-12-06 the old shape: schedule.published without the summary, then schedule_changes.recorded", async () => {
    // The second partner first called before 2026-12-06: its pin says so (a later exchange never moves it).
    await env.DB.prepare("INSERT OR REPLACE INTO partner_api_versions (partner_id, version, pinned_at) VALUES (?, '2026-01-01', 0)")
      .bind(SECOND_PARTNER.id)
      .run();
    const org = await createOrganization({}, SECOND_PARTNER);
    const id = await recordPublish(org.id);
    const res = await feed(org.id, org.adminToken);
    expect(res.headers.get("Shiftline-Version")).toBe("2026-01-01");
    expect(shapes(res.body)).toEqual([
      [id, "schedule.published", range],
      [`${id}.changes`, "schedule_changes.recorded", { ...range, ...summary }],
    ]);
    // Filtered by the removed type, as that version had it.
    const filtered = await feed(org.id, org.adminToken, "?types=schedule_changes.recorded");
    expect(shapes(filtered.body)).toEqual([[`${id}.changes`, "schedule_changes.recorded", { ...range, ...summary }]]);
    // The header overrides the pin for one request, both ways.
    const latest = await feed(org.id, org.adminToken, "", { "Shiftline-Version": "2026-12-31" });
    expect(latest.headers.get("Shiftline-Version")).toBe("2026-12-06");
    expect(shapes(latest.body)).toEqual([[id, "schedule.published", { ...range, ...summary }]]);
    // A webhook endpoint created on that version delivers in it.
    const hook = await api("POST", `/api/organizations/${org.id}/webhooks`, {
      token: org.adminToken,
      body: { url: "https://hooks.example.com/v" },
    });
    expect(hook.status, hook.text).toBe(201);
    expect(hook.body.apiVersion).toBe("2026-01-01");
  });

  it("serves the current partner the old shape for one request with Shiftline-Version before 2026-12-06", async () => {
    const org = await createOrganization();
    const id = await recordPublish(org.id);
    const old = await feed(org.id, org.adminToken, "", { "Shiftline-Version": "2026-06-30" });
    expect(old.headers.get("Shiftline-Version")).toBe("2026-01-01");
    expect(shapes(old.body).map(([, type]) => type)).toEqual(["schedule.published", "schedule_changes.recorded"]);
    expect(old.body[0].data).toEqual(range);
    expect(old.body[1].id).toBe(`${id}.changes`);
    // A publish that recorded no change has no schedule_changes.recorded, as before.
    const quiet = await createOrganization();
    await tenantDb()
      .prepare(
        `INSERT INTO events (id, organization_id, sequence, type, occurred_at, form, data) VALUES (?, ?, 1, 'schedule.published', 0, 'wire', ?)`,
      )
      .bind(crypto.randomUUID(), quiet.id, JSON.stringify({ ...range, changes: 0, premiumHours: 0, premiumAmount: 0 }))
      .run();
    const none = await feed(quiet.id, quiet.adminToken, "", { "Shiftline-Version": "2026-01-01" });
    expect(shapes(none.body).map(([, type, data]) => [type, data])).toEqual([["schedule.published", range]]);
  });

  it("refuses a Shiftline-Version that is no date, or a date before the first version, with 400 INVALID_API_VERSION", async () => {
    const org = await createOrganization();
    for (const bad of ["2025-12-31", "yesterday", "2026-13-01"]) {
      const res = await feed(org.id, org.adminToken, "", { "Shiftline-Version": bad });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("INVALID_API_VERSION");
    }
  });

  it("delivers to an endpoint in its version: old, the two events in order; latest, the one", async () => {
    const org = await createOrganization();
    const oldHook = await insertEndpoint(db, org.id, { url: "https://receiver.test/old" });
    const newHook = await insertEndpoint(db, org.id, { url: "https://receiver.test/new" });
    await tenantDb().prepare("UPDATE webhooks SET api_version = '2026-01-01' WHERE id = ?").bind(oldHook.id).run();
    const id = await recordPublish(org.id);
    const received: Record<string, { id: string; type: string; data: unknown }[]> = { old: [], new: [] };
    const fetch = async (request: Request) => {
      received[new URL(request.url).pathname.slice(1)]!.push(await request.json());
      return new Response("ok");
    };
    for (const hook of [oldHook, newHook]) await deliverPending({ db, secretKey: env.WEBHOOK_SECRET_KEY, fetch }, hook.id);
    expect(shapes(received.old!)).toEqual([
      [id, "schedule.published", range],
      [`${id}.changes`, "schedule_changes.recorded", { ...range, ...summary }],
    ]);
    expect(shapes(received.new!)).toEqual([[id, "schedule.published", { ...range, ...summary }]]);
  });

  it("lets an endpoint move to another version with PATCH", async () => {
    const org = await createOrganization();
    const token = await accessToken({ organizationId: org.id });
    const hook = await api("POST", `/api/organizations/${org.id}/webhooks`, {
      token,
      body: { url: "https://hooks.example.com/p", apiVersion: "2026-02-01" },
    });
    expect(hook.body.apiVersion).toBe("2026-01-01");
    const moved = await api("PATCH", `/api/organizations/${org.id}/webhooks/${hook.body.id}`, {
      token,
      body: { apiVersion: "2026-12-06" },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.apiVersion).toBe("2026-12-06");
    const refused = await api("PATCH", `/api/organizations/${org.id}/webhooks/${hook.body.id}`, {
      token,
      body: { apiVersion: "1999-01-01" },
    });
    expect(refused.status).toBe(400);
  });
});
