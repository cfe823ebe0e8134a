import { describe, expect, it } from "vitest";
import { recordingRequest } from "./helpers/recording-d1";
import { createEntry, createSchedulePlace } from "./helpers/schedules";

describe("D1 round trips of the schedule's hot paths", () => {
  it("a week view is two round trips; a publish three, its writes in one batch behind the principal guard", async () => {
    const p = await createSchedulePlace();
    await createEntry(p, {}, true);
    const view = await recordingRequest("GET", `${p.base}/schedules/drafts?startDate=2026-06-01&endDate=2026-06-07&limit=500`, {
      token: p.org.adminToken,
    });
    expect(view.status).toBe(200);
    expect(view.trips).toHaveLength(2);
    const publish = await recordingRequest("POST", `${p.base}/schedules/publish`, {
      token: p.org.adminToken,
      body: { startDate: "2026-06-01", endDate: "2026-06-07" },
    });
    expect(publish.status).toBe(200);
    expect(publish.trips).toHaveLength(3);
    const [guard, ...statements] = publish.trips[2]!;
    const wake = statements.pop();
    const outbox = statements.pop();
    expect(guard).toMatch(/^insert into "write_guards"/i);
    expect(outbox).toMatch(/^insert into "events"/i);
    // Which webhook endpoints the event wakes, read in the same batch (data/outbox/wake).
    expect(wake).toMatch(/^select "id", "organization_id" from "webhooks"/i);
    expect(statements.length).toBeGreaterThan(0);
    // The updates, and the read of the drafts left behind on approved time off (publish's `skipped`).
    expect(statements.every((sql) => /^(update|select)/i.test(sql))).toBe(true);
  });
});
