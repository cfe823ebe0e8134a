import { describe, expect, it } from "vitest";
import { api } from "../helpers/api";
import { recordingRequest } from "../helpers/recording-d1";
import { addWorker, createEntry, createOpenShift, createSchedulePlace } from "../helpers/schedules";

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
    const audit = statements.pop();
    const outbox = statements.pop();
    expect(guard).toMatch(/^insert into "write_guards"/i);
    expect(outbox).toMatch(/^insert into "events"/i);
    // The event's audit log entry, in the same batch (data/audit).
    expect(audit).toMatch(/^insert into "audit_log"/i);
    // Which webhook endpoints the event wakes, read in the same batch (data/outbox/wake).
    expect(wake).toMatch(/^select "id", "organization_id" from "webhooks"/i);
    expect(statements.length).toBeGreaterThan(0);
    // The updates, and the read of the drafts left behind on approved time off (publish's `skipped`).
    expect(statements.every((sql) => /^(update|select)/i.test(sql))).toBe(true);
  });

  it("a bulk assignment reads its workers once, however many preferences it assigns", async () => {
    const p = await createSchedulePlace();
    const shift = await createOpenShift(p, { requireApproval: true, staffCountRequired: 4 });
    const ids: string[] = [];
    for (const worker of [p.staff, await addWorker(p), await addWorker(p), await addWorker(p)]) {
      ids.push(
        (await api("POST", `${p.base}/open-shifts/${shift.id}/claim`, { token: p.org.adminToken, body: { workerId: worker.id } })).body.id,
      );
    }
    const res = await recordingRequest("POST", `${p.base}/open-shifts/${shift.id}/preferences/bulk-assign`, {
      token: p.org.adminToken,
      body: { preferenceIds: ids },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toHaveLength(4);
    // The working-time check reads the workers' birth dates and opt-outs in its own batch (with the location's pack
    // setting, one round trip for all of them): that is the rules' read, not the assignment's.
    const workerReads = res.trips
      .flat()
      .filter((sql) => /^select .* from "staff_members"/i.test(sql) && !/locations|"birth_date"/i.test(sql));
    expect(workerReads).toHaveLength(1);
    const workingTimeFacts = res.trips.flat().filter((sql) => /^select .*"birth_date".* from "staff_members"/i.test(sql));
    expect(workingTimeFacts).toHaveLength(1);
  });
});
