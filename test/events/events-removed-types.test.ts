import { describe, expect, it } from "vitest";
import { api } from "../helpers/api";
import { createOrganization } from "../helpers/fixtures";
import { tenantDb } from "../helpers/shards";

/*
 * A removed event type (schedule_changes.recorded, 2026-12-06: a publish's changes now ride on schedule.published) is
 * no longer recorded nor subscribable; the events recorded under it before stay readable in the feed.
 */

describe("removed event types", () => {
  it("an event recorded before the removal stays in the feed, filterable by its type; a webhook cannot subscribe to it", async () => {
    const org = await createOrganization();
    const data = { locationId: "l", startDate: "2026-11-30", endDate: "2026-12-06", publishedAt: "2026-11-27T12:00:00Z" };
    await tenantDb()
      .prepare(
        `INSERT INTO events (id, organization_id, sequence, type, occurred_at, form, data)
          SELECT ?, ?, coalesce((SELECT max(sequence) FROM events WHERE organization_id = ?), 0) + 1, 'schedule_changes.recorded', ?, 'wire', ?`,
      )
      .bind(
        "old-summary",
        org.id,
        org.id,
        Date.parse("2026-11-27T12:00:00Z"),
        JSON.stringify({ ...data, changes: 3, premiumHours: 0, premiumAmount: 45 }),
      )
      .run();
    const feed = await api("GET", `/api/organizations/${org.id}/events?types=schedule_changes.recorded`, { token: org.adminToken });
    expect(feed.status, feed.text).toBe(200);
    expect(feed.body.map((e: { type: string; data: unknown }) => [e.type, e.data])).toEqual([
      ["schedule_changes.recorded", { ...data, changes: 3, premiumHours: 0, premiumAmount: 45 }],
    ]);
    const hook = await api("POST", `/api/organizations/${org.id}/webhooks`, {
      token: org.adminToken,
      body: { url: "https://hooks.example.com/a", types: ["schedule_changes.recorded"] },
    });
    expect(hook.status, hook.text).toBe(400);
    expect(hook.text).toMatch(/types/);
  });
});
