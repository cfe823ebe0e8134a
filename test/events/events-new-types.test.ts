import { describe, expect, it } from "vitest";
import { api } from "../helpers/api";
import { createOrganization } from "../helpers/fixtures";
import { createEntry, createSchedulePlace } from "../helpers/schedules";
import { createRequest, createTimeOffPlace, orgPath, requestBody, setBalance } from "../helpers/time-off";

const feed = async (org: { id: string; adminToken: string }, prefix: string) =>
  ((await api("GET", `/api/organizations/${org.id}/events?limit=500`, { token: org.adminToken })).body as { type: string; data: unknown }[])
    .filter((e) => e.type.startsWith(prefix))
    .map((e) => [e.type, e.data]);

describe("the events of every change carry the resource exactly as the API answers it", () => {
  it("roles, time-off settings and a webhook (without its secret)", async () => {
    const org = await createOrganization();
    const role = await api("POST", orgPath(org, "/roles"), { token: org.adminToken, body: { name: "Barista", hourlyWage: 18 } });
    const patched = await api("PATCH", orgPath(org, `/roles/${role.body.id}`), { token: org.adminToken, body: { hourlyWage: 19 } });
    const removed = await api("DELETE", orgPath(org, `/roles/${role.body.id}`), { token: org.adminToken });
    expect(await feed(org, "role.")).toEqual([
      ["role.created", role.body],
      ["role.updated", patched.body],
      ["role.deleted", removed.body],
    ]);
    const settings = await api("PATCH", orgPath(org, "/time-off-settings"), { token: org.adminToken, body: { minimumNoticeDays: 2 } });
    expect(await feed(org, "time_off_settings.")).toEqual([["time_off_settings.updated", settings.body]]);
    const hook = await api("POST", orgPath(org, "/webhooks"), { token: org.adminToken, body: { url: "https://receiver.test/x" } });
    const { secret: _secret, ...answered } = hook.body;
    expect(await feed(org, "webhook.")).toEqual([["webhook.created", answered]]);
  });

  it("schedule entries, a request PUT, and an auto-approved request's approval", async () => {
    const p = await createSchedulePlace();
    const entry = await createEntry(p);
    const moved = await api("PATCH", `${p.base}/schedules/${entry.id}`, { token: p.org.adminToken, body: { note: "till" } });
    expect(await feed(p.org, "schedule_entry.")).toEqual([
      ["schedule_entry.created", entry],
      ["schedule_entry.updated", moved.body],
    ]);
    const place = await createTimeOffPlace({ requiresApproval: false });
    await setBalance(place, 40);
    const created = await createRequest(place, requestBody(place));
    expect(created.body.status).toBe("approved");
    expect((await feed(place.org, "time_off_request.")).map(([type]) => type)).toEqual([
      "time_off_request.created",
      "time_off_request.approved",
    ]);
    const pending = await createTimeOffPlace({ requiresApproval: true });
    await setBalance(pending, 40);
    const request = await createRequest(pending, requestBody(pending));
    const { policyId, startTime, endTime } = request.body;
    const put = await api("PUT", orgPath(pending.org, `/time-off-requests/${request.body.id}`), {
      token: pending.workerToken,
      body: { policyId, startTime, endTime, note: "moved" },
    });
    expect(put.status, put.text).toBe(200);
    const events = await feed(pending.org, "time_off_request.");
    expect(events.map(([type]) => type)).toEqual(["time_off_request.created", "time_off_request.updated"]);
    expect(events[1]![1]).toEqual(put.body);
  });
});
